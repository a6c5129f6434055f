// Package natsort orders names the way people number devices (leaf2
// before leaf10) and folds runs of consecutive names into ranges
// ("leaf1–leaf32") for review output.
package natsort

import (
	"github.com/fabricgen/fabricgen/schema"
	"sort"
	"strconv"
	"strings"
)

// Less is the fabric's one natural order, schema.NaturalLess: every run
// of digits compares as a number ("leaf2" < "leaf10"), and the order is
// total.
func Less(a, b string) bool { return schema.NaturalLess(a, b) }

// Sort sorts names in natural order.
func Sort(names []string) {
	sort.SliceStable(names, func(i, j int) bool { return Less(names[i], names[j]) })
}

// Range is a run of names whose trailing numbers count up by Step.
type Range struct {
	First, Last string
	// N is how many names the run holds; Step the difference of their
	// numbers (1, or more for "every 2nd").
	N, Step int
}

// String is "first–last" (en dash), "first–last (every 2nd)" for a run
// with a step, or "first" for a single name.
func (r Range) String() string {
	switch {
	case r.N <= 1:
		return r.First
	case r.Step > 1:
		return r.First + "–" + r.Last + " (every " + ordinal(r.Step) + ")"
	}
	return r.First + "–" + r.Last
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	case n%10 == 1:
		suffix = "st"
	}
	return strconv.Itoa(n) + suffix
}

// Ranges sorts a copy of names naturally and folds names that differ only
// in a trailing number counting up by one into ranges: leaf1 leaf2 leaf3
// leaf7 becomes leaf1–leaf3, leaf7. Three or more names counting up by a
// larger step fold too (leaf1 leaf3 leaf5: leaf1–leaf5, every 2nd).
// Numbers must keep their width when either is zero-padded (leaf09
// leaf10 is a run, leaf9 leaf010 is not). Duplicates are kept once.
func Ranges(names []string) []Range {
	s := append([]string(nil), names...)
	Sort(s)
	var out []Range
	var cur *Range
	flush := func() {
		if cur == nil {
			return
		}
		if cur.Step > 1 && cur.N == 2 {
			out = append(out, Range{First: cur.First, N: 1, Step: 1}, Range{First: cur.Last, N: 1, Step: 1})
		} else {
			out = append(out, *cur)
		}
		cur = nil
	}
	for i, n := range s {
		if i > 0 && n == s[i-1] {
			continue
		}
		if cur != nil {
			d := delta(cur.lastName(), n)
			switch {
			case cur.N == 1 && d > 0:
				cur.Last, cur.N, cur.Step = n, 2, d
				continue
			case cur.N == 2 && cur.Step > 1 && d == 1:
				// leaf1 leaf3 leaf4: leaf1 alone, leaf3–leaf4 a run.
				out = append(out, Range{First: cur.First, N: 1, Step: 1})
				cur = &Range{First: cur.Last, Last: n, N: 2, Step: 1}
				continue
			case d > 0 && d == cur.Step:
				cur.Last = n
				cur.N++
				continue
			}
		}
		flush()
		cur = &Range{First: n, N: 1, Step: 1}
	}
	flush()
	return out
}

func (r Range) lastName() string {
	if r.N <= 1 {
		return r.First
	}
	return r.Last
}

// delta is b's trailing number minus a's when both are the same name but
// for that number (and its width, when zero-padded); 0 otherwise.
func delta(a, b string) int {
	pa, da := splitNumber(a)
	pb, db := splitNumber(b)
	if da == "" || db == "" || pa != pb {
		return 0
	}
	if len(da) != len(db) && (da[0] == '0' || db[0] == '0') {
		return 0
	}
	na, errA := strconv.ParseUint(da, 10, 31)
	nb, errB := strconv.ParseUint(db, 10, 31)
	if errA != nil || errB != nil || nb <= na {
		return 0
	}
	return int(nb - na)
}

// splitNumber splits a trailing run of digits off s.
func splitNumber(s string) (prefix, number string) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	return s[:i], s[i:]
}

// Pattern describes names that differ only in their numbers and hold
// every combination of them, such as leaf0001-nic01 … leaf0064-nic04, as
// one pattern with each varying number's values in brackets:
// "leaf[0001–0064]-nic[01–04]". It reports false when the names do not
// all share one shape, do not hold every combination, or are fewer than
// three. Runs within a bracket follow Ranges.
func Pattern(names []string) (string, bool) {
	uniq := map[string]bool{}
	for _, n := range names {
		uniq[n] = true
	}
	if len(uniq) < 3 {
		return "", false
	}
	var shape []string // the non-digit tokens, with "" for each number
	values := []map[string]bool{}
	first := true
	for n := range uniq {
		toks := tokens(n)
		if first {
			for _, t := range toks {
				if isNumber(t) {
					shape = append(shape, "")
					values = append(values, map[string]bool{})
				} else {
					shape = append(shape, t)
					values = append(values, nil)
				}
			}
			first = false
		}
		if len(toks) != len(shape) {
			return "", false
		}
		for i, t := range toks {
			if isNumber(t) != (shape[i] == "") || (shape[i] != "" && t != shape[i]) {
				return "", false
			}
			if shape[i] == "" {
				values[i][t] = true
			}
		}
	}
	product, varying := 1, 0
	for _, v := range values {
		if v == nil {
			continue
		}
		if len(v) > 1 {
			varying++
		}
		product *= len(v)
		if product > len(uniq) {
			return "", false
		}
	}
	if product != len(uniq) || varying == 0 {
		return "", false
	}
	var b strings.Builder
	for i, s := range shape {
		switch {
		case s != "":
			b.WriteString(s)
		case len(values[i]) == 1:
			for v := range values[i] {
				b.WriteString(v)
			}
		default:
			vs := make([]string, 0, len(values[i]))
			for v := range values[i] {
				vs = append(vs, v)
			}
			rs := Ranges(vs)
			parts := make([]string, len(rs))
			for j, r := range rs {
				parts[j] = r.String()
			}
			b.WriteString("[" + strings.Join(parts, ", ") + "]")
		}
	}
	return b.String(), true
}

// tokens splits s into runs of digits and runs of other bytes.
func tokens(s string) []string { return AppendTokens(nil, s) }

// AppendTokens appends s split into runs of digits and runs of other
// bytes to out ("leaf12-nic3" → "leaf", "12", "-nic", "3").
func AppendTokens(out []string, s string) []string {
	for s != "" {
		i := 1
		d := s[0] >= '0' && s[0] <= '9'
		for i < len(s) && (s[i] >= '0' && s[i] <= '9') == d {
			i++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// IsNumber reports whether a token of AppendTokens is a run of digits.
func IsNumber(t string) bool { return t != "" && t[0] >= '0' && t[0] <= '9' }

func isNumber(t string) bool { return IsNumber(t) }
