package templates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

func set[T any](v T) schema.Value[T] { return schema.Value[T]{V: v, Set: true} }

// tinyFabric builds a one-device fabric in Go (rendertest.TinyFabric):
// one port with RoCE on priority 3 (DSCP 26, lossless, ECN, DWRR 50), CNP
// on 6 (DSCP 48, strict) and everything else on 0 (DWRR 50); a platform
// that requires an asic gets its first.
func tinyFabric(p schema.Platform, port string) (*schema.Fabric, *schema.Device) {
	pl, ok := platforms.Get(p)
	if !ok {
		pl = platform.Platform{Name: p}
	}
	f, d := rendertest.TinyFabric(pl, port)
	if asics := pl.Spec.Attrs.ASICs; len(asics) > 0 {
		d.ASIC = set(asics[0])
	}
	return f, d
}

// portName is a port name of platform p: the first port of the first of
// its devices in the folder's own fixture (platforms/<name>/testdata).
func portName(t testing.TB, p schema.Platform) string {
	t.Helper()
	pl, ok := platforms.Get(p)
	if !ok {
		t.Fatalf("%s is no registry platform", p)
	}
	fx := platformtest.Of("..", pl)
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fx.Devices(f) {
		if len(d.Ports) > 0 {
			return d.Ports[0].Name
		}
	}
	t.Fatalf("platforms/%s: its fixture has no port", pl.Folder)
	return ""
}

// TestTinyFabricRendersEverywhere renders the hand-built fabric (without
// ECN, which not every platform takes in bytes) on every registry
// platform.
func TestTinyFabricRendersEverywhere(t *testing.T) {
	r := newTestRenderer(t)
	for _, pl := range rendered() {
		p := pl.Name
		f, d := tinyFabric(p, portName(t, p))
		d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
		o, err := r.Render(f, d)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if !strings.Contains(string(o.Text), "dut") && pl.Render.Comment != "" {
			t.Errorf("%s: the header does not name the device", p)
		}
		if !strings.HasSuffix(o.Filename, "."+registry()[p].Ext) {
			t.Errorf("%s: file name %s lacks the platform extension", p, o.Filename)
		}
	}
}

// The values each platform cannot express are tested in its folder
// (platforms/<name>/unsupported_test.go, TestUnsupportedValues).

// TestPortsMustAgree: switch platforms hold the DSCP map device-wide and
// reject ports that disagree, naming both ports.
func TestPortsMustAgree(t *testing.T) {
	r := newTestRenderer(t)
	for _, pl := range rendered() {
		if pl.Spec.Host {
			continue
		}
		p := pl.Name
		f, d := tinyFabric(p, portName(t, p))
		other := *d.Ports[0].QoS
		other.DSCP[26] = set(0)
		d.Ports = append(d.Ports, &schema.Port{Name: portName(t, p) + "9", Device: d, QoS: &other})
		f.Reindex()
		_, err := r.Render(f, d)
		if err == nil || !strings.Contains(err.Error(), "DSCP 26") {
			t.Errorf("%s: want an error about DSCP 26, got %v", p, err)
		}
	}
}

// TestTemplateOverride: --templates DIR replaces one platform's set and
// leaves the others embedded; a broken override is reported. Each
// registry platform is overridden in turn.
func TestTemplateOverride(t *testing.T) {
	for _, pl := range rendered() {
		t.Run(pl.Folder, func(t *testing.T) { checkTemplateOverride(t, pl.Name) })
	}
}

func checkTemplateOverride(t *testing.T, p schema.Platform) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, string(p)), 0o755); err != nil {
		t.Fatal(err)
	}
	tmpl := `{{range .Ports}}port {{.Name}} mtu {{.MTU}} pfc {{.PFCVector}}
{{end}}`
	if err := os.WriteFile(filepath.Join(dir, string(p), "device.tmpl"), []byte(tmpl), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	port := portName(t, p)
	// Without ECN, which not every platform takes in bytes.
	tiny := func() (*schema.Fabric, *schema.Device) {
		f, d := tinyFabric(p, port)
		d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
		return f, d
	}
	f, d := tiny()
	o, err := r.Render(f, d)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(o.Text), "port "+port+" mtu 9214 pfc 0,0,0,1,0,0,0,0\n"; got != want {
		t.Errorf("override render = %q, want %q", got, want)
	}
	if r.Source(p) != filepath.Join(dir, string(p)) {
		t.Errorf("source of %s: %q, want the override folder", p, r.Source(p))
	}
	for _, other := range renderedNames() {
		if other != p && r.Source(other) != "embedded" {
			t.Errorf("source of %s: %q, want embedded", other, r.Source(other))
		}
	}
	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, string(p)), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := NewRenderer(Options{Dir: bad}); err == nil || !strings.Contains(err.Error(), "no *.tmpl files") {
		t.Errorf("empty override folder: got %v, want an error saying it holds no *.tmpl files", err)
	}
	// A folder without device.tmpl is laid over the embedded set, which
	// keeps its own device.tmpl.
	if err := os.WriteFile(filepath.Join(bad, string(p), "other.tmpl"), []byte("{{.Device}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = NewRenderer(Options{Dir: bad})
	if err != nil {
		t.Fatalf("override without device.tmpl: %v", err)
	}
	f, d = tiny()
	emb := newTestRenderer(t)
	want, err := emb.Render(f, d)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r.Render(f, d); err != nil || string(got.Text) != string(want.Text) {
		t.Errorf("override without device.tmpl renders %v, %v; want the embedded render", got, err)
	}
	if err := os.WriteFile(filepath.Join(bad, string(p), "device.tmpl"), []byte("{{.NoSuchField}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = NewRenderer(Options{Dir: bad})
	if err != nil {
		t.Fatal(err)
	}
	f, d = tiny()
	if _, err := r.Render(f, d); err == nil || !strings.Contains(err.Error(), "NoSuchField") {
		t.Errorf("template using a missing field: got %v", err)
	}
}
