package lint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestSameLineFindingPointsAtItsPlaces: findings that one line causes at
// several ports, merged into one, list each port among its places.
func TestSameLineFindingPointsAtItsPlaces(t *testing.T) {
	a := Finding{Summary: "leaf1:Ethernet1 x", Device: "leaf1", Port: "Ethernet1"}
	b := Finding{Summary: "leaf2:Ethernet1 x", Device: "leaf2", Port: "Ethernet1"}
	line := schema.Range{Filename: "q.fab.hcl", Start: schema.Pos{Line: 3, Column: 1}, End: schema.Pos{Line: 3, Column: 9}}
	a.Subject, b.Subject = &line, &line
	places := func(dev, port string) (schema.Range, bool) {
		return schema.Range{Filename: "d.fab.hcl", Start: schema.Pos{Line: int32(len(dev) + len(port)), Column: 1}}, true
	}
	got := mergeSameLine([]Finding{a, b}, places)
	if len(got) != 1 || got[0].Count != 2 {
		t.Fatalf("got %d findings (%+v), want one about 2 places", len(got), got)
	}
	var msgs []string
	for _, r := range got[0].Places {
		msgs = append(msgs, r.Message)
	}
	if j := strings.Join(msgs, "|"); j != "port leaf1:Ethernet1|port leaf2:Ethernet1" {
		t.Errorf("places %q, want both ports", j)
	}
}

// TestFindingsAboutManyPlacesListThem: through the loader, every finding
// of the examples and fixtures that counts several ports lists them (up to
// diag.MaxPlaces) as its places, so SARIF and JSON can point at each.
func TestFindingsAboutManyPlacesListThem(t *testing.T) {
	dirs, _ := filepath.Glob("../examples/broken/*")
	fixtures, _ := filepath.Glob("testdata/fixtures/*")
	dirs = append(dirs, fixtures...)
	seen := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		f, ds := schema.Load(dir, schema.Options{Platforms: platforms.Catalog(), Getenv: func(string) string { return "" }})
		if ds.HasErrors() {
			continue
		}
		fs, err := Run(context.Background(), f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range fs {
			if fd.Count < 2 || fd.Device == "" {
				continue
			}
			seen++
			if len(fd.Places) < 2 && len(fd.Related) < fd.Count-1 {
				t.Errorf("%s: %s %q about %d places lists %d places", dir, fd.Rule, fd.Summary, fd.Count, len(fd.Places))
			}
		}
	}
	if seen == 0 {
		t.Error("no finding about several places in the examples and fixtures: nothing was checked")
	}
	t.Logf("%d findings about several places checked", seen)
}
