package qosread_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/qosread"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// collapseProbe is one per-port difference: a policy the probe attaches
// to one port of a switch while the switch's other ports keep theirs.
type collapseProbe struct {
	name string
	// hcl defines the probe's classes and its policy "probe".
	hcl string
}

// The probes' classes mirror the folder fixtures' stanza QoS (default on
// 0, RoCE on DSCP 26 → priority 3 lossless with ECN, CNP on 48 → 6),
// each changing one thing.
var collapseProbes = []collapseProbe{
	{"pfc", `
traffic_class "probe-roce" {
  role      = "roce"
  dscp      = [26]
  priority  = 3
  queue     = 3
  ecn       = ecn_profile.roce
  scheduler = "dwrr"
  weight    = 50
}
qos_policy "probe" {
  classes        = [traffic_class.default, traffic_class.probe-roce, traffic_class.cnp]
  pfc_priorities = []
  pfc_watchdog   = "off"
}
`},
	{"ecn", `
traffic_class "probe-roce" {
  role      = "roce"
  dscp      = [26]
  priority  = 3
  queue     = 3
  lossless  = true
  scheduler = "dwrr"
  weight    = 50
}
qos_policy "probe" {
  classes = [traffic_class.default, traffic_class.probe-roce, traffic_class.cnp]
}
`},
	{"dscp", `
traffic_class "probe-roce" {
  role      = "roce"
  dscp      = [24]
  priority  = 3
  queue     = 3
  lossless  = true
  ecn       = ecn_profile.roce
  scheduler = "dwrr"
  weight    = 50
}
qos_policy "probe" {
  classes = [traffic_class.default, traffic_class.probe-roce, traffic_class.cnp]
}
`},
	{"trust", `
qos_policy "probe" {
  trust = "pcp"
}
`},
	{"watchdog", `
qos_policy "probe" {
  pfc_watchdog = "off"
}
`},
}

// TestNoSilentPerPortCollapse: on every switch platform of the registry,
// one port of the folder fixture's first switch gets a policy that
// differs from its neighbour's in one thing (PFC, ECN, DSCP
// classification, trust, watchdog). The render either refuses the device
// (the platform cannot express a per-port value and says so) or renders
// each port as its own policy says: where the intents of the two ports
// differ, the platform's reader must not read them the same (from the
// render and from the lab's printout of it) while it reads the aspect on
// either port. A render that takes one port's value for the whole switch
// fails here, naming the platform, the probe and the ports.
func TestNoSilentPerPortCollapse(t *testing.T) {
	root := filepath.Join("..", "..")
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, fx := range platformtest.All(root) {
		if fx.Platform.Reader == nil {
			continue // hosts: one policy per NIC port is all they have
		}
		t.Run(fx.Platform.Folder, func(t *testing.T) {
			base, err := fx.Load()
			if err != nil {
				t.Fatal(err)
			}
			var dev *schema.Device
			for _, d := range fx.Devices(base) {
				if len(d.Ports) >= 2 {
					dev = d
					break
				}
			}
			if dev == nil {
				t.Fatalf("platforms/%s: its fixture has no %s device with two ports to tell apart", fx.Platform.Folder, fx.Platform.Name)
			}
			a, b := dev.Ports[0].Name, dev.Ports[1].Name
			rendered := 0
			for _, pr := range collapseProbes {
				t.Run(pr.name, func(t *testing.T) {
					f := probeFabric(t, fx, dev.Name, b, pr.hcl)
					d := f.Device(dev.Name)
					out, err := r.Render(f, d)
					if err != nil {
						t.Logf("refused (explicit): %v", err)
						if !strings.Contains(err.Error(), dev.Name) {
							t.Errorf("the refusal does not name the device %s: %v", dev.Name, err)
						}
						return
					}
					rendered++
					read, labRead, err := readBoth(fx.Platform, d.Name, string(out.Text))
					if err != nil {
						t.Fatal(err)
					}
					for src, q := range map[string]*qosread.Device{"render": read, "lab": labRead} {
						if why := collapsed(f, d, q, a, b); why != "" {
							t.Errorf("%s (%s): ports %s and %s: %s: one value taken for the switch where the intent gives one per port", fx.Platform.Name, src, a, b, why)
						}
					}
				})
			}
			t.Logf("%s: %d of %d per-port probes rendered, the others refused", fx.Platform.Name, rendered, len(collapseProbes))
		})
	}
}

// collapsed describes an aspect whose intents differ on ports a and b
// while q reads them the same and reads one of them as its intent says
// ("" when there is none).
func collapsed(f *schema.Fabric, d *schema.Device, q *qosread.Device, a, b string) string {
	pa, pb := d.Port(a), d.Port(b)
	ra, rb := q.Port(a), q.Port(b)
	type aspect struct {
		name           string
		wantA, wantB   string
		readA, readB   string
		intentDiffers  bool
		readerSeesSome bool
	}
	var as []aspect
	add := func(name, wa, wb, ga, gb string) {
		as = append(as, aspect{name, wa, wb, ga, gb, wa != wb, ga == wa || gb == wb})
	}
	add("PFC", pa.QoS.Lossless.String(), pb.QoS.Lossless.String(), ra.PFC.String(), rb.PFC.String())
	for qn := 0; qn < 8; qn++ {
		w := func(p *schema.Port) string {
			e := p.QoS.Queues[qn].ECN.V
			return fmt.Sprint(e != nil && e.Mark.V)
		}
		add(fmt.Sprintf("ECN on queue %d", qn), w(pa), w(pb), fmt.Sprint(ra.ECN[qn]), fmt.Sprint(rb.ECN[qn]))
	}
	for _, c := range f.Classes {
		for _, dscp := range c.DSCP {
			roce := c.Role == schema.RoleRoCE || c.Role == schema.RoleCNP
			ga, _ := ra.Classify(dscp, roce)
			gb, _ := rb.Classify(dscp, roce)
			add(fmt.Sprintf("DSCP %d's priority", dscp), fmt.Sprint(pa.QoS.DSCP[dscp].V), fmt.Sprint(pb.QoS.DSCP[dscp].V), fmt.Sprint(ga), fmt.Sprint(gb))
		}
	}
	trust := func(p *schema.Port) string { return string(p.QoS.Trust.V) }
	if ra.Trust != "" || rb.Trust != "" {
		add("trust", trust(pa), trust(pb), ra.Trust, rb.Trust)
	}
	wd := func(p *schema.Port) string { return fmt.Sprint(p.QoS.Watchdog.V != nil && p.QoS.Lossless.Len() > 0) }
	add("PFC watchdog", wd(pa), wd(pb), fmt.Sprint(ra.Watchdog), fmt.Sprint(rb.Watchdog))
	for _, x := range as {
		if x.intentDiffers && x.readA == x.readB && x.readerSeesSome {
			return fmt.Sprintf("%s: intent %s and %s, read %s on both", x.name, x.wantA, x.wantB, x.readA)
		}
	}
	return ""
}

// probeFabric is the folder's fixture fabric plus the probe's file, with
// the probe's policy attached to port of device.
func probeFabric(t *testing.T, fx platformtest.Fixture, device, port, probe string) *schema.Fabric {
	t.Helper()
	dir := t.TempDir()
	paths, err := filepath.Glob(filepath.Join(fx.FabricDir(), "*.fab.hcl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("platforms/%s: no fixture files: %v", fx.Platform.Folder, err)
	}
	devRe := regexp.MustCompile(`(?m)^device "` + regexp.QuoteMeta(device) + `" \{`)
	portRe := regexp.MustCompile(`(?m)^(\s*)port "` + regexp.QuoteMeta(port) + `" \{\n`)
	attached := false
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if loc := devRe.FindStringIndex(text); loc != nil {
			rest := text[loc[1]:]
			m := portRe.FindStringSubmatchIndex(rest)
			if m == nil {
				t.Fatalf("%s: device %s has no port %q block", p, device, port)
			}
			indent := rest[m[2]:m[3]]
			block := rest[m[1]:]
			// A port that names its own policy gets the probe's instead.
			end := strings.Index(block, "\n"+indent+"}")
			body := regexp.MustCompile(`(?m)^\s*qos_policy\s*=.*\n`).ReplaceAllString(block[:end+1], "")
			text = text[:loc[1]] + rest[:m[1]] + indent + "  qos_policy = qos_policy.probe\n" + body + block[end+1:]
			attached = true
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(p)), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if !attached {
		t.Fatalf("platforms/%s: no file of the fixture defines device %s", fx.Platform.Folder, device)
	}
	if err := os.WriteFile(filepath.Join(dir, "probe.fab.hcl"), []byte(probe), 0o600); err != nil {
		t.Fatal(err)
	}
	f, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("the fixture with the probe: %v", diags)
	}
	if got := f.Device(device).Port(port).QoS.Policies; len(got) == 0 || got[len(got)-1].Name != "probe" {
		t.Fatalf("the probe's policy is not the last attached to %s:%s", device, port)
	}
	return f
}
