package juniperjunos

import (
	"errors"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// TestUnsupportedValues: a value this platform cannot express fails the
// render with an UnsupportedError naming the device, the value and the
// platform (moved from templates/unsupported_test.go).
func TestUnsupportedValues(t *testing.T) {
	p := Platform()
	acl := &schema.ACL{Name: "mark", Rules: []*schema.ACLRule{{
		Seq: 10, Family: "ipv4", Protocol: rendertest.Set("udp"), Action: rendertest.Set(schema.ActionPermit),
		DstPorts: rendertest.Set([]schema.PortRange{{From: 4791, To: 4791}}), SetDSCP: rendertest.Set(46),
	}}}
	tests := []struct {
		mutate func(f *schema.Fabric, d *schema.Device)
		value  string
	}{
		{func(*schema.Fabric, *schema.Device) {}, "ecn_profile roce on queue 3"},
		{func(f *schema.Fabric, d *schema.Device) {
			d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			f.ACLs = []*schema.ACL{acl}
			d.Ports[0].ACLIn = []*schema.ACL{acl}
		}, `acl mark rule 10 set_dscp 46: the firewall filter action "then dscp" is documented for MX and EX, not QFX`},
		// EX models (junos-ex 23.4R1) have no no-loss class, DSCP PFC,
		// output flow-control-queue or pfc-watchdog, and no scheduler ECN.
		{func(_ *schema.Fabric, d *schema.Device) {
			d.Family, d.Model = FamilyEX, rendertest.Set("ex4400-48mp")
			e := *d.Ports[0].QoS.Queues[3].ECN.V
			e.MinFill, e.MaxFill = rendertest.Set(20), rendertest.Set(80)
			e.Mark = rendertest.Set(false)
			d.Ports[0].QoS.Queues[3].ECN.V = &e
		}, "lossless priorities 3 on an EX model (ex4400-48mp)"},
		{func(_ *schema.Fabric, d *schema.Device) {
			d.Family, d.Model = FamilyEX, rendertest.Set("ex4400-48mp")
			d.Lossless, d.Ports[0].QoS.Lossless = 0, 0
			e := *d.Ports[0].QoS.Queues[3].ECN.V
			e.MinFill, e.MaxFill = rendertest.Set(20), rendertest.Set(80)
			d.Ports[0].QoS.Queues[3].ECN.V = &e
		}, "ecn_profile roce marking on queue 3 of an EX model"},
		// juniper_junos: one firewall filter per direction and family.
		{func(f *schema.Fabric, d *schema.Device) {
			d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			a, b := *acl, *acl
			d.Family = FamilyMX
			a.Name, b.Name = "roce-a", "roce-b"
			f.ACLs = []*schema.ACL{&a, &b}
			d.Ports[0].ACLIn = []*schema.ACL{&a, &b}
		}, "2 ACLs bound in on et-0/0/0 (roce-a, roce-b)"},
		{func(f *schema.Fabric, d *schema.Device) {
			d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			a, b := *acl, *acl
			d.Family = FamilyMX
			a.Name, b.Name = "out-a", "out-b"
			f.ACLs = []*schema.ACL{&a, &b}
			d.Ports[0].ACLOut = []*schema.ACL{&a, &b}
		}, "2 ACLs bound out on et-0/0/0 (out-a, out-b)"},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			f, d := rendertest.TinyFabric(p, "et-0/0/0")
			tc.mutate(f, d)
			_, err := rendertest.Render(t, p, f, d)
			var ue *view.UnsupportedError
			if !errors.As(err, &ue) {
				t.Fatalf("want an UnsupportedError, got %v", err)
			}
			msg := err.Error()
			for _, want := range []string{"dut", string(p.Name), tc.value} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not mention %q", msg, want)
				}
			}
		})
	}
}
