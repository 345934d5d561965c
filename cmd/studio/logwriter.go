package main

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// logWriter buffers the request log and writes it out at least every
// interval (and on Close), so a busy server makes one write call per batch
// of lines instead of one per request.
type logWriter struct {
	mu   sync.Mutex
	buf  *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

func newLogWriter(w io.Writer, interval time.Duration) *logWriter {
	lw := &logWriter{buf: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(lw.done)
		ticker := time.NewTicker(interval)
		defer ticker.Stop()
		for {
			select {
			case <-ticker.C:
				lw.Flush()
			case <-lw.stop:
				return
			}
		}
	}()
	return lw
}

func (lw *logWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.buf.Write(p)
}

func (lw *logWriter) Flush() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.buf.Flush()
}

// Close stops the ticker and writes out what is left.
func (lw *logWriter) Close() error {
	close(lw.stop)
	<-lw.done
	return lw.Flush()
}
