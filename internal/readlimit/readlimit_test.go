package readlimit

import (
	"context"
	"errors"
	"io"
	"net"
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
	toSmall := filepath.Join(dir, "to-small")
	if err := os.Symlink(small, toSmall); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	toFifo := filepath.Join(dir, "to-fifo")
	if err := os.Symlink(fifo, toFifo); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, c := range []struct {
		name, path string
		limit      int64
		want       string // "" for success
		tooLarge   bool
		notRegular bool
	}{
		{"at the limit", small, 5, "", false, false},
		{"a symlink to a regular file", toSmall, 5, "", false, false},
		{"over the limit", small, 4, "holds more than 4 B", true, false},
		{"/dev/zero", "/dev/zero", 1 << 20, "/dev/zero is a character device", false, true},
		{"a symlink to /dev/zero", link, 1 << 10, "zero is a character device", false, true},
		{"a named pipe nobody writes", fifo, 10, "fifo is a named pipe", false, true},
		{"a symlink to a named pipe", toFifo, 10, "to-fifo is a named pipe", false, true},
		{"a socket", sock, 10, "sock is a socket", false, true},
		{"a directory", dir, 10, "is a directory", false, true},
		{"missing", filepath.Join(dir, "nope"), 10, "no such file", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan struct{})
			var b []byte
			var err error
			go func() { b, err = File(c.path, c.limit); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("File(%s) still blocked after 10s", c.path)
			}
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
			if errors.Is(err, ErrNotRegular) != c.notRegular {
				t.Errorf("errors.Is(ErrNotRegular) = %v, want %v", !c.notRegular, c.notRegular)
			}
		})
	}
}

// TestFileNamedPipeWithWriter: a pipe is refused even when someone holds
// its writer end (it would then not block, but it is still no file).
func TestFileNamedPipeWithWriter(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := File(fifo, 10); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
		t.Fatalf("File of a written pipe = %v, want a named-pipe refusal", err)
	}
}

// TestFSAndRoot: the fs.FS and os.Root readers refuse what File refuses,
// and Root does not follow a symlink out of its folder.
func TestFSAndRoot(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, content := range map[string]string{"a.tmpl": "aaa", "sub/b.tmpl": "bbb"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.tmpl"), 0o600); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"in.tmpl": "sub/b.tmpl", "out.tmpl": outside, "zero.tmpl": "/dev/zero"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, c := range []struct {
		name, want string // want "" : reads "aaa"/"bbb"
		fsWant     string // FS's answer when it differs from Root's
	}{
		{"a.tmpl", "", ""},
		{"in.tmpl", "", ""},
		{"fifo.tmpl", "fifo.tmpl is a named pipe", ""},
		{"zero.tmpl", "escapes", "zero.tmpl is a character device"},
		{"out.tmpl", "escapes", "-"},
	} {
		t.Run(c.name, func(t *testing.T) {
			check := func(how string, b []byte, err error, want string) {
				if want == "" {
					if err != nil || len(b) != 3 {
						t.Errorf("%s = %q, %v", how, b, err)
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%s error = %v, want %q", how, err, want)
				}
			}
			b, err := Root(root, c.name, c.name, 100)
			check("Root", b, err, c.want)
			if c.fsWant == "-" {
				return // os.DirFS follows symlinks anywhere: the reason templates use Root
			}
			fsWant := c.fsWant
			if fsWant == "" {
				fsWant = c.want
			}
			b, err = FS(os.DirFS(dir), c.name, 100)
			check("FS", b, err, fsWant)
		})
	}
}

// TestReadDir lists a directory and refuses a pipe without blocking.
func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b", "a"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fifo := filepath.Join(dir, "c")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ents, err := ReadDir(dir)
	if err != nil || len(ents) != 3 || ents[0].Name() != "a" || ents[2].Name() != "c" {
		t.Fatalf("ReadDir = %v, %v", ents, err)
	}
	if _, err := ReadDir(fifo); err == nil || !strings.Contains(err.Error(), "named pipe, not a directory") {
		t.Fatalf("ReadDir of a pipe = %v", err)
	}
}

// TestFileContextPipe: a named pipe nobody writes once blocked open(2)
// until the context ended; now it is refused at once.
func TestFileContextPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := FileContext(ctx, fifo, 1<<20)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
		t.Fatalf("FileContext = %v, want a named-pipe refusal", err)
	}
	if ctx.Err() != nil {
		t.Errorf("FileContext returned only when its context ended")
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
