package skus_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms/sonic/skus"
)

// TestTableHasTheVendorsFigures: the embedded table gives the rows the
// SKUs' own lookup files give (figures read in sonic-buildimage, the
// audit behind issue 23): 400G at 5 m.
func TestTableHasTheVendorsFigures(t *testing.T) {
	tb, err := skus.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.Source) != 40 {
		t.Errorf("source commit %q, want a 40-digit commit", tb.Source)
	}
	if len(tb.SKUs) < 200 {
		t.Errorf("%d SKUs, want every SKU with a lookup file (over 200)", len(tb.SKUs))
	}
	for _, tc := range []struct {
		platform, hwsku, asic, size, xoff, threshold string
	}{
		{"x86_64-dellemc_z9332f_d1508-r0", "DellEMC-Z9332f-O32", "broadcom", "2540", "178562", "-2"},
		{"x86_64-nokia_ixr7220_h4-r0", "Nokia-IXR7220-H4-64D", "broadcom", "1248", "307848", "0"},
		{"x86_64-nvidia_sn5600-r0", "ACS-SN5600", "mellanox", "250880", "231424", "0"},
	} {
		var found bool
		for _, s := range tb.Find(tc.hwsku) {
			if s.Platform != tc.platform {
				continue
			}
			found = true
			if s.ASIC != tc.asic {
				t.Errorf("%s: asic %q, want %q", tc.hwsku, s.ASIC, tc.asic)
			}
			r, ok := s.Row("400000", "5m")
			if !ok {
				t.Errorf("%s: no 400000/5m row", tc.hwsku)
				continue
			}
			if r.Size != tc.size || r.Xoff != tc.xoff || r.Threshold != tc.threshold {
				t.Errorf("%s 400000/5m: size %s xoff %s threshold %s, want %s %s %s", tc.hwsku, r.Size, r.Xoff, r.Threshold, tc.size, tc.xoff, tc.threshold)
			}
			if _, ok := s.Row("400000", "3m"); ok {
				t.Errorf("%s has a 3m row: buffermgrd matches the cable length exactly", tc.hwsku)
			}
		}
		if !found {
			t.Errorf("no SKU %s on %s", tc.hwsku, tc.platform)
		}
	}
	if got := tb.Find("no-such-sku"); len(got) != 0 {
		t.Errorf("Find(no-such-sku) = %v", got)
	}
}

func TestParseLookup(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, err string
	}{
		{name: "buffermgrd's own example", in: "# speed, cable, size,    xon,  xoff, threshold,  xon_offset\n  40000   5m    34816   18432  16384 1           2496\n",
			want: "40000 5m 34816 18432 16384 1 2496"},
		{name: "no xon_offset, CRLF", in: "100000 40m 1 2 3 -2\r\n\r\n", want: "100000 40m 1 2 3 -2 "},
		{name: "a later row replaces", in: "1 5m 1 1 1 0\n1 5m 2 2 2 0\n", want: "1 5m 2 2 2 0 "},
		{name: "fields after the seventh ignored", in: "1 5m 1 1 1 0 9 extra\n", want: "1 5m 1 1 1 0 9"},
		{name: "short line", in: "400000 5m 1\n", err: "line 1: want speed"},
		{name: "indented comment is a row to buffermgrd, short here", in: "  # x\n", err: "line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := skus.ParseLookup(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rows {
				got = append(got, strings.Join([]string{r.Speed, r.Cable, r.Size, r.Xon, r.Xoff, r.Threshold, r.XonOffset}, " "))
			}
			if strings.Join(got, "|") != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseTableErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"sku\tp\th\t-\tnope\n", "names table nope"},
		{"table\tx\t1\n", "line 1: want a table row"},
		{"bogus\n", "line 1"},
	} {
		if _, err := skus.ParseTable(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want %q", tc.in, err, tc.want)
		}
	}
}

func FuzzParseLookup(f *testing.F) {
	f.Add("# c\n400000 5m 1 2 3 0 4\n")
	f.Add("1 5m 1 1 1 0\n1 5m 2 2 2 0\n")
	f.Fuzz(func(t *testing.T, s string) {
		rows, err := skus.ParseLookup(s)
		if err != nil {
			return
		}
		seen := map[[2]string]bool{}
		for _, r := range rows {
			k := [2]string{r.Speed, r.Cable}
			if seen[k] || r.Speed == "" || r.Cable == "" {
				t.Fatalf("row %+v twice or empty", r)
			}
			seen[k] = true
		}
	})
}

func FuzzParseTable(f *testing.F) {
	f.Add("table\ta\t1\t5m\t1\t2\t3\t0\nsku\tp\th\t-\ta\n")
	f.Fuzz(func(t *testing.T, s string) {
		tb, err := skus.ParseTable(s)
		if err != nil {
			return
		}
		for i := 1; i < len(tb.SKUs); i++ {
			if tb.SKUs[i-1].HWSKU > tb.SKUs[i].HWSKU {
				t.Fatal("SKUs not sorted")
			}
		}
	})
}
