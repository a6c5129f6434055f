package aristaeos

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/templates/view"
)

// TestEOSSpeedKeywords: every speed in the table renders its EOS keyword.
func TestEOSSpeedKeywords(t *testing.T) {
	for speed, kw := range viewEOSSpeeds {
		f, d := rendertest.TinyFabric(Platform(), "Ethernet1")
		d.Ports[0].Speed = rendertest.Set(speed)
		text, err := rendertest.Render(t, Platform(), f, d)
		if err != nil {
			t.Errorf("%s: %v", view.Bps(speed), err)
			continue
		}
		if !strings.Contains(text, "\n   speed "+kw+"\n") {
			t.Errorf("%s: no \"speed %s\" line", view.Bps(speed), kw)
		}
	}
}
