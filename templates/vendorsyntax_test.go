package templates

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// TestNXOSFECBySpeed: "fec rs-fec" up to 100G, no fec line at 200G and more.
func TestNXOSFECBySpeed(t *testing.T) {
	r := newTestRenderer(t)
	for _, c := range []struct {
		speed int64
		fec   string
		want  string // the fec line, or "" for none
	}{
		{100e9, "rs", "fec rs-fec"}, {25e9, "fc", "fec fc-fec"}, {100e9, "none", "fec off"},
		{400e9, "rs", ""}, {200e9, "rs", ""}, {400e9, "none", "fec off"},
	} {
		f, d := tinyFabric(schema.CiscoNXOS, "Ethernet1/1")
		d.Ports[0].Speed, d.Ports[0].FEC = set(c.speed), set(c.fec)
		o, err := r.Render(f, d)
		if err != nil {
			t.Errorf("%s fec %s: %v", view.Bps(c.speed), c.fec, err)
			continue
		}
		text := string(o.Text)
		if c.want == "" {
			if strings.Contains(text, "\n  fec ") {
				t.Errorf("%s fec %s: want no fec line, got\n%s", view.Bps(c.speed), c.fec, text)
			}
		} else if !strings.Contains(text, "\n  "+c.want+"\n") {
			t.Errorf("%s fec %s: no %q line", view.Bps(c.speed), c.fec, c.want)
		}
	}
}

// TestJunosOneFilterPerDirection: a single ACL binds as "filter input NAME".
func TestJunosOneFilterPerDirection(t *testing.T) {
	r := newTestRenderer(t)
	f, d := tinyFabric(schema.JuniperJunos, "et-0/0/0")
	d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
	in := &schema.ACL{Name: "roce-in", Rules: []*schema.ACLRule{{
		Seq: 10, Family: "ipv4", Protocol: set("udp"), Action: set(schema.ActionPermit),
		DstPorts: set([]schema.PortRange{{From: 4791, To: 4791}}),
	}}}
	out := &schema.ACL{Name: "roce-out", Rules: in.Rules}
	f.ACLs = []*schema.ACL{in, out}
	d.Ports[0].ACLIn, d.Ports[0].ACLOut = []*schema.ACL{in}, []*schema.ACL{out}
	o, err := r.Render(f, d)
	if err != nil {
		t.Fatal(err)
	}
	text := string(o.Text)
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
