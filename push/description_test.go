package push

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// hostileDescriptions are port descriptions written in HCL at the edge of
// what the loader allows on each switch platform (docs/language.md,
// "Names"): every shell and CLI character the platform's description may
// hold, command substitutions included.
var hostileDescriptions = map[schema.Platform]string{
	aristaEOS:     "a; b && c $(reboot) `reboot` {f} 'g' \\\"h\\\" ~i #j",
	ciscoNXOS:     "a && c $(reboot) `reboot` {f} 'g' \\\"h\\\" ~i #j",
	juniperJunos:  "a; b && c $(reboot) `reboot` | {f} 'g' ~i #j ?",
	nvidiaCumulus: "a; b && c | reboot {f} ~i #j ? < >",
	sonicOS:       "a; b && c $(reboot) `reboot` | \\\"h\\\" \\\\ ' ? < >",
}

// TestHostileDescriptionsFromHCL: port descriptions full of shell and CLI
// characters, loaded from HCL, are rendered on every switch platform (the
// intent's description, quoted as the platform needs) and planned and
// applied against the lab: no device shell runs a command of them. A
// description is not fabricgen's on any switch (the device keeps its own,
// as it keeps its addresses): it is in the render, never in a change.
func TestHostileDescriptionsFromHCL(t *testing.T) {
	var locals strings.Builder
	locals.WriteString("locals {\n  hostile = {\n")
	for p, d := range hostileDescriptions {
		locals.WriteString("    " + string(p) + " = \"" + d + "\"\n")
	}
	locals.WriteString("  }\n}\n")
	in := loadMatrixIntent(t, []fixtureEdit{
		{file: "devices.fab.hcl", old: `description = "to ${port.value.spine}"`, new: `description = "to ${port.value.spine}: ${local.hostile[local.seat[each.key]]}"`},
		{file: "devices.fab.hcl", old: `description = "to ${port.value.leaf}"`, new: `description = "to ${port.value.leaf}: ${local.hostile[local.seat[each.key]]}"`},
		{file: "hostile.fab.hcl", new: locals.String()},
	})
	for _, md := range matrixDevices {
		if platforms.IsHost(md.platform) {
			continue
		}
		t.Run(string(md.platform), func(t *testing.T) {
			d := in.f.Device(md.name)
			var want string
			for _, p := range d.Ports {
				if strings.HasPrefix(p.Description, "to spine") || strings.HasPrefix(p.Description, "to leaf") {
					want = p.Description
				}
			}
			if want == "" || !strings.Contains(want, "reboot") {
				t.Fatalf("%s: no port has the hostile description", md.name)
			}
			rendered := in.rendered[md.name]
			if !strings.Contains(rendered, "description") || !strings.Contains(rendered, "reboot") {
				t.Fatalf("%s: the render does not print the description:\n%s", md.name, rendered)
			}
			r := newMatrixRig(t, md, md.brownfield(t))
			r.converge(t, in, "hostile descriptions")
			dev := r.lab.Device(md.name)
			for _, argv := range dev.ExecutedArgv() {
				if injected(argv) {
					t.Fatalf("the device's shell ran %q", argv)
				}
			}
			if mustDialect(md.platform).ConfigDB && !renderedPortDescription(t, rendered, want) {
				t.Errorf("the render has no PORT description %q", want)
			}
			if p := r.plan(t, in); strings.Contains(p.Devices[0].Diff.Text, "reboot") {
				t.Errorf("a plan changes a description:\n%s", p.Devices[0].Diff.Text)
			}
		})
	}
}

// renderedPortDescription reports whether a rendered CONFIG_DB holds a
// PORT whose description is want.
func renderedPortDescription(t *testing.T, rendered, want string) bool {
	t.Helper()
	var db struct {
		PORT map[string]map[string]any
	}
	if err := json.Unmarshal([]byte(rendered), &db); err != nil {
		t.Fatal(err)
	}
	for _, fields := range db.PORT {
		if fields["description"] == want {
			return true
		}
	}
	return false
}
