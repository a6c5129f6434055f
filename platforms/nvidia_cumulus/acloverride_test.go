package nvidiacumulus_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	nvidiacumulus "github.com/fabricgen/fabricgen/platforms/nvidia_cumulus"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// TestCumulusACLOverride changes the "acl_rule" sub-template of this
// platform through the engine's Options.Dir (--templates DIR) and sees the
// change in the ACL commands, the rest of the render unchanged (moved
// from templates/stanza_test.go).
func TestCumulusACLOverride(t *testing.T) {
	p := nvidiacumulus.Platform()
	f, d := cumulusACLFabric()
	src, err := fs.ReadFile(p.Templates, "acl.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	const from = "nv set acl {{.ACL}} rule {{.Seq}} action {{.Action}}"
	if !strings.Contains(string(src), from) {
		t.Fatalf("acl.tmpl has no line %q", from)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, string(p.Name)), 0o755); err != nil {
		t.Fatal(err)
	}
	over := strings.Replace(string(src), from, from+" # site {{.Seq}}", 1)
	if err := os.WriteFile(filepath.Join(dir, string(p.Name), "acl.tmpl"), []byte(over), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := templates.NewRenderer(templates.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	emb, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := emb.Render(f, d)
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

// cumulusACLFabric is a one-port device with an ACL of a permit, a
// re-marking and a deny rule bound inbound.
func cumulusACLFabric() (*schema.Fabric, *schema.Device) {
	set := func(v int) schema.Value[int] { return rendertest.Set(v) }
	ports := func(n int) schema.Value[[]schema.PortRange] {
		return rendertest.Set([]schema.PortRange{{From: n, To: n}})
	}
	acl := &schema.ACL{Name: "roce-mark", Rules: []*schema.ACLRule{
		{Seq: 10, Family: "ipv4", Protocol: rendertest.Set("udp"), Action: rendertest.Set(schema.ActionPermit),
			DstPorts: ports(4791), DSCP: rendertest.Set([]int{48}), SetDSCP: schema.Value[int]{V: -1}},
		{Seq: 20, Family: "ipv4", Protocol: rendertest.Set("udp"), Action: rendertest.Set(schema.ActionPermit),
			DstPorts: ports(4791), SetDSCP: set(26)},
		{Seq: 30, Family: "ipv4", Protocol: rendertest.Set("tcp"), Action: rendertest.Set(schema.ActionDeny),
			SrcPorts: ports(179), SetDSCP: schema.Value[int]{V: -1}},
	}}
	f, d := rendertest.TinyFabric(nvidiacumulus.Platform(), "swp1")
	f.ACLs = []*schema.ACL{acl}
	d.Ports[0].ACLIn = []*schema.ACL{acl}
	return f, d
}
