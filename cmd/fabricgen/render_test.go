package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

func TestRenderCommand(t *testing.T) {
	ex := filepath.Join("..", "..", "examples")
	etsPlatform := examplePlatform(t, filepath.Join("broken", "ets-sum"), "gpu01-cx6")
	cases := []struct {
		name    string
		args    []string
		code    int
		stdout  string
		stderr  string
		files   []string
		nofiles bool
	}{
		{"all devices", []string{filepath.Join(ex, "ai-training-2subnet")}, 0, "Rendered 11 of 11 device(s)", "",
			[]string{"core1.cfg", "leaf2.cfg", "gpu01-cx6.sh"}, false},
		{"device globs", []string{filepath.Join(ex, "ai-training-2subnet"), "--device", "leaf*", "--device", "core1"}, 0, "Rendered 3 of 3", "",
			[]string{"leaf1.cfg", "leaf2.cfg", "core1.cfg"}, false},
		{"glob matching nothing", []string{filepath.Join(ex, "ai-training-2subnet"), "--device", "nope*"}, 1, "", `"nope*" matches no device`, nil, true},
		{"lint errors refuse", []string{filepath.Join(ex, "broken", "core-zeroes-dscp")}, 1, "", "lint reported", nil, true},
		{"force renders anyway", []string{filepath.Join(ex, "broken", "core-zeroes-dscp"), "--force"}, -1, "Rendered", "Rendering anyway (--force)", nil, false},
		{"unrenderable device named", []string{filepath.Join(ex, "broken", "ets-sum"), "--force", "--device", "gpu01-cx6"}, 1, "Rendered 0 of 1", "device gpu01-cx6 (platform " + etsPlatform + ") cannot express ETS weights summing to 110% on eth0", nil, true},
		{"no output folder", []string{filepath.Join(ex, "roce-storage"), "-o", ""}, 1, "", "pass -o OUT", nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"render", "-o", out}, tc.args...)
			code, stdout, stderr := lintRun(t, args...)
			if tc.code >= 0 && code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout, stderr)
			}
			if !strings.Contains(stdout, tc.stdout) {
				t.Errorf("stdout %q lacks %q", stdout, tc.stdout)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tc.stderr)
			}
			for _, f := range tc.files {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Errorf("missing %s: %v", f, err)
				}
			}
			if tc.nofiles {
				ents, _ := os.ReadDir(out)
				if len(ents) != 0 {
					t.Errorf("wrote %d file(s), want none", len(ents))
				}
			}
		})
	}
}

func TestRenderScriptsAreExecutable(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := lintRun(t, "render", "-o", out, filepath.Join("..", "..", "examples", "ai-training-2subnet"), "--device", "gpu01-cx6")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	st, err := os.Stat(filepath.Join(out, "gpu01-cx6.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm()&0o100 == 0 {
		t.Errorf("gpu01-cx6.sh mode %v, want executable", st.Mode())
	}
}

// TestRenderMatchesGoldens renders whole examples with render -o (files
// streamed to disk by parallel writers) and wants exactly the template
// goldens: the same set of files, byte for byte, and a .err golden for
// every device that cannot be rendered.
func TestRenderMatchesGoldens(t *testing.T) {
	ex := filepath.Join("..", "..", "examples")
	goldens := filepath.Join("..", "..", "templates", "testdata", "golden")
	cases := []struct {
		example string
		vars    []string
	}{
		{"ai-training-2subnet", nil},
		{"clos-400g", nil},
		{"roce-storage", nil},
		// The goldens hold the small instance of the parametric example.
		{"scale", []string{"-var", "spines=4", "-var", "leaves=8", "-var", "nics_per_leaf=2"}},
	}
	for _, tc := range cases {
		t.Run(tc.example, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"render", "--force", "-o", out, filepath.Join(ex, tc.example)}, tc.vars...)
			if code, stdout, stderr := lintRun(t, args...); code != 0 {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			want, err := os.ReadDir(filepath.Join(goldens, tc.example))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadDir(out)
			if err != nil {
				t.Fatal(err)
			}
			wrote := map[string]bool{}
			for _, e := range got {
				wrote[e.Name()] = true
			}
			files := 0
			for _, e := range want {
				name := e.Name()
				if strings.HasSuffix(name, ".err") {
					continue
				}
				files++
				g, err := os.ReadFile(filepath.Join(goldens, tc.example, name))
				if err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(filepath.Join(out, name))
				if err != nil {
					t.Errorf("render -o wrote no %s: %v", name, err)
					continue
				}
				if string(b) != string(g) {
					t.Errorf("%s differs from its golden", name)
				}
				delete(wrote, name)
			}
			for name := range wrote {
				t.Errorf("render -o wrote %s, which has no golden", name)
			}
			if files == 0 {
				t.Fatal("no golden files compared")
			}
		})
	}
}

// TestRenderTemplatesOverridesInterface changes one line of the
// "interface" sub-template of every platform the examples use through
// --templates DIR, with only that file in DIR/<platform>/, and sees it in
// the written configuration once per port, the rest of the file as
// without DIR. A case names an example's device; its platform is the
// device's.
func TestRenderTemplatesOverridesInterface(t *testing.T) {
	const marker = "SITE-LINE"
	cases := []struct {
		example, device, file string
		anchor, add, want     string
		ports                 int // one added line per port: the device's ports (0: at least two)
	}{
		{"clos-400g", "leaf1", "leaf1.cfg", "   priority-flow-control on\n", "   !! SITE-LINE {{.Name}}\n", "   priority-flow-control on\n   !! SITE-LINE Ethernet1/1\n", 0},
		{"clos-400g", "leaf2", "leaf2.cfg", "  priority-flow-control mode on\n", "  ! SITE-LINE {{.Name}}\n", "  priority-flow-control mode on\n  ! SITE-LINE Ethernet1/1\n", 0},
		{"releases", "spine1", "spine1.set", "set interfaces {{.Name}} mtu {{.MTU}}\n", "set interfaces {{.Name}} apply-groups SITE-LINE\n",
			"set interfaces et-0/0/0 mtu 9214\nset interfaces et-0/0/0 apply-groups SITE-LINE\n", 0},
		{"clos-400g", "leaf4", "leaf4.nvue", "nv set interface {{.Word}} link mtu {{.MTU}}\n", "nv set interface {{.Word}} link state up # SITE-LINE\n",
			"link mtu 9214\nnv set interface swp1 link state up # SITE-LINE\n", 0},
		// The first field of each PORT row: the rows keep their commas.
		{"clos-400g", "leaf3", "leaf3.json", `{{- define "interface" -}}` + "\n", "admin_status up-SITE-LINE\n",
			"\"Ethernet0\": {\n            \"admin_status\": \"up-SITE-LINE\",\n            \"mtu\"", 0},
		{"clos-400g", "nic01", "nic01.sh", "ip link set dev {{.Word}} mtu {{.MTU}}\n", "ip link set dev {{.Word}} up # SITE-LINE\n",
			"mtu 4200\nip link set dev ens1f0np0 up # SITE-LINE\n", 1},
		{"clos-400g", "nic02", "nic02.sh", "ip link set dev {{.Word}} mtu {{.MTU}}\n", "ip link set dev {{.Word}} up # SITE-LINE\n",
			"mtu 4200\nip link set dev enp65s0f0np0 up # SITE-LINE\n", 1},
	}
	// used is every platform of the examples' devices, and the platform
	// of each example device.
	used := map[schema.Platform]bool{}
	platformOf := map[string]schema.Platform{}
	for _, example := range []string{"clos-400g", "releases"} {
		f, diags := schema.Load(filepath.Join("..", "..", "examples", example), schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", example, diags)
		}
		for _, d := range f.Devices {
			used[d.Platform.V] = true
			platformOf[example+"/"+d.Name] = d.Platform.V
		}
	}
	covered := map[schema.Platform]bool{}
	for _, tc := range cases {
		plat, ok := platformOf[tc.example+"/"+tc.device]
		if !ok {
			t.Fatalf("examples/%s has no device %s", tc.example, tc.device)
		}
		covered[plat] = true
		t.Run(string(plat), func(t *testing.T) {
			pl, ok := platforms.Get(plat)
			if !ok {
				t.Fatalf("no platform folder for %s", plat)
			}
			src, err := fs.ReadFile(pl.Templates, "interface.tmpl")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(src), tc.anchor) {
				t.Fatalf("interface.tmpl has no line %q", tc.anchor)
			}
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, string(pl.Name)), 0o755); err != nil {
				t.Fatal(err)
			}
			over := strings.Replace(string(src), tc.anchor, tc.anchor+tc.add, 1)
			if err := os.WriteFile(filepath.Join(dir, string(pl.Name), "interface.tmpl"), []byte(over), 0o644); err != nil {
				t.Fatal(err)
			}
			example := filepath.Join("..", "..", "examples", tc.example)
			render := func(extra ...string) string {
				out := t.TempDir()
				args := append([]string{"render", "--force", "-o", out, "--device", tc.device, example}, extra...)
				code, stdout, stderr := lintRun(t, args...)
				if code != 0 {
					t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
				}
				b, err := os.ReadFile(filepath.Join(out, tc.file))
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
			base, got := render(), render("--templates", dir)
			if !strings.Contains(got, tc.want) {
				t.Errorf("%s lacks the overridden line %q:\n%s", tc.file, tc.want, got)
			}
			var kept []string
			added := 0
			for _, l := range strings.Split(got, "\n") {
				if strings.Contains(l, marker) {
					added++
					continue
				}
				kept = append(kept, l)
			}
			if strings.Join(kept, "\n") != base {
				t.Errorf("%s: without the added lines the render differs from the embedded one:\n%s", tc.file, got)
			}
			if tc.ports == 0 && added < 2 || tc.ports > 0 && added != tc.ports {
				t.Errorf("%s: %d added lines, want one per port", tc.file, added)
			}
		})
	}
	for _, pl := range platforms.All() {
		if used[pl.Name] && !covered[pl.Name] {
			t.Errorf("no case for platform %s, which examples/clos-400g or examples/releases uses", pl.Name)
		}
	}
}

// TestRenderWriteFailure: a file that cannot be written (a directory holds
// its name) fails the command with the file named, without hanging the
// render workers, and leaves no temporary file behind.
func TestRenderWriteFailure(t *testing.T) {
	out := t.TempDir()
	if err := os.Mkdir(filepath.Join(out, "leaf1.cfg"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := lintRun(t, "render", "-o", out, filepath.Join("..", "..", "examples", "ai-training-2subnet"))
	if code != 1 || !strings.Contains(stderr, "leaf1.cfg") {
		t.Fatalf("exit %d, stderr %q; want 1 naming leaf1.cfg", code, stderr)
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestRenderAndPlanErrorsAsLintWrites: render's refusals and plan's lint
// gate print through diag's text renderer, as lint does: the line, its
// snippet, the rule and the fix; every refusal of a device, not the first.
func TestRenderAndPlanErrorsAsLintWrites(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "broken", "ets-sum", "fabric.fab.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	// A second refusal on the NICs: an ETS weight sum and a trust mlnx_qos lacks.
	hcl := strings.Replace(string(src), "qos_policy \"host\" {\n", "qos_policy \"host\" {\n  trust = \"both\"\n", 1)
	if hcl == string(src) {
		t.Fatal("the example changed: no host policy to edit")
	}
	if err := os.WriteFile(filepath.Join(dir, "fabric.fab.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := lintRun(t, "render", "-o", t.TempDir(), "--force", "--device", "gpu01-cx6", dir)
	for _, want := range []string{"error[PLT006]:", "cannot express ETS weights summing to 110%", "cannot express trust both on eth0", "   | ", "fix:"} {
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("render: exit %d, stderr lacks %q:\n%s", code, want, stderr)
		}
	}
	code, _, stderr = lintRun(t, "plan", "--insecure-ignore-host-key", dir)
	for _, want := range []string{"error[ETS001]:", "  30 | ", "fix:", "lint found"} {
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("plan: exit %d, stderr lacks %q:\n%s", code, want, stderr)
		}
	}
}
