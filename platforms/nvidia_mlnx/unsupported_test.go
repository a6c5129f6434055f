package nvidiamlnx

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
		{func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Queues[0].Weight = rendertest.Set(40) }, "ETS weights summing to 90%"},
		{func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Trust = rendertest.Set(schema.TrustBoth) }, "trust both"},
		// nvidia_mlnx: mlx5 takes pfc-prevention-tout from 80 to 8000 ms.
		{func(_ *schema.Fabric, d *schema.Device) {
			w := *wd
			w.Detection, w.Restoration, w.PollInterval = rendertest.Set(50*time.Millisecond), schema.Value[time.Duration]{}, schema.Value[time.Duration]{}
			d.Ports[0].QoS.Watchdog = rendertest.Set(&w)
		}, "pfc_watchdog wd detection 50 ms on eth0"},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			f, d := rendertest.TinyFabric(p, "eth0")
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
