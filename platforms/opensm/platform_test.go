package opensm

import (
	"bytes"
	"strings"
	"testing"
	"text/template"

	"github.com/fabricgen/fabricgen/templates/view"
)

// TestPlatformRendersLikeRender: the platform's parts, used the way the
// renderer uses them (templates parsed with view.Funcs, device.tmpl for
// the first of Render.Files, NAME.tmpl for the others, blank files left
// out), give the files Render gives; and the parts the render needs are
// there.
func TestPlatformRendersLikeRender(t *testing.T) {
	p := Platform()
	for _, part := range []string{"name", "intent spec", "render info", "view builder", "templates", "fidelity rows"} {
		for _, m := range p.Missing() {
			if strings.Contains(m, "no "+part+" (") {
				t.Errorf("missing part: %s", m)
			}
		}
	}
	set, err := template.New("opensm").Option("missingkey=error").Funcs(view.Funcs()).ParseFS(p.Templates, "*.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	f := testFabric()
	v, err := p.View(f, f.Device("sm02"), view.Base{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Render(f)
	if err != nil {
		t.Fatal(err)
	}
	var got []File
	for i, name := range p.Render.Files {
		tmpl := name + ".tmpl"
		if i == 0 {
			tmpl = "device.tmpl"
		}
		var b bytes.Buffer
		if err := set.ExecuteTemplate(&b, tmpl, v); err != nil {
			t.Fatal(err)
		}
		if len(bytes.TrimSpace(b.Bytes())) > 0 {
			got = append(got, File{Name: name, Text: b.Bytes()})
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d files through the platform parts, %d from Render", len(got), len(want))
	}
	for i := range got {
		if got[i].Name != want[i].Name || !bytes.Equal(got[i].Text, want[i].Text) {
			t.Errorf("%s differs from Render's %s", got[i].Name, want[i].Name)
		}
	}
}
