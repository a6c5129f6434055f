// Package natsort orders names the way people number devices (leaf2
// before leaf10) and folds runs of consecutive names into ranges
// ("leaf1–leaf32") for review output.
package natsort

import (
	"sort"
	"strconv"
	"strings"
)

// Less compares a and b with every run of digits taken as a number:
// "leaf2" < "leaf10" and "leaf02" < "leaf10". Equal numbers compare by
// the rest of the string; names equal but for leading zeros order the
// shorter first, so the order is total.
func Less(a, b string) bool {
	a0, b0 := a, b
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da != "" && db != "" {
			na, nb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	if len(a0) != len(b0) {
		return len(a0) < len(b0)
	}
	return a0 < b0
}

// Sort sorts names in natural order.
func Sort(names []string) {
	sort.SliceStable(names, func(i, j int) bool { return Less(names[i], names[j]) })
}

func digits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// Range is a run of names: First alone when Last is empty.
type Range struct {
	First, Last string
	// N is how many names the run holds.
	N int
}

// String is "first–last" (en dash), or "first" for a single name.
func (r Range) String() string {
	if r.N <= 1 {
		return r.First
	}
	return r.First + "–" + r.Last
}

// Ranges sorts a copy of names naturally and folds names that differ only
// in a trailing number counting up by one into ranges: leaf1 leaf2 leaf3
// leaf7 becomes leaf1–leaf3, leaf7. Numbers must keep their width when
// either is zero-padded (leaf09 leaf10 is a run, leaf9 leaf010 is not).
// Duplicates are kept once.
func Ranges(names []string) []Range {
	s := append([]string(nil), names...)
	Sort(s)
	var out []Range
	for i, n := range s {
		if i > 0 && n == s[i-1] {
			continue
		}
		if k := len(out); k > 0 && follows(out[k-1].lastName(), n) {
			out[k-1].Last = n
			out[k-1].N++
			continue
		}
		out = append(out, Range{First: n, N: 1})
	}
	return out
}

func (r Range) lastName() string {
	if r.N <= 1 {
		return r.First
	}
	return r.Last
}

// follows reports whether b is a's name with its trailing number plus one.
func follows(a, b string) bool {
	pa, da := splitNumber(a)
	pb, db := splitNumber(b)
	if da == "" || db == "" || pa != pb {
		return false
	}
	if len(da) != len(db) && (da[0] == '0' || db[0] == '0') {
		return false
	}
	na, errA := strconv.ParseUint(da, 10, 63)
	nb, errB := strconv.ParseUint(db, 10, 63)
	return errA == nil && errB == nil && nb == na+1
}

// splitNumber splits a trailing run of digits off s.
func splitNumber(s string) (prefix, number string) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	return s[:i], s[i:]
}
