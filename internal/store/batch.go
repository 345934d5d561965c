package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"

	"studio/internal/enquiry"
)

// SQLite has one writer at a time and each commit waits for the disk
// (synchronous=FULL). Under concurrent enquiries, the batcher commits all
// that are waiting in one transaction: one disk flush for many enquiries,
// each still answered only after its commit (group commit).

const maxBatch = 64

type createRequest struct {
	ctx   context.Context
	e     enquiry.Enquiry
	mail  bool
	reply chan createReply // buffered: the batcher never blocks on a caller who left
}

type createReply struct {
	id  int64
	err error
}

// enquiryWriter is what the batcher commits through (the Store).
type enquiryWriter interface {
	inTx(ctx context.Context, fn func(*sql.Tx) error) error
	insertEnquiry(ctx context.Context, tx *sql.Tx, e enquiry.Enquiry, mail bool) (int64, error)
}

type batcher struct {
	s        enquiryWriter
	requests chan createRequest
	quit     chan struct{}
	done     sync.WaitGroup
	closing  sync.Once
}

var errClosed = errors.New("store: closed")

func newBatcher(s enquiryWriter) *batcher {
	b := &batcher{s: s, requests: make(chan createRequest), quit: make(chan struct{})}
	b.done.Go(b.run)
	return b
}

func (b *batcher) close() {
	b.closing.Do(func() { close(b.quit) })
	b.done.Wait()
}

// create hands one enquiry to the batcher and waits for its commit.
func (b *batcher) create(ctx context.Context, e enquiry.Enquiry, mail bool) (int64, error) {
	req := createRequest{ctx: ctx, e: e, mail: mail, reply: make(chan createReply, 1)}
	select {
	case b.requests <- req:
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-b.quit:
		return 0, errClosed
	}
	select {
	case r := <-req.reply:
		return r.id, r.err
	case <-ctx.Done():
		// It may still be committed; the caller will not say so to anyone.
		return 0, ctx.Err()
	}
}

func (b *batcher) run() {
	for {
		var batch []createRequest
		select {
		case r := <-b.requests:
			batch = append(batch, r)
		case <-b.quit:
			return
		}
	collect:
		for len(batch) < maxBatch {
			select {
			case r := <-b.requests:
				batch = append(batch, r)
			default:
				break collect
			}
		}
		b.commit(batch)
	}
}

// commit stores a batch in one transaction. If that fails, each enquiry is
// tried alone, so one bad row cannot cost the others.
func (b *batcher) commit(batch []createRequest) {
	live := batch[:0]
	for _, r := range batch {
		if err := r.ctx.Err(); err != nil {
			r.reply <- createReply{err: err}
			continue
		}
		live = append(live, r)
	}
	if len(live) == 0 {
		return
	}
	ids := make([]int64, len(live))
	err := b.s.inTx(context.Background(), func(tx *sql.Tx) error {
		for i, r := range live {
			id, err := b.s.insertEnquiry(context.Background(), tx, r.e, r.mail)
			if err != nil {
				return err
			}
			ids[i] = id
		}
		return nil
	})
	if err == nil {
		for i, r := range live {
			r.reply <- createReply{id: ids[i]}
		}
		return
	}
	for _, r := range live {
		var id int64
		err := b.s.inTx(r.ctx, func(tx *sql.Tx) error {
			var err error
			id, err = b.s.insertEnquiry(r.ctx, tx, r.e, r.mail)
			return err
		})
		r.reply <- createReply{id: id, err: err}
	}
}
