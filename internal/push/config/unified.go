package config

import (
	"fmt"
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

// Unified diffs a against b line by line with go-diff. DiffTimeout is 0:
// go-diff's default one-second timeout silently degrades into "delete
// everything, insert everything", which would be a wrong plan; the managed
// sections are small, so the exact diff is always affordable.
func Unified(fromName, toName, a, b string) Diff {
	a, b = endNL(a), endNL(b)
	if a == b {
		return Diff{}
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)

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
