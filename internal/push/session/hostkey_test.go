package session

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKnownHostsReadBounded: NewHostKeys reads known_hosts through the
// bounded reader: a named pipe, a device or a directory is refused at once
// with an error naming the file (x/crypto's knownhosts would block on the
// pipe), and a parse error names the user's file, not the private copy.
func TestKnownHostsReadBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "known_hosts.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	bad := filepath.Join(dir, "known_hosts.bad")
	if err := os.WriteFile(bad, []byte("127.0.0.1 ssh-ed25519 not-base64!!\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "known_hosts")
	if err := os.WriteFile(good, []byte("# no hosts yet\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file, want string
	}{
		{"named pipe", fifo, "named pipe"},
		{"device", "/dev/zero", "character device"},
		{"directory", dir, "directory"},
		{"missing", filepath.Join(dir, "nope"), "no such file"},
		{"parse error names the file", bad, bad},
		{"good", good, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := NewHostKeys([]string{tc.file}, false)
				done <- err
			}()
			select {
			case err := <-done:
				if tc.want == "" {
					if err != nil {
						t.Fatal(err)
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.file) {
					t.Fatalf("err = %v, want one naming %s and saying %q", err, tc.file, tc.want)
				}
				if strings.Contains(err.Error(), "fabricgen-known-hosts-") {
					t.Fatalf("the error names the private copy: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("NewHostKeys blocked on " + tc.file)
			}
		})
	}
}
