package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

type lockedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{} // if not nil, told of each write
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.wrote != nil {
		select {
		case b.wrote <- struct{}{}:
		default:
		}
	}
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestLogWriterFlushesOnTickAndClose(t *testing.T) {
	t.Parallel()
	out := lockedBuffer{wrote: make(chan struct{}, 1)}
	lw := newLogWriter(&out, 20*time.Millisecond)
	lw.Write([]byte("one\n"))
	select {
	case <-out.wrote:
	case <-time.After(2 * time.Minute): // generous: a loaded machine may be slow to tick
		t.Fatal("not written out after the interval")
	}
	if got := out.String(); got != "one\n" {
		t.Fatalf("written out after the interval: %q", got)
	}
	lw.Write([]byte("two\n"))
	if err := lw.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "one\ntwo\n" {
		t.Errorf("after Close: %q", got)
	}
}

func TestLogWriterKeepsConcurrentLinesWhole(t *testing.T) {
	t.Parallel()
	var out lockedBuffer
	lw := newLogWriter(&out, time.Hour)
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lw.Write([]byte(strings.Repeat("x", 100) + "\n"))
		}()
	}
	wg.Wait()
	lw.Close()
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if line != strings.Repeat("x", 100) {
			t.Fatalf("a line was split or mixed: %q", line)
		}
	}
}
