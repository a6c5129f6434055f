package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms/sonic/skus"
)

// TestRunRoundTrip: on a small checkout (two SKUs sharing one table by a
// symbolic link, a third with its own, a link into a directory the
// checkout lacks), the output reads back as the files say, each table once.
func TestRunRoundTrip(t *testing.T) {
	src := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		p = filepath.Join(src, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("device/v/x86_64-a-r0/platform_asic", "broadcom\n")
	write("device/v/x86_64-a-r0/A-1/pg_profile_lookup.ini", "# speed cable size xon xoff threshold\n400000 5m 1248 2288 307848 0 2288\n100000 40m 1 2 3 -2\n")
	if err := os.MkdirAll(filepath.Join(src, "device/v/x86_64-a-r0/A-2"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../A-1/pg_profile_lookup.ini", filepath.Join(src, "device/v/x86_64-a-r0/A-2/pg_profile_lookup.ini")); err != nil {
		t.Fatal(err)
	}
	write("device/w/x86_64-b-r0/B/pg_profile_lookup.ini", "400000 5m 9 9 9 0\n")
	if err := os.MkdirAll(filepath.Join(src, "device/w/x86_64-b-r0/C"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../../common/missing.ini", filepath.Join(src, "device/w/x86_64-b-r0/C/pg_profile_lookup.ini")); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(context.Background(), &out, src, strings.Repeat("a", 40)); err != nil {
		t.Fatal(err)
	}
	tb, err := skus.ParseTable(out.String())
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := strings.Count(out.String(), "\ntable\t"); got != 3 {
		t.Errorf("%d table rows, want 3 (A-1 and A-2 share one table):\n%s", got, out.String())
	}
	var names []string
	for _, s := range tb.SKUs {
		names = append(names, s.Platform+"/"+s.HWSKU+"/"+s.ASIC)
	}
	if got := strings.Join(names, " "); got != "x86_64-a-r0/A-1/broadcom x86_64-a-r0/A-2/broadcom x86_64-b-r0/B/" {
		t.Errorf("SKUs %s", got)
	}
	if r, ok := tb.Find("A-2")[0].Row("400000", "5m"); !ok || r.Xoff != "307848" || r.XonOffset != "2288" {
		t.Errorf("A-2 400000/5m: %+v %v", r, ok)
	}
	if err := run(context.Background(), &out, t.TempDir(), "x"); err == nil || !strings.Contains(err.Error(), "not a sonic-buildimage checkout") {
		t.Errorf("an empty directory: %v", err)
	}
}
