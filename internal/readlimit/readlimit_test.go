package readlimit

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

func TestFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		limit      int64
		want       string // "" for success
		tooLarge   bool
	}{
		{"at the limit", small, 5, "", false},
		{"over the limit", small, 4, "holds more than 4 bytes", true},
		{"/dev/zero", "/dev/zero", 1 << 20, "/dev/zero holds more than 1 MiB", true},
		{"a symlink to /dev/zero", link, 1 << 10, "holds more than 1 KiB", true},
		{"missing", filepath.Join(dir, "nope"), 10, "no such file", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := File(c.path, c.limit)
			if c.want == "" {
				if err != nil || string(b) != "12345" {
					t.Fatalf("File = %q, %v", b, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("File error = %v, want it to say %q", err, c.want)
			}
			if errors.Is(err, ErrTooLarge) != c.tooLarge {
				t.Errorf("errors.Is(ErrTooLarge) = %v, want %v", !c.tooLarge, c.tooLarge)
			}
		})
	}
}

// TestFileContextPipe: a named pipe nobody writes blocks open(2); the
// read gives up when the context ends.
func TestFileContextPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := FileContext(ctx, fifo, 1<<20)
	if err == nil || !strings.Contains(err.Error(), "interrupted while reading") {
		t.Fatalf("FileContext = %v, want an interruption", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("FileContext returned after %s", d)
	}
}

func TestFS(t *testing.T) {
	fsys := fstest.MapFS{"a.tmpl": {Data: []byte(strings.Repeat("x", 100))}}
	if _, err := FS(fsys, "a.tmpl", 100); err != nil {
		t.Fatal(err)
	}
	if _, err := FS(fsys, "a.tmpl", 99); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("FS over the limit: %v", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 20: "1 MiB", 64 << 20: "64 MiB", 512 << 10: "512 KiB", 1000: "1000 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestReader(t *testing.T) {
	for _, c := range []struct {
		name  string
		in    string
		limit int64
		ok    bool
	}{
		{"under", "abc", 5, true},
		{"at", "abcde", 5, true},
		{"over by one", "abcdef", 5, false},
		{"empty", "", 0, true},
		{"zero limit", "a", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := io.ReadAll(Reader(strings.NewReader(c.in), "in", c.limit))
			if c.ok {
				if err != nil || string(b) != c.in {
					t.Fatalf("ReadAll = %q, %v", b, err)
				}
				return
			}
			if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "in holds more than") {
				t.Fatalf("ReadAll error = %v, want ErrTooLarge", err)
			}
			if int64(len(b)) > c.limit {
				t.Errorf("handed on %d bytes past a limit of %d", len(b), c.limit)
			}
		})
	}
	// /dev/zero through the reader ends at the limit.
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, err := io.Copy(io.Discard, Reader(f, "/dev/zero", 1<<20))
	if !errors.Is(err, ErrTooLarge) || n != 1<<20 {
		t.Fatalf("copy of /dev/zero = %d, %v", n, err)
	}
}
