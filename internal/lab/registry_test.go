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
			reg = emulators()
			e := reg[drop]
			e.ext = ""
			reg[drop] = e
			if got := reg.missing(schema.Platforms()); !slices.Equal(got, []schema.Platform{drop}) {
				t.Errorf("with no file extension: missing() = %v, want [%s]", got, drop)
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

// TestRunningConfigFile pins the saved-configuration file of each
// platform, which lab show users save and lab up --running-config reads,
// and RunningConfigFormats lists every platform once, in order.
func TestRunningConfigFile(t *testing.T) {
	want := map[schema.Platform]string{
		schema.AristaEOS: "d.cfg", schema.CiscoNXOS: "d.cfg", schema.JuniperJunos: "d.cfg", schema.NvidiaCumulus: "d.cfg",
		schema.SONiC: "d.json", schema.NvidiaMLNX: "d.sh", schema.LinuxDCB: "d.sh", "ios": "d.cfg",
	}
	for p, file := range want {
		if got := RunningConfigFile("d", p); got != file {
			t.Errorf("RunningConfigFile(d, %s) = %s, want %s", p, got, file)
		}
	}
	var got []schema.Platform
	for _, f := range RunningConfigFormats() {
		got = append(got, f.Platform)
		if f.Form == "" || f.Ext == "" {
			t.Errorf("%s: empty format %+v", f.Platform, f)
		}
	}
	if !slices.Equal(got, schema.Platforms()) {
		t.Errorf("RunningConfigFormats platforms %v, want %v", got, schema.Platforms())
	}
}
