package nvidiacumulus

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
		{func(_ *schema.Fabric, d *schema.Device) {
			d.OSVersion = rendertest.Set(schema.Version{Raw: "5.6", Parts: []int{5, 6}})
		}, "os_version 5.6"},
		// nvidia_cumulus: NVUE matches ports only under udp|tcp, bw-percent
		// is 1–100, Spectrum runs Base-R FEC at 25G only; alpha not rendered.
		{func(f *schema.Fabric, d *schema.Device) {
			a := *acl
			r := *acl.Rules[0]
			r.Protocol = rendertest.Set("icmp")
			a.Rules = []*schema.ACLRule{&r}
			f.ACLs = []*schema.ACL{&a}
			d.Ports[0].ACLIn = []*schema.ACL{&a}
		}, "acl mark rule 10 port match with protocol icmp"},
		{func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Queues[0].Weight = rendertest.Set(0) }, "queue 0 dwrr weight 0"},
		{func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].FEC = rendertest.Set("fc") }, "fec fc on swp1 at 100G"},
		{func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Buffer.DynamicThreshold = rendertest.Set(1) }, "does not render NVUE alpha"},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			f, d := rendertest.TinyFabric(p, "swp1")
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
