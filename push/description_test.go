package push

import (
	"encoding/json"
	"strings"
	"testing"
)

// hostileDescription is a switch folder's testdata/push/hostile.json: a
// port description written in HCL (its escapes included) at the edge of
// what the loader allows on the platform (docs/language.md, "Names"):
// every shell and CLI character the platform's description may hold,
// command substitutions included.
type hostileDescription struct {
	Description string `json:"description"`
}

// TestHostileDescriptionsFromHCL: port descriptions full of shell and CLI
// characters, loaded from HCL, are rendered on every switch platform (the
// intent's description, quoted as the platform needs) and planned and
// applied against the lab: no device shell runs a command of them. A
// description is not fabricgen's on any switch (the device keeps its own,
// as it keeps its addresses): it is in the render, never in a change.
func TestHostileDescriptionsFromHCL(t *testing.T) {
	for _, md := range matrixDevices(t) {
		if md.host {
			continue
		}
		t.Run(string(md.platform), func(t *testing.T) {
			var h hostileDescription
			if err := md.fx.PushData("hostile", &h); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(h.Description, "reboot") {
				t.Fatalf("platforms/%s/testdata/push/hostile.json: the description runs no reboot", md.fx.Platform.Folder)
			}
			// The seat's fabric ports carry the description; the other
			// devices keep theirs.
			hostile := `${each.key == local.hostile_seat ? ": ${local.hostile}" : ""}`
			in := loadMatrixIntent(t, md, []fixtureEdit{
				{file: "devices.fab.hcl", old: `description = "to ${port.value.spine}"`, new: `description = "to ${port.value.spine}` + hostile + `"`},
				{file: "devices.fab.hcl", old: `description = "to ${port.value.leaf}"`, new: `description = "to ${port.value.leaf}` + hostile + `"`},
				{file: "hostile.fab.hcl", new: "locals {\n  hostile_seat = \"" + md.name + "\"\n  hostile      = \"" + h.Description + "\"\n}\n"},
			})
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
			if r.dl.ConfigDB && !renderedPortDescription(t, rendered, want) {
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
