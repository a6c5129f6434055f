package juniperjunos

import (
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
)

// TestJunosOneFilterPerDirection: a single ACL binds as "filter input NAME".
func TestJunosOneFilterPerDirection(t *testing.T) {
	f, d := rendertest.TinyFabric(Platform(), "et-0/0/0")
	d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
	in := &schema.ACL{Name: "roce-in", Rules: []*schema.ACLRule{{
		Seq: 10, Family: "ipv4", Protocol: rendertest.Set("udp"), Action: rendertest.Set(schema.ActionPermit),
		DstPorts: rendertest.Set([]schema.PortRange{{From: 4791, To: 4791}}),
	}}}
	out := &schema.ACL{Name: "roce-out", Rules: in.Rules}
	f.ACLs = []*schema.ACL{in, out}
	d.Ports[0].ACLIn, d.Ports[0].ACLOut = []*schema.ACL{in}, []*schema.ACL{out}
	text, err := rendertest.Render(t, Platform(), f, d)
	if err != nil {
		t.Fatal(err)
	}
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

// TestJunosWatchdogRanges: the pfc-watchdog timers are refused outside the
// ranges of Juniper's YANG (poll-interval 100..1000 ms, detection 2..10
// polls, recovery 200..1000 ms), and rendered inside them.
func TestJunosWatchdogRanges(t *testing.T) {
	ms := func(n int) schema.Value[time.Duration] {
		return schema.Value[time.Duration]{V: time.Duration(n) * time.Millisecond, Set: true}
	}
	for _, tc := range []struct {
		name                  string
		poll, detect, restore int // 0: unset
		want                  string
	}{
		{"defaults", 0, 0, 0, "pfc-watchdog recovery 200\n"},
		{"edges", 100, 1000, 1000, "pfc-watchdog detection 10\n"},
		{"recovery below 200", 0, 0, 100, "recovery is 200–1000 ms"},
		{"recovery above 1000", 0, 0, 1500, "recovery is 200–1000 ms"},
		{"poll below 100", 50, 100, 0, "poll-interval is 100–1000 ms"},
		{"poll above 1000", 2000, 4000, 0, "poll-interval is 100–1000 ms"},
		{"one poll of detection", 100, 100, 0, "detection is 2–10 poll intervals"},
		{"eleven polls of detection", 100, 1100, 0, "detection is 2–10 poll intervals"},
		{"detection not a multiple", 100, 250, 0, "whole number of poll intervals"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, d := rendertest.TinyFabric(Platform(), "et-0/0/0")
			d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			// The loader's default restoration (schema.DefaultRestoration).
			w := &schema.Watchdog{Name: "wd", Restoration: schema.Value[time.Duration]{V: schema.DefaultRestoration}}
			if tc.poll > 0 {
				w.PollInterval = ms(tc.poll)
			}
			if tc.detect > 0 {
				w.Detection = ms(tc.detect)
			}
			if tc.restore > 0 {
				w.Restoration = ms(tc.restore)
			}
			for _, p := range d.Ports {
				p.QoS.Watchdog = schema.Value[*schema.Watchdog]{V: w, Set: true}
			}
			text, err := rendertest.Render(t, Platform(), f, d)
			if strings.HasSuffix(tc.want, "\n") {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(text, tc.want) {
					t.Errorf("missing %q in\n%s", strings.TrimSpace(tc.want), text)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}
