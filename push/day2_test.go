package push

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// day2Edit is the second change of the day-2 test: the scheduler weights
// of the fixture's two weighted classes (default 50, roce 50) become 40
// and 60, which every platform renders (a switch's queue bandwidth, a
// host's ETS shares).
var day2Edit = []struct{ old, new string }{
	{"role      = \"default\"\n  dscp      = [0]\n  priority  = 0\n  queue     = 0\n  scheduler = \"dwrr\"\n  weight    = 50\n",
		"role      = \"default\"\n  dscp      = [0]\n  priority  = 0\n  queue     = 0\n  scheduler = \"dwrr\"\n  weight    = 40\n"},
	{"ecn       = ecn_profile.roce\n  scheduler = \"dwrr\"\n  weight    = 50\n",
		"ecn       = ecn_profile.roce\n  scheduler = \"dwrr\"\n  weight    = 60\n"},
}

// day2Render renders the case's device from its folder's fixture fabric
// with the day-2 edit made to a copy of its qos.fab.hcl.
func day2Render(t *testing.T, pc platformCase) string {
	t.Helper()
	dir := t.TempDir()
	files, err := filepath.Glob(filepath.Join(pc.fx.FabricDir(), "*.fab.hcl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("platforms/%s: no fixture fabric files: %v", pc.pl.Folder, err)
	}
	for _, f := range files {
		text := readFile(t, f)
		if filepath.Base(f) == "qos.fab.hcl" {
			for _, e := range day2Edit {
				if !strings.Contains(text, e.old) {
					t.Fatalf("platforms/%s: testdata/fabric/qos.fab.hcl has no %q for the day-2 change", pc.pl.Folder, e.old)
				}
				text = strings.Replace(text, e.old, e.new, 1)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("platforms/%s: the fixture with the day-2 change does not load: %v", pc.pl.Folder, diags)
	}
	d := f.Device(pc.dev.name)
	if d == nil {
		t.Fatalf("platforms/%s: the fixture has no device %s", pc.pl.Folder, pc.dev.name)
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Render(f, d)
	if err != nil {
		t.Fatalf("platforms/%s: rendering %s with the day-2 change: %v", pc.pl.Folder, pc.dev.name, err)
	}
	return string(out.Text)
}

// TestDay2ChangeEveryPlatform: on every platform of the registry, a second
// change on top of the first (the folder's render applied, then the
// intent's class weights changed and rendered again) plans only that
// change, applies, and converges: the next plan is empty.
func TestDay2ChangeEveryPlatform(t *testing.T) {
	for _, pc := range platformCases(t) {
		t.Run(string(pc.dev.platform), func(t *testing.T) {
			second := day2Render(t, pc)
			if second == pc.dev.rendered {
				t.Fatalf("platforms/%s: the day-2 change does not change %s's render", pc.pl.Folder, pc.dev.name)
			}
			r := newRig(t, pc.dev)
			if res := r.apply(r.plan(), t.TempDir()); res[0].Status != StatusApplied {
				t.Fatalf("first apply: %s (%s)", res[0].Status, res[0].Reason)
			}
			r.inputs[0].Rendered = []byte(second)
			p := r.plan()
			d := p.Devices[0]
			if d.Status != planfile.StatusChange {
				t.Fatalf("day-2 plan: %s (%s), want a change", d.Status, d.Error)
			}
			if len(d.Takeover) != 0 {
				t.Errorf("day-2 plan takes over lines of fabricgen's own first change: %q", d.Takeover)
			}
			t.Logf("day-2 diff:\n%s", d.Diff.Text)
			if res := r.apply(p, t.TempDir()); res[0].Status != StatusApplied {
				t.Fatalf("day-2 apply: %s (%s)", res[0].Status, res[0].Reason)
			}
			if d := r.plan().Devices[0]; d.Status != planfile.StatusUnchanged || d.Diff.Text != "" {
				t.Errorf("plan after day 2: %s (%s), diff:\n%s", d.Status, d.Error, d.Diff.Text)
			}
		})
	}
}
