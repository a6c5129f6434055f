package templates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// TestInterfaceOverride adds one line to the "interface" sub-template
// through Options.Dir (what --templates DIR sets), with only that file in
// the folder. Every device of the platform must render as with the
// embedded templates plus that line once per stanza the anchor line is in,
// with each port's own name (override stanzas are not shared between ports:
// {{len .Name}} sees the real name, not a cache mark).
func TestInterfaceOverride(t *testing.T) {
	const marker = "SITE-OVERRIDE"
	cases := []struct {
		platform schema.Platform
		anchor   string // template line the new line follows
		add      string // the new template line
		want     string // one rendered new line
	}{
		{schema.AristaEOS, "   priority-flow-control on\n", `   !! SITE-OVERRIDE {{printf "%s/pfc" .Name}} {{len .Name}}` + "\n",
			"\n   !! SITE-OVERRIDE Ethernet1/1/pfc 11\n"},
		{schema.CiscoNXOS, "  mtu {{.MTU}}\n", "  ! SITE-OVERRIDE {{.Name}} mtu {{.MTU}}\n",
			"\n  ! SITE-OVERRIDE Ethernet1/1 mtu 9214\n"},
		{schema.NvidiaCumulus, "nv set interface {{.Word}} link mtu {{.MTU}}\n", "nv set interface {{.Word}} link state up # SITE-OVERRIDE {{.Name}}\n",
			"\nnv set interface swp1 link state up # SITE-OVERRIDE swp1\n"},
	}
	f := loadExample(t, "clos-400g")
	emb := newTestRenderer(t)
	for _, tc := range cases {
		t.Run(string(tc.platform), func(t *testing.T) {
			src, err := embedded.ReadFile(string(tc.platform) + "/interface.tmpl")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(src), tc.anchor) {
				t.Fatalf("the embedded interface.tmpl has no line %q", tc.anchor)
			}
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, string(tc.platform)), 0o755); err != nil {
				t.Fatal(err)
			}
			over := strings.Replace(string(src), tc.anchor, tc.anchor+tc.add, 1)
			if err := os.WriteFile(filepath.Join(dir, string(tc.platform), "interface.tmpl"), []byte(over), 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := NewRenderer(Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			seen := false
			for _, d := range f.Devices {
				if d.Platform.V != tc.platform {
					continue
				}
				want, err := emb.Render(f, d)
				if err != nil {
					t.Fatal(err)
				}
				got, err := r.Render(f, d)
				if err != nil {
					t.Fatal(err)
				}
				seen = seen || strings.Contains(string(got.Text), tc.want)
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
				if len(added) == 0 || len(names) != len(added) {
					t.Errorf("%s: added lines %q, want one per port, each naming its port", d.Name, added)
				}
			}
			if !seen {
				t.Errorf("no %s device of clos-400g renders %q", tc.platform, tc.want)
			}
		})
	}
}

// TestFillMarks pins the mark substitution the stanza cache relies on.
func TestFillMarks(t *testing.T) {
	cases := []struct {
		text   string
		values []string
		want   string
	}{
		{"interface " + mark(0, "x") + "\n   description " + mark(1, "y"), []string{"Ethernet1", "to spine1"}, "interface Ethernet1\n   description to spine1"},
		{"no marks", []string{"a"}, "no marks"},
		{mark(1, "x") + mark(0, "x"), []string{"a", "b"}, "ba"},
		{"value holding a mark " + mark(0, "x"), []string{"\x00\x00"}, "value holding a mark \x00\x00"},
		{"trailing \x00", []string{"a"}, "trailing \x00"},
	}
	for _, tc := range cases {
		if got := fillMarks(tc.text, tc.values); got != tc.want {
			t.Errorf("fillMarks(%q, %q) = %q, want %q", tc.text, tc.values, got, tc.want)
		}
	}
	if mark(0, "") != "" {
		t.Error("mark of an empty value must be empty")
	}
}

// TestCumulusACLOverride changes the "acl_rule" sub-template of
// nvidia_cumulus through Options.Dir and sees the change in the ACL
// commands, the rest of the render unchanged.
func TestCumulusACLOverride(t *testing.T) {
	f, d := cumulusACLFabric(t)
	src, err := embedded.ReadFile("nvidia_cumulus/acl.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	const from = "nv set acl {{.ACL}} rule {{.Seq}} action {{.Action}}"
	if !strings.Contains(string(src), from) {
		t.Fatalf("acl.tmpl has no line %q", from)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "nvidia_cumulus"), 0o755); err != nil {
		t.Fatal(err)
	}
	over := strings.Replace(string(src), from, from+" # site {{.Seq}}", 1)
	if err := os.WriteFile(filepath.Join(dir, "nvidia_cumulus", "acl.tmpl"), []byte(over), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want, err := newTestRenderer(t).Render(f, d)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Render(f, d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got.Text), "rule 10 action permit # site 10\n") {
		t.Errorf("the override render lacks the changed line:\n%s", got.Text)
	}
	if undone := strings.ReplaceAll(string(got.Text), " # site 10", ""); strings.ReplaceAll(undone, " # site 30", "") != string(want.Text) {
		t.Errorf("the override changed more than the action lines:\n%s", got.Text)
	}
}

// cumulusACLFabric is a one-port Cumulus device with an ACL of a permit,
// a re-marking and a deny rule bound inbound.
func cumulusACLFabric(t *testing.T) (*schema.Fabric, *schema.Device) {
	t.Helper()
	acl := &schema.ACL{Name: "roce-mark", Rules: []*schema.ACLRule{
		{Seq: 10, Family: "ipv4", Protocol: set("udp"), Action: set(schema.ActionPermit),
			DstPorts: set([]schema.PortRange{{From: 4791, To: 4791}}), DSCP: set([]int{48}), SetDSCP: schema.Value[int]{V: -1}},
		{Seq: 20, Family: "ipv4", Protocol: set("udp"), Action: set(schema.ActionPermit),
			DstPorts: set([]schema.PortRange{{From: 4791, To: 4791}}), SetDSCP: set(26)},
		{Seq: 30, Family: "ipv4", Protocol: set("tcp"), Action: set(schema.ActionDeny),
			SrcPorts: set([]schema.PortRange{{From: 179, To: 179}}), SetDSCP: schema.Value[int]{V: -1}},
	}}
	f, d := tinyFabric(schema.NvidiaCumulus, "swp1")
	f.ACLs = []*schema.ACL{acl}
	d.Ports[0].ACLIn = []*schema.ACL{acl}
	return f, d
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
