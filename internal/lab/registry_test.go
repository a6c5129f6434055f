package lab

import (
	"slices"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestRegistryComplete fails naming every platform of the registry
// (platforms.List) the lab has no emulator for, and checks the check itself on registries
// with one platform's line, emulator or file form removed.
func TestRegistryComplete(t *testing.T) {
	if miss := missingEmulators(platforms.Needing("lab emulator"), platforms.NamesNeeding("lab emulator")); len(miss) > 0 {
		t.Fatalf("the lab has no emulator for %v: give the folder its emulator/ and RunningConfig (platforms/<name>/platform.go)", miss)
	}
	for i, p := range platforms.Needing("lab emulator") {
		t.Run("without/"+string(p.Name), func(t *testing.T) {
			for what, change := range map[string]func(all []platform.Platform) []platform.Platform{
				"line":      func(all []platform.Platform) []platform.Platform { return slices.Delete(all, i, i+1) },
				"emulator":  func(all []platform.Platform) []platform.Platform { all[i].Emulator = nil; return all },
				"extension": func(all []platform.Platform) []platform.Platform { all[i].RunningConfig.Ext = ""; return all },
				"form":      func(all []platform.Platform) []platform.Platform { all[i].RunningConfig.Form = ""; return all },
			} {
				if got := missingEmulators(change(platforms.Needing("lab emulator")), platforms.NamesNeeding("lab emulator")); !slices.Equal(got, []schema.Platform{p.Name}) {
					t.Errorf("without its %s: missingEmulators() = %v, want [%s]", what, got, p.Name)
				}
			}
		})
	}
}

// TestRegistryBuildsEveryPlatform starts each platform's emulator from its
// factory configuration through the registry.
func TestRegistryBuildsEveryPlatform(t *testing.T) {
	for _, p := range platforms.NamesNeeding("lab emulator") {
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

// TestRunningConfigFile: the saved-configuration file of each platform,
// which lab show users save and lab up --running-config reads, is NAME
// with its folder's extension (NAME.cfg for a platform the lab does not
// know), and RunningConfigFormats lists every platform once, in order.
// The extensions and forms themselves are pinned by the CLI docs
// (TestCLIDocs) and push's brownfield testdata file names.
func TestRunningConfigFile(t *testing.T) {
	for _, p := range platforms.Needing("lab emulator") {
		if got, want := RunningConfigFile("d", p.Name), "d."+p.RunningConfig.Ext; got != want {
			t.Errorf("RunningConfigFile(d, %s) = %s, want %s", p.Name, got, want)
		}
	}
	if got := RunningConfigFile("d", "ios"); got != "d.cfg" {
		t.Errorf("RunningConfigFile(d, ios) = %s, want d.cfg", got)
	}
	var got []schema.Platform
	for _, f := range RunningConfigFormats() {
		got = append(got, f.Platform)
		if f.Form == "" || f.Ext == "" {
			t.Errorf("%s: empty format %+v", f.Platform, f)
		}
	}
	if want := platforms.NamesNeeding("lab emulator"); !slices.Equal(got, want) {
		t.Errorf("RunningConfigFormats platforms %v, want %v", got, want)
	}
}
