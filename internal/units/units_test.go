package units_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/units"
	"github.com/fabricgen/fabricgen/schema"
)

// TestSize: sizes print as the intent writes them, and ParseSize reads
// each back to the same count.
func TestSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {45, "45 B"}, {999, "999 B"}, {1000, "1 KB"}, {150_000, "150 KB"}, {153_600, "153.6 KB"},
		{1_500_000, "1.5 MB"}, {2_000_000, "2 MB"}, {3_000_000_000, "3 GB"}, {9216, "9 KiB"}, {1 << 20, "1 MiB"},
		{64 << 20, "64 MiB"}, {1 << 30, "1 GiB"}, {9217, "9217 B"}, {1_234_567, "1234567 B"}, {1_234_500, "1234.5 KB"},
	} {
		got := units.Size(c.n)
		if got != c.want {
			t.Errorf("Size(%d) = %q, want %q", c.n, got, c.want)
		}
		if back, err := schema.ParseSize(got); err != nil || back != c.n {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", got, back, err, c.n)
		}
	}
}

// TestSpeed: speeds print as the intent writes them, and ParseSpeed reads
// each back to the same bit/s.
func TestSpeed(t *testing.T) {
	for _, c := range []struct {
		bps  int64
		want string
	}{
		{1, "1bps"}, {1000, "1K"}, {10_000_000, "10M"}, {2_500_000_000, "2.5G"}, {25_000_000_000, "25G"},
		{400_000_000_000, "400G"}, {1_600_000_000_000, "1.6T"}, {1_234_567, "1234567bps"},
	} {
		got := units.Speed(c.bps)
		if got != c.want {
			t.Errorf("Speed(%d) = %q, want %q", c.bps, got, c.want)
		}
		if back, err := schema.ParseSpeed(got); err != nil || back != c.bps {
			t.Errorf("ParseSpeed(%q) = %d, %v; want %d", got, back, err, c.bps)
		}
	}
}

// TestApproxSize: a measured count prints to one decimal in its unit.
func TestApproxSize(t *testing.T) {
	for _, c := range []struct {
		b    float64
		want string
	}{
		{0, "0 B"}, {830.4, "830 B"}, {1234, "1.2 KB"}, {1_250_000, "1.3 MB"}, {3e9, "3 GB"}, {1.26e9, "1.3 GB"},
	} {
		if got := units.ApproxSize(c.b); got != c.want {
			t.Errorf("ApproxSize(%g) = %q, want %q", c.b, got, c.want)
		}
	}
}
