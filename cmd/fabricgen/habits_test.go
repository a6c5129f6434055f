package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"unicode"

	"github.com/fabricgen/fabricgen/push/planfile"
)

func TestResolveBuild(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0c4d585abcdef"},
		{Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}
	cases := []struct {
		name     string
		release  string
		info     *debug.BuildInfo
		want     string
		wantText []string
	}{
		{"release overrides the module version", "v1.2.3", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-2026-x"}}, "v1.2.3", []string{"fabricgen v1.2.3\n", "go1.26.8 "}},
		{"module version from go install", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261201100000-0c4d585abcde+dirty"}, Settings: vcs},
			"v0.0.0-20261201100000-0c4d585abcde+dirty", []string{"revision 0c4d585abcdef (2026-12-01T10:00:00Z), with uncommitted changes\n"}},
		{"plain build without VCS", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, "(devel)", []string{"fabricgen (devel)\n"}},
		{"no build info", "", nil, "(devel)", []string{"fabricgen (devel)\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bi := resolveBuild(c.release, func() (*debug.BuildInfo, bool) { return c.info, c.info != nil })
			if bi.Version != c.want {
				t.Errorf("version %q, want %q", bi.Version, c.want)
			}
			if bi.Version == "0.1.0-dev" {
				t.Error("the old placeholder version is back")
			}
			for _, w := range c.wantText {
				if !strings.Contains(bi.text(), w) {
					t.Errorf("text %q lacks %q", bi.text(), w)
				}
			}
		})
	}
}

func TestVersionFlags(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, errs := lintRun(t, args...)
		if code != 0 || !strings.HasPrefix(out, "fabricgen ") || !strings.Contains(out, "go1.") {
			t.Errorf("%v: exit %d, out %q, err %q", args, code, out, errs)
		}
	}
	if code, _, errs := lintRun(t, "-v"); code != exitFailed || !strings.Contains(errs, "fabricgen --version") {
		t.Errorf("-v: exit %d, want 1 and a pointer at --version: %q", code, errs)
	}
	code, out, _ := lintRun(t, "version", "-json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
		t.Fatalf("version -json: exit %d, %v: %q", code, err, out)
	}
	for _, k := range []string{"fabricgen_version", "go_version", "platform", "modified"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("version -json lacks %q: %s", k, out)
		}
	}
}

func TestChdir(t *testing.T) {
	root := repoRoot(t)
	spinePlat := examplePlatform(t, "roce-storage", "spine1")
	t.Chdir(t.TempDir())
	cases := []struct {
		name    string
		args    []string
		code    int
		wantOut string
		wantErr string
	}{
		{"equals form", []string{"-chdir=" + filepath.Join(root, "examples", "roce-storage"), "validate"}, 0, `Fabric "roce-storage" is valid`, ""},
		{"separate argument", []string{"--chdir", filepath.Join(root, "examples"), "validate", "roce-storage"}, 0, `Fabric "roce-storage" is valid`, ""},
		{"after the command", []string{"validate", "-chdir=" + root}, 1, "", "must come before the command name"},
		{"missing directory", []string{"-chdir=" + filepath.Join(root, "no-such-dir"), "validate"}, 1, "", "-chdir:"},
		{"no directory", []string{"-chdir="}, 1, "", "-chdir needs a directory"},
		{"completion", []string{"__complete", "-chdir=" + filepath.Join(root, "examples", "roce-storage"), "plan", "--device", "sp"}, 0, "spine1\t" + spinePlat, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(".")
			code, out, errs := lintRun(t, c.args...)
			if code != c.code || !strings.Contains(out, c.wantOut) || !strings.Contains(errs, c.wantErr) {
				t.Errorf("exit %d (want %d)\nout %q (want %q)\nerr %q (want %q)", code, c.code, out, c.wantOut, errs, c.wantErr)
			}
		})
	}
}

// TestUntypedVar checks terraform's rule: an untyped variable takes the
// -var text as a string, and a numeric string still counts where a
// number is wanted.
func TestUntypedVar(t *testing.T) {
	dir := t.TempDir()
	pl, _ := plainSwitch(t)
	src := fmt.Sprintf(`variable "site" {}
variable "spines" { default = 1 }
fabric "x" {}
device "spine" {
  count    = var.spines
  name     = "spine${count.index}"
  kind     = "spine"
  platform = %q
  description = "site ${var.site}"
}
`, pl.Name)
	if err := os.WriteFile(filepath.Join(dir, "f.fab.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args    []string
		code    int
		wantOut string
	}{
		{[]string{"validate", dir, "-var", "site=dc2"}, 0, "3 devices"},
		{[]string{"validate", dir, "-var", "site=dc2", "-var", "spines=3"}, 0, "3 devices"},
		{[]string{"validate", dir, "-var", "site=dc2", "-var", "spines=two"}, 1, ""},
	}
	for _, c := range cases {
		code, out, errs := lintRun(t, c.args...)
		if c.args[len(c.args)-1] == "site=dc2" {
			c.wantOut = "1 devices"
		}
		if code != c.code || !strings.Contains(out, c.wantOut) {
			t.Errorf("%v: exit %d (want %d), out %q (want %q), err %s", c.args, code, c.code, out, c.wantOut, errs)
		}
	}
}

func TestFileArgumentMeansItsFabric(t *testing.T) {
	file := filepath.Join("..", "..", "examples", "roce-storage", "devices.fab.hcl")
	for _, args := range [][]string{{"validate", file}, {"lint", file}} {
		code, out, errs := lintRun(t, args...)
		if code != 0 {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	// Only fabric files stand for their directory.
	code, _, errs := lintRun(t, "validate", filepath.Join("..", "..", "examples", "roce-storage", "README.md"))
	if code != 1 {
		t.Errorf("validate README.md: exit %d, want 1 (%s)", code, errs)
	}
}

// TestOneMeaningForO checks that -o, --out and --output are one flag on
// every command that writes a file or directory.
func TestOneMeaningForO(t *testing.T) {
	s, _, _ := pushStreams("")
	root := newRootCommand(s)
	for _, name := range []string{"render", "plan"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		out, output, short := cmd.Flags().Lookup("out"), cmd.Flags().Lookup("output"), cmd.Flags().ShorthandLookup("o")
		if out == nil || out != output || out != short {
			t.Errorf("%s: --out %v, --output %v, -o %v are not one flag", name, out, output, short)
		}
	}
}

func TestCompletion(t *testing.T) {
	ex := filepath.Join("..", "..", "examples")
	cases := []struct {
		name    string
		args    []string
		want    []string
		notWant []string
	}{
		{"rule ids", []string{"lint", "--rule", ""}, []string{"QOS001\t", "ETS001\t", ":4\n"}, []string{".go"}},
		{"explain rule ids", []string{"explain", "PFC"}, []string{"PFC001\t"}, []string{"QOS001"}},
		{"formats", []string{"lint", "--format", ""}, []string{"sarif\n", "json\n", "github\n", ":4\n"}, nil},
		{"device names with their platform", []string{"plan", filepath.Join(ex, "roce-storage"), "--device", ""}, []string{"leaf1\t" + examplePlatform(t, "roce-storage", "leaf1"), ":4\n"}, nil},
		{"devices of a file argument's fabric", []string{"render", filepath.Join(ex, "clos-400g", "devices.fab.hcl"), "--device", "sp"}, []string{"spine1\t"}, []string{"leaf1"}},
		{"rollback devices", []string{"rollback", "--fabric", filepath.Join(ex, "roce-storage"), ""}, []string{"leaf1\t" + examplePlatform(t, "roce-storage", "leaf1")}, nil},
		{"fabric files for lint", []string{"lint", ""}, []string{"fab.hcl\n", ":8\n"}, nil},
		{"directories for plan", []string{"plan", ""}, []string{":16\n"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
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

// TestSummaryIsASCII keeps machine-read summaries greppable: "-12", not
// a Unicode minus.
func TestSummaryIsASCII(t *testing.T) {
	p := &planfile.Plan{Devices: []*planfile.Device{{Name: "leaf1", Status: planfile.StatusChange}}}
	p.Devices[0].Diff.Added, p.Devices[0].Diff.Removed = 41, 12
	line := summaryLine(p)
	for _, r := range line {
		if r > unicode.MaxASCII {
			t.Errorf("summary %q has %q", line, r)
		}
	}
	if !strings.Contains(line, "+41 -12 lines") {
		t.Errorf("summary %q", line)
	}
}

// TestApplyHint checks that the command plan -out suggests carries the
// flags apply needs again, quoted for the shell.
func TestApplyHint(t *testing.T) {
	cases := []struct {
		pf   pushFlags
		want string
	}{
		{pushFlags{}, "fabricgen apply plan.json"},
		{pushFlags{inventory: ".fabricgen/lab/inventory.json", knownHosts: []string{".fabricgen/lab/known_hosts"}},
			"fabricgen apply plan.json --inventory .fabricgen/lab/inventory.json --known-hosts .fabricgen/lab/known_hosts"},
		{pushFlags{vf: varFlags{vars: []string{"site=dc 2"}, varFiles: []string{"a.hcl"}}, insecure: true, templates: "t"},
			"fabricgen apply plan.json -var 'site=dc 2' -var-file a.hcl --insecure-ignore-host-key --templates t"},
		{pushFlags{inventory: "it's.json"}, `fabricgen apply plan.json --inventory 'it'\''s.json'`},
	}
	for _, c := range cases {
		if got := applyHint("plan.json", &c.pf); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
