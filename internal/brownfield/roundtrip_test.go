package brownfield

import (
	"bytes"

	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/textdiff"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// digestLine is the one header line a round trip may change: the digest
// of the intent it was rendered from.
var digestLine = regexp.MustCompile(`(?m)^(.*intent digest )[0-9a-f]{64}`)

// roundTripSources are the fabrics a round trip renders: each platform's
// fixture and every example (examples/broken holds fabrics lint refuses,
// which render all the same). A large example is cut to its first
// devices of the platform.
func roundTripSources(t *testing.T, p platform.Platform) map[string]string {
	t.Helper()
	root := filepath.Join("..", "..")
	out := map[string]string{"fixture": platformtest.Of(root, p).FabricDir()}
	ents, err := os.ReadDir(filepath.Join(root, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, "examples", e.Name())
		if e.Name() == "broken" {
			subs, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range subs {
				if s.IsDir() {
					out["broken/"+s.Name()] = filepath.Join(dir, s.Name())
				}
			}
			continue
		}
		if files, err := schema.IntentFiles(dir); err != nil || len(files) == 0 {
			continue // configurations to import (examples/brownfield), no intent
		}
		out[e.Name()] = dir
	}
	return out
}

const roundTripMaxDevices = 12

// TestRoundTrip: for every platform that imports, render(import(render(x)))
// reproduces render(x) line for line, for the platform's fixture and every
// example; only the intent-digest header line may differ. Attributes a
// configuration does not carry (a SONiC release) are given as the command
// line gives them (--os-version, --attr), and logged.
func TestRoundTrip(t *testing.T) {
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range platforms.Needing("importer") {
		if p.Import == nil {
			continue
		}
		t.Run(string(p.Name), func(t *testing.T) {
			srcs := roundTripSources(t, p)
			keys := make([]string, 0, len(srcs))
			for k := range srcs {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				t.Run(k, func(t *testing.T) { roundTrip(t, r, p, srcs[k]) })
			}
		})
	}
}

func roundTrip(t *testing.T, r *templates.Renderer, p platform.Platform, dir string) {
	f, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("%s does not load: %v", dir, diags)
	}
	var devs []*schema.Device
	for _, d := range f.Devices {
		if d.Platform.V == p.Name && len(devs) < roundTripMaxDevices {
			devs = append(devs, d)
		}
	}
	if len(devs) == 0 {
		return
	}
	want := map[string]string{}
	var srcs []Source
	for _, d := range devs {
		out, err := r.Render(f, d)
		if err != nil {
			t.Logf("%s: the original does not render, skipped: %v", d.Name, err)
			continue
		}
		want[d.Name] = string(out.Text)
		srcs = append(srcs, Source{Name: out.Filename, Data: out.Text})
	}
	if len(srcs) == 0 {
		return
	}
	ctx := context.Background()
	var devsIn []*importer.Device
	for _, s := range srcs {
		d, err := readOne(ctx, p, s, Options{Platform: p.Name})
		if err != nil {
			t.Fatalf("import: %v", err)
		}
		devsIn = append(devsIn, d)
	}
	byName := map[string]*schema.Device{}
	for _, d := range devs {
		byName[d.Name] = d
	}
	for _, d := range devsIn {
		orig := byName[d.Name]
		if orig == nil {
			t.Errorf("imported device %q is none of the rendered ones (the name must come from the configuration)", d.Name)
			continue
		}
		fill := func(attr string, got *string, v schema.Value[string]) {
			if *got == "" && v.Set {
				t.Logf("%s: %s %q given, the configuration does not carry it", d.Name, attr, v.V)
				*got = v.V
			}
		}
		if d.OSVersion == "" && orig.OSVersion.Set {
			t.Logf("%s: os_version %q given, the configuration does not carry it", d.Name, orig.OSVersion.V.Raw)
			d.OSVersion = orig.OSVersion.V.Raw
		}
		fill("asic", &d.ASIC, orig.ASIC)
		fill("model", &d.Model, orig.Model)
		fill("hwsku", &d.HWSKU, orig.HWSKU)
		fill("driver", &d.Driver, orig.Driver)
		fill("buffer_model", &d.BufferModel, orig.BufferModel)
	}
	writeAndCompare(t, r, devsIn, want, "round trip")
}

// writeAndCompare writes devs as intent, loads it, renders each device
// want names and compares with want (the digest line aside).
func writeAndCompare(t *testing.T, r *templates.Renderer, devs []*importer.Device, want map[string]string, what string) {
	t.Helper()
	in, err := importer.Write(devs, importer.Options{Spec: Spec})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range in.Report {
		t.Logf("report: %s:%d: %s", l.File, l.Line, l.Why)
	}
	for name, data := range in.Files {
		if f := hclwrite.Format(data); !bytes.Equal(f, data) {
			t.Errorf("%s is not fmt-clean:\n%s", name, textdiff.Unified("written", "formatted", string(data), string(f)).Text)
		}
	}
	out := t.TempDir()
	if err := WriteDir(out, in); err != nil {
		t.Fatal(err)
	}
	g, diags := schema.Load(out, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("the written intent does not load: %v\n%s", diags, dump(in))
	}
	for _, d := range g.Devices {
		w, ok := want[d.Name]
		if !ok {
			continue
		}
		o, err := r.Render(g, d)
		if err != nil {
			t.Errorf("%s: the written intent does not render: %v\n%s", d.Name, err, dump(in))
			continue
		}
		got := digestLine.ReplaceAllString(string(o.Text), "${1}X")
		exp := digestLine.ReplaceAllString(w, "${1}X")
		if got != exp {
			t.Errorf("%s: the %s differs from the render:\n%s\n%s", d.Name, what, textdiff.Unified("render", what, exp, got).Text, dump(in))
		}
	}
}

func dump(in *importer.Intent) string {
	var b strings.Builder
	names := make([]string, 0, len(in.Files))
	for n := range in.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "--- %s\n%s", n, in.Files[n])
	}
	return b.String()
}
