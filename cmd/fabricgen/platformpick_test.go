package main

import (
	"path/filepath"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// pickPlatforms picks the platforms the formatting tests label devices
// with, from the registry by property, never by name: the first two
// switch platforms and the first host platform, in registry order.
func pickPlatforms(t *testing.T) (swA, swB, hostA string) {
	t.Helper()
	var sw, host []string
	for _, pl := range platforms.All() {
		if pl.Spec.Host {
			host = append(host, string(pl.Name))
		} else {
			sw = append(sw, string(pl.Name))
		}
	}
	if len(sw) < 2 || len(host) < 1 {
		t.Fatalf("the registry has %d switch and %d host platforms; the tests need two and one", len(sw), len(host))
	}
	return sw[0], sw[1], host[0]
}

// examplePlatform is the platform of device in examples/<example>, as the
// loader reads it, so a test that expects it printed does not name it.
func examplePlatform(t *testing.T, example, device string) string {
	t.Helper()
	f, diags := schema.Load(filepath.Join(repoRoot(t), "examples", example), schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatalf("examples/%s: %v", example, diags)
	}
	d := f.Device(device)
	if d == nil {
		t.Fatalf("examples/%s has no device %s", example, device)
	}
	return string(d.Platform.V)
}

// plainSwitch picks, from the registry by property, the first switch
// platform that reads no platform-only device attribute (asic, model,
// driver), so an inline device needs only kind and platform; port is the
// first port of a device of that platform's own fixture, a name its
// port rule accepts.
func plainSwitch(t *testing.T) (pl platform.Platform, port string) {
	t.Helper()
	for _, fx := range platformtest.All(repoRoot(t)) {
		a := fx.Platform.Spec.Attrs
		if fx.Platform.Spec.Host || len(a.ASICs) > 0 || a.Family != nil || len(a.Drivers) > 0 {
			continue
		}
		fab, err := fx.Load()
		if err != nil {
			t.Fatalf("%s fixture: %v", fx.Platform.Name, err)
		}
		for _, d := range fx.Devices(fab) {
			if len(d.Ports) > 0 {
				return fx.Platform, d.Ports[0].Name
			}
		}
	}
	t.Fatal("the registry has no switch platform that reads no platform-only attribute and has a fixture port")
	return platform.Platform{}, ""
}
