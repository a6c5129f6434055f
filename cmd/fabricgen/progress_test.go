package main

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vbauerster/mpb/v8"

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

// TestLiveProgress drives the terminal display into a buffer: it must end
// with every device counted and no device left in flight.
func TestLiveProgress(t *testing.T) {
	var out syncBuf
	pr := newPlainProgress(&out, "applying", time.Now, nil)
	pr.p = mpb.New(mpb.WithOutput(&out), mpb.WithWidth(24))
	pr.all = pr.p.New(0, mpb.BarStyle())
	pr.setTotal(2)
	for _, d := range []string{"leaf1", "leaf2"} {
		pr.event(push.Event{Device: d, Step: "stage"})
	}
	for _, d := range []string{"leaf1", "leaf2"} {
		pr.event(push.Event{Device: d, Step: "done", Done: true})
	}
	pr.wait()
	if pr.finished != 2 {
		t.Errorf("finished = %d, want 2", pr.finished)
	}
	if strings.Contains(out.String(), "Still applying") {
		t.Errorf("the live display printed plain lines:\n%s", out.String())
	}
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
