package aristaeos

import (
	"errors"
	"strings"
	"testing"
	"time"

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
	wd := &schema.Watchdog{Name: "wd", Detection: rendertest.Set(200 * time.Millisecond), Restoration: rendertest.Set(400 * time.Millisecond),
		PollInterval: rendertest.Set(100 * time.Millisecond), Action: rendertest.Set(schema.WatchdogDrop)}
	tests := []struct {
		mutate func(f *schema.Fabric, d *schema.Device)
		value  string
	}{
		{func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Trust = rendertest.Set(schema.TrustBoth) }, "trust both"},
		{func(_ *schema.Fabric, d *schema.Device) {
			d.Ports[0].QoS.Buffer.Headroom = rendertest.Set(int64(160000))
		}, "buffer.headroom 160000 B"},
		{func(f *schema.Fabric, d *schema.Device) {
			a := *acl
			r := *acl.Rules[0]
			r.Police = rendertest.Set(int64(10e9))
			a.Rules = []*schema.ACLRule{&r}
			d.Ports[0].ACLIn = []*schema.ACL{&a}
		}, "police 10G"},
		// arista_eos: interface MTU 68–9214, fixed speed keywords, watchdog
		// actions, random-detect ranges.
		{func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.MTU = rendertest.Set(9216) }, "mtu 9216 on Ethernet1"},
		{func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.MTU = rendertest.Set(64) }, "mtu 64 on Ethernet1"},
		{func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].Speed = rendertest.Set(int64(2_500_000_000)) }, "speed 2500M on Ethernet1"},
		{func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].Speed = rendertest.Set(int64(5_000_000_000)) }, "speed 5G on Ethernet1"},
		{func(_ *schema.Fabric, d *schema.Device) {
			w := *wd
			w.Action = rendertest.Set(schema.WatchdogForward)
			d.Ports[0].QoS.Watchdog = rendertest.Set(&w)
		}, "pfc_watchdog wd action forward"},
		{func(_ *schema.Fabric, d *schema.Device) {
			e := *d.Ports[0].QoS.Queues[3].ECN.V
			e.Probability = rendertest.Set(0)
			d.Ports[0].QoS.Queues[3].ECN = rendertest.Set(&e)
		}, "max_probability 0 on queue 3"},
		{func(_ *schema.Fabric, d *schema.Device) {
			e := *d.Ports[0].QoS.Queues[3].ECN.V
			e.Probability, e.Mark = rendertest.Set(0), rendertest.Set(false)
			d.Ports[0].QoS.Queues[3].ECN = rendertest.Set(&e)
		}, "drop-probability is 1–100"},
		{func(_ *schema.Fabric, d *schema.Device) {
			e := *d.Ports[0].QoS.Queues[3].ECN.V
			e.Min = rendertest.Set(int64(0))
			d.Ports[0].QoS.Queues[3].ECN = rendertest.Set(&e)
		}, "min_threshold 0 B on queue 3"},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			f, d := rendertest.TinyFabric(p, "Ethernet1")
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
