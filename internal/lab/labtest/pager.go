package labtest

import (
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/schema"
)

// CheckPager checks that a lab device of platform pages the output of show at
// the PTY height (prompt more) until off turns paging off, as a real box
// does: the pager test each CLI platform's folder runs with its prompt.
func CheckPager(t *testing.T, platform schema.Platform, show, more, off string) {
	t.Helper()
	c := struct{ more, off string }{more, off}
	l := Start(t, lab.DeviceSpec{Name: "d1", Platform: platform})
	cl, err := Dial(l, "d1")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cl.Close() }()
	sess, err := cl.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	if err := sess.RequestPty("xterm", 10, 80, ssh.TerminalModes{ssh.ECHO: 1}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	buf := make(chan string, 256)
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := out.Read(b)
			if n > 0 {
				buf <- string(b[:n])
			}
			if err != nil {
				close(buf)
				return
			}
		}
	}()
	read := func(want string) string {
		var got strings.Builder
		deadline := time.After(Patience(t))
		for !strings.Contains(got.String(), want) {
			select {
			case s, ok := <-buf:
				if !ok {
					t.Fatalf("closed waiting for %q: %q", want, got.String())
				}
				got.WriteString(s)
			case <-deadline:
				t.Fatalf("no %q in %q", want, got.String())
			}
		}
		return got.String()
	}
	_, _ = io.WriteString(in, show+"\n")
	read(c.more)
	_, _ = io.WriteString(in, "q")
	_, _ = io.WriteString(in, c.off+"\n")
	_, _ = io.WriteString(in, show+"\n")
	_, _ = io.WriteString(in, "show version\n")
	rest := read("show version")
	if n := strings.Count(rest, c.more); n > 0 {
		t.Errorf("still paging after %q: %d pager prompts", c.off, n)
	}
}
