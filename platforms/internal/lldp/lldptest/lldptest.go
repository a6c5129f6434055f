// Package lldptest checks a platform's LLDP parser the same way in every
// folder: hostile output gives an error, never a panic, and a fuzz seed
// corpus.
package lldptest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/platforms/internal/lldp"
	"github.com/fabricgen/fabricgen/schema"
)

// Hostile is output no parser may accept: each must give an error.
var Hostile = []struct{ Name, Out string }{
	{"empty", ""},
	{"blank", " \n\t"},
	{"binary", "\x00\x01\x02\xff\xfe"},
	{"not json", "% Invalid input detected at '^' marker.\n"},
	{"json string", `"lldp"`},
	{"json number", `42`},
	{"json list", `[1, 2]`},
	{"json null", `null`},
	{"nested 20000 deep", strings.Repeat("[", 20000) + strings.Repeat("]", 20000)},
	{"over the size limit", `{"x": "` + strings.Repeat("a", lldp.MaxOutput) + `"}`},
}

// Check runs parse over Hostile and the truncations of sample (every
// prefix shorter than the whole, at a few cut points), wanting an error
// and no panic from each; and the sample whole, wanting want.
func Check(t *testing.T, parse func(string) ([]importer.Neighbor, error), sample string, want []importer.Neighbor) {
	t.Helper()
	for _, c := range Hostile {
		t.Run(c.Name, func(t *testing.T) {
			if ns, err := parse(c.Out); err == nil {
				t.Errorf("accepted: %v", ns)
			}
		})
	}
	for _, cut := range []int{1, len(sample) / 3, len(sample) / 2, len(sample) - 2} {
		if cut <= 0 || cut >= len(strings.TrimSpace(sample)) {
			continue
		}
		if ns, err := parse(sample[:cut]); err == nil {
			t.Errorf("truncated at %d of %d bytes: accepted %v", cut, len(sample), ns)
		}
	}
	got, err := parse(sample)
	if err != nil {
		t.Fatalf("sample: %v", err)
	}
	if len(got) != len(want) {
		t.Fatalf("sample: got %d neighbours %v, want %d %v", len(got), got, len(want), want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sample neighbour %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// Fuzz adds seeds to f and fuzzes parse: it must not panic, and what it
// returns must hold only checked neighbours.
func Fuzz(f *testing.F, parse func(string) ([]importer.Neighbor, error), seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	for _, c := range Hostile[:8] {
		f.Add(c.Out)
	}
	f.Fuzz(func(t *testing.T, out string) {
		ns, err := parse(out)
		if err != nil {
			return
		}
		if len(ns) > lldp.MaxNeighbors {
			t.Fatalf("%d neighbours", len(ns))
		}
		for _, n := range ns {
			if n.LocalPort == "" || n.RemoteSystem == "" || n.RemotePort == "" {
				t.Fatalf("an empty name in %+v", n)
			}
			for _, s := range []string{n.LocalPort, n.RemoteSystem, n.RemotePort} {
				if len(s) > lldp.MaxName || strings.ContainsAny(s, "\x00\x1b\n\r") {
					t.Fatalf("an unchecked name in %+v", n)
				}
			}
		}
	})
}

// CheckLab starts a lab of the example fabric examples/NAME (every device,
// with the fabric's data plane), logs in to device over SSH (prompt is a
// regexp matching its prompt), runs setup and then p's LLDP command, parses
// the output with p's parser, and wants exactly the device's links in the
// intent. root is the path to the repository's root from the test.
func CheckLab(t *testing.T, p platform.Platform, root, name, device, prompt string, setup ...string) {
	t.Helper()
	f, diags := schema.Load(filepath.Join(root, "examples", name), schema.Options{Getenv: func(string) string { return labtest.Password }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	d := f.Device(device)
	if d == nil || d.Platform.V != p.Name {
		t.Fatalf("examples/%s has no %s device %s", name, p.Name, device)
	}
	var specs []lab.DeviceSpec
	for _, dev := range f.Devices {
		sp := lab.SpecOf(dev)
		sp.Username, sp.Password = labtest.User, labtest.Password
		for _, port := range dev.Ports {
			sp.Ports = append(sp.Ports, port.Name)
		}
		specs = append(specs, sp)
	}
	l, err := lab.Start(context.Background(), specs, lab.Options{Dir: t.TempDir(), Fabric: f})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	sh := labtest.OpenShell(t, l, device, prompt)
	for _, s := range setup {
		sh.Run(s)
	}
	out := sh.Run(p.LLDP.Command)
	got, err := p.LLDP.Parse(out)
	if err != nil {
		t.Fatalf("%s on %s: %v\n%s", p.LLDP.Command, device, err, out)
	}
	var want []importer.Neighbor
	for _, port := range d.Ports {
		if port.Peer != nil {
			want = append(want, importer.Neighbor{LocalPort: port.Name, RemoteSystem: port.Peer.Device.Name, RemotePort: port.Peer.Name})
		}
	}
	if len(want) == 0 {
		t.Fatalf("examples/%s: %s has no links to test with", name, device)
	}
	lldp.Sort(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s on %s:\n got %v\nwant %v (the intent's links)\n%s", p.LLDP.Command, device, got, want, out)
	}
}
