package lint

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/natsort"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// TestSameLineFindingPointsAtItsPlaces: findings that one line causes at
// several ports, merged into one, list each port among its places.
func TestSameLineFindingPointsAtItsPlaces(t *testing.T) {
	a := Finding{Summary: "leaf1:Ethernet1 x", Device: "leaf1", Port: "Ethernet1"}
	b := Finding{Summary: "leaf2:Ethernet1 x", Device: "leaf2", Port: "Ethernet1"}
	line := schema.Range{Filename: "q.fab.hcl", Start: schema.Pos{Line: 3, Column: 1}, End: schema.Pos{Line: 3, Column: 9}}
	a.Subject, b.Subject = &line, &line
	places := func(dev, port string) (schema.Range, bool) {
		return schema.Range{Filename: "d.fab.hcl", Start: schema.Pos{Line: int32(len(dev) + len(port)), Column: 1}}, true
	}
	got := mergeSameLine([]Finding{a, b}, places)
	if len(got) != 1 || got[0].Count != 2 {
		t.Fatalf("got %d findings (%+v), want one about 2 places", len(got), got)
	}
	var msgs []string
	for _, r := range got[0].Places {
		msgs = append(msgs, r.Message)
	}
	if j := strings.Join(msgs, "|"); j != "port leaf1:Ethernet1|port leaf2:Ethernet1" {
		t.Errorf("places %q, want both ports", j)
	}
}

// TestFindingsAboutManyPlacesListThem: through the loader, every finding
// of the examples and fixtures (lint's and every platform folder's) that
// counts several places lists them, up to diag.MaxPlaces, as its places,
// so SARIF and JSON can point at each. Every rule that counts is held to
// it, a future one included: the test does not name the rules it checks.
// It does name the rules known to count, so that the corpus keeps showing
// each of them counting (a check over no finding proves nothing).
func TestFindingsAboutManyPlacesListThem(t *testing.T) {
	var dirs []string
	broken, _ := filepath.Glob("../examples/broken/*")
	for _, dir := range broken {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			dirs = append(dirs, dir)
		}
	}
	for _, c := range fixtureDirs(t) {
		dirs = append(dirs, c.loadDir(t))
	}
	counted := map[string]int{}
	for _, dir := range dirs {
		f, ds := schema.Load(dir, schema.Options{Platforms: platforms.Catalog(), Getenv: func(string) string { return "" }})
		if ds.HasErrors() {
			continue
		}
		fs, err := Run(context.Background(), f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range fs {
			if fd.Count < 2 {
				continue
			}
			counted[fd.Rule]++
			want := min(fd.Count, diag.MaxPlaces)
			if len(fd.Places) < want {
				t.Errorf("%s: %s %q about %d places lists %d places, want %d (its ports' or devices' blocks: portsPlaces, devicesPlaces, causeAgg)",
					dir, fd.Rule, fd.Summary, fd.Count, len(fd.Places), want)
			}
			for i := 1; i < len(fd.Places); i++ {
				if natsort.Less(fd.Places[i].Message, fd.Places[i-1].Message) || fd.Places[i] == fd.Places[i-1] {
					t.Errorf("%s: %s places %q then %q: want them sorted, each once", dir, fd.Rule, fd.Places[i-1].Message, fd.Places[i].Message)
				}
			}
		}
	}
	for _, id := range countingRules {
		if counted[id] == 0 {
			t.Errorf("rule %s counts places, but no example or fixture shows it counting more than one: add a fixture where it does", id)
		}
	}
	t.Logf("findings about several places, by rule: %v", counted)
}

// countingRules are the rules known to count the places of a finding; the
// corpus must show each of them about more than one place.
var countingRules = []string{"BUF002", "MTU003", "NIC001", "NIC007", "PFC001", "QOS006"}

// TestPlatformLimitFindingsListTheirDevices: a value two devices of a
// platform cannot express is one PLT finding about both, through lint and
// through render's refusals, with each device's block among its places.
func TestPlatformLimitFindingsListTheirDevices(t *testing.T) {
	dir := t.TempDir()
	base, err := os.ReadFile("../platforms/arista_eos/testdata/lint/" + platformLintBase)
	if err != nil {
		t.Fatal(err)
	}
	const devices = `qos_policy "jumbo" {
  mtu = 9216
}

role "leaf" {
  qos_policy = qos_policy.jumbo
}

device "x10" {
  kind     = "leaf"
  platform = "arista_eos"
  port "Ethernet1" {
    speed = "100G"
  }
}

device "x2" {
  kind     = "leaf"
  platform = "arista_eos"
  port "Ethernet1" {
    speed = "100G"
  }
}
`
	for name, src := range map[string][]byte{platformLintBase: base, "devices.fab.hcl": []byte(devices)} {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f, ds := schema.Load(dir, schema.Options{Platforms: platforms.Catalog(), Getenv: func(string) string { return "" }})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	rule := PlatformRule("arista_eos")
	linted, err := Run(context.Background(), f, Options{Only: []string{rule}})
	if err != nil {
		t.Fatal(err)
	}
	var refusals []*templates.UnsupportedError
	checker := templates.NewChecker()
	for _, d := range f.Devices {
		refusals = append(refusals, checker.Check(f, d)...)
	}
	refusals = append(refusals, refusals...) // a device refused twice still counts once
	for _, tt := range []struct {
		name string
		fs   []Finding
	}{
		{"lint", linted},
		{"render", RefusalFindings(f, refusals)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.fs) != 1 {
				t.Fatalf("got %d findings, want one: %v", len(tt.fs), tt.fs)
			}
			fd := tt.fs[0]
			var got []string
			for _, r := range fd.Places {
				got = append(got, r.Message)
			}
			if fd.Rule != rule || fd.Count != 2 || strings.Join(got, "|") != "device x2|device x10" {
				t.Errorf("%s finding about %d places, places %q: want %s about 2, places device x2|device x10", fd.Rule, fd.Count, got, rule)
			}
		})
	}
}

// TestFirstPlacesKeepsTheFirstInNaturalOrder: whatever order a rule meets
// its places in, it lists the first diag.MaxPlaces in natural order, each
// once.
func TestFirstPlacesKeepsTheFirstInNaturalOrder(t *testing.T) {
	var all [][2]string
	for i := 20; i >= 1; i-- {
		all = append(all, [2]string{fmt.Sprintf("leaf%d", i), "eth1"})
	}
	tests := []struct {
		name  string
		order func([][2]string) [][2]string
	}{
		{"descending", func(ps [][2]string) [][2]string { return ps }},
		{"ascending", func(ps [][2]string) [][2]string { ps = slices.Clone(ps); slices.Reverse(ps); return ps }},
		{"repeated", func(ps [][2]string) [][2]string { return append(slices.Clone(ps), ps...) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got [][2]string
			for _, p := range tt.order(all) {
				got = firstPlaces(got, p)
			}
			if len(got) != diag.MaxPlaces || got[0][0] != "leaf1" || got[1][0] != "leaf2" || got[len(got)-1][0] != fmt.Sprintf("leaf%d", diag.MaxPlaces) {
				t.Errorf("got %v, want leaf1 … leaf%d", got, diag.MaxPlaces)
			}
		})
	}
}

// TestRulesThatCountSetPlaces reads the rules' source: a function of a
// rules_*.go file that sets a finding's Count (other than to a constant)
// also sets its Places, or counts through the helpers that do (causeAgg,
// lineAgg, pathAgg, reportGroup). A new rule that counts without places
// fails here even before a fixture shows it counting.
func TestRulesThatCountSetPlaces(t *testing.T) {
	files, err := filepath.Glob("rules_*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rules_*.go (%v)", err)
	}
	fset := token.NewFileSet()
	for _, fn := range files {
		if strings.HasSuffix(fn, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, fn, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			var counts []token.Pos
			places := false
			isField := func(e ast.Expr, name string) bool {
				sel, ok := e.(*ast.SelectorExpr)
				return ok && sel.Sel.Name == name
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.IncDecStmt:
					if isField(n.X, "Count") {
						counts = append(counts, n.Pos())
					}
				case *ast.AssignStmt:
					for i, lhs := range n.Lhs {
						switch {
						case isField(lhs, "Places"):
							places = true
						case isField(lhs, "Count") && i < len(n.Rhs):
							if _, lit := n.Rhs[i].(*ast.BasicLit); !lit {
								counts = append(counts, n.Pos())
							}
						}
					}
				case *ast.KeyValueExpr:
					if id, ok := n.Key.(*ast.Ident); ok {
						_, lit := n.Value.(*ast.BasicLit)
						switch {
						case id.Name == "Places":
							places = true
						case id.Name == "Count" && !lit:
							counts = append(counts, n.Pos())
						}
					}
				}
				return true
			})
			if len(counts) > 0 && !places {
				for _, pos := range counts {
					t.Errorf("%s: %s counts a finding's places without listing them (set Places, e.g. with portsPlaces or devicesPlaces, or count through causeAgg)", fset.Position(pos), fd.Name.Name)
				}
			}
		}
	}
}
