package schema_test

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// probe returns the spec of schema's probe platform name.
func probe(t *testing.T, name schema.Platform) schema.PlatformSpec {
	t.Helper()
	for _, s := range schema.ProbeCatalog() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no probe platform %s", name)
	return schema.PlatformSpec{}
}

// TestVersionAtLeast compares a release with AtLeast; and on the
// registry, a switch has a default release and a host none. Each
// folder's release syntax is pinned in its spec_test.go.
func TestVersionAtLeast(t *testing.T) {
	v, err := probe(t, "probe_a").ParseVersion("5.15")
	if err != nil {
		t.Fatal(err)
	}
	if v.String() != "5.15" || !slices.Equal(v.Parts, []int{5, 15}) {
		t.Errorf("5.15 parsed as %q %v", v.String(), v.Parts)
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
		if (s.Host || s.Managed) != (d.Raw == "") {
			t.Errorf("%s: default release %q", s.Name, d.Raw)
		}
		if s.Release == nil {
			if _, err := s.ParseVersion(d.Raw); err == nil {
				t.Errorf("%s: no release form, yet a release parses", s.Name)
			}
		}
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
  platform   = "probe_asic"
  asic       = "mellanox"
  os_version = "202106"
}
device "c" {
  kind     = "leaf"
  platform = "probe_a"
}
device "j" {
  kind     = "spine"
  platform = "probe_a"
  model    = "BIG-36Q"
}
device "n" {
  kind     = "nic"
  platform = "probe_host"
  driver   = "ice"
}
device "m" {
  kind     = "nic"
  platform = "probe_host"
}
`)
	f, diags := schema.Load(filepath.Clean(dir), schema.Options{Platforms: loadCatalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	s, c, j, n, m := f.Device("s"), f.Device("c"), f.Device("j"), f.Device("n"), f.Device("m")
	if s.ASIC.V != "mellanox" || !s.OSVersion.Set || s.OSVersion.V.AtLeast(202111) || !s.OSVersion.V.AtLeast(202106) {
		t.Errorf("probe_asic: asic %q release %+v", s.ASIC.V, s.OSVersion)
	}
	if c.OSVersion.Set || c.OSVersion.V.Raw != "5.14" || c.OSVersion.Src != c.Range {
		t.Errorf("probe_a default release %+v", c.OSVersion)
	}
	if j.Family != "big" || j.Model.V != "BIG-36Q" {
		t.Errorf("probe_a model: %q %q", j.Model.V, j.Family)
	}
	if n.Driver.V != "ice" || !n.Driver.Set || m.Driver.V != probe(t, "probe_host").Attrs.DefaultDriver || m.Driver.Set {
		t.Errorf("drivers: %+v %+v", n.Driver, m.Driver)
	}
	want := map[string]time.Duration{"quick": 200 * time.Millisecond, "slowpoll": 500 * time.Millisecond, "own": time.Second}
	for _, w := range f.Watchdogs {
		if w.Restoration.V != want[w.Name] || w.Restoration.Set != (w.Name == "own") {
			t.Errorf("pfc_watchdog %s restoration %v (set %v)", w.Name, w.Restoration.V, w.Restoration.Set)
		}
	}
}
