package juniperjunos

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
)

// TestJunosOneFilterPerDirection: a single ACL binds as "filter input NAME".
func TestJunosOneFilterPerDirection(t *testing.T) {
	f, d := rendertest.TinyFabric(Platform(), "et-0/0/0")
	d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
	in := &schema.ACL{Name: "roce-in", Rules: []*schema.ACLRule{{
		Seq: 10, Family: "ipv4", Protocol: rendertest.Set("udp"), Action: rendertest.Set(schema.ActionPermit),
		DstPorts: rendertest.Set([]schema.PortRange{{From: 4791, To: 4791}}),
	}}}
	out := &schema.ACL{Name: "roce-out", Rules: in.Rules}
	f.ACLs = []*schema.ACL{in, out}
	d.Ports[0].ACLIn, d.Ports[0].ACLOut = []*schema.ACL{in}, []*schema.ACL{out}
	text, err := rendertest.Render(t, Platform(), f, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\nset interfaces et-0/0/0 unit 0 family inet filter input roce-in\n",
		"\nset interfaces et-0/0/0 unit 0 family inet filter output roce-out\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", strings.TrimSpace(want), text)
		}
	}
	if strings.Contains(text, "-list") {
		t.Errorf("input-list/output-list rendered:\n%s", text)
	}
}
