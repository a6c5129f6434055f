package lab

import (
	"slices"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// TestRegistryComplete fails naming every platform of schema.Platforms()
// the lab has no emulator for, and checks the check itself on tables with
// one row removed.
func TestRegistryComplete(t *testing.T) {
	if miss := emulators().missing(schema.Platforms()); len(miss) > 0 {
		t.Fatalf("the lab has no emulator for %v: add a row to emulators() in internal/lab/platform.go", miss)
	}
	for _, drop := range schema.Platforms() {
		t.Run("without/"+string(drop), func(t *testing.T) {
			reg := emulators()
			delete(reg, drop)
			if got := reg.missing(schema.Platforms()); !slices.Equal(got, []schema.Platform{drop}) {
				t.Errorf("missing() = %v, want [%s]", got, drop)
			}
		})
	}
}

// TestRegistryBuildsEveryPlatform starts each platform's emulator from its
// factory configuration through the registry.
func TestRegistryBuildsEveryPlatform(t *testing.T) {
	for _, p := range schema.Platforms() {
		t.Run(string(p), func(t *testing.T) {
			emu, err := newEmulator(testEnv("reg1", p))
			if err != nil {
				t.Fatal(err)
			}
			if emu.Running() == "" {
				t.Error("empty running configuration")
			}
		})
	}
	if _, err := newEmulator(testEnv("reg1", "ios")); err == nil {
		t.Error("an unknown platform was accepted")
	}
}
