package juniperjunos_test

import (
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

// TestPagerUntilTerminalLength checks that the lab device pages at the
// PTY height until paging is turned off, as a real box does.
func TestPagerUntilTerminalLength(t *testing.T) {
	c := struct{ more, off string }{"---(more)---", "set cli screen-length 0"}
	show := "show configuration"
	l := labtest.Start(t, lab.DeviceSpec{Name: "d1", Platform: plat().Name})
	cl, err := labtest.Dial(l, "d1")
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
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
		deadline := time.After(labtest.Patience(t))
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
