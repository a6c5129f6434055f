package templates

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"text/template"
	"text/template/parse"
	"time"
)

// Override templates (--templates DIR) are code from outside fabricgen:
// a loop of 2e9 iterations or a printf with a width of a gigabyte must
// not hang or kill the process. Each device's render with an override set
// has a time limit and an output limit; every range iteration and every
// template call passes a check of the time (an injected {{fabricgenTick}}
// action), the output is written through a bounded writer, and printf
// refuses huge widths. The embedded templates are fabricgen's own and run
// without these checks.

// Default limits of one device's render with override templates.
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
	errTimeLimit   = errors.New("the template ran longer than its time limit")
	errOutputLimit = errors.New("the template wrote more than its output limit")
)

// overrideSet runs one platform's override templates within limits. Each
// execution takes a clone from the pool, whose tick function carries that
// execution's deadline. The time limit is run-wide too: once one device's
// render runs out of time, stop (shared by every set of a Renderer) is
// set and the others stop at their next check or do not start, so a
// template that loops costs one time limit, not one per device.
type overrideSet struct {
	base      *template.Template
	timeLimit time.Duration
	outLimit  int
	stop      *atomic.Bool
	pool      sync.Pool // *limitedExec
}

// limitedExec is one clone of an override set and its deadline.
type limitedExec struct {
	t        *template.Template
	stop     *atomic.Bool
	deadline time.Time
	ticks    int
	expired  bool
	stopped  bool
}

func (e *limitedExec) tick() (string, error) {
	e.ticks++
	if e.ticks&15 != 0 {
		return "", nil
	}
	switch {
	case e.stop.Load():
		e.stopped = true
		return "", errTimeLimit
	case time.Now().After(e.deadline):
		e.expired = true
		e.stop.Store(true)
		return "", errTimeLimit
	}
	return "", nil
}

// newOverrideSet injects the time checks into every template of t; stop
// is the Renderer's run-wide flag.
func newOverrideSet(t *template.Template, timeLimit time.Duration, outLimit int, stop *atomic.Bool) (*overrideSet, error) {
	probe, err := template.New("time-limit").Funcs(template.FuncMap{tickName: func() string { return "" }}).Parse("{{" + tickName + "}}")
	if err != nil {
		return nil, err
	}
	tick := probe.Root.Nodes[0]
	for _, tt := range t.Templates() {
		if tt.Tree == nil || tt.Root == nil {
			continue
		}
		injectTicks(tt.Root, tick)
		tt.Root.Nodes = append([]parse.Node{tick}, tt.Root.Nodes...)
	}
	return &overrideSet{base: t, timeLimit: timeLimit, outLimit: outLimit, stop: stop}, nil
}

// injectTicks puts tick first in the body of every range below n.
func injectTicks(n parse.Node, tick parse.Node) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			injectTicks(c, tick)
		}
	case *parse.RangeNode:
		injectTicks(n.List, tick)
		injectTicks(n.ElseList, tick)
		if n.List != nil {
			n.List.Nodes = append([]parse.Node{tick}, n.List.Nodes...)
		}
	case *parse.IfNode:
		injectTicks(n.List, tick)
		injectTicks(n.ElseList, tick)
	case *parse.WithNode:
		injectTicks(n.List, tick)
		injectTicks(n.ElseList, tick)
	}
}

// execute renders entry with data into buf within the limits.
func (o *overrideSet) execute(buf *bytes.Buffer, entry string, data any) error {
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
		e = &limitedExec{t: c, stop: o.stop}
		c.Funcs(template.FuncMap{tickName: e.tick, "printf": boundedPrintf})
	}
	defer o.pool.Put(e)
	e.deadline, e.ticks, e.expired, e.stopped = time.Now().Add(o.timeLimit), 0, false, false
	err := e.t.ExecuteTemplate(&limitWriter{buf: buf, left: o.outLimit}, entry, data)
	switch {
	case e.stopped:
		return stopped
	case e.expired:
		return fmt.Errorf("stopped after %s, the time limit of an override template (in %s or a template it calls): %w", o.timeLimit, entry, errTimeLimit)
	case errors.Is(err, errOutputLimit):
		return fmt.Errorf("stopped after %d MiB of output, the output limit of an override template (in %s or a template it calls): %w", o.outLimit>>20, entry, err)
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

// boundedPrintf is text/template's printf for override templates: a
// width or precision above maxPrintfWidth, or one taken from an argument
// (*), is refused before anything is formatted.
func boundedPrintf(format string, args ...any) (string, error) {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		n := 0
		for ; i < len(format) && strings.IndexByte("+-# 0123456789.[]", format[i]) >= 0; i++ {
			switch c := format[i]; {
			case c >= '0' && c <= '9':
				n = n*10 + int(c-'0')
				if n > maxPrintfWidth {
					return "", fmt.Errorf("printf: a width or precision above %d", maxPrintfWidth)
				}
			default:
				n = 0
			}
		}
		if i < len(format) && format[i] == '*' {
			return "", fmt.Errorf("printf: widths from arguments (*) are not allowed in override templates")
		}
	}
	return fmt.Sprintf(format, args...), nil
}
