package templates

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// edgeText is a description holding every character the loader's common
// rule lets through that some platform quotes, expands or treats as
// syntax; edgeDescription drops those platform p refuses
// (Spec.Text.Refuse).
const edgeText = "to a; b, && c $(d) `e` | {f} 'g' \"h\" \\ ~i #j ? < >"

func edgeDescription(p schema.Platform) string {
	pl, _ := platforms.Get(p)
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(pl.Spec.Text.Refuse, r) {
			return -1
		}
		return r
	}, edgeText)
}

// TestEdgeNamesRender renders every platform of clos-400g twice: with
// plain descriptions, and with names and descriptions at the edge of what
// the loader allows (host ports full of "_ . - @", descriptions holding
// everything their platform lets through), each on the same ports. No
// name may add a line, and on hosts every line naming a port must name it
// as one plain shell word.
func TestEdgeNamesRender(t *testing.T) {
	load := func() *schema.Fabric {
		f, diags := schema.Load(filepath.Join(repoRoot(t), "examples", "clos-400g"), schema.Options{Platforms: platforms.Catalog()})
		if diags.HasErrors() {
			t.Fatal(diags.Errs())
		}
		return f
	}
	plain, edge := load(), load()
	for i, d := range edge.Devices {
		for j, p := range d.Ports {
			if d.HostPlatform {
				p.Name = []string{"e.x-y@z_1", "_a.b-c@d", "x@y", "n-0.1_2@3"}[j%4]
				continue
			}
			// A port with a description, or a peer some platforms
			// name in one, prints one.
			if p.Description != "" || p.Peer != nil {
				p.Description = edgeDescription(d.Platform.V)
				plain.Devices[i].Ports[j].Description = "to the peer"
			}
		}
	}
	edge.Reindex()
	plain.Reindex()
	r := newTestRenderer(t)
	for i, d := range edge.Devices {
		want, err := r.Render(plain, plain.Devices[i])
		if err != nil {
			continue
		}
		got, err := r.Render(edge, d)
		if err != nil {
			t.Errorf("%s: %v", d.Name, err)
			continue
		}
		pl, _ := platforms.Get(d.Platform.V)
		if pl.Render.Comment != "" && bytes.Count(got.Text, []byte("\n")) != bytes.Count(want.Text, []byte("\n")) {
			t.Errorf("%s (%s): %d lines with edge names, %d without", d.Name, d.Platform.V, bytes.Count(got.Text, []byte("\n")), bytes.Count(want.Text, []byte("\n")))
		}
		if !d.HostPlatform {
			continue
		}
		for _, line := range strings.Split(string(got.Text), "\n") {
			for _, p := range d.Ports {
				if strings.Contains(line, p.Name) && strings.ContainsAny(p.Name, "$`;|&<>(){}'\" \\*?[]~#!") {
					t.Errorf("%s: %q holds a shell metacharacter", d.Name, p.Name)
				}
			}
		}
	}
}

// TestRenderRefusesUnsafeNames: a Fabric edited in Go code past the
// loader's rules cannot put a newline or a command into a configuration:
// on every registry platform, a description with a newline (switches) or a
// port name with a command (hosts) is refused, and so is a description
// with a command substitution where the platform refuses "$".
func TestRenderRefusesUnsafeNames(t *testing.T) {
	r := newTestRenderer(t)
	type edit struct {
		name string
		do   func(p *schema.Port)
	}
	for _, pl := range rendered() {
		var edits []edit
		switch {
		case pl.Spec.Host:
			edits = []edit{{"name e$(reboot)", func(p *schema.Port) { p.Name = "e$(reboot)" }}, {"name e;reboot", func(p *schema.Port) { p.Name = "e;reboot" }}}
		default:
			edits = []edit{{"description with a newline", func(p *schema.Port) { p.Description = "x\nusername evil privilege 15" }}}
			if strings.Contains(pl.Spec.Text.Refuse, "$") {
				edits = append(edits, edit{"description $(reboot)", func(p *schema.Port) { p.Description = "$(reboot)" }})
			}
		}
		for _, e := range edits {
			// A device of the platform in clos-400g, or the tiny fabric
			// when the example has none.
			f, diags := schema.Load(filepath.Join(repoRoot(t), "examples", "clos-400g"), schema.Options{Platforms: platforms.Catalog()})
			if diags.HasErrors() {
				t.Fatal(diags.Errs())
			}
			var d *schema.Device
			for _, x := range f.Devices {
				if x.Platform.V == pl.Name {
					d = x
					break
				}
			}
			if d == nil {
				f, d = tinyFabric(pl.Name, portName(t, pl.Name))
				d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			}
			e.do(d.Ports[0])
			f.Reindex()
			out, err := r.Render(f, d)
			if err == nil {
				t.Errorf("%s, %s: rendered:\n%s", pl.Name, e.name, out.Text)
			} else if !strings.Contains(err.Error(), "cannot render") {
				t.Errorf("%s, %s: %v", pl.Name, e.name, err)
			}
		}
	}
}
