package txn

import (
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
)

// Theirs is another administrator's change since the backup: the unified
// diff of the lines fabricgen does not manage, backup against Now.
type Theirs struct {
	Now  string
	Diff config.Diff
}

// Some reports whether anything differs.
func (t Theirs) Some() bool { return t.Diff.Added+t.Diff.Removed > 0 }

// Summary names the changed lines, the first few of them.
func (t Theirs) Summary() string {
	var lines []string
	for _, l := range strings.Split(t.Diff.Text, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	more := ""
	if len(lines) > 3 {
		lines, more = lines[:3], fmt.Sprintf(" (and %d more)", len(lines)-3)
	}
	return fmt.Sprintf("%d line(s) fabricgen does not manage changed since the backup: %s%s", t.Diff.Added+t.Diff.Removed, strings.Join(lines, "; "), more)
}

// Progress is how far the sending of a list of commands got.
type Progress struct {
	// What names the list ("the change", "the restore").
	What  string
	Lines []string
	// Answered is the number of lines the device has answered; Taken
	// are those it took (not refused), in order.
	Answered int
	Taken    []string
}

// Done records the device's answer to the next line: taken, or refused.
func (p *Progress) Done(taken bool) {
	if taken {
		p.Taken = append(p.Taken, p.Lines[p.Answered])
	}
	p.Answered++
}

// String says exactly what of the list the device took: the lines it
// took, and the one sent without an answer when it stopped.
func (p *Progress) String() string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	switch {
	case len(p.Taken) == 0:
		fmt.Fprintf(&b, "none of the %d command(s) of %s had been taken", len(p.Lines), p.What)
	default:
		fmt.Fprintf(&b, "%d of the %d command(s) of %s were taken: %s", len(p.Taken), len(p.Lines), p.What, strings.Join(p.Taken, "; "))
	}
	if refused := p.Answered - len(p.Taken); refused > 0 {
		fmt.Fprintf(&b, " (%d refused)", refused)
	}
	if p.Answered < len(p.Lines) {
		fmt.Fprintf(&b, "; the next, %q, was being sent and may or may not have taken effect; the %d after it were not sent", p.Lines[p.Answered], len(p.Lines)-p.Answered-1)
	}
	return b.String()
}
