package templates

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestEdgeNamesRender renders every platform of clos-400g twice: as it is,
// and with names and descriptions at the edge of what the loader allows
// (host ports full of "_ . - @", descriptions holding everything their
// platform lets through). No name may add a line, and on hosts every line
// naming a port must name it as one plain shell word.
func TestEdgeNamesRender(t *testing.T) {
	plain := loadExample(t, "clos-400g")
	edge, diags := schema.Load(filepath.Join(repoRoot(t), "examples", "clos-400g"), schema.Options{Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Errs())
	}
	edgeDesc := map[schema.Platform]string{
		schema.AristaEOS:     "to a; b && c $(d) `e` {f} 'g' \"h\" ~i #j",
		schema.CiscoNXOS:     "to a, b && c $(d) `e` {f} 'g' \"h\" ~i #j",
		schema.JuniperJunos:  "to a; b && c $(d) `e` | {f} 'g' ~i #j ?",
		schema.NvidiaCumulus: "to a; b && c | {f} ~i #j ? < >",
		schema.SONiC:         "to a; b && c $(d) `e` | \"h\" \\ ' ? < >",
	}
	for _, d := range edge.Devices {
		for i, p := range d.Ports {
			if d.HostPlatform {
				p.Name = []string{"e.x-y@z_1", "_a.b-c@d", "x@y", "n-0.1_2@3"}[i%4]
				continue
			}
			// Only ports that have a description (or, on EOS and
			// NX-OS, get one naming the peer) print one.
			if desc, ok := edgeDesc[d.Platform.V]; ok && (p.Description != "" || p.Peer != nil && (d.Platform.V == schema.AristaEOS || d.Platform.V == schema.CiscoNXOS)) {
				p.Description = desc
			}
		}
	}
	edge.Reindex()
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
		if d.Platform.V != schema.SONiC && bytes.Count(got.Text, []byte("\n")) != bytes.Count(want.Text, []byte("\n")) {
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
// loader's rules cannot put a newline or a command into a configuration.
func TestRenderRefusesUnsafeNames(t *testing.T) {
	r := newTestRenderer(t)
	for _, bad := range []struct {
		platform schema.Platform
		edit     func(p *schema.Port)
	}{
		{schema.AristaEOS, func(p *schema.Port) { p.Description = "x\nusername evil privilege 15" }},
		{schema.NvidiaCumulus, func(p *schema.Port) { p.Description = "$(reboot)" }},
		{schema.NvidiaMLNX, func(p *schema.Port) { p.Name = "e$(reboot)" }},
		{schema.LinuxDCB, func(p *schema.Port) { p.Name = "e;reboot" }},
	} {
		f, diags := schema.Load(filepath.Join(repoRoot(t), "examples", "clos-400g"), schema.Options{Platforms: platforms.Catalog()})
		if diags.HasErrors() {
			t.Fatal(diags.Errs())
		}
		for _, d := range f.Devices {
			if d.Platform.V != bad.platform {
				continue
			}
			bad.edit(d.Ports[0])
			f.Reindex()
			out, err := r.Render(f, d)
			if err == nil {
				t.Errorf("%s: rendered:\n%s", d.Name, out.Text)
			} else if !strings.Contains(err.Error(), "cannot render") {
				t.Errorf("%s: %v", d.Name, err)
			}
			break
		}
	}
}
