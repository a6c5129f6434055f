package ibsim

import (
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func sample(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rejects checks that parse (named name) fails on every bad text.
func rejects[T any](t *testing.T, name string, parse func(string) (T, error), bad ...string) {
	t.Helper()
	for _, b := range bad {
		if _, err := parse(b); err == nil {
			t.Errorf("%s(%q) accepted", name, b)
		}
	}
}

// fuzzEach fuzzes parse from the sample file: check sees every element of
// what it accepts.
func fuzzEach[T any](f *testing.F, file string, parse func(string) ([]T, error), check func(t *testing.T, v T)) {
	f.Add(sample(f, file))
	f.Fuzz(func(t *testing.T, s string) {
		vs, err := parse(s)
		if err != nil {
			return
		}
		for _, v := range vs {
			check(t, v)
		}
	})
}

func TestParseSL2VL(t *testing.T) {
	for _, c := range []struct {
		file string
		rows int
		pair PortPair
		want [16]int
	}{
		{"sl2vl_switch.txt", 9, PortPair{2, 3}, [16]int{0, 1, 0, 3}},
		{"sl2vl_ca.txt", 1, PortPair{0, 0}, [16]int{0, 1, 0, 3}},
	} {
		rows, err := ParseSL2VL(sample(t, c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if len(rows) != c.rows || rows[c.pair] != c.want {
			t.Errorf("%s: %d rows, %v = %v; want %d rows, %v", c.file, len(rows), c.pair, rows[c.pair], c.rows, c.want)
		}
	}
	rejects(t, "ParseSL2VL", ParseSL2VL, "", "ports: in 1, out 2: | 0| 1|", "ports: in x, out 2: |0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|", "ports: in 1, out 2: |0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|16|")
}

func TestParseVLArb(t *testing.T) {
	a, err := ParseVLArb(sample(t, "vlarb.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(a.Low, a.High); got != "[0:64 3:128] [1:255]" {
		t.Errorf("tables = %s, want [0:64 3:128] [1:255]", got)
	}
	rejects(t, "ParseVLArb", ParseVLArb, "", "VL : |0x0|", "# Low priority\nVL : |0x0 |0x1|\nWEIGHT: |0x1|\n# High priority\n", "# Low priority\nVL : |0x100|\n# High priority\n")
}

func TestParsePKeys(t *testing.T) {
	keys, err := ParsePKeys(sample(t, "pkeys.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%#x", keys) != "[0xffff 0x1]" {
		t.Errorf("keys = %#x, want [0xffff 0x1]", keys)
	}
	rejects(t, "ParsePKeys", ParsePKeys, "", "64 pkeys capacity", "   0: 0xfffff")
}

func TestParsePKeyTable(t *testing.T) {
	table, err := ParsePKeyTable(sample(t, "pkeys.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(table) != 64 || table[0] != 0xffff || table[1] != 0x0001 || table[2] != 0 {
		t.Errorf("table = %#x", table)
	}
	rejects(t, "ParsePKeyTable", ParsePKeyTable, "", "   8: 0xffff", "   0: 0x10000")
}

func FuzzParsePKeyTable(f *testing.F) {
	f.Add(sample(f, "pkeys.txt"))
	f.Fuzz(func(t *testing.T, s string) {
		if table, err := ParsePKeyTable(s); err == nil && len(table) == 0 {
			t.Fatal("empty table and no error")
		}
	})
}

func TestParsePathRecords(t *testing.T) {
	recs, err := ParsePathRecords(sample(t, "pathrecord.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("%d records, want 1", len(recs))
	}
	r := recs[0]
	if r.SrcGUID() != 0x0002c90300a00201 || r.DstGUID() != 0x0002c90300a00301 || r.PKey != 0x8001 || r.SL != 0 || r.SLID != 4 || r.DLID != 5 || r.MTU != 0x84 {
		t.Errorf("record = %+v", r)
	}
	if GID(0x0002c90300a00201) != r.SGID {
		t.Errorf("GID = %s, want %s", GID(0x0002c90300a00201), r.SGID)
	}
	if _, err := ParsePathRecords("PathRecord dump:\n sl......0x10\n"); err == nil {
		t.Error("sl 16 accepted")
	}
}

func FuzzParseSL2VL(f *testing.F) {
	f.Add(sample(f, "sl2vl_switch.txt"))
	f.Fuzz(func(t *testing.T, s string) {
		rows, err := ParseSL2VL(s)
		if err == nil && len(rows) == 0 {
			t.Fatal("no rows and no error")
		}
	})
}

func FuzzParseVLArb(f *testing.F) {
	entries := func(s string) ([]Entry, error) {
		a, err := ParseVLArb(s)
		return append(a.Low, a.High...), err
	}
	fuzzEach(f, "vlarb.txt", entries, func(t *testing.T, e Entry) {
		if e.Weight == 0 || e.Weight > 255 || e.VL > 255 {
			t.Fatalf("entry %v out of range", e)
		}
	})
}

func FuzzParsePKeys(f *testing.F) {
	fuzzEach(f, "pkeys.txt", ParsePKeys, func(t *testing.T, k uint16) {
		if k == 0 {
			t.Fatal("a zero P_Key kept")
		}
	})
}

func FuzzParsePathRecords(f *testing.F) {
	fuzzEach(f, "pathrecord.txt", ParsePathRecords, func(t *testing.T, r PathRecord) {
		if r.SL > 15 {
			t.Fatalf("SL %d kept", r.SL)
		}
	})
}

func TestParseMCGroups(t *testing.T) {
	gs, err := ParseMCGroups(sample(t, "mcgroups.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []MCGroup{
		{MGID: netip.MustParseAddr("ff12:401b:8001::ffff:ffff"), MLID: 0xc001, PKey: 0x8001, SL: 3, MTU: 0x83, Rate: 0x83},
		{MGID: netip.MustParseAddr("ff12:401b:8002::ffff:ffff"), MLID: 0xc002, PKey: 0x8002, SL: 2, MTU: 0x84, Rate: 0x83},
		{MGID: netip.MustParseAddr("ff12:401b:ffff::ffff:ffff"), MLID: 0xc000, PKey: 0xffff, SL: 0, MTU: 0x84, Rate: 0x83},
	}
	if !slices.Equal(gs, want) {
		t.Errorf("groups = %+v\nwant %+v", gs, want)
	}
	if a, b := gs[0].MTUBytes(), gs[1].MTUBytes(); a != 1024 || b != 2048 {
		t.Errorf("MTUBytes = %d, %d; want 1024, 2048", a, b)
	}
	rejects(t, "ParseMCGroups", ParseMCGroups,
		"MCMemberRecord group dump:\n\tSL......0x10\n",
		"MCMemberRecord group dump:\n\tMGID....10.0.0.1\n",
		"MCMemberRecord group dump:\n\tMGID....nonsense\n",
		"MCMemberRecord group dump:\n\tMlid....0x10000\n",
		"MCMemberRecord group dump:\n\tpkey....-1\n",
		"MCMemberRecord group dump:\n\tMtu.....0x100\n",
		"MCMemberRecord group dump:\n\tRate....x\n",
	)
	if gs, err := ParseMCGroups("Mtu.....0x84\nno group yet\n"); err != nil || len(gs) != 0 {
		t.Errorf("lines before any group: %+v, %v; want none", gs, err)
	}
	for _, c := range []struct{ mtu, bytes int }{{0x80, 0}, {0x81, 256}, {0x85, 4096}, {0x86, 0}, {0xc5, 4096}} {
		if got := (MCGroup{MTU: c.mtu}).MTUBytes(); got != c.bytes {
			t.Errorf("MTUBytes(%#x) = %d, want %d", c.mtu, got, c.bytes)
		}
	}
}

func FuzzParseMCGroups(f *testing.F) {
	fuzzEach(f, "mcgroups.txt", ParseMCGroups, func(t *testing.T, g MCGroup) {
		if g.SL > 15 || g.MTU > 0xff || g.Rate > 0xff || g.MLID > 0xffff {
			t.Fatalf("out-of-range field kept: %+v", g)
		}
		if g.MGID.IsValid() && !g.MGID.Is6() {
			t.Fatalf("MGID %v is not a GID", g.MGID)
		}
		if b := g.MTUBytes(); b != 0 && (b < 256 || b > 4096) {
			t.Fatalf("MTUBytes %d", b)
		}
	})
}
