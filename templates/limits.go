package templates

import (
	"github.com/fabricgen/fabricgen/internal/units"

	"bytes"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"text/template"
	"text/template/parse"
	"time"
)

// Override templates (--templates DIR) are code from outside fabricgen:
// a loop of 2e9 iterations, a variable doubled 40 times or a printf with a
// width of a gigabyte must not hang or kill the process. Each render with
// an override set (one execution of device.tmpl or of a sub-template) has
// a time limit, a step limit, a string limit and an output limit
// (budget.go): an injected {{fabricgenTick N}} action before every action
// and at the start of every range iteration and template counts a step,
// records where the render is and checks the time; every function that
// builds a string or compares strings counts a step and checks the time
// too, and the builders count what they build. The output is written
// through a bounded writer. The embedded templates are fabricgen's own and
// run without these checks.

// Default limits of one render with override templates.
const (
	DefaultTimeLimit   = 10 * time.Second
	DefaultOutputLimit = 64 << 20
	// maxPrintfWidth bounds a width or precision in an override's printf.
	maxPrintfWidth = 4096
	// MaxTemplateFile bounds one override template file (--templates
	// DIR/PLATFORM/*.tmpl): the embedded ones are a few KiB.
	MaxTemplateFile = 1 << 20
)

// tickName is the function the injected action calls.
const tickName = "fabricgenTick"

var (
	errTimeLimit   = errors.New("time limit reached")
	errOutputLimit = errors.New("output limit reached")
)

// overrideSet runs one platform's override templates within limits. Each
// execution takes a clone from the pool, whose functions carry that
// execution's budgets. The time limit is run-wide too: once one device's
// render runs out of time, stop (shared by every set of a Renderer) is
// set and the others stop at their next check or do not start, so a
// template that loops costs one time limit, not one per device.
type overrideSet struct {
	base      *template.Template
	timeLimit time.Duration
	outLimit  int
	stepLimit int64
	strLimit  int64
	stop      *atomic.Bool
	// locs are the places of the injected ticks, by the index each tick
	// passes (named only on an error: finding a line is linear in the
	// template's text).
	locs []tickLoc
	pool sync.Pool // *limitedExec
	// observe, when set (tests), is called with what each render used.
	observe func(entry string, s execStats)
}

// limitedExec is one clone of an override set and one render's budgets.
type limitedExec struct {
	t        *template.Template
	set      *overrideSet
	stop     *atomic.Bool
	deadline time.Time
	steps    int64
	strBytes int64
	// where is the index in set.locs of the last tick reached (-1: none).
	where   int
	hit     error // errTimeLimit, errStepLimit or errStringLimit once one fired
	stopped bool  // stopped by another render's time limit
}

// limits are the budgets of an override set.
type limits struct {
	time     time.Duration
	out      int
	steps    int64
	strBytes int64
}

// newOverrideSet injects the ticks into every template of t; stop is the
// Renderer's run-wide flag.
func newOverrideSet(t *template.Template, l limits, stop *atomic.Bool) (*overrideSet, error) {
	o := &overrideSet{base: t, timeLimit: l.time, outLimit: l.out, stepLimit: l.steps, strLimit: l.strBytes, stop: stop}
	// The base set must know the tick to be cloned with it.
	t.Funcs(template.FuncMap{tickName: func(int) string { return "" }})
	for _, tt := range t.Templates() {
		if tt.Tree == nil || tt.Root == nil {
			continue
		}
		o.inject(tt.Tree, tt.Root)
		tt.Root.Nodes = append([]parse.Node{o.tick(tt.Tree, tt.Root)}, tt.Root.Nodes...)
	}
	return o, nil
}

// tickLoc is where a tick was injected: before node n of tree.
type tickLoc struct {
	tree *parse.Tree
	n    parse.Node
}

// tick returns a new tick placed at n, recording n's location.
func (o *overrideSet) tick(tree *parse.Tree, n parse.Node) parse.Node {
	line := 0
	if a, ok := n.(*parse.ActionNode); ok {
		line = a.Line
	}
	o.locs = append(o.locs, tickLoc{tree, n})
	return tickAction(n.Position(), line, len(o.locs)-1)
}

// inject puts a tick before every action, template call, if, with and
// range of the lists below n, and first in the body of every range.
func (o *overrideSet) inject(tree *parse.Tree, n parse.Node) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		nodes := make([]parse.Node, 0, 2*len(n.Nodes))
		for _, c := range n.Nodes {
			o.inject(tree, c)
			switch c.(type) {
			case *parse.ActionNode, *parse.TemplateNode, *parse.IfNode, *parse.WithNode, *parse.RangeNode:
				nodes = append(nodes, o.tick(tree, c))
			}
			nodes = append(nodes, c)
		}
		n.Nodes = nodes
	case *parse.RangeNode:
		o.inject(tree, n.List)
		o.inject(tree, n.ElseList)
		if n.List != nil {
			n.List.Nodes = append([]parse.Node{o.tick(tree, n)}, n.List.Nodes...)
		}
	case *parse.IfNode:
		o.inject(tree, n.List)
		o.inject(tree, n.ElseList)
	case *parse.WithNode:
		o.inject(tree, n.List)
		o.inject(tree, n.ElseList)
	}
}

// where names the last place the render reached: "device.tmpl:3:5"
// (file, line, column of the action), or the entry template's name.
func (e *limitedExec) whereText(entry string) string {
	if e.where < 0 || e.where >= len(e.set.locs) {
		return entry
	}
	l := e.set.locs[e.where]
	loc, _ := l.tree.ErrorContext(l.n)
	return loc
}

// Execute renders entry with data into buf within the limits.
func (o *overrideSet) Execute(buf *bytes.Buffer, entry string, data any) error {
	stopped := fmt.Errorf("not rendered: an override template (%s or a template it calls) already ran past its time limit of %s on another device; fix that first: %w", entry, o.timeLimit, errTimeLimit)
	if o.stop.Load() {
		return stopped
	}
	e, _ := o.pool.Get().(*limitedExec)
	if e == nil {
		c, err := o.base.Clone()
		if err != nil {
			return err
		}
		e = &limitedExec{t: c, set: o, stop: o.stop}
		c.Funcs(e.budgetFuncs())
	}
	defer o.pool.Put(e)
	start := time.Now()
	e.deadline, e.steps, e.strBytes, e.where, e.hit, e.stopped = start.Add(o.timeLimit), 0, 0, -1, nil, false
	w := &limitWriter{buf: buf, left: o.outLimit}
	err := e.t.ExecuteTemplate(w, entry, data)
	if o.observe != nil {
		o.observe(entry, execStats{Steps: e.steps, StringBytes: e.strBytes, OutputBytes: int64(o.outLimit - w.left), Took: time.Since(start)})
	}
	where := e.whereText(entry)
	switch {
	case e.stopped:
		return stopped
	case errors.Is(e.hit, errTimeLimit):
		return fmt.Errorf("%s: stopped after %s, the time limit of an override template render (%s and the templates it calls): loop over the view's lists (.Ports, .ACLs, …) rather than over large numbers, and compare or build fewer long strings: %w", where, o.timeLimit, entry, err)
	case errors.Is(e.hit, errStepLimit):
		return fmt.Errorf("%s: stopped after %d steps, the step limit of an override template render (%s and the templates it calls; a step is an action, a loop iteration, a template call or a call of a function that builds or compares strings): loop over the view's lists (.Ports, .ACLs, …) rather than over large numbers, and do not let a template call itself: %w", where, o.stepLimit, entry, err)
	case errors.Is(e.hit, errStringLimit):
		return fmt.Errorf("%s: stopped after %s of strings, the string limit of an override template render (%s and the templates it calls; every string print, printf, join, … return counts, printed or kept in a variable): print text as it goes instead of growing a variable ({{$s = print $s $s}} doubles it every time): %w", where, units.Size(int64(o.strLimit)), entry, err)
	case errors.Is(err, errOutputLimit):
		return fmt.Errorf("%s (or the text after it): stopped after %s of output, the output limit of an override template render (%s and the templates it calls): print less, or fewer copies of the pre-rendered stanzas (.Text): %w", where, units.Size(int64(o.outLimit)), entry, err)
	}
	return err
}

// limitWriter fails once more than left bytes are written.
type limitWriter struct {
	buf  *bytes.Buffer
	left int
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		return 0, errOutputLimit
	}
	w.left -= len(p)
	return w.buf.Write(p)
}
