package schema_test

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// specOf returns the intent spec of platform p, from its folder.
func specOf(t *testing.T, p schema.Platform) schema.PlatformSpec {
	t.Helper()
	pl, ok := platforms.Get(p)
	if !ok {
		t.Fatalf("no platform %s", p)
	}
	return pl.Spec
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		p     schema.Platform
		in    string
		parts []int
		bad   bool
	}{
		{schema.AristaEOS, "4.30.1F", []int{4, 30, 1}, false},
		{schema.AristaEOS, "4.32.2.1F", []int{4, 32, 2, 1}, false},
		{schema.AristaEOS, "4.21", []int{4, 21}, false},
		{schema.AristaEOS, "4.30.1f", nil, true},
		{schema.AristaEOS, "v4.30", nil, true},
		{schema.CiscoNXOS, "10.3(2)F", []int{10, 3, 2}, false},
		{schema.CiscoNXOS, "9.3(10)", []int{9, 3, 10}, false},
		{schema.CiscoNXOS, "10.4", []int{10, 4}, false},
		{schema.CiscoNXOS, "10.3(2", nil, true},
		{schema.JuniperJunos, "23.4R1", []int{23, 4, 1}, false},
		{schema.JuniperJunos, "21.4R3-S5", []int{21, 4, 3}, false},
		{schema.JuniperJunos, "22.2R1.9", []int{22, 2, 1}, false},
		{schema.JuniperJunos, "23.4R2-S1-EVO", []int{23, 4, 2}, false},
		{schema.JuniperJunos, "23", nil, true},
		{schema.NvidiaCumulus, "5.15", []int{5, 15}, false},
		{schema.NvidiaCumulus, "5.9.2", []int{5, 9, 2}, false},
		{schema.NvidiaCumulus, "5", nil, true},
		{schema.NvidiaCumulus, "5.15 ", nil, true},
		{schema.SONiC, "202311", []int{202311}, false},
		{schema.SONiC, "202405.2", []int{202405, 2}, false},
		{schema.SONiC, "202300", nil, true},
		{schema.SONiC, "master", nil, true},
		{schema.NvidiaMLNX, "24.10", nil, true},
		{schema.LinuxDCB, "6.1", nil, true},
	}
	for _, tc := range tests {
		v, err := specOf(t, tc.p).ParseVersion(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("%s %q: error %v, want bad=%v", tc.p, tc.in, err, tc.bad)
			continue
		}
		if !tc.bad && (!slices.Equal(v.Parts, tc.parts) || v.String() != tc.in) {
			t.Errorf("%s %q: got %v %q, want %v", tc.p, tc.in, v.Parts, v.String(), tc.parts)
		}
	}
}

func TestVersionAtLeast(t *testing.T) {
	v, err := specOf(t, schema.NvidiaCumulus).ParseVersion("5.15")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		want []int
		ok   bool
	}{{[]int{5, 15}, true}, {[]int{5, 15, 0}, true}, {[]int{5, 14}, true}, {[]int{5, 16}, false}, {[]int{6}, false}, {[]int{5, 15, 1}, false}} {
		if got := v.AtLeast(tc.want...); got != tc.ok {
			t.Errorf("5.15 AtLeast %v = %v, want %v", tc.want, got, tc.ok)
		}
	}
	for _, s := range platforms.Catalog() {
		d := s.DefaultVersion()
		if s.Host != (d.Raw == "") {
			t.Errorf("%s: default release %q", s.Name, d.Raw)
		}
	}
}

func TestJunosFamilyOf(t *testing.T) {
	familyOf := specOf(t, schema.JuniperJunos).Attrs.Family
	for model, want := range map[string]schema.JunosFamily{
		"": schema.JunosQFX5000, "QFX5120-48Y": schema.JunosQFX5000, "qfx5240-64od": schema.JunosQFX5000, "ex4650-48y": schema.JunosQFX5000,
		"qfx10002-36q": schema.JunosQFX10000, "ex4400-48mp": schema.JunosEX, "mx304": schema.JunosMX,
	} {
		got, err := familyOf(model)
		if err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", model, got, err, want)
		}
	}
	if _, err := familyOf("ptx10008"); err == nil {
		t.Error("ptx10008 accepted")
	}
}

// TestReleaseAttributesLoad checks what the loader records for os_version,
// asic, model and driver, set and unset, and the restoration default.
func TestReleaseAttributesLoad(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "f.fab.hcl", `fabric "r" {}
pfc_watchdog "quick" {
  detection = "200ms"
}
pfc_watchdog "slowpoll" {
  detection     = "1s"
  poll_interval = "500ms"
}
pfc_watchdog "own" {
  detection   = "200ms"
  restoration = "1s"
}
device "s" {
  kind       = "leaf"
  platform   = "sonic"
  asic       = "mellanox"
  os_version = "202106"
}
device "c" {
  kind     = "leaf"
  platform = "nvidia_cumulus"
}
device "j" {
  kind     = "spine"
  platform = "juniper_junos"
  model    = "QFX10002-36Q"
}
device "n" {
  kind     = "nic"
  platform = "linux_dcb"
  driver   = "ice"
}
device "m" {
  kind     = "nic"
  platform = "linux_dcb"
}
`)
	f, diags := schema.Load(filepath.Clean(dir), schema.Options{Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	s, c, j, n, m := f.Device("s"), f.Device("c"), f.Device("j"), f.Device("n"), f.Device("m")
	if s.ASIC.V != "mellanox" || !s.OSVersion.Set || s.OSVersion.V.AtLeast(202111) || !s.OSVersion.V.AtLeast(202106) {
		t.Errorf("sonic: asic %q release %+v", s.ASIC.V, s.OSVersion)
	}
	if c.OSVersion.Set || c.OSVersion.V.Raw != "5.14" || c.OSVersion.Src != c.Range {
		t.Errorf("cumulus default release %+v", c.OSVersion)
	}
	if j.Family != schema.JunosQFX10000 || j.Model.V != "QFX10002-36Q" {
		t.Errorf("junos: %q %q", j.Model.V, j.Family)
	}
	if n.Driver.V != "ice" || !n.Driver.Set || m.Driver.V != specOf(t, schema.LinuxDCB).Attrs.DefaultDriver || m.Driver.Set {
		t.Errorf("drivers: %+v %+v", n.Driver, m.Driver)
	}
	want := map[string]time.Duration{"quick": 200 * time.Millisecond, "slowpoll": 500 * time.Millisecond, "own": time.Second}
	for _, w := range f.Watchdogs {
		if w.Restoration.V != want[w.Name] || w.Restoration.Set != (w.Name == "own") {
			t.Errorf("pfc_watchdog %s restoration %v (set %v)", w.Name, w.Restoration.V, w.Restoration.Set)
		}
	}
}
