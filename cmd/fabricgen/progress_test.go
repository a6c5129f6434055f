package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/push"
)

// syncBuf is a bytes.Buffer safe for the ticker goroutine and the test.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fakeClock advances only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestPlainProgress(t *testing.T) {
	var out syncBuf
	clock := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	tick := make(chan time.Time)
	pr := newPlainProgress(&out, "applying", clock.Now, tick)
	printed := make(chan struct{})
	pr.ticked = func() { printed <- struct{}{} }
	pr.setTotal(3)
	steps := []string{"connect", "check", "fetch", "backup", "stage", "commit", "verify"}
	for _, st := range steps {
		pr.event(push.Event{Device: "leaf1", Step: st})
		pr.event(push.Event{Device: "leaf2", Step: st})
	}
	clock.Add(4 * time.Second)
	pr.event(push.Event{Device: "leaf1", Step: "done", Done: true})
	// leaf3 had nothing to do: it counts, but prints no line.
	pr.event(push.Event{Device: "leaf3", Step: "done", Done: true})
	clock.Add(30 * time.Second)
	tick <- clock.Now()
	<-printed
	clock.Add(30 * time.Second)
	tick <- clock.Now()
	<-printed
	clock.Add(2 * time.Second)
	pr.event(push.Event{Device: "leaf2", Step: "rollback"})
	pr.event(push.Event{Device: "leaf2", Step: "done", Done: true})
	pr.wait()
	pr.wait()
	want := `leaf1: finished after verify (1/3 done) [4s elapsed]
Still applying... 2/3 done, 1 in progress [34s elapsed]
Still applying... 2/3 done, 1 in progress [1m4s elapsed]
leaf2: finished after rollback (3/3 done) [1m6s elapsed]
`
	if got := out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if n := strings.Count(out.String(), "\n"); n > 2*len(steps) {
		t.Errorf("%d lines for 3 devices", n)
	}
}

func TestPlainProgressNoEvents(t *testing.T) {
	var out syncBuf
	pr := newPlainProgress(&out, "applying", time.Now, nil)
	pr.wait()
	if out.String() != "" {
		t.Errorf("a run without devices printed %q", out.String())
	}
}

// ansiEscape matches the terminal control sequences mpb draws with.
var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// frameCounts matches the overall line of a live frame: done/total and
// the elapsed time after the bar.
var frameCounts = regexp.MustCompile(`Applying (\d+)/(\d+) devices .*?(\d+(?:\.\d+)?(?:ms|s|m))\b`)

// TestLiveProgress runs the terminal display on a real pseudo-terminal,
// as newProgress builds it for apply on a terminal, and reads what it
// draws: every frame counts done/total against the run's total from the
// first frame on (never "1/1, 2/2" growing to it), shows the elapsed time
// and the step each device in flight is in, and ends at total/total.
func TestLiveProgress(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no pseudo-terminal (creack/pty: %v); CI=true, so this fails instead of skipping", err)
		}
		t.Skipf("no pseudo-terminal on this machine (creack/pty: %v)", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	var screen syncBuf
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		_, _ = io.Copy(&screen, ptmx) // ends with EIO once tty is closed
	}()
	// waitFor reads the screen until it shows want, within the test's
	// deadline.
	waitFor := func(want ...string) {
		t.Helper()
		limit := time.Now().Add(patienceFor(t))
		for {
			flat := ansiEscape.ReplaceAllString(screen.String(), "")
			missing := ""
			for _, w := range want {
				if !strings.Contains(flat, w) {
					missing = w
					break
				}
			}
			if missing == "" {
				return
			}
			if time.Now().After(limit) {
				t.Fatalf("the live display never showed %q:\n%s", missing, flat)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	cmd := &cobra.Command{Use: "apply"}
	cmd.SetErr(tty)
	cmd.SetContext(context.Background())
	s := &streams{errTTY: true, getenv: func(string) string { return "" }}
	pr := newProgress(cmd, s, 3)
	if pr.p == nil {
		t.Fatal("newProgress drew no live display on a terminal")
	}
	pr.event(push.Event{Device: "leaf1", Step: "stage"})
	pr.event(push.Event{Device: "leaf2", Step: "commit"})
	waitFor("leaf1", "stage", "leaf2", "commit", "Applying 0/3 devices")
	pr.event(push.Event{Device: "leaf1", Step: "done", Done: true})
	waitFor("Applying 1/3 devices")
	pr.event(push.Event{Device: "leaf2", Step: "done", Done: true})
	pr.event(push.Event{Device: "leaf3", Step: "done", Done: true})
	pr.wait()
	if err := tty.Close(); err != nil {
		t.Fatal(err)
	}
	<-drained
	flat := ansiEscape.ReplaceAllString(screen.String(), "")
	frames := frameCounts.FindAllStringSubmatch(flat, -1)
	if len(frames) < 3 {
		t.Fatalf("found %d frames with done/total and elapsed time:\n%s", len(frames), flat)
	}
	prev := 0
	for _, f := range frames {
		done, _ := strconv.Atoi(f[1])
		if f[2] != "3" || done < prev || done > 3 {
			t.Errorf("frame %q: want n/3 with n rising to 3", f[0])
		}
		prev = done
	}
	if last := frames[len(frames)-1]; last[1] != "3" {
		t.Errorf("the last frame is %q, want 3/3", last[0])
	}
	if pr.finished != 3 {
		t.Errorf("finished = %d, want 3", pr.finished)
	}
	if strings.Contains(flat, "Still applying") {
		t.Errorf("the live display printed plain lines:\n%s", flat)
	}
}

// patienceFor is how long the test waits for a display to draw: a quarter
// of what is left before the test binary's -timeout, at most a minute.
func patienceFor(t *testing.T) time.Duration {
	d := time.Minute
	if dl, ok := t.Deadline(); ok {
		d = min(d, time.Until(dl)/4)
	}
	return d
}

func TestEveryStepProgress(t *testing.T) {
	var out syncBuf
	pr := newPlainProgress(&out, "applying", time.Now, nil)
	pr.everyStep = true
	pr.event(push.Event{Device: "leaf1", Step: "stage"})
	pr.event(push.Event{Device: "leaf1", Step: "done", Done: true})
	pr.wait()
	if got, want := out.String(), "leaf1: stage\nleaf1: done\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestTermWidthUnknown(t *testing.T) {
	if w := termWidth(&bytes.Buffer{}); w != 0 {
		t.Errorf("a buffer has width %d", w)
	}
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if w := termWidth(f); w != 0 {
		t.Errorf("a file has width %d", w)
	}
}

// screenOf replays what a terminal was sent the way it shows it, for the
// controls mpb draws with (cursor up, erase below, carriage return): the
// rows left on screen, without colours. A line written past the display
// and drawn over by its next frame is gone here, as it is for the person
// at the terminal.
func screenOf(stream string) []string {
	rows := [][]rune{nil}
	row, col := 0, 0
	csi := regexp.MustCompile(`^\x1b\[([0-9;?]*)([A-Za-z])`)
	for i := 0; i < len(stream); {
		if m := csi.FindStringSubmatch(stream[i:]); m != nil {
			switch m[2] {
			case "A":
				n, _ := strconv.Atoi(m[1])
				row = max(0, row-max(n, 1))
			case "J":
				rows = rows[:row+1]
				rows[row] = rows[row][:min(col, len(rows[row]))]
			}
			i += len(m[0])
			continue
		}
		r, size := utf8.DecodeRuneInString(stream[i:])
		i += size
		switch r {
		case '\r':
			col = 0
		case '\n':
			row++
			if row == len(rows) {
				rows = append(rows, nil)
			}
		default:
			for len(rows[row]) < col {
				rows[row] = append(rows[row], ' ')
			}
			if col < len(rows[row]) {
				rows[row][col] = r
			} else {
				rows[row] = append(rows[row], r)
			}
			col++
		}
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = string(r)
	}
	return out
}

// TestLiveProgressInterrupted: on a real terminal (a pty) with the live
// display drawing, a real SIGINT's notice ("Interrupt received ...") stays
// on the screen, above the bars, instead of being drawn over by the next
// frame; and a run that stops early ends with the run's total ("2/3"),
// not a total shrunk to what was done ("2/2").
func TestLiveProgressInterrupted(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no pseudo-terminal (creack/pty: %v); CI=true, so this fails instead of skipping", err)
		}
		t.Skipf("no pseudo-terminal on this machine (creack/pty: %v)", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 200}); err != nil {
		t.Fatal(err)
	}
	var screen syncBuf
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		_, _ = io.Copy(&screen, ptmx)
	}()
	waitFor := func(want string) {
		t.Helper()
		limit := time.Now().Add(patienceFor(t))
		for !strings.Contains(ansiEscape.ReplaceAllString(screen.String(), ""), want) {
			if time.Now().After(limit) {
				t.Fatalf("the terminal never showed %q:\n%s", want, screen.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	ctx, in, stop := newInterrupts(context.Background(), nil)
	defer stop()
	cmd := &cobra.Command{Use: "apply"}
	cmd.SetErr(tty)
	cmd.SetContext(ctx)
	s := &streams{errTTY: true, getenv: func(string) string { return "" }, intr: in}
	pr := newProgress(cmd, s, 3)
	if pr.p == nil {
		t.Fatal("newProgress drew no live display on a terminal")
	}
	sf := stateFlags{interruptGrace: time.Minute}
	aopts := sf.applyOptions(cmd, s, push.Options{}, state.Dir{})
	pr.event(push.Event{Device: "leaf1", Step: "stage"})
	pr.event(push.Event{Device: "leaf2", Step: "commit"})
	waitFor("Applying 0/3 devices")
	sent := time.Now()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-aopts.Interrupt:
	case <-time.After(patienceFor(t)):
		t.Fatal("the SIGINT was not taken")
	}
	waitFor("Interrupt received")
	if d := time.Since(sent); d > 2*time.Second {
		t.Errorf("the notice took %s to appear", d)
	}
	// Frames go on after the notice; the devices in flight finish, the
	// third never starts: the run stops with 2 of 3 done.
	pr.event(push.Event{Device: "leaf1", Step: "done", Done: true})
	waitFor("Applying 1/3 devices")
	pr.event(push.Event{Device: "leaf2", Step: "rolled back", Done: true})
	waitFor("Applying 2/3 devices")
	time.Sleep(400 * time.Millisecond)
	pr.wait()
	if err := tty.Close(); err != nil {
		t.Fatal(err)
	}
	<-drained
	rows := screenOf(screen.String())
	shown := strings.Join(rows, "\n")
	if !strings.Contains(shown, "Interrupt received") {
		t.Errorf("the interrupt notice was drawn over; the screen shows:\n%s", shown)
	}
	if !strings.Contains(shown, "Applying 2/3 devices") || strings.Contains(shown, "2/2 devices") {
		t.Errorf("the last frame does not keep the total of 3; the screen shows:\n%s", shown)
	}
	if cmd.ErrOrStderr() != tty {
		t.Error("the error stream was not given back after the display ended")
	}
}
