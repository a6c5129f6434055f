package linuxdcb

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
	tests := []struct {
		mutate func(f *schema.Fabric, d *schema.Device)
		value  string
	}{
		{func(_ *schema.Fabric, d *schema.Device) { d.RDMA = &schema.RDMA{ECN: rendertest.Set(true)} }, "rdma ecn"},
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
