package sonic

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
		{func(_ *schema.Fabric, d *schema.Device) { d.ASIC = schema.Value[string]{} }, "a device without asic"},
		{func(_ *schema.Fabric, d *schema.Device) {
			d.Ports[0].Link = &schema.Link{Name: "long", CableLength: rendertest.Set(400.0)}
		}, "cable length 400m on lossless port Ethernet0"},
		{func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].Speed = schema.Value[int64]{} }, "lossless port Ethernet0 without a speed"},
		{func(_ *schema.Fabric, d *schema.Device) {
			d.OSVersion = rendertest.Set(schema.Version{Raw: "201711", Parts: []int{201711}})
		}, "os_version 201711"},
		{func(f *schema.Fabric, d *schema.Device) {
			f.ACLs = []*schema.ACL{acl}
			d.Ports[0].ACLIn = []*schema.ACL{acl}
		}, "set_dscp 46"},
		{func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Trust = rendertest.Set(schema.TrustNone) }, "trust none"},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			f, d := rendertest.TinyFabric(p, "Ethernet0")
			d.ASIC = rendertest.Set("broadcom")
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
