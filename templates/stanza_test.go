package templates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// stanzaFabric loads testdata/stanza: one device per platform and host
// variant, with every port and ACL entry shape the sub-templates print.
func stanzaFabric(t *testing.T) *schema.Fabric {
	t.Helper()
	f, diags := schema.Load(filepath.Join("testdata", "stanza"), schema.Options{Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Errs())
	}
	return f
}

// overrideCase changes one sub-template file of a platform: the line add
// goes after the template text anchor, and every line it renders holds
// marker.
type overrideCase struct {
	platform    schema.Platform
	file        string
	anchor, add string
	want        string // one rendered new line, with its line breaks
	perPort     bool   // one added line per port, each naming its port
	// inline is the text the override adds inside existing lines (the
	// render without it must be the embedded one), "" when it adds lines.
	inline string
}

// checkOverride renders every device of the case's platform in f with the
// override and with the embedded templates: without the lines holding
// marker, the two must be byte for byte the same.
func checkOverride(t *testing.T, f *schema.Fabric, emb *Renderer, tc overrideCase, marker string) {
	t.Helper()
	src, err := embeddedFS(t).ReadFile(string(tc.platform) + "/" + tc.file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), tc.anchor) {
		t.Fatalf("the embedded %s has no text %q", tc.file, tc.anchor)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, string(tc.platform)), 0o755); err != nil {
		t.Fatal(err)
	}
	over := strings.Replace(string(src), tc.anchor, tc.anchor+tc.add, 1)
	if err := os.WriteFile(filepath.Join(dir, string(tc.platform), tc.file), []byte(over), 0o644); err != nil {
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
		if tc.inline != "" {
			if strings.ReplaceAll(string(got.Text), tc.inline, "") != string(want.Text) {
				t.Errorf("%s: without %q the override render differs from the embedded one:\n%s", d.Name, tc.inline, got.Text)
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
		if len(added) == 0 || tc.perPort && (len(names) != len(added) || len(added) != len(d.Ports)) {
			t.Errorf("%s: added lines %q, want one per port, each naming its port", d.Name, added)
		}
	}
	if !seen {
		t.Errorf("no %s device of testdata/stanza renders %q", tc.platform, tc.want)
	}
}

// TestInterfaceOverride adds one line to the "interface" sub-template of
// every platform through Options.Dir (what --templates DIR sets), with
// only that file in the folder. Every device of the platform must render
// as with the embedded templates plus that line once per port, with each
// port's own name (override stanzas of switches are not shared between
// ports: {{len .Name}} sees the real name, not a cache mark).
func TestInterfaceOverride(t *testing.T) {
	const marker = "SITE-OVERRIDE"
	cases := []overrideCase{
		{schema.AristaEOS, "interface.tmpl", "   priority-flow-control on\n", `   !! SITE-OVERRIDE {{printf "%s/pfc" .Name}} {{len .Name}}` + "\n",
			"\n   !! SITE-OVERRIDE Ethernet1/pfc 9\n", true, ""},
		{schema.CiscoNXOS, "interface.tmpl", "  mtu {{.MTU}}\n", "  ! SITE-OVERRIDE {{.Name}} mtu {{.MTU}}\n",
			"\n  ! SITE-OVERRIDE Ethernet1/1 mtu 9214\n", true, ""},
		{schema.JuniperJunos, "interface.tmpl", "set interfaces {{.Name}} mtu {{.MTU}}\n", "set interfaces {{.Name}} apply-groups SITE-OVERRIDE-{{len .Name}}\n",
			"\nset interfaces et-0/0/0 apply-groups SITE-OVERRIDE-8\n", true, ""},
		{schema.NvidiaCumulus, "interface.tmpl", "nv set interface {{.Word}} link mtu {{.MTU}}\n", "nv set interface {{.Word}} link state up # SITE-OVERRIDE {{.Name}}\n",
			"\nnv set interface swp1 link state up # SITE-OVERRIDE swp1\n", true, ""},
		// The first field of each PORT row, so the rows around it keep their commas.
		{schema.SONiC, "interface.tmpl", `{{- define "interface" -}}` + "\n", "admin_status up-SITE-OVERRIDE-{{.Name}}\n",
			`"admin_status": "up-SITE-OVERRIDE-Ethernet0",` + "\n", true, ""},
		{schema.NvidiaMLNX, "interface.tmpl", "ip link set dev {{.Word}} mtu {{.MTU}}\n", "ip link set dev {{.Word}} up # SITE-OVERRIDE\n",
			"\nip link set dev ens1f1np1 up # SITE-OVERRIDE\n", true, ""},
		{schema.LinuxDCB, "interface.tmpl", "ip link set dev {{.Word}} mtu {{.MTU}}\n", "ip link set dev {{.Word}} up # SITE-OVERRIDE\n",
			"\nip link set dev e.x-y@z_1 up # SITE-OVERRIDE\n", true, ""},
	}
	f := stanzaFabric(t)
	emb := newTestRenderer(t)
	covered := map[schema.Platform]bool{}
	for _, tc := range cases {
		covered[tc.platform] = true
		t.Run(string(tc.platform), func(t *testing.T) { checkOverride(t, f, emb, tc, marker) })
	}
	for _, p := range schema.Platforms() {
		if !covered[p] {
			t.Errorf("platform %s has no interface override case", p)
		}
	}
}

// TestACLOverride changes one line of each platform's ACL entry
// sub-template (EOS and NX-OS acl_entry, Junos filter_term, Cumulus
// acl_rule, SONiC acl_rule) and sees it on every entry, nothing else
// changed.
func TestACLOverride(t *testing.T) {
	const marker = "SITE-ACL"
	cases := []overrideCase{
		{schema.AristaEOS, "acl.tmpl", "{{if .HasDSCP}} dscp {{.DSCP}}{{end}}", " log SITE-ACL", " dscp 48 log SITE-ACL\n", false, " log SITE-ACL"},
		{schema.CiscoNXOS, "acl.tmpl", "{{if .HasDSCP}} dscp {{.DSCP}}{{end}}", " log SITE-ACL", " dscp 48 log SITE-ACL\n", false, " log SITE-ACL"},
		{schema.JuniperJunos, "filter.tmpl", "{{$t}} then accept\n", "{{$t}} then count SITE-ACL-{{.Seq}}\n",
			"term 20 then accept\nset firewall family inet filter roce-mark term 20 then count SITE-ACL-20\n", false, ""},
		{schema.NvidiaCumulus, "acl.tmpl", "nv set acl {{.ACL}} rule {{.Seq}} action {{.Action}}\n", "nv set acl {{.ACL}} rule {{.Seq}} action log # SITE-ACL\n",
			"rule 40 action log # SITE-ACL\n", false, ""},
		{schema.SONiC, "acl.tmpl", "PRIORITY {{.Priority}}\n", "COUNTER_SITE-ACL {{.Seq}}\n", `"COUNTER_SITE-ACL": "20",` + "\n", false, ""},
	}
	f := stanzaFabric(t)
	emb := newTestRenderer(t)
	for _, tc := range cases {
		t.Run(string(tc.platform), func(t *testing.T) { checkOverride(t, f, emb, tc, marker) })
	}
}

// TestHostOverrideHasNoRawName: the host "interface" view holds no
// unquoted name, so an override that prints one fails with the field named
// instead of writing an unquoted word into the script.
func TestHostOverrideHasNoRawName(t *testing.T) {
	f := stanzaFabric(t)
	hosts := 0
	for _, pl := range platforms.All() {
		if !pl.Spec.Host {
			continue
		}
		hosts++
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
		for _, d := range f.Devices {
			if d.Platform.V != p {
				continue
			}
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

// TestCumulusACLOverride changes the "acl_rule" sub-template of
// nvidia_cumulus through Options.Dir and sees the change in the ACL
// commands, the rest of the render unchanged.
func TestCumulusACLOverride(t *testing.T) {
	f, d := cumulusACLFabric(t)
	src, err := embeddedFS(t).ReadFile("nvidia_cumulus/acl.tmpl")
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

// TestSONiCOverrideDuplicateField: an override that prints a field twice
// fails the render with the template and the field named.
func TestSONiCOverrideDuplicateField(t *testing.T) {
	f := stanzaFabric(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sonic"), 0o755); err != nil {
		t.Fatal(err)
	}
	over := "{{define \"interface\"}}mtu 1\nmtu 2{{end}}"
	if err := os.WriteFile(filepath.Join(dir, "sonic", "interface.tmpl"), []byte(over), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Render(f, f.Device("sonic1"))
	if err == nil || !strings.Contains(err.Error(), `the "interface" template: field mtu printed twice`) {
		t.Errorf("render: %v; want the duplicate field named", err)
	}
}
