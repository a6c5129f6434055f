package readlimit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWriteFileRefusesNonRegular: WriteFile writes regular files (new,
// existing, through a symlink) and refuses a named pipe, with or without
// a reader, a device and a directory at once, never blocking.
func TestWriteFileRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	readFifo := filepath.Join(dir, "pipe-read")
	if err := syscall.Mkfifo(readFifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	// A reader holds readFifo open, so a non-blocking write-only open
	// succeeds: the descriptor check must refuse it.
	rd, err := os.OpenFile(readFifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rd.Close() }()
	existing := filepath.Join(dir, "existing")
	if err := os.WriteFile(existing, []byte("a much longer old content\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(existing, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, want string
	}{
		{"new file", filepath.Join(dir, "new"), ""},
		{"existing file is replaced", existing, ""},
		{"symlink to a file", link, ""},
		{"named pipe", fifo, "named pipe"},
		{"named pipe with a reader", readFifo, "named pipe"},
		{"device", "/dev/null", "character device"},
		{"directory", dir, "directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- WriteFile(tc.path, []byte("new\n"), 0o600) }()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("WriteFile blocked on %s", tc.path)
			}
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				b, rerr := os.ReadFile(tc.path)
				if rerr != nil || string(b) != "new\n" {
					t.Fatalf("read back %q, %v", b, rerr)
				}
				return
			}
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
				t.Fatalf("err = %v, want ErrNotRegular naming %s as a %s", err, tc.path, tc.want)
			}
		})
	}
}
