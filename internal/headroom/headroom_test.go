package headroom

import "testing"

// TestRequiredWorkedExamples checks the formula against the worked examples
// of shared/reference/lint-rules.md §2.3 (table A, MTU 9100, 4-lane ports).
func TestRequiredWorkedExamples(t *testing.T) {
	for _, tc := range []struct {
		gbps  int64
		cable float64
		xoff  int64
		size  int64
	}{
		{100, 5, 59392, 77824}, {100, 100, 78848, 97280}, {100, 300, 118784, 137216},
		{400, 5, 115712, 134144}, {400, 100, 191488, 209920}, {400, 300, 352256, 370688},
	} {
		h := Required(tc.gbps*1_000_000_000, tc.cable, 9100)
		if h.XOFF != tc.xoff || h.Size != tc.size || h.XON != 18432 {
			t.Errorf("%dG %gm: xoff %d size %d xon %d, want %d %d 18432", tc.gbps, tc.cable, h.XOFF, h.Size, h.XON, tc.xoff, tc.size)
		}
	}
	if Required(100e9, 5, 0) != Required(100e9, 5, DefaultMTU) {
		t.Error("MTU 0 is not the default MTU")
	}
}

func TestLookupRow(t *testing.T) {
	for _, tc := range []struct {
		cable float64
		row   int
		ok    bool
	}{{0.5, 5, true}, {3, 5, true}, {5, 5, true}, {5.01, 40, true}, {30, 40, true}, {40, 40, true}, {70, 300, true}, {300, 300, true}, {300.5, 0, false}, {80000, 0, false}} {
		row, ok := LookupRow(tc.cable)
		if row != tc.row || ok != tc.ok {
			t.Errorf("%gm: row %d %v, want %d %v", tc.cable, row, ok, tc.row, tc.ok)
		}
	}
}
