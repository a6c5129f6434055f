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

// TestEOSShapeLine: a queue shaper renders "shape rate N kbps" in its
// tx-queue.
func TestEOSShapeLine(t *testing.T) {
	f, d := rendertest.TinyFabric(Platform(), "Ethernet1")
	d.Ports[0].QoS.Queues[6].Shaper = rendertest.Set(int64(10e9))
	text, err := rendertest.Render(t, Platform(), f, d)
	if err != nil {
		t.Fatal(err)
	}
	if want := "   tx-queue 6\n      priority strict\n      shape rate 10000000 kbps\n"; !strings.Contains(text, want) {
		t.Errorf("render lacks %q:\n%s", want, text)
	}
}
