package store

import (
	"context"
	"database/sql"
	"sync"
)

// eventWriter is what the event batcher commits through (the Store).
type eventWriter interface {
	prepareFullInsert(ctx context.Context) (*sql.Stmt, error)
	inTx(ctx context.Context, fn func(*sql.Tx) error) error
	addBatches(ctx context.Context, tx *sql.Tx, full *sql.Stmt, reqs []eventRequest) ([]EventsAdded, error)
}

// eventBatcher is the group commit of AddEvents on SQLite: a call waits
// while the transaction before it commits, and then all calls waiting are
// committed in one transaction, so one disk flush serves them all.
type eventBatcher struct {
	s        eventWriter
	full     *sql.Stmt // the INSERT of eventRows rows, on the writing connection
	requests chan eventRequest
	quit     chan struct{}
	done     sync.WaitGroup
	closing  sync.Once
}

// eventRequest carries no context: once the batcher has it, it is
// committed whether or not its caller still waits.
type eventRequest struct {
	caps  EventCaps
	batch EventBatch
	reply chan eventReply // buffered: the batcher never blocks on a caller who left
}

type eventReply struct {
	added EventsAdded
	err   error
}

// maxEventBatch bounds one transaction, so a flood cannot hold the one
// writing connection for long (enquiries wait for it too).
const maxEventBatch = 10000

func newEventBatcher(s eventWriter) *eventBatcher {
	b := &eventBatcher{s: s, requests: make(chan eventRequest), quit: make(chan struct{})}
	b.done.Go(b.run)
	return b
}

func (b *eventBatcher) close() {
	b.closing.Do(func() { close(b.quit) })
	b.done.Wait()
}

// add hands a batch to the batcher and waits for its commit. ctx bounds
// the wait only: a batch handed over is committed anyway.
func (b *eventBatcher) add(ctx context.Context, caps EventCaps, batch EventBatch) (EventsAdded, error) {
	req := eventRequest{caps: caps, batch: batch, reply: make(chan eventReply, 1)}
	select {
	case b.requests <- req:
	case <-ctx.Done():
		return EventsAdded{}, ctx.Err()
	case <-b.quit:
		return EventsAdded{}, errClosed
	}
	select {
	case r := <-req.reply:
		return r.added, r.err
	case <-ctx.Done():
		// They will still be committed.
		return EventsAdded{}, ctx.Err()
	}
}

func (b *eventBatcher) run() {
	for {
		var batch []eventRequest
		select {
		case r := <-b.requests:
			batch = append(batch, r)
		case <-b.quit:
			if b.full != nil {
				b.full.Close()
			}
			return
		}
		n := len(batch[0].batch.Events)
	collect:
		for n < maxEventBatch {
			select {
			case r := <-b.requests:
				batch = append(batch, r)
				n += len(r.batch.Events)
			default:
				break collect
			}
		}
		b.commit(batch)
	}
}

// commit stores a group of batches in one transaction, each admitted in
// turn (a retry or a cap applies within the group as across groups). If
// that fails, each batch is tried alone, so one bad batch cannot cost the
// others. Nothing here depends on the callers' contexts: a caller that
// stopped waiting (its request ended) still has its events stored.
func (b *eventBatcher) commit(batch []eventRequest) {
	ctx := context.Background()
	if b.full == nil {
		// Prepared on first use. Should that fail, the statements are
		// parsed each time, and it is tried again with the next batch.
		b.full, _ = b.s.prepareFullInsert(ctx)
	}
	var added []EventsAdded
	err := b.s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		added, err = b.s.addBatches(ctx, tx, b.full, batch)
		return err
	})
	if err == nil {
		for i, r := range batch {
			r.reply <- eventReply{added: added[i]}
		}
		return
	}
	if len(batch) == 1 {
		batch[0].reply <- eventReply{err: err}
		return
	}
	for _, r := range batch {
		var a []EventsAdded
		err := b.s.inTx(ctx, func(tx *sql.Tx) error {
			var err error
			a, err = b.s.addBatches(ctx, tx, b.full, []eventRequest{r})
			return err
		})
		if err != nil {
			r.reply <- eventReply{err: err}
			continue
		}
		r.reply <- eventReply{added: a[0]}
	}
}
