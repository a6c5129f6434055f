package hoverinfo

import (
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/natsort"
)

// keepNames bounds the names a shape keeps for folding when its names do
// not form a full pattern.
const keepNames = 64

// folder folds a stream of distinct names in one pass, in time linear in
// their number: names of one shape (the same text around their numbers)
// are folded into one pattern when they hold every combination of their
// numbers ("leaf[0001–2048]-nic[01–32]", "leaf1–leaf4"), else into
// natural-order runs of the first keepNames of them.
type folder struct {
	order  []string
	shapes map[string]*shapeAcc
	// toks and key are reused by add: folding allocates per shape and
	// per new number, not per name.
	toks []string
	key  []byte
}

// shapeAcc accumulates the names of one shape.
type shapeAcc struct {
	tokens []string // the shape: text tokens, "" for each number
	values []map[string]bool
	n      int
	first  []string
}

// add folds in one name; names must be distinct.
func (f *folder) add(name string) {
	f.toks = natsort.AppendTokens(f.toks[:0], name)
	toks := f.toks
	f.key = f.key[:0]
	for _, t := range toks {
		// '#' for a number, "len:text" for text: unambiguous whatever
		// the names hold.
		if natsort.IsNumber(t) {
			f.key = append(f.key, '#')
		} else {
			f.key = strconv.AppendInt(f.key, int64(len(t)), 10)
			f.key = append(f.key, ':')
			f.key = append(f.key, t...)
		}
	}
	if f.shapes == nil {
		f.shapes = map[string]*shapeAcc{}
	}
	s := f.shapes[string(f.key)]
	if s == nil {
		key := string(f.key)
		s = &shapeAcc{}
		for _, t := range toks {
			if natsort.IsNumber(t) {
				s.tokens = append(s.tokens, "")
				s.values = append(s.values, map[string]bool{})
			} else {
				s.tokens = append(s.tokens, t)
				s.values = append(s.values, nil)
			}
		}
		f.shapes[key] = s
		f.order = append(f.order, key)
	}
	s.n++
	if len(s.first) < keepNames {
		s.first = append(s.first, name)
	}
	for i, t := range toks {
		if s.values[i] != nil {
			s.values[i][t] = true
		}
	}
}

// items renders the folded names, at most max items, then "…".
func (f *folder) items(max int) []string {
	var out []string
	for _, k := range f.order {
		out = append(out, f.shapes[k].render()...)
		if len(out) > max {
			return append(out[:max], "…")
		}
	}
	return out
}

// render is one shape's names folded, as Markdown.
func (s *shapeAcc) render() []string {
	if s.n == 1 {
		return []string{code(s.first[0])}
	}
	product, varying := 1, -1
	for i, v := range s.values {
		if v == nil {
			continue
		}
		product *= len(v)
		if product > s.n {
			break
		}
		if len(v) > 1 {
			if varying == -1 {
				varying = i
			} else {
				varying = -2
			}
		}
	}
	if product != s.n || varying == -1 {
		return s.runs()
	}
	if varying >= 0 {
		// One number varies: "leaf1–leaf4" when it is one run.
		if rs := natsort.Ranges(keys(s.values[varying])); len(rs) == 1 {
			first, last := s.with(varying, rs[0].First), s.with(varying, rs[0].Last)
			r := natsort.Range{First: first, Last: last, N: rs[0].N, Step: rs[0].Step}
			return []string{esc(r.String())}
		}
	}
	var b strings.Builder
	for i, t := range s.tokens {
		v := s.values[i]
		switch {
		case v == nil:
			b.WriteString(t)
		case len(v) == 1:
			for x := range v {
				b.WriteString(x)
			}
		default:
			rs := natsort.Ranges(keys(v))
			parts := make([]string, 0, 4)
			for j, r := range rs {
				if j == 3 {
					parts = append(parts, "…")
					break
				}
				parts = append(parts, r.String())
			}
			b.WriteString("[" + strings.Join(parts, ", ") + "]")
		}
	}
	return []string{esc(b.String())}
}

// with is the shape with its single-valued numbers and slot set to v.
func (s *shapeAcc) with(slot int, v string) string {
	var b strings.Builder
	for i, t := range s.tokens {
		switch {
		case i == slot:
			b.WriteString(v)
		case s.values[i] == nil:
			b.WriteString(t)
		default:
			for x := range s.values[i] {
				b.WriteString(x)
			}
		}
	}
	return b.String()
}

// runs folds the kept names into natural-order runs.
func (s *shapeAcc) runs() []string {
	var out []string
	for _, r := range natsort.Ranges(s.first) {
		if r.N == 1 {
			out = append(out, code(r.First))
		} else {
			out = append(out, esc(r.String()))
		}
	}
	if s.n > len(s.first) {
		out = append(out, "…")
	}
	return out
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// foldNames folds distinct names (see folder), at most max items then "…".
func foldNames(names []string, max int) string {
	var f folder
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			f.add(n)
		}
	}
	return strings.Join(f.items(max), ", ")
}
