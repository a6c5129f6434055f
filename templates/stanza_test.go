package templates

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/templates/view"
)

// overrideCase changes one sub-template file of a platform: the line add
// goes after the template text anchor, and every line it renders holds
// marker. Each platform folder gives its cases in
// testdata/overrides.json ("interface", and "acl" for a switch), written
// against its own fixture.
type overrideCase struct {
	File   string `json:"file"`
	Anchor string `json:"anchor"`
	Add    string `json:"add"`
	// Want is one rendered new line, with its line breaks.
	Want string `json:"want"`
	// PerPort is true for one added line per port, each naming its port.
	PerPort bool `json:"per_port,omitempty"`
	// Inline is the text the override adds inside existing lines (the
	// render without it must be the embedded one), "" when it adds lines.
	Inline string `json:"inline,omitempty"`
	// Note says why the anchor is where it is.
	Note string `json:"note,omitempty"`
}

// overrideCases reads a folder's override cases: kind → case.
func overrideCases(t *testing.T, fx platformtest.Fixture) map[string]overrideCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fx.Dir, "overrides.json"))
	if err != nil {
		t.Fatalf("platforms/%s: no override cases (testdata/overrides.json): %v", fx.Platform.Folder, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var out map[string]overrideCase
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("platforms/%s: testdata/overrides.json: %v", fx.Platform.Folder, err)
	}
	return out
}

// checkOverride renders every device of the fixture's platform with the
// override and with the embedded templates: without the lines holding
// marker, the two must be byte for byte the same.
func checkOverride(t *testing.T, fx platformtest.Fixture, emb *Renderer, tc overrideCase, marker string) {
	t.Helper()
	p := fx.Platform
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	src, err := fs.ReadFile(p.Templates, tc.File)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), tc.Anchor) {
		t.Fatalf("the embedded %s has no text %q", tc.File, tc.Anchor)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, string(p.Name)), 0o755); err != nil {
		t.Fatal(err)
	}
	over := strings.Replace(string(src), tc.Anchor, tc.Anchor+tc.Add, 1)
	if err := os.WriteFile(filepath.Join(dir, string(p.Name), tc.File), []byte(over), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	seen := false
	for _, d := range fx.Devices(f) {
		want, err := emb.Render(f, d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Render(f, d)
		if err != nil {
			t.Fatal(err)
		}
		seen = seen || strings.Contains(string(got.Text), tc.Want)
		if tc.Inline != "" {
			if strings.ReplaceAll(string(got.Text), tc.Inline, "") != string(want.Text) {
				t.Errorf("%s: without %q the override render differs from the embedded one:\n%s", d.Name, tc.Inline, got.Text)
			}
			continue
		}
		var kept, added []string
		for _, l := range strings.Split(string(got.Text), "\n") {
			if strings.Contains(l, marker) {
				added = append(added, l)
			} else {
				kept = append(kept, l)
			}
		}
		if strings.Join(kept, "\n") != string(want.Text) {
			t.Errorf("%s: without the added lines the override render differs from the embedded one:\n%s", d.Name, got.Text)
		}
		names := map[string]bool{}
		for _, l := range added {
			names[l] = true
		}
		if len(added) == 0 || tc.PerPort && (len(names) != len(added) || len(added) != len(d.Ports)) {
			t.Errorf("%s: added lines %q, want one per port, each naming its port", d.Name, added)
		}
	}
	if !seen {
		t.Errorf("no %s device of platforms/%s/testdata/fabric renders %q", p.Name, p.Folder, tc.Want)
	}
}

// TestInterfaceOverride adds one line to the "interface" sub-template of
// every registry platform through Options.Dir (what --templates DIR sets),
// with only that file in the folder. Every device of the platform's
// fixture must render as with the embedded templates plus that line once
// per port, with each port's own name (override stanzas of switches are
// not shared between ports: {{len .Name}} sees the real name, not a cache
// mark).
func TestInterfaceOverride(t *testing.T) {
	emb := newTestRenderer(t)
	for _, fx := range platformtest.All("..") {
		t.Run(fx.Platform.Folder, func(t *testing.T) {
			tc, ok := overrideCases(t, fx)["interface"]
			if !ok {
				t.Fatalf("platforms/%s/testdata/overrides.json has no interface override case", fx.Platform.Folder)
			}
			checkOverride(t, fx, emb, tc, "SITE-OVERRIDE")
		})
	}
}

// TestACLOverride changes one line of each switch platform's ACL entry
// sub-template (its "acl" case) and sees it on every entry, nothing else
// changed.
func TestACLOverride(t *testing.T) {
	emb := newTestRenderer(t)
	for _, fx := range platformtest.All("..") {
		if fx.Platform.Spec.Host {
			continue
		}
		t.Run(fx.Platform.Folder, func(t *testing.T) {
			tc, ok := overrideCases(t, fx)["acl"]
			if !ok {
				t.Fatalf("platforms/%s/testdata/overrides.json has no acl override case", fx.Platform.Folder)
			}
			checkOverride(t, fx, emb, tc, "SITE-ACL")
		})
	}
}

// TestHostOverrideHasNoRawName: the host "interface" view holds no
// unquoted name, so an override that prints one fails with the field named
// instead of writing an unquoted word into the script.
func TestHostOverrideHasNoRawName(t *testing.T) {
	hosts := 0
	for _, fx := range platformtest.All("..") {
		pl := fx.Platform
		if !pl.Spec.Host {
			continue
		}
		hosts++
		f, err := fx.Load()
		if err != nil {
			t.Fatal(err)
		}
		p := pl.Name
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, string(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		over := `{{define "interface"}}ip link set dev {{.Name}} up{{end}}`
		if err := os.WriteFile(filepath.Join(dir, string(p), "interface.tmpl"), []byte(over), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := NewRenderer(Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range fx.Devices(f) {
			out, err := r.Render(f, d)
			if err == nil || !strings.Contains(err.Error(), "can't evaluate field Name") {
				t.Errorf("%s: an override printing .Name rendered (%v):\n%s", d.Name, err, textOf(out))
			}
			break
		}
	}
	if hosts == 0 {
		t.Error("no host platform in the registry")
	}
}

func textOf(o *Output) string {
	if o == nil {
		return ""
	}
	return string(o.Text)
}

// TestFillMarks pins the mark substitution the stanza cache relies on.
func TestFillMarks(t *testing.T) {
	cases := []struct {
		text   string
		values []string
		want   string
	}{
		{"interface " + view.Mark(0, "x") + "\n   description " + view.Mark(1, "y"), []string{"Ethernet1", "to spine1"}, "interface Ethernet1\n   description to spine1"},
		{"no marks", []string{"a"}, "no marks"},
		{view.Mark(1, "x") + view.Mark(0, "x"), []string{"a", "b"}, "ba"},
		{"value holding a mark " + view.Mark(0, "x"), []string{"\x00\x00"}, "value holding a mark \x00\x00"},
		{"trailing \x00", []string{"a"}, "trailing \x00"},
	}
	for _, tc := range cases {
		if got := view.FillMarks(tc.text, tc.values); got != tc.want {
			t.Errorf("fillMarks(%q, %q) = %q, want %q", tc.text, tc.values, got, tc.want)
		}
	}
	if view.Mark(0, "") != "" {
		t.Error("mark of an empty value must be empty")
	}
}

// TestRelease: released output buffers are reused by later renders without
// changing any render or any output still held.
func TestRelease(t *testing.T) {
	f := loadExample(t, "clos-400g")
	r := newTestRenderer(t)
	ref := newTestRenderer(t)
	kept := map[string][]byte{}
	for round := 0; round < 3; round++ {
		for i, d := range f.Devices {
			o, err := r.Render(f, d)
			if err != nil {
				continue
			}
			want, err := ref.Render(f, d)
			if err != nil {
				t.Fatal(err)
			}
			if string(o.Text) != string(want.Text) {
				t.Fatalf("round %d: %s renders differently after buffers were released", round, d.Name)
			}
			if i%2 == 0 && round == 0 {
				kept[d.Name] = append([]byte(nil), o.Text...)
				kept[d.Name+"/live"] = o.Text // held, never released
				continue
			}
			o.Release()
			if o.Text != nil {
				t.Fatal("Release left Text set")
			}
			o.Release() // a second Release does nothing
		}
	}
	for name, b := range kept {
		if live, ok := kept[name+"/live"]; ok && string(live) != string(b) {
			t.Errorf("%s: a held output changed after other outputs were released", name)
		}
	}
}
