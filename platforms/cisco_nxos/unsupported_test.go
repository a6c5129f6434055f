package cisconxos

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
	wd := &schema.Watchdog{Name: "wd", Detection: rendertest.Set(200 * time.Millisecond), Restoration: rendertest.Set(400 * time.Millisecond),
		PollInterval: rendertest.Set(100 * time.Millisecond), Action: rendertest.Set(schema.WatchdogDrop)}
	tests := []struct {
		mutate func(f *schema.Fabric, d *schema.Device)
		value  string
	}{
		{func(_ *schema.Fabric, d *schema.Device) {
			w := *wd
			w.Action = rendertest.Set(schema.WatchdogAlert)
			d.Ports[0].QoS.Watchdog = rendertest.Set(&w)
		}, "action alert"},
		{func(_ *schema.Fabric, d *schema.Device) {
			e := *d.Ports[0].QoS.Queues[3].ECN.V
			e.Min = rendertest.Set(int64(1000))
			d.Ports[0].QoS.Queues[3].ECN = rendertest.Set(&e)
		}, "minimum threshold 1000 bytes"},
		// cisco_nxos: fc-fec is CL74 (25/50G); 200G+ ports run RS(544,514).
		{func(_ *schema.Fabric, d *schema.Device) {
			d.Ports[0].Speed, d.Ports[0].FEC = rendertest.Set(int64(400e9)), rendertest.Set("fc")
		}, "fec fc on Ethernet1/1 (400G)"},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			f, d := rendertest.TinyFabric(p, "Ethernet1/1")
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
