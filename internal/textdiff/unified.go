// Package textdiff is fabricgen's one line diff: the unified diff a plan
// shows and patch(1) applies, the lab's device diffs (EOS session
// diffs), and the line edit scripts the lab's emulators replay. Every
// diff runs go-diff with its timeout off (newDiffer): its default
// one-second timeout silently degrades a large diff into "delete
// everything, insert everything".
package textdiff

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Diff is a unified diff and its line counts.
type Diff struct {
	// Text is a unified diff ("--- a", "+++ b", "@@ … @@" hunks with three
	// lines of context) that patch(1) applies; empty when a equals b.
	Text    string `json:"text,omitempty"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
}

// context is the number of unchanged lines around each hunk, as diff -u.
const context = 3

// newDiffer is go-diff with DiffTimeout 0: its default one-second
// timeout silently degrades into "delete everything, insert everything",
// which would be a wrong plan (or a lab device's diff of a whole config);
// the exact line diff is always affordable (it diffs one rune per line).
func newDiffer() *diffmatchpatch.DiffMatchPatch {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	return dmp
}

// lineDiffs diffs a against b line by line.
func lineDiffs(a, b string) []diffmatchpatch.Diff {
	dmp := newDiffer()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	return dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
}

// Unified diffs a against b line by line (a text without a final newline
// is taken with one): a unified diff with three lines of context, with
// the hunk ranges diff -u prints, that patch(1) applies.
func Unified(fromName, toName, a, b string) Diff {
	a, b = endNL(a), endNL(b)
	if a == b {
		return Diff{}
	}
	diffs := lineDiffs(a, b)

	type op struct {
		kind byte
		text string
	}
	var ops []op
	var out Diff
	for _, d := range diffs {
		k := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			k = '-'
		case diffmatchpatch.DiffInsert:
			k = '+'
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l == "" {
				continue
			}
			ops = append(ops, op{k, l})
			switch k {
			case '-':
				out.Removed++
			case '+':
				out.Added++
			}
		}
	}

	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", fromName, toName)
	// aLine/bLine are the 1-based line numbers of ops[i] in a and b.
	aLine, bLine := 1, 1
	advance := func(o op) {
		if o.kind != '+' {
			aLine++
		}
		if o.kind != '-' {
			bLine++
		}
	}
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			advance(ops[i])
			i++
			continue
		}
		start := i
		for start > 0 && i-start < context && ops[start-1].kind == ' ' {
			start--
		}
		// Rewind the counters to the hunk's first line.
		hA, hB := aLine-(i-start), bLine-(i-start)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
				continue
			}
			if j-end > 2*context {
				break
			}
		}
		stop := min(end+1+context, len(ops))
		nA, nB := 0, 0
		for _, o := range ops[start:stop] {
			if o.kind != '+' {
				nA++
			}
			if o.kind != '-' {
				nB++
			}
		}
		if nA == 0 {
			hA--
		}
		if nB == 0 {
			hB--
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", rangeOf(hA, nA), rangeOf(hB, nB))
		for _, o := range ops[start:stop] {
			sb.WriteByte(o.kind)
			sb.WriteString(o.text)
		}
		for _, o := range ops[i:stop] {
			advance(o)
		}
		i = stop
	}
	out.Text = sb.String()
	return out
}

func rangeOf(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

func endNL(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// Lines returns the edit script from a to b as one byte per element: ' '
// keep, '-' delete from a, '+' insert from b. Each element is diffed as
// one line whatever it holds (one holding a newline too).
func Lines(a, b []string) []byte {
	// Equal elements get the same number, and the numbers are what is
	// diffed: an element holding a newline would otherwise count as two
	// lines, and the ops would not line up with a and b.
	ids := map[string]string{}
	join := func(ls []string) string {
		var b strings.Builder
		for _, l := range ls {
			id, ok := ids[l]
			if !ok {
				id = strconv.Itoa(len(ids))
				ids[l] = id
			}
			b.WriteString(id + "\n")
		}
		return b.String()
	}
	var ops []byte
	for _, d := range lineDiffs(join(a), join(b)) {
		k := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			k = '+'
		case diffmatchpatch.DiffDelete:
			k = '-'
		}
		for range strings.Count(d.Text, "\n") {
			ops = append(ops, k)
		}
	}
	return ops
}
