package headroom

import "testing"

// TestRequiredWorkedExamples checks the formula against examples worked by
// hand from buffer_headroom_mellanox.lua (sonic-swss e6b0c5b) with the
// Spectrum-2/3 ASIC_TABLE row, MTU 9100, 4-lane ports, no shared headroom
// pool. 100G at 5 m: peer 394×512/8 = 25216 B, cable 2×5×100000e9/198e6/8000
// = 631.3 B, propagation 9100+631.3+819.2+25216 = 35766.5 B; small packets
// by byte 100×64/((50×64+50×1024)/100) = 11.76 %, worst case ⌈144/64⌉ = 3,
// occupancy 1.2353; xoff ⌈(1024+35766.5×1.2353)/1024⌉×1024 = 46080, short
// of the all-small worst case (108544) by more than 2 KiB, so 48128; xon
// ⌈19 KiB⌉ = 19456; size 67584. (The older formula of
// shared/reference/lint-rules.md §2.3, pipeline 18 KiB and a 1024-byte
// kilobyte on the cable, gave 59392/77824.)
func TestRequiredWorkedExamples(t *testing.T) {
	for _, tc := range []struct {
		gbps  int64
		cable float64
		xoff  int64
		size  int64
	}{
		{100, 5, 48128, 67584}, {100, 100, 62464, 81920}, {100, 300, 94208, 113664},
		{400, 5, 90112, 109568}, {400, 100, 149504, 168960}, {400, 300, 274432, 293888},
	} {
		h := Required(tc.gbps*1_000_000_000, tc.cable, 9100)
		if h.XOFF != tc.xoff || h.Size != tc.size || h.XON != 19456 {
			t.Errorf("%dG %gm: xoff %d size %d xon %d, want %d %d 19456", tc.gbps, tc.cable, h.XOFF, h.Size, h.XON, tc.xoff, tc.size)
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
