package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/fabricgen/fabricgen/push"
)

// ProgressEnv set to "steps" makes apply, rollback and the demo print
// every step of every device ("leaf1: stage") instead of the display:
// for logs that need them and for tests that act at a given step.
const ProgressEnv = "FABRICGEN_PROGRESS"

// progressInterval is how often a run without a terminal says it is
// still working.
const progressInterval = 30 * time.Second

// progress reports a run over many devices, as terraform does. On a
// terminal: a live display with devices done/total, elapsed time and the
// step each device in flight is in. Without one: a line per device when
// it finishes, and "still applying... [30s elapsed]" every interval.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	verb  string
	total int
	start time.Time
	now   func() time.Time

	// steps is each device's current step; finished counts devices done.
	steps    map[string]string
	worked   map[string]bool
	finished int

	// Terminal display; p is nil without a terminal. stepOf is read by
	// mpb's render goroutine, so it has its own lock.
	p      *mpb.Progress
	all    *mpb.Bar
	bars   map[string]*mpb.Bar
	stepOf sync.Map

	// Plain display: tick fires every interval until stop closes.
	tick     <-chan time.Time
	stopTick func()
	stop     chan struct{}
	stopped  chan struct{}
	once     sync.Once
	// everyStep prints "device: step" for every event (ProgressEnv).
	everyStep bool
	// ticked, when not nil, is called after each "still" line (tests).
	ticked func()
	// cmd's error stream is errOut again once the live display ends.
	cmd    *cobra.Command
	errOut io.Writer
}

// aboveBars writes above the live display while it runs, to the error
// stream it replaced after it ended.
type aboveBars struct{ pr *progress }

// Write prints b above the bars at the display's next frame (within a
// refresh, 150 ms), or directly once the display has ended.
func (a *aboveBars) Write(b []byte) (int, error) {
	if n, err := a.pr.p.Write(b); err == nil {
		return n, nil
	}
	n, err := a.pr.errOut.Write(b)
	if err != nil {
		return n, fmt.Errorf("progress: %w", err)
	}
	return n, nil
}

// newProgress is the progress display of cmd on its error stream for a
// run over total devices: live on a terminal, plain lines otherwise. The
// total is an argument so that no caller can forget it (the live display
// would count "1/1, 2/2, ..." up to the real total).
func newProgress(cmd *cobra.Command, s *streams, total int) *progress {
	pr := newPlainProgress(cmd.ErrOrStderr(), verbOf(cmd.Name()), time.Now, nil)
	defer pr.setTotal(total)
	if s.getenv(ProgressEnv) == "steps" {
		pr.everyStep = true
		return pr
	}
	// mpb draws nothing on a terminal that reports no width (a pty
	// nobody sized): the plain lines are better than silence there.
	if s.errTTY && termWidth(cmd.ErrOrStderr()) > 0 {
		pr.p = mpb.NewWithContext(cmd.Context(), mpb.WithOutput(cmd.ErrOrStderr()), mpb.WithWidth(24))
		// While the display is live, what the command writes to its
		// error stream (the first Ctrl-C's notice) goes through it and
		// is printed above the bars at the next frame; written past it,
		// the next frame would draw over it.
		pr.cmd, pr.errOut = cmd, cmd.ErrOrStderr()
		cmd.SetErr(&aboveBars{pr: pr})
		pr.all = pr.p.New(0, mpb.BarStyle(),
			mpb.BarPriority(-1),
			mpb.PrependDecorators(decor.Name(capitalize(pr.verb)+" ", decor.WC{}), decor.CountersNoUnit("%d/%d devices", decor.WCSyncSpaceR)),
			mpb.AppendDecorators(decor.Elapsed(decor.ET_STYLE_GO, decor.WCSyncSpace)))
	}
	return pr
}

// termWidth is the width of the terminal w writes to, 0 when unknown.
func termWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return width
}

// newPlainProgress is the display without a terminal, writing to w. tick,
// when not nil, replaces the interval ticker (tests); now is the clock.
func newPlainProgress(w io.Writer, verb string, now func() time.Time, tick <-chan time.Time) *progress {
	pr := &progress{w: w, verb: verb, now: now, start: now(), steps: map[string]string{},
		worked: map[string]bool{}, bars: map[string]*mpb.Bar{}, tick: tick}
	return pr
}

// verbOf is what a command is doing, for "still applying...".
func verbOf(command string) string {
	switch command {
	case "rollback":
		return "rolling back"
	case "plan":
		return "planning"
	case "drift":
		return "reading"
	default:
		return "applying"
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// setTotal says how many devices the run visits, for "done/total".
func (pr *progress) setTotal(n int) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.total = n
	if pr.all != nil {
		pr.all.SetTotal(int64(n), false)
	}
}

// elapsed is the run's time so far, in whole seconds.
func (pr *progress) elapsed() time.Duration {
	return pr.now().Sub(pr.start).Truncate(time.Second)
}

// event takes one device's progress report; it is safe for concurrent use.
func (pr *progress) event(e push.Event) {
	e.Device, e.Step = termLine(e.Device), termLine(e.Step)
	pr.mu.Lock()
	defer pr.mu.Unlock()
	switch {
	case pr.everyStep:
		fmt.Fprintf(pr.w, "%s: %s\n", e.Device, e.Step)
		return
	case pr.p == nil:
		pr.plainEvent(e)
		return
	}
	pr.stepOf.Store(e.Device, e.Step)
	b, ok := pr.bars[e.Device]
	if !ok {
		dev := e.Device
		b = pr.p.New(0, mpb.SpinnerStyle(),
			mpb.PrependDecorators(decor.Name("  "+dev, decor.WCSyncSpaceR), decor.Any(func(decor.Statistics) string {
				v, _ := pr.stepOf.Load(dev)
				step, _ := v.(string)
				return step
			}, decor.WCSyncSpaceR)),
			mpb.BarRemoveOnComplete())
		pr.bars[e.Device] = b
		if pr.total < len(pr.bars) {
			pr.all.SetTotal(int64(len(pr.bars)), false)
		}
	}
	if e.Done {
		b.SetTotal(-1, true)
		pr.finished++
		pr.all.SetCurrent(int64(pr.finished))
	}
}

// plainEvent prints a line when a device that did any work finishes;
// devices with nothing to do only count. Called with mu held.
func (pr *progress) plainEvent(e push.Event) {
	if pr.stop == nil {
		pr.startTicker()
	}
	if !e.Done {
		pr.steps[e.Device] = e.Step
		pr.worked[e.Device] = true
		return
	}
	pr.finished++
	last := pr.steps[e.Device]
	delete(pr.steps, e.Device)
	if !pr.worked[e.Device] {
		return
	}
	fmt.Fprintf(pr.w, "%s: finished after %s (%s) [%s elapsed]\n", e.Device, last, pr.counts(), pr.elapsed())
}

// counts is "12/38 done" or "12 done" when the total is unknown.
func (pr *progress) counts() string {
	if pr.total > 0 {
		return fmt.Sprintf("%d/%d done", pr.finished, pr.total)
	}
	return fmt.Sprintf("%d done", pr.finished)
}

// startTicker starts the "still applying..." lines. Called with mu held.
func (pr *progress) startTicker() {
	pr.stop, pr.stopped = make(chan struct{}), make(chan struct{})
	if pr.tick == nil {
		t := time.NewTicker(progressInterval)
		pr.tick, pr.stopTick = t.C, t.Stop
	}
	go func() {
		defer close(pr.stopped)
		for {
			select {
			case <-pr.stop:
				return
			case <-pr.tick:
				pr.mu.Lock()
				fmt.Fprintf(pr.w, "Still %s... %s, %d in progress [%s elapsed]\n", pr.verb, pr.counts(), len(pr.steps), pr.elapsed())
				ticked := pr.ticked
				pr.mu.Unlock()
				if ticked != nil {
					ticked()
				}
			}
		}
	}()
}

// wait ends the display: the live one renders its last frame, the plain
// one stops its ticker. Safe to call more than once.
func (pr *progress) wait() {
	pr.once.Do(func() {
		if pr.p != nil {
			pr.mu.Lock()
			if pr.all != nil {
				if pr.finished < pr.total {
					// Stopped early (an interrupt, a failure): the last
					// frame keeps the run's total, "1/11", rather than
					// completing the bar at what was done ("1/1").
					pr.all.Abort(false)
				} else {
					pr.all.SetTotal(-1, true)
				}
			}
			for _, b := range pr.bars {
				b.Abort(true) // a device still in flight: nothing left to draw
			}
			pr.mu.Unlock()
			pr.p.Wait()
			if pr.cmd != nil {
				pr.cmd.SetErr(pr.errOut)
			}
			return
		}
		pr.mu.Lock()
		stop := pr.stop
		pr.mu.Unlock()
		if stop == nil {
			return
		}
		close(stop)
		<-pr.stopped
		if pr.stopTick != nil {
			pr.stopTick()
		}
	})
}
