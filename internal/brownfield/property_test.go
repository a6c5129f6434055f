package brownfield

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/textdiff"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// portNames are two port names of each platform's form.
var portNames = map[schema.Platform][2]string{
	"arista_eos": {"Ethernet1", "Ethernet2"}, "cisco_nxos": {"Ethernet1/1", "Ethernet1/2"},
	"juniper_junos": {"et-0/0/0", "et-0/0/1"}, "nvidia_cumulus": {"swp1", "swp2"}, "sonic": {"Ethernet0", "Ethernet8"},
	"nvidia_mlnx": {"eth0", "eth1"}, "linux_dcb": {"eth0", "eth1"},
}

// genIntent writes a random, valid intent for one device of platform p:
// a RoCE class on a random priority and DSCP, a CNP class, random ETS
// weights, PFC, ECN curve, watchdog timers and MTU, and a port that
// differs from its device in MTU.
func genIntent(r *rand.Rand, p platform.Platform) string {
	var b strings.Builder
	roceP := 1 + r.IntN(5)              // 1..5
	cnpP := 6                           // strict, never paused
	roceD := 8 + r.IntN(40)             // 8..47
	cnpD := 48 + r.IntN(8)              // 48..55
	w := 10 * (1 + r.IntN(8))           // 10..80
	minKB := 50 * (1 + r.IntN(6))       // 50..300
	maxKB := minKB + 100*(1+r.IntN(15)) // above min
	det := 100 * (2 + r.IntN(4))        // 200..500 ms
	mtu := []int{9000, 9100, 9214}[r.IntN(3)]
	host := p.Spec.Host
	if host {
		mtu = []int{4200, 9000}[r.IntN(2)]
	}
	fmt.Fprintf(&b, "fabric \"gen\" {\n  qos_policy = qos_policy.fabric\n}\n\n")
	fmt.Fprintf(&b, "ecn_profile \"roce\" {\n  min_threshold = \"%dKB\"\n  max_threshold = \"%dKB\"\n  max_probability = %d\n  min_fill_level = %d\n  max_fill_level = %d\n}\n\n",
		minKB, maxKB, 10*(1+r.IntN(10)), 10+r.IntN(30), 60+r.IntN(30))
	fmt.Fprintf(&b, "pfc_watchdog \"wd\" {\n  detection = \"%dms\"\n  poll_interval = \"100ms\"\n  restoration = \"%dms\"\n}\n\n", det, 200*(1+r.IntN(3)))
	fmt.Fprintf(&b, "traffic_class \"default\" {\n  role = \"default\"\n  dscp = [0]\n  priority = 0\n  weight = %d\n}\n\n", 100-w)
	fmt.Fprintf(&b, "traffic_class \"roce\" {\n  role = \"roce\"\n  dscp = [%d]\n  priority = %d\n  lossless = true\n  ecn = ecn_profile.roce\n  weight = %d\n}\n\n", roceD, roceP, w)
	fmt.Fprintf(&b, "traffic_class \"cnp\" {\n  role = \"cnp\"\n  dscp = [%d]\n  priority = %d\n  scheduler = \"strict\"\n}\n\n", cnpD, cnpP)
	fmt.Fprintf(&b, "qos_policy \"fabric\" {\n  trust = \"dscp\"\n  classes = [traffic_class.default, traffic_class.roce, traffic_class.cnp]\n  default_priority = 0\n  pfc_priorities = [%d]\n  pfc_watchdog = pfc_watchdog.wd\n  mtu = %d\n}\n\n", roceP, mtu)
	kind := "leaf"
	if host {
		kind = "nic"
	}
	ports := portNames[p.Name]
	fmt.Fprintf(&b, "device \"dut\" {\n  kind = %q\n  platform = %q\n", kind, p.Name)
	if p.Name == "sonic" {
		b.WriteString("  asic = \"broadcom\"\n")
	}
	switch {
	case p.Name == "nvidia_mlnx":
		fmt.Fprintf(&b, "  rdma {\n    tos = %d\n    cnp_dscp = %d\n    cnp_priority = %d\n  }\n", roceD<<2|2, cnpD, cnpP)
	case host: // linux_dcb has no vendor-neutral CNP setting
		fmt.Fprintf(&b, "  rdma {\n    tos = %d\n  }\n", roceD<<2|2)
	}
	fmt.Fprintf(&b, "  port %q {\n    speed = \"100G\"\n  }\n", ports[0])
	if !host {
		fmt.Fprintf(&b, "  port %q {\n    speed = \"100G\"\n    mtu = 1500\n  }\n", ports[1])
	}
	b.WriteString("}\n")
	return b.String()
}

// TestRoundTripGenerated is the round trip on generated intents: for each
// platform that imports, 12 random intents (fixed seeds, so a failure
// reproduces) render, import and render again to the same text.
func TestRoundTripGenerated(t *testing.T) {
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range platforms.Needing("importer") {
		if p.Import == nil {
			continue
		}
		t.Run(string(p.Name), func(t *testing.T) {
			rendered := 0
			for seed := range uint64(12) {
				src := genIntent(rand.New(rand.NewPCG(seed, uint64(len(p.Name)))), p)
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "gen.fab.hcl"), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
				f, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
				if diags.HasErrors() {
					t.Fatalf("seed %d: the generated intent does not load: %v\n%s", seed, diags, src)
				}
				d := f.Devices[0]
				out, err := r.Render(f, d)
				if err != nil {
					t.Logf("seed %d: the platform refuses the generated intent: %v", seed, err)
					continue
				}
				rendered++
				got, err := importRender(t, r, p, out.Filename, out.Text)
				if err != nil {
					t.Errorf("seed %d: %v\nintent:\n%s", seed, err, src)
					continue
				}
				want := digestLine.ReplaceAllString(string(out.Text), "${1}X")
				if got = digestLine.ReplaceAllString(got, "${1}X"); got != want {
					t.Errorf("seed %d: the round trip differs:\n%s\nintent:\n%s", seed, textdiff.Unified("render", "round trip", want, got).Text, src)
				}
			}
			if rendered == 0 {
				t.Errorf("no generated intent rendered for %s", p.Name)
			}
		})
	}
}

// importRender imports one rendered file, writes and loads the intent and
// renders its device.
func importRender(t *testing.T, r *templates.Renderer, p platform.Platform, name string, text []byte) (string, error) {
	t.Helper()
	d, err := p.Import(context.Background(), name, text)
	if err != nil {
		return "", fmt.Errorf("import: %w", err)
	}
	d.Platform = string(p.Name)
	if d.Name == "" {
		d.Name = "dut"
	}
	if p.Name == "sonic" && d.ASIC == "" {
		d.ASIC = "broadcom"
	}
	in, err := importer.Write([]*importer.Device{d}, importer.Options{Spec: Spec})
	if err != nil {
		return "", err
	}
	dir := t.TempDir()
	if err := WriteDir(dir, in); err != nil {
		return "", err
	}
	g, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		return "", fmt.Errorf("the imported intent does not load: %w\n%s", diags, dump(in))
	}
	for _, gd := range g.Devices {
		if gd.Name == "dut" {
			o, err := r.Render(g, gd)
			if err != nil {
				return "", fmt.Errorf("the imported intent does not render: %w\n%s", err, dump(in))
			}
			return string(o.Text), nil
		}
	}
	return "", fmt.Errorf("the imported intent has no device dut:\n%s", dump(in))
}

// TestGenIntent: the generator writes intents that load, and each
// platform renders most of them.
func TestGenIntent(t *testing.T) {
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range platforms.Needing("importer") {
		ok := 0
		for seed := range uint64(12) {
			src := genIntent(rand.New(rand.NewPCG(seed, uint64(len(p.Name)))), p)
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "gen.fab.hcl"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			f, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
			if diags.HasErrors() {
				t.Fatalf("%s seed %d: the generated intent does not load: %v\n%s", p.Name, seed, diags, src)
			}
			if _, err := r.Render(f, f.Devices[0]); err == nil {
				ok++
			} else {
				t.Logf("%s seed %d: %v", p.Name, seed, err)
			}
		}
		if ok < 6 {
			t.Errorf("%s renders %d of 12 generated intents, want at least 6", p.Name, ok)
		}
	}
}
