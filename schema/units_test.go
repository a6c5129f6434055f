package schema

import (
	"slices"
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  bool
	}{
		{"150KB", 150000, false}, {"1.5MiB", 1572864, false}, {"200B", 200, false},
		{"1500KB", 1500000, false}, {"2MB", 2000000, false}, {"3GiB", 3 << 30, false},
		{"150", 0, true}, {"150kbps", 0, true}, {"", 0, true}, {"-1KB", 0, true}, {"1.5B", 0, true},
		{"KB", 0, true},
	} {
		got, err := ParseSize(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, err=%v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestParseSpeed(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  bool
	}{
		{"400G", 400e9, false}, {"25Gbps", 25e9, false}, {"100M", 100e6, false}, {"1.6T", 1.6e12, false},
		{"400", 0, true}, {"400GB", 0, true}, {"fast", 0, true},
	} {
		got, err := ParseSpeed(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseSpeed(%q) = %d, %v; want %d, err=%v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestParseDurationAndLength(t *testing.T) {
	if d, err := ParseDuration("200ms"); err != nil || d != 200*time.Millisecond {
		t.Errorf("ParseDuration(200ms) = %v, %v", d, err)
	}
	for _, bad := range []string{"200", "", "soon", "-1s"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) accepted", bad)
		}
	}
	for in, want := range map[string]float64{"3m": 3, "0.5km": 500, "150cm": 1.5} {
		if got, err := ParseLength(in); err != nil || got != want {
			t.Errorf("ParseLength(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"3", "3ft", "m"} {
		if _, err := ParseLength(bad); err == nil {
			t.Errorf("ParseLength(%q) accepted", bad)
		}
	}
}

func TestNaturalLess(t *testing.T) {
	for _, tc := range [][2]string{
		{"Ethernet2", "Ethernet10"}, {"leaf9", "leaf10"}, {"et-0/0/2", "et-0/0/10"}, {"a", "b"},
		{"swp1", "swp1s0"}, {"x01", "x2"}, {"x1", "x01"}, {"x12", "x13"}, {"leaf0012", "leaf0013"},
		{"x1", "x12"}, {"x19", "x100"}, {"leaf0001", "leaf0001-nic01"}, {"a9b", "a10"}, {"a1b2", "a1b10"},
		{"a1c", "a01b"}, {"", "a"}, {"9", "10"},
	} {
		if !NaturalLess(tc[0], tc[1]) || NaturalLess(tc[1], tc[0]) {
			t.Errorf("NaturalLess(%q, %q) wrong", tc[0], tc[1])
		}
	}
}

// TestNaturalCompareOrder checks that NaturalCompare is a consistent total
// order on names made of a few letters and digits: antisymmetric, zero only
// for equal strings, and transitive along a sorted slice.
func TestNaturalCompareOrder(t *testing.T) {
	const alphabet = "ab01-9"
	var names []string
	for i := range 6 * 6 * 6 * 6 {
		b := []byte{}
		for n := i; len(b) < 1+i%4; n /= 6 {
			b = append(b, alphabet[n%6])
		}
		names = append(names, string(b))
	}
	for _, a := range names {
		for _, b := range names[:200] {
			if c, r := NaturalCompare(a, b), NaturalCompare(b, a); c != -r || (c == 0) != (a == b) {
				t.Fatalf("NaturalCompare(%q, %q) = %d, reverse %d", a, b, c, r)
			}
		}
	}
	slices.SortFunc(names, NaturalCompare)
	for i := range names {
		for j := i + 1; j < min(i+50, len(names)); j++ {
			if NaturalCompare(names[i], names[j]) > 0 {
				t.Fatalf("not transitive: %q sorted before %q", names[i], names[j])
			}
		}
	}
}

func TestSortDevices(t *testing.T) {
	blocks := func(n int) []*Device { // three ascending runs, interleaving names
		var ds []*Device
		for i := 1; i <= n; i++ {
			ds = append(ds, &Device{Name: "leaf" + itoa(i)})
		}
		for i := 1; i <= n; i++ {
			ds = append(ds, &Device{Name: "leaf" + itoa(i) + "-nic1"}, &Device{Name: "leaf" + itoa(i) + "-nic2"})
		}
		return append(ds, &Device{Name: "a"}, &Device{Name: "zz"})
	}
	shuffled := func(n int) []*Device { // thousands of runs
		var ds []*Device
		for i := n; i > 0; i-- {
			ds = append(ds, &Device{Name: "leaf" + itoa(i)}, &Device{Name: "nic" + itoa(i*7%(n+1))})
		}
		return ds
	}
	for name, ds := range map[string][]*Device{
		"runs": blocks(3000), "few": blocks(2), "shuffled": shuffled(9000), "small": shuffled(10), "empty": nil,
	} {
		n := len(ds)
		sortDevices(ds)
		if len(ds) != n {
			t.Fatalf("%s: %d devices after sorting, want %d", name, len(ds), n)
		}
		for i := 1; i < len(ds); i++ {
			if !NaturalLess(ds[i-1].Name, ds[i].Name) {
				t.Fatalf("%s: not sorted at %d: %s, %s", name, i, ds[i-1].Name, ds[i].Name)
			}
		}
	}
}
