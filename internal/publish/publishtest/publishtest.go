// Package publishtest holds what the tests of publishing's packages share:
// the ways a file shared by hard link gets damaged, and a log a test reads.
package publishtest

import (
	"bytes"
	"os"
	"sync"
	"testing"
)

// Damages are the ways a file shared by hard link gets damaged through one of its
// links (a release's copy): written over, cut short, one byte changed.
// Each first makes the file writable, as a person fixing a release by hand
// would (root needs not).
var Damages = []struct {
	Name   string
	Damage func(t *testing.T, file string)
}{
	{"written over", func(t *testing.T, file string) {
		t.Helper()
		Writable(t, file)
		if err := os.WriteFile(file, []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}},
	{"truncated", func(t *testing.T, file string) {
		t.Helper()
		Writable(t, file)
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(file, info.Size()/2); err != nil {
			t.Fatal(err)
		}
	}},
	{"a byte changed", func(t *testing.T, file string) {
		t.Helper()
		Writable(t, file)
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(file, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteAt([]byte{b[len(b)/2] ^ 0x20}, int64(len(b)/2)); err != nil {
			t.Fatal(err)
		}
	}},
}

// Writable makes file writable.
func Writable(t *testing.T, file string) {
	t.Helper()
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
}

// SameFile says whether a and b are links to one file.
func SameFile(t *testing.T, a, b string) bool {
	t.Helper()
	ia, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	ib, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	return os.SameFile(ia, ib)
}

// ReadOnly fails the test unless file is read-only (0444).
func ReadOnly(t *testing.T, file string) {
	t.Helper()
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o444 {
		t.Errorf("%s: mode %v, want read-only (0444)", file, info.Mode().Perm())
	}
}

// LogLines is a logger whose lines a test reads.
type LogLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *LogLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *LogLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// ReadFile is the file at path, failing the test when it cannot be read.
func ReadFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
