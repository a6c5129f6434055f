package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// TestOneMeaningPerShorthand walks the command tree: a shorthand names
// the same long flag on every command that has it, and -v is never the
// version.
func TestOneMeaningPerShorthand(t *testing.T) {
	s, _, _ := pushStreams("")
	root := newRootCommand(s)
	meaning := map[string]string{}
	where := map[string]string{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		visit := func(f *pflag.Flag) {
			if f.Shorthand == "" {
				return
			}
			if m, ok := meaning[f.Shorthand]; ok && m != f.Name {
				t.Errorf("-%s is --%s in %q but --%s in %q", f.Shorthand, f.Name, c.CommandPath(), m, where[f.Shorthand])
				return
			}
			meaning[f.Shorthand], where[f.Shorthand] = f.Name, c.CommandPath()
		}
		c.LocalFlags().VisitAll(visit)
		c.InheritedFlags().VisitAll(visit)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if meaning["v"] == "version" {
		t.Errorf("-v means --version (in %q)", where["v"])
	}
	if len(meaning) < 3 {
		t.Fatalf("the walk saw only %v: it does not reach the commands", meaning)
	}
}

// TestEveryFormatFlagIsListed: a command with a --format flag of its own
// is in formatFlagNames, so its values complete and -json is added.
func TestEveryFormatFlagIsListed(t *testing.T) {
	s, _, _ := pushStreams("")
	root := newRootCommand(s)
	listed := formatFlagNames()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if f := c.Flags().Lookup("format"); f != nil {
			if _, ok := listed[c.CommandPath()]; !ok && c.Flags().Lookup("json") == nil {
				t.Errorf("%s has --format but is not in formatFlagNames", c.CommandPath())
			}
			_, out, _ := lintRun(t, append(append([]string{"__complete"}, strings.Fields(strings.TrimPrefix(c.CommandPath(), "fabricgen "))...), "--format", "")...)
			if !strings.Contains(out, "text") && !strings.Contains(out, "mermaid") {
				t.Errorf("%s --format completes to %q", c.CommandPath(), out)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// savedFreshPlan saves the fresh plan of an example (see freshPlan) to
// DIR/plan.json.
func savedFreshPlan(t *testing.T, example, dir string) (*planfile.Plan, string) {
	t.Helper()
	p := freshPlan(t, example, nil)
	f, diags := schema.Load(filepath.Join(repoRoot(t), "examples", example), schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	p.IntentDigest = f.Digest
	path := filepath.Join(dir, "plan.json")
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	return p, path
}

// TestJSONFlagIsFormatJSON: on every command with machine output that
// runs without devices, -json and -format json print the same bytes,
// and asking for two outputs at once is refused. The commands that read
// devices (plan, drift, check) are in TestJSONFlagIsFormatJSONLive.
func TestJSONFlagIsFormatJSON(t *testing.T) {
	root := repoRoot(t)
	ex := func(name string) string { return filepath.Join(root, "examples", name) }
	tmp := t.TempDir()
	_, plan := savedFreshPlan(t, "roce-storage", tmp)
	eosCfg := filepath.Join(root, "examples", "brownfield", "configs", "leaf1.cfg")
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"validate", []string{"validate", ex("roce-storage")}, 0},
		{"lint", []string{"lint", ex("roce-storage")}, 0},
		{"lint several", []string{"lint", ex("roce-storage"), ex("clos-400g")}, 0},
		{"precommit lint", []string{"precommit", "lint", filepath.Join(ex("roce-storage"), "devices.fab.hcl"), filepath.Join(ex("clos-400g"), "qos.fab.hcl")}, 0},
		{"platforms", []string{"platforms"}, 0},
		{"version", []string{"version"}, 0},
		{"import", []string{"import", "--platform", "arista_eos", "-o", "out", eosCfg}, 0},
		{"show", []string{"show", plan}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var outs []string
			for _, form := range [][]string{{"-json"}, {"-format", "json"}, {"--format=json"}, {"-json", "-format", "json"}} {
				t.Chdir(t.TempDir())
				code, out, errs := lintRun(t, append(append([]string{}, c.args...), form...)...)
				if code != c.code {
					t.Fatalf("%v %v: exit %d, want %d\n%s", c.args, form, code, c.code, errs)
				}
				if !json.Valid([]byte(out)) {
					t.Fatalf("%v %v: not JSON:\n%s", c.args, form, out)
				}
				outs = append(outs, out)
			}
			for i := 1; i < len(outs); i++ {
				if outs[i] != outs[0] {
					t.Errorf("-json and the form %d print different bytes:\n%s\n---\n%s", i, outs[0], outs[i])
				}
			}
			t.Chdir(t.TempDir())
			code, _, errs := lintRun(t, append(append([]string{}, c.args...), "-json", "-format", "text")...)
			if code != exitFailed || !strings.Contains(errs, "ask for different outputs") {
				t.Errorf("-json -format text: exit %d, %q", code, errs)
			}
		})
	}
	for _, args := range [][]string{{"plan", ".", "-format", "sarif"}, {"drift", ".", "-format", "yaml"}, {"validate", ".", "-format", "markdown"}} {
		code, _, errs := lintRun(t, args...)
		if code != exitFailed || !strings.Contains(errs, "use one of") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}

// TestJSONFlagIsFormatJSONLive is TestJSONFlagIsFormatJSON for the
// commands that read devices, against a lab, and checks that show prints
// a saved plan as plan printed it.
func TestJSONFlagIsFormatJSONLive(t *testing.T) {
	r := newPushRig(t, "ai-training-2subnet")
	planOut, _ := r.run(0, nil, "plan", "fabric", "-out", "plan.json")
	code, shown, errs := lintRun(t, "show", "plan.json")
	if code != 0 {
		t.Fatalf("show: exit %d\n%s", code, errs)
	}
	if want, _, _ := strings.Cut(planOut, "\nSaved the plan to"); shown != want+"\n" && shown != want {
		t.Errorf("show prints:\n%s\nplan printed:\n%s", shown, planOut)
	}
	md, _ := r.run(0, nil, "plan", "fabric", "-format", "markdown", "-out", "plan.json")
	if _, mdShown, errs := lintRun(t, "show", "plan.json", "-format", "markdown"); mdShown != md {
		t.Errorf("show -format markdown:\n%s\nplan -format markdown printed:\n%s\n%s", mdShown, md, errs)
	}
	mdAlias, _ := r.run(0, nil, "plan", "fabric", "--markdown")
	if md != mdAlias || !strings.HasPrefix(md, "### fabricgen plan") {
		t.Errorf("plan -format markdown:\n%s\nplan --markdown:\n%s", md, mdAlias)
	}
	r.run(0, nil, "apply", "-auto-approve", "fabric")
	r.run(0, nil, "check", "fabric", "--interval", "1ms", "--save", "readings.json")
	for _, args := range [][]string{{"plan", "fabric"}, {"drift", "fabric"}, {"check", "fabric", "--from", "readings.json"}} {
		a, _ := r.run(0, nil, append(args, "-json")...)
		b, _ := r.run(0, nil, append(args, "-format", "json")...)
		if a != b || !json.Valid([]byte(a)) {
			t.Errorf("%v: -json and -format json differ:\n%s\n---\n%s", args, a, b)
		}
	}
}

// TestShow: show prints a saved plan as plan prints it, in text, JSON and
// Markdown, without a fabric or devices, and refuses what is no plan.
func TestShow(t *testing.T) {
	repo := repoRoot(t)
	dir := t.TempDir()
	p, path := savedFreshPlan(t, "clos-400g", dir)
	_, releases := savedFreshPlan(t, "releases", t.TempDir())
	t.Chdir(t.TempDir())
	var want bytes.Buffer
	writePlanHuman(&want, p, nil, planView{})
	code, out, errs := lintRun(t, "show", path)
	if code != 0 || out != want.String() {
		t.Errorf("show: exit %d\n%s\nwant:\n%s\n%s", code, out, want.String(), errs)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, out, _ = lintRun(t, "show", path, "-json"); out != string(raw) {
		t.Errorf("show -json is not the plan file:\n%s", out)
	}
	want.Reset()
	if err := (planMarkdown{Limit: 3000, PlanFile: path, Dir: p.Dir}).write(&want, p, nil); err != nil {
		t.Fatal(err)
	}
	if _, out, _ = lintRun(t, "show", path, "-format", "markdown", "--markdown-limit", "3000"); out != want.String() {
		t.Errorf("show -format markdown:\n%s\nwant:\n%s", out, want.String())
	}
	if !strings.Contains(out, "read it with <code>fabricgen show "+path+"</code>") {
		t.Errorf("a cut Markdown plan does not point at fabricgen show:\n%s", out)
	}
	// From the repository root, the plan's dir holds its intent: the
	// Markdown lists the lint notes plan listed. examples/clos-400g has
	// none (its WDG005 is suppressed in the source), examples/releases one.
	t.Chdir(repo)
	if _, out, _ = lintRun(t, "show", path, "-format", "markdown"); strings.Contains(out, "Lint:") || strings.Contains(out, "WDG005") {
		t.Errorf("show -format markdown beside a clean fabric lists a lint note:\n%s", out)
	}
	if _, out, _ = lintRun(t, "show", releases, "-format", "markdown"); !strings.Contains(out, "Lint: 1 finding(s) that do not block the plan") || !strings.Contains(out, "WDG005") {
		t.Errorf("show -format markdown beside the fabric lacks its lint note:\n%s", out)
	}
	if _, out, _ = lintRun(t, "show", path, "--summary"); strings.Contains(out, "@@") || !strings.Contains(out, "Plan:") {
		t.Errorf("show --summary:\n%s", out)
	}

	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	signed := *p
	if err := signed.Sign([]byte("k1")); err != nil {
		t.Fatal(err)
	}
	signedPath := filepath.Join(dir, "signed.json")
	if err := signed.Save(signedPath); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return f
	}
	bad := []struct {
		name string
		path string
		env  string
		want string
	}{
		{"JSON syntax", write("syntax.json", "{\n  \"format_version\": 2,\n  oops\n}\n"), "", "syntax.json:3:3: not a fabricgen plan"},
		{"lint's JSON", write("lint.json", `{"format_version": "2.1", "valid": true}`), "", "not a fabricgen plan"},
		{"another JSON", write("inv.json", `{"leaf1": "127.0.0.1:22"}`), "", "unknown field \"leaf1\""},
		{"empty", write("empty.json", ""), "", "not a fabricgen plan: the file ends"},
		{"edited device", write("edited.json", strings.Replace(string(raw), `"status": "change"`, `"status": "done"`, 1)), "", "unknown status \"done\""},
		{"named pipe", fifo, "", "fifo.json"},
		{"unsigned with a key", path, "k1", "not signed"},
		{"signed with another key", signedPath, "k2", "signature does not match"},
		{"a directory", dir, "", "is a directory"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			s := &streams{in: strings.NewReader(""), out: &out, err: &errb, getenv: func(k string) string {
				if k == planfile.KeyEnv {
					return c.env
				}
				return ""
			}}
			done := make(chan int, 1)
			go func() { done <- run(t.Context(), []string{"show", c.path}, s) }()
			select {
			case code := <-done:
				if code != exitFailed || !strings.Contains(errb.String(), c.want) || out.Len() > 0 {
					t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, out.String(), errb.String(), c.want)
				}
			case <-time.After(waitPatience(t)):
				t.Fatal("show hangs")
			}
		})
	}
	// Signed, without the key: shown, with a note.
	code, out, errs = lintRun(t, "show", signedPath)
	if code != 0 || !strings.Contains(errs, "signature was not checked") || !strings.Contains(out, "Plan:") {
		t.Errorf("a signed plan without the key: exit %d %q %q", code, out, errs)
	}
	// plan refuses a plan file as its directory, pointing at show.
	if code, _, errs := lintRun(t, "plan", path); code != exitFailed || !strings.Contains(errs, "fabricgen show "+path) {
		t.Errorf("plan PLANFILE: exit %d, %q", code, errs)
	}
}

// TestLintManyFabrics: several DIRs and --recursive give one report in
// every format, with file names that say which fabric, and the worst
// exit status.
func TestLintManyFabrics(t *testing.T) {
	t.Chdir(repoRoot(t))
	code, out, errs := lintRun(t, "lint", "examples/clos-400g", "examples/roce-storage", "examples/clos-400g/")
	if code != 0 || strings.Count(out, "No findings")+strings.Count(out, "info") == 0 || errs != "" {
		t.Errorf("two fabrics: exit %d\n%s\n%s", code, out, errs)
	}
	// The last line says how many fabrics were linted: a clean one is not
	// silent.
	if !strings.Contains(out, " in 2 fabrics (examples/clos-400g, examples/roce-storage)") {
		t.Errorf("the report does not name the 2 fabrics it covers:\n%s", out)
	}
	if code, out, _ := lintRun(t, "lint", "--recursive", "examples"); code != exitFindings || !strings.Contains(out, "examples/releases/") {
		t.Errorf("lint -r examples: exit %d\n%s", code, out)
	}
	for _, f := range []string{"text", "json", "sarif", "junit", "checkstyle", "github", "markdown", "compact"} {
		t.Run(f, func(t *testing.T) {
			code, out, errs := lintRun(t, "lint", "--recursive", "examples/broken", "examples/releases", "-f", f)
			if code != exitFindings {
				t.Fatalf("exit %d, want 2 (examples/broken has errors)\n%s", code, errs)
			}
			for _, want := range []string{"examples/broken/ets-sum/", "examples/broken/core-zeroes-dscp/", "examples/releases/"} {
				if !strings.Contains(out, want) {
					t.Errorf("the report lacks %s", want)
				}
			}
			switch f {
			case "json", "sarif":
				if !json.Valid([]byte(out)) || strings.Count(out, `"$schema"`) > 1 || strings.Count(out, `"format_version"`) > 1 {
					t.Errorf("not one JSON document:\n%.400s", out)
				}
			case "junit", "checkstyle":
				if err := xml.Unmarshal([]byte(out), new(struct{})); err != nil || strings.Count(out, "<?xml") > 1 {
					t.Errorf("not one XML document (%v):\n%.400s", err, out)
				}
			}
		})
	}
	// A file argument stands for its fabric; --recursive wants directories.
	if code, _, errs := lintRun(t, "lint", "--recursive", "examples/roce-storage/devices.fab.hcl"); code != exitFailed || !strings.Contains(errs, "not a directory") {
		t.Errorf("--recursive FILE: exit %d, %q", code, errs)
	}
	if code, _, errs := lintRun(t, "lint", "--recursive", "docs"); code != exitFailed || !strings.Contains(errs, "no fabric under it") {
		t.Errorf("--recursive without fabrics: exit %d, %q", code, errs)
	}
	// An invalid fabric among valid ones: exit 1, its errors beside the
	// others' findings (the report is not that of an invalid intent).
	code, out, errs = lintRun(t, "lint", "examples/brownfield", "examples/roce-storage", "-f", "json")
	if code != exitFailed || !strings.Contains(errs, "examples/brownfield is not a valid fabric") || !strings.Contains(out, `"valid": true`) || !strings.Contains(out, `"VAL001"`) {
		t.Errorf("an invalid fabric among two: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = lintRun(t, "lint", "examples/brownfield", "examples/broken", "-f", "json")
	if code != exitFailed || !strings.Contains(out, `"valid": false`) || !strings.Contains(errs, "examples/broken is not a valid fabric") {
		t.Errorf("two invalid fabrics: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestLintRecursiveHostileTrees: a symlink loop, a link out of the tree,
// hidden and node_modules directories are not entered; a FIFO named
// x.fab.hcl is reported, not read forever; an unreadable directory is an
// error naming it, and the walk goes on.
func TestLintRecursiveHostileTrees(t *testing.T) {
	root := repoRoot(t)
	outside := t.TempDir()
	copyExample(t, "releases", outside)
	tree := t.TempDir()
	for _, d := range []string{"a", ".git", ".fabricgen", "node_modules/pkg", "deep/er"} {
		copyExample(t, "releases", filepath.Join(tree, d)) // it has an info finding, so it shows in the report
	}
	for link, target := range map[string]string{"loop": ".", "deep/er/up": "../..", "out": outside} {
		if err := os.Symlink(target, filepath.Join(tree, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(tree, "pipe"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(tree, "pipe", "x.fab.hcl"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(tree)
	done := make(chan struct{})
	var code int
	var out, errs string
	go func() {
		defer close(done)
		code, out, errs = lintRun(t, "lint", "-r", "-f", "json")
	}()
	select {
	case <-done:
	case <-time.After(waitPatience(t)):
		t.Fatal("lint --recursive hangs on the tree")
	}
	if code != exitFailed || !strings.Contains(errs, "pipe") {
		t.Errorf("exit %d, want 1 for the FIFO\n%s", code, errs)
	}
	for _, want := range []string{`"a/fabric/`, `"deep/er/fabric/`} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %s", want)
		}
	}
	for _, notWant := range []string{".git/", ".fabricgen/", "node_modules", "loop/", "out/", "up/"} {
		if strings.Contains(out, notWant) {
			t.Errorf("the report reaches %s", notWant)
		}
	}
	_ = root

	// Unreadable: root reads every directory, so the error is injected.
	denied := errors.New("permission denied")
	readDir := func(d string) ([]fs.DirEntry, error) {
		if filepath.Base(d) == "a" {
			return nil, denied
		}
		return os.ReadDir(d)
	}
	dirs, walkErrs, err := lintTargets([]string{"."}, true, readDir)
	if err != nil || len(walkErrs) != 1 || !errors.Is(walkErrs[0], denied) || !strings.Contains(walkErrs[0].Error(), "reading a") {
		t.Errorf("walk errors %v, %v", walkErrs, err)
	}
	if strings.Join(dirs, " ") != "deep/er/fabric pipe" {
		t.Errorf("fabrics past the unreadable directory: %q", dirs)
	}
}

// TestCompletionEverywhere: every flag and argument that takes a device,
// a rule, a platform or a format completes, through cobra's __complete.
func TestCompletionEverywhere(t *testing.T) {
	ex := filepath.Join(repoRoot(t), "examples")
	rs := filepath.Join(ex, "roce-storage")
	cases := []struct {
		args    []string
		want    []string
		notWant []string
	}{
		{[]string{"check", "--rule", "CHK01"}, []string{"CHK010\t", "CHK011\t"}, []string{"QOS001", "CHK001\t"}},
		{[]string{"lint", "--rule", "QOS001,PFC00"}, []string{"QOS001,PFC001\t"}, []string{"\nPFC001"}},
		{[]string{"explain", "CHK00"}, []string{"CHK001\t"}, []string{"QOS"}},
		{[]string{"import", "--platform", "ari"}, []string{"arista_eos\n"}, []string{"sonic"}},
		{[]string{"rollback", "--fabric", rs, "sp"}, []string{"spine1\t"}, []string{"leaf1"}},
		{[]string{"rollback", rs, "le"}, []string{"leaf1\t"}, nil},
		{[]string{"check", rs, "--device", "sp"}, []string{"spine1\t"}, []string{"leaf1"}},
		{[]string{"drift", rs, "--device", ""}, []string{"leaf1\t", "spine2\t"}, nil},
		{[]string{"apply", rs, "--device", ""}, []string{"leaf1\t"}, nil},
		{[]string{"show", ""}, []string{"json\n", ":8\n"}, nil},
	}
	for _, c := range []string{"validate", "lint", "plan", "drift", "check", "import", "platforms", "version", "show", "precommit lint"} {
		args := append(strings.Fields(c), "--format", "")
		cases = append(cases, struct {
			args    []string
			want    []string
			notWant []string
		}{args, []string{"text\n", "json\n"}, nil})
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			_, out, errs := lintRun(t, append([]string{"__complete"}, c.args...)...)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("completion lacks %q:\n%s%s", w, out, errs)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(out, w) {
					t.Errorf("completion has %q:\n%s", w, out)
				}
			}
		})
	}
}
