package platforms

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/schema"
)

// specProblems names, per folder, what its intent spec lacks
// (schema.PlatformSpec.Problems), and a spec whose name is not its
// folder's platform.
func specProblems(all []platform.Platform) []string {
	var out []string
	for _, p := range all {
		if p.Spec.Name != p.Name {
			out = append(out, "platforms/"+p.Folder+"/spec.go: the spec names "+string(p.Spec.Name)+", not "+string(p.Name))
		}
		for _, pr := range p.Spec.Problems() {
			out = append(out, "platforms/"+p.Folder+"/spec.go: "+pr)
		}
	}
	return out
}

// TestCatalogComplete: every folder's intent spec is complete, the
// catalog lists them in the registry's order, and the check names the
// folder whose spec has a field left empty.
func TestCatalogComplete(t *testing.T) {
	all := All()
	for _, p := range specProblems(all) {
		t.Error(p)
	}
	var names []schema.Platform
	for _, s := range Catalog() {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, List()) {
		t.Errorf("Catalog() names %v, want the registry's %v", names, List())
	}
	for i, p := range all {
		for field, blank := range map[string]func(*schema.PlatformSpec){
			"name":       func(s *schema.PlatformSpec) { s.Name = "" },
			"port check": func(s *schema.PlatformSpec) { s.Ports.Check = nil },
			"port form":  func(s *schema.PlatformSpec) { s.Ports.Form = "" },
			"text why":   func(s *schema.PlatformSpec) { s.Text = schema.TextRule{} },
			"release":    func(s *schema.PlatformSpec) { s.Release = &schema.ReleaseForm{} },
		} {
			broken := slices.Clone(all)
			blank(&broken[i].Spec)
			got := specProblems(broken)
			if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), "platforms/"+p.Folder+"/spec.go") {
				t.Errorf("%s with its %s empty: %v does not name the folder", p.Name, field, got)
			}
		}
	}
}

// TestPlatformFacts pins what the folders' specs say through the catalog,
// and what IsHost says about an unknown platform.
func TestPlatformFacts(t *testing.T) {
	var hosts []schema.Platform
	text := map[schema.Platform]string{}
	for _, s := range Catalog() {
		if s.Host {
			hosts = append(hosts, s.Name)
		}
		text[s.Name] = s.Text.Refuse
		if IsHost(s.Name) != s.Host {
			t.Errorf("IsHost(%s) = %v, its spec says %v", s.Name, IsHost(s.Name), s.Host)
		}
	}
	if !slices.Equal(hosts, []schema.Platform{schema.Platform("nvidia_mlnx"), schema.Platform("linux_dcb"), schema.Platform("opensm")}) {
		t.Errorf("host platforms %v", hosts)
	}
	if text[schema.Platform("cisco_nxos")] != "?|;" || text[schema.Platform("sonic")] != "" || text[schema.Platform("linux_dcb")] == "" {
		t.Errorf("free-text rules: nxos %q sonic %q linux_dcb %q", text[schema.Platform("cisco_nxos")], text[schema.Platform("sonic")], text[schema.Platform("linux_dcb")])
	}
	if IsHost("ios") {
		t.Error("an unknown platform is not a host")
	}
}

// BenchmarkCatalog is the cost of building the catalog, which every load
// of the command line does once.
func BenchmarkCatalog(b *testing.B) {
	for b.Loop() {
		_ = Catalog()
	}
}
