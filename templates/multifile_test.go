package templates

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"text/template"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// TestRenderMultipleFiles: a platform whose view.Info lists Files gets
// DEVICE.FIRST from device.tmpl and DEVICE.NAME from NAME.tmpl for each
// other file, blank ones left out; a platform without Files keeps its one
// DEVICE.EXT file and no extras.
func TestRenderMultipleFiles(t *testing.T) {
	f := loadExample(t, "roce-storage")
	d := sampleDevices(f)[0]
	r := newTestRenderer(t)
	one, err := r.Render(f, d)
	if err != nil {
		t.Fatal(err)
	}
	if one.Extra != nil || !strings.HasPrefix(one.Filename, d.Name+".") {
		t.Errorf("one-file platform: Filename %s, %d extras", one.Filename, len(one.Extra))
	}
	const p = schema.Platform("multi")
	spec := r.specs[d.Platform.V]
	spec.info.Files = []string{"main.conf", "second.conf", "blank.conf"}
	spec.build = func(*schema.Fabric, *schema.Device, view.Base) (any, error) { return map[string]string{"X": "x"}, nil }
	r.specs[p] = spec
	set := template.Must(template.New("multi").Parse(`{{define "device.tmpl"}}main {{.X}}{{end}}{{define "second.conf.tmpl"}}second {{.X}}{{end}}{{define "blank.conf.tmpl"}}  {{end}}`))
	r.sets[p], r.sources[p], r.sizes[p], r.bufs[p], r.stanzas[p] = set, "embedded", new(atomic.Int64), new(sync.Pool), &view.StanzaSet{Embedded: set}
	md := *d
	md.Platform = schema.Value[schema.Platform]{V: p, Set: true}
	o, err := r.Render(f, &md)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	got = append(got, o.Filename+"="+string(o.Text))
	for _, x := range o.Extra {
		got = append(got, x.Name+"="+string(x.Text))
	}
	want := d.Name + ".main.conf=main x\n " + d.Name + ".second.conf=second x\n"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("files = %q, want %q", s, want)
	}
	spec.info.Files = []string{"main.conf", "missing.conf"}
	r.specs[p] = spec
	if _, err := r.Render(f, &md); err == nil || !strings.Contains(err.Error(), "missing.conf") {
		t.Errorf("a missing template: err %v, want one naming missing.conf", err)
	}
}
