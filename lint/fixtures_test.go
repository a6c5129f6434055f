package lint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// The lint fixtures: each directory under testdata/fixtures is a fabric
// loaded by the real loader (schema.Load) and linted with every rule. A
// line that must carry a finding says so, the go/analysis analysistest way:
//
//	trust = "none" # want QOS001 "trusts \"none\""
//
// (several `RULE "regexp"` pairs may follow one want; `+RULE "regexp"` is a
// finding folded into another rule's finding on the line, Rule.Implies,
// which the harness also compares exactly). The harness compares
// the set of (file, line, rule) exactly: a missing finding and an extra one
// both fail, each finding's summary must match its regexp, and two findings
// of one rule on one line fail too (one cause, one finding). A load error
// is a finding of VAL001. Directories are named <rule>-fail-… (at least one
// want for the rule, or for its finding folded into another's: +RULE) or
// <rule>-pass-… (a near miss: no finding of the rule, folded or not), and
// every rule of the registry has at least one of each (a folded want does
// not count for the rule's own failing case).
//
// A platform's own rule (PLT001 and on) has its fixtures in its folder,
// platforms/<name>/testdata/lint/{fail,pass}/<case>/, so a copy of the
// folder brings its own: there the rule is written PLTxxx, which stands
// for the folder's rule (PlatformRule), whatever its number. The folder's
// cases share one base, platforms/<name>/testdata/lint/base.fab.hcl (the
// QoS every case lints against, wants included): a case directory holds
// only what the case adds, and is loaded together with the base.
//
// Lint's own cases share a base the same way, by rule family: a case of a
// rule whose letters are xyz (xyz001-fail-…) is loaded together with
// testdata/fixtures-bases/xyz.fab.hcl when that file exists (for now
// ibq.fab.hcl, the InfiniBand fat tree). A family base holds the blocks no
// case of the family changes (HCL cannot override an attribute of a block
// written elsewhere), so a case holds the blocks it changes whole, and its
// wants stay on its own lines. A base sits outside testdata/fixtures, so it
// is never a case itself; every base must serve a case. A reader outside
// lint that loads a case (platforms/opensm/priority_test.go) loads it with
// its base too.

// platformRuleMark stands for the folder's platform-limit rule in the
// fixtures of a platform folder.
const platformRuleMark = "PLTxxx"

// platformLintBase is the file of a platform folder's testdata/lint that
// every case of the folder is loaded with.
const platformLintBase = "base.fab.hcl"

// fixtureBases is the directory, under testdata, of the family bases of
// lint's own fixtures: <family>.fab.hcl, family the rule's letters.
const fixtureBases = "fixtures-bases"

// familyBase is the family base lint's own case name is loaded with, or ""
// when its rule family has none.
func familyBase(t *testing.T, name string) string {
	t.Helper()
	id, _, _ := strings.Cut(name, "-")
	family := strings.TrimRight(id, "0123456789")
	if family == "" || family == id {
		return ""
	}
	base := filepath.Join("testdata", fixtureBases, family+".fab.hcl")
	if _, err := os.Stat(base); errors.Is(err, os.ErrNotExist) {
		return ""
	} else if err != nil {
		t.Fatalf("%s: family base: %v", name, err)
	}
	return base
}

// lintCase is one fixture directory: its name (<rule>-fail-… or
// <rule>-pass-…), its path, the rule PLTxxx stands for ("" outside a
// platform folder) and the base file loaded with it: the platform folder's
// base, the rule family's base (familyBase) or "".
type lintCase struct {
	name, dir, rule, base string
}

// files are the *.fab.hcl files of c: its directory's, then its base.
func (c lintCase) files(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(c.dir, "*.fab.hcl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no *.fab.hcl files (%v)", c.dir, err)
	}
	if c.base == "" {
		return files
	}
	for _, fn := range files {
		if filepath.Base(fn) == filepath.Base(c.base) {
			t.Fatalf("%s: a case holds no file named like its base %s", fn, c.base)
		}
	}
	return append(files, c.base)
}

// loadDir is the directory to load c from: its own, or, with a base, a
// copy of its files and the base in a temporary directory.
func (c lintCase) loadDir(t *testing.T) string {
	t.Helper()
	if c.base == "" {
		return c.dir
	}
	dir := t.TempDir()
	for _, fn := range c.files(t) {
		src, err := os.ReadFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(fn)), src, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var (
	wantComment = regexp.MustCompile(`#\s*want\s+(.*)$`)
	wantPair    = regexp.MustCompile(`(\+?)([A-Z]{2,4}[0-9]{3})\s+"((?:[^"\\]|\\.)*)"`)
)

type wantKey struct {
	file string
	line int
	rule string
	// implied marks a finding folded into another on the line (+RULE).
	implied bool
}

// fixtureWants reads the want markers of every *.fab.hcl file of c (its
// base's included).
func fixtureWants(t *testing.T, c lintCase) map[wantKey][]*regexp.Regexp {
	t.Helper()
	files := c.files(t)
	wants := map[wantKey][]*regexp.Regexp{}
	for _, fn := range files {
		src, err := os.ReadFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if c.rule != "" {
				line = strings.ReplaceAll(line, platformRuleMark, c.rule)
			}
			m := wantComment.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			pairs := wantPair.FindAllStringSubmatch(m[1], -1)
			if len(pairs) == 0 {
				t.Fatalf("%s:%d: malformed want marker %q", fn, i+1, m[0])
			}
			for _, p := range pairs {
				re, err := regexp.Compile(strings.ReplaceAll(p[3], `\"`, `"`))
				if err != nil {
					t.Fatalf("%s:%d: %v", fn, i+1, err)
				}
				k := wantKey{filepath.Base(fn), i + 1, p[2], p[1] == "+"}
				wants[k] = append(wants[k], re)
			}
		}
	}
	return wants
}

// lintFixture loads and lints dir, returning the findings by (file, line, rule).
func lintFixture(t *testing.T, dir string) map[wantKey][]string {
	t.Helper()
	got := map[wantKey][]string{}
	f, diags := schema.Load(dir, schema.Options{Platforms: platforms.Catalog()})
	for _, d := range diags {
		r := d.Range()
		k := wantKey{filepath.Base(r.Filename), int(r.Start.Line), ValidationRule, false}
		got[k] = append(got[k], d.Summary+": "+d.Detail)
	}
	if diags.HasErrors() {
		return got
	}
	fs, err := Run(context.Background(), f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fs {
		r := fd.Range()
		k := wantKey{filepath.Base(r.Filename), int(r.Start.Line), fd.Rule, false}
		got[k] = append(got[k], fd.Summary)
		for _, im := range fd.Implied {
			ik := wantKey{k.file, k.line, im.Rule, true}
			got[ik] = append(got[ik], im.Summary)
		}
	}
	return got
}

// plus is "+" for a folded finding's key.
func plus(k wantKey) string {
	if k.implied {
		return "+"
	}
	return ""
}

// fixtureDirs is every fixture: lint's own under testdata/fixtures, then
// each registry platform's under its folder's testdata/lint.
func fixtureDirs(t *testing.T) []lintCase {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("testdata", "fixtures", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixtures under testdata/fixtures (%v)", err)
	}
	var out []lintCase
	for _, d := range dirs {
		name := filepath.Base(d)
		out = append(out, lintCase{name: name, dir: d, base: familyBase(t, name)})
	}
	for _, fx := range platformtest.All("..") {
		rule := PlatformRule(fx.Platform.Name)
		if rule == "" {
			t.Fatalf("platform %s has no platform-limit rule", fx.Platform.Name)
		}
		base := filepath.Join(fx.Dir, "lint", platformLintBase)
		if _, err := os.Stat(base); err != nil {
			t.Errorf("platforms/%s: no testdata/lint/%s, the base its lint cases load with (%v)", fx.Platform.Folder, platformLintBase, err)
			continue
		}
		for _, kind := range []string{"fail", "pass"} {
			ds, err := filepath.Glob(filepath.Join(fx.Dir, "lint", kind, "*"))
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) == 0 {
				t.Errorf("platforms/%s: no %s fixture under testdata/lint/%s/ for its rule %s (written %s there)", fx.Platform.Folder, kind, kind, rule, platformRuleMark)
			}
			for _, d := range ds {
				out = append(out, lintCase{name: strings.ToLower(rule) + "-" + kind + "-" + fx.Platform.Folder + "-" + filepath.Base(d), dir: d, rule: rule, base: base})
			}
		}
	}
	return out
}

// TestFixtures runs every fixture through the loader and lint.
func TestFixtures(t *testing.T) {
	for _, c := range fixtureDirs(t) {
		t.Run(c.name, func(t *testing.T) {
			wants := fixtureWants(t, c)
			got := lintFixture(t, c.loadDir(t))
			for k, res := range wants {
				msgs, ok := got[k]
				if !ok {
					t.Errorf("%s:%d: missing %s%s finding (want %q)", k.file, k.line, plus(k), k.rule, res[0])
					continue
				}
				if len(msgs) > 1 {
					t.Errorf("%s:%d: %d %s findings on one line (one cause, one finding): %s", k.file, k.line, len(msgs), k.rule, strings.Join(msgs, " | "))
				}
				for _, re := range res {
					matched := false
					for _, m := range msgs {
						matched = matched || re.MatchString(m)
					}
					if !matched {
						t.Errorf("%s:%d: %s finding %q does not match %q", k.file, k.line, k.rule, msgs, re)
					}
				}
			}
			var extra []string
			for k, msgs := range got {
				if _, ok := wants[k]; !ok {
					extra = append(extra, fmt.Sprintf("%s:%d: unexpected %s%s finding: %s", k.file, k.line, plus(k), k.rule, strings.Join(msgs, " | ")))
				}
			}
			sort.Strings(extra)
			for _, e := range extra {
				t.Error(e)
			}
		})
	}
}

// TestEveryRuleHasLoaderFixtures: every rule of the registry has a failing
// and a passing fixture through the loader.
func TestEveryRuleHasLoaderFixtures(t *testing.T) {
	fail, pass := map[string]bool{}, map[string]bool{}
	for _, c := range fixtureDirs(t) {
		name := c.name
		id, kind, ok := strings.Cut(name, "-")
		if !ok {
			t.Errorf("fixture %s: name it <rule>-fail-… or <rule>-pass-…", name)
			continue
		}
		id = strings.ToUpper(id)
		wants := fixtureWants(t, c)
		// folded: the rule's finding is folded into another rule's on
		// its line (+RULE): a failing case, but not the one a rule's
		// coverage counts (every rule reports on its own somewhere).
		has, folded := false, false
		for k := range wants {
			has = has || (k.rule == id && !k.implied)
			folded = folded || (k.rule == id && k.implied)
		}
		switch {
		case strings.HasPrefix(kind, "fail") && has:
			fail[id] = true
		case strings.HasPrefix(kind, "fail") && folded:
		case strings.HasPrefix(kind, "pass") && !has && !folded:
			pass[id] = true
		default:
			t.Errorf("fixture %s: a fail fixture wants its rule, a pass fixture does not", name)
		}
	}
	for _, r := range Rules() {
		if !fail[r.ID] || !pass[r.ID] {
			t.Errorf("rule %s needs a failing and a passing fixture under testdata/fixtures (fail %v, pass %v)", r.ID, fail[r.ID], pass[r.ID])
		}
	}
}

// TestFixtureBases: every file under testdata/fixtures-bases is a
// <family>.fab.hcl that some case is loaded with (a base nobody loads is
// dead text).
func TestFixtureBases(t *testing.T) {
	bases, err := filepath.Glob(filepath.Join("testdata", fixtureBases, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(bases) == 0 {
		t.Fatalf("no family base under testdata/%s", fixtureBases)
	}
	used := map[string]int{}
	cases := fixtureDirs(t)
	for _, c := range cases {
		used[c.base]++
	}
	for _, b := range bases {
		if !strings.HasSuffix(b, ".fab.hcl") {
			t.Errorf("%s: a family base is a <family>.fab.hcl", b)
		}
		if used[b] == 0 {
			t.Errorf("%s: no case is loaded with it (name a case <family>NNN-…)", b)
		}
	}
}
