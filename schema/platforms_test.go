package schema

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"
)

// platformConstants returns the values of the Platform constants declared
// in model.go, in declaration order: the platforms a new row must follow.
func platformConstants(t *testing.T) []Platform {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "model.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []Platform
	for _, decl := range file.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v, ok := spec.(*ast.ValueSpec)
			if !ok {
				continue
			}
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Platform" {
				continue
			}
			for _, val := range v.Values {
				if lit, ok := val.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, Platform(s))
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("found no Platform constants in model.go")
	}
	return out
}

// rows returns platformTable's rows as a slice the tests may change.
func rows() []platformSpec { return slices.Collect(platformTable) }

// tableProblems names, per platform of want, what its row of table lacks
// (no row, no port-name check or form, no free-text reason), and every
// row twice in table or of a platform not in want.
func tableProblems(want []Platform, table []platformSpec) []string {
	var out []string
	rows := map[Platform]int{}
	for _, s := range table {
		rows[s.platform]++
		if !slices.Contains(want, s.platform) {
			out = append(out, string(s.platform)+": a row for no Platform constant")
		}
	}
	for _, p := range want {
		var row platformSpec
		for _, s := range table {
			if s.platform == p {
				row = s
			}
		}
		switch {
		case rows[p] == 0:
			out = append(out, string(p)+": no row")
		case rows[p] > 1:
			out = append(out, string(p)+": more than one row")
		case row.ports.Check == nil || row.ports.Form == "":
			out = append(out, string(p)+": no port-name check or form")
		case row.text.why == "":
			out = append(out, string(p)+": no free-text rule (say why when it refuses nothing more)")
		}
	}
	return out
}

// TestPlatformTableComplete: every Platform constant has a full row in
// platformTable, and the check names a platform whose row is removed or
// has a field left empty.
func TestPlatformTableComplete(t *testing.T) {
	consts := platformConstants(t)
	for _, p := range tableProblems(consts, rows()) {
		t.Errorf("%s: fill in its row of platformTable in schema/platforms.go", p)
	}
	if !slices.Equal(Platforms(), consts) {
		t.Errorf("Platforms() = %v, want the constants in their order %v", Platforms(), consts)
	}
	for _, p := range consts {
		// Rows are found by platform, never by position: a constant
		// without a row is reported above, not a panic here.
		i := slices.IndexFunc(rows(), func(s platformSpec) bool { return s.platform == p })
		if i < 0 {
			continue
		}
		drop := slices.Delete(rows(), i, i+1)
		if got := tableProblems(consts, drop); !slices.Equal(got, []string{string(p) + ": no row"}) {
			t.Errorf("with %s's row removed: %v", p, got)
		}
		for name, blank := range map[string]func(*platformSpec){
			"port check": func(s *platformSpec) { s.ports.Check = nil },
			"port form":  func(s *platformSpec) { s.ports.Form = "" },
			"text why":   func(s *platformSpec) { s.text = textRule{} },
		} {
			table := rows()
			blank(&table[i])
			if got := tableProblems(consts, table); len(got) != 1 {
				t.Errorf("with %s's %s empty: %v", p, name, got)
			}
		}
	}
	// A constant with no row at all (the state of a platform being added)
	// is reported by name, not a panic.
	if got := tableProblems(append(slices.Clone(consts), "test_os"), rows()); !slices.Equal(got, []string{"test_os: no row"}) {
		t.Errorf("a constant without a row: %v", got)
	}
	if got := tableProblems(consts, append(rows(), platformSpec{platform: "ios"})); len(got) != 1 {
		t.Errorf("a row of an unknown platform: %v", got)
	}
}

// TestPlatformFacts pins what the table says through the functions that
// read it, and what they say about an unknown platform.
func TestPlatformFacts(t *testing.T) {
	var hosts []Platform
	for _, p := range Platforms() {
		if p.IsHost() {
			hosts = append(hosts, p)
		}
	}
	if !slices.Equal(hosts, []Platform{NvidiaMLNX, LinuxDCB}) {
		t.Errorf("host platforms %v", hosts)
	}
	if textRuleOf(CiscoNXOS).refuse != "?|;" || textRuleOf(SONiC).refuse != "" || textRuleOf(LinuxDCB).refuse == "" {
		t.Errorf("free-text rules: nxos %q sonic %q linux_dcb %q", textRuleOf(CiscoNXOS).refuse, textRuleOf(SONiC).refuse, textRuleOf(LinuxDCB).refuse)
	}
	unknown := Platform("ios")
	if unknown.IsHost() || textRuleOf(unknown) != (textRule{}) || !PortNamingOf(unknown).Check("anything") {
		t.Error("an unknown platform is not a host, refuses no extra text and accepts every port name")
	}
}

// BenchmarkPlatformLookup is the cost of one lookup in the table, which
// the loader makes per device and per port.
func BenchmarkPlatformLookup(b *testing.B) {
	for b.Loop() {
		_ = LinuxDCB.IsHost()
	}
}
