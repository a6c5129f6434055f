package templates

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"text/template"
	"time"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// doubling is an override device.tmpl that doubles a string n times, one
// doubling per line (line i+2 holds doubling i), without a loop or a
// template call.
func doubling(n int) string {
	var b strings.Builder
	b.WriteString("{{$s := printf \"%256s\" \"x\"}}\n")
	for range n {
		b.WriteString("{{$s = print $s $s}}\n")
	}
	b.WriteString("{{len $s}}\n")
	return b.String()
}

// slowCompares is a loop-free device.tmpl that compares two equal 1 MiB
// strings (built apart, so they do not share memory) n times.
func slowCompares(n int) string {
	var b strings.Builder
	b.WriteString(`{{$a := printf "%4096s" "a"}}{{$b := printf "%4096s" "a"}}`)
	for range 8 {
		b.WriteString(`{{$a = print $a $a}}{{$b = print $b $b}}`)
	}
	b.WriteString("\n")
	for range n {
		b.WriteString("{{if eq $a $b}}{{end}}")
	}
	return b.String()
}

// TestOverrideBudgets: each bound of an override render fires on its own
// (the other bounds set far out of reach), promptly, with an error that
// names the limit and the template line, and says how to fix it.
func TestOverrideBudgets(t *testing.T) {
	f := loadExample(t, "clos-400g")
	leaf := firstSwitch(t, f)
	const far = 1 << 40
	cases := []struct {
		name string
		tmpl string
		opts Options
		want []string
	}{
		{"25 doublings: strings", doubling(25), Options{TimeLimit: time.Hour, StepLimit: far, OutputLimit: 1 << 30},
			[]string{"string limit", "64 MiB", "device.tmpl:", "<print $s $s>", "instead of growing a variable"}},
		{"40 doublings: strings", doubling(40), Options{TimeLimit: time.Hour, StepLimit: far, OutputLimit: 1 << 30},
			[]string{"string limit", "device.tmpl:", "<print $s $s>"}},
		{"doublings under a small string limit", doubling(25), Options{TimeLimit: time.Hour, StepLimit: far, OutputLimit: 1 << 30, StringLimit: 1 << 20},
			[]string{"string limit", "1 MiB", "device.tmpl:13:2: stopped after 1 MiB of strings"}},
		{"printf of many widths: strings", "{{$f := printf \"%s\" \"%4096d\"}}{{range 10}}{{$f = print $f $f}}{{end}}{{printf $f 1}}", Options{TimeLimit: time.Hour, StepLimit: far, OutputLimit: 1 << 30, StringLimit: 1 << 20},
			[]string{"string limit", "device.tmpl:1:"}},
		{"empty loop of 2e9: steps", `{{range 2000000000}}{{end}}`, Options{TimeLimit: time.Hour, StepLimit: 100_000, OutputLimit: 1 << 30, StringLimit: far},
			[]string{"step limit", "100000 steps", "device.tmpl:1:", "loop over the view's lists"}},
		{"recursion: steps", "{{define \"a\"}}{{template \"a\" .}}{{template \"a\" .}}{{end}}\n{{template \"a\" .}}", Options{TimeLimit: time.Hour, StepLimit: 100_000, OutputLimit: 1 << 30, StringLimit: far},
			[]string{"step limit", "device.tmpl:1:"}},
		{"loop-free compares: time", slowCompares(40000), Options{TimeLimit: 200 * time.Millisecond, StepLimit: far, OutputLimit: 1 << 30, StringLimit: far},
			[]string{"time limit", "stopped after 200ms", "device.tmpl:2:"}},
		{"output flood: output", `{{range 2000000000}}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx{{end}}`, Options{TimeLimit: time.Hour, StepLimit: far, OutputLimit: 1 << 20, StringLimit: far},
			[]string{"output limit", "1 MiB", "device.tmpl:1:", "(or the text after it)"}},
		{"call", `{{call .Device}}`, Options{}, []string{"call is not available"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := overrideDir(t, map[string]string{string(leaf.Platform.V) + "/device.tmpl": c.tmpl})
			c.opts.Dir = dir
			r, err := NewRenderer(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err = r.Render(f, leaf)
			took := time.Since(start)
			if err == nil {
				t.Fatal("rendered")
			}
			for _, w := range append(c.want, dir) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if took > 20*time.Second {
				t.Errorf("took %s", took)
			}
		})
	}
}

// TestOverrideBudgetsFitScale measures what overrides that are copies of
// the embedded templates use on the largest devices of examples/scale (a
// 2,048-port spine) and on one device of every platform, and wants every
// render within a tenth of each default budget: the defaults must leave
// real templates plenty of room. The figures are logged (go test -v).
func TestOverrideBudgetsFitScale(t *testing.T) {
	scale, diags := schema.Load(filepath.Join(repoRoot(t), "examples", "scale"), schema.Options{Vars: map[string]string{"spines": "2", "leaves": "2048", "nics_per_leaf": "2"}, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Errs())
	}
	files := map[string]string{}
	if err := fs.WalkDir(embeddedFS(t), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := embeddedFS(t).ReadFile(p)
		files[p] = string(b)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer(Options{Dir: overrideDir(t, files)})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	most := map[string]execStats{}
	for p, o := range r.overrides {
		o.observe = func(entry string, s execStats) {
			mu.Lock()
			defer mu.Unlock()
			k := string(p) + " " + entry
			m := most[k]
			most[k] = execStats{max(m.Steps, s.Steps), max(m.StringBytes, s.StringBytes), max(m.OutputBytes, s.OutputBytes), max(m.Took, s.Took)}
		}
	}
	var devs []*schema.Device
	for _, d := range scale.Devices {
		if d.Name == "spine01" || d.Name == "leaf0001" || d.Name == "leaf0002" || d.Name == "leaf0001-nic01" || d.Name == "leaf0001-nic02" {
			devs = append(devs, d)
		}
	}
	clos := loadExample(t, "clos-400g")
	for _, d := range append(devs, sampleDevices(clos)...) {
		f := scale
		if !strings.HasPrefix(d.Name, "leaf0") && d.Name != "spine01" {
			f = clos
		}
		if _, err := r.Render(f, d); err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
	}
	// Every registry platform's own fixture, so a platform no example
	// has is measured too.
	for _, fx := range platformtest.All("..") {
		f, err := fx.Load()
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range fx.Devices(f) {
			if _, err := r.Render(f, d); err != nil {
				t.Fatalf("platforms/%s: %s: %v", fx.Platform.Folder, d.Name, err)
			}
		}
	}
	var spine *schema.Device
	for _, d := range devs {
		if d.Name == "spine01" {
			spine = d
		}
	}
	if spine == nil {
		t.Fatal("scale has no spine01")
	}
	// An override that rebuilds every interface of the spine from the
	// view's fields, one printf per line, instead of printing .Text.
	rebuild := `{{range .Ports}}interface {{.Name}}
{{printf "   description %s" .Description}}
{{if .MTU}}{{printf "   mtu %d" .MTU}}
{{end}}{{printf "   speed %d" .SpeedMbps}}
{{if .IP}}{{printf "   ip address %s" .IP}}
{{end}}{{if .PFC}}{{printf "   priority-flow-control priority %s no-drop" (join .PFC ",")}}
{{end}}{{range .ACLIn}}{{printf "   ip access-group %s in" .}}
{{end}}{{with .Peer}}{{printf "   ! peer %s" (oneline .)}}
{{end}}{{end}}`
	sp := spine.Platform.V
	r2, err := NewRenderer(Options{Dir: overrideDir(t, map[string]string{string(sp) + "/device.tmpl": rebuild})})
	if err != nil {
		t.Fatal(err)
	}
	r2.overrides[sp].observe = func(entry string, s execStats) {
		mu.Lock()
		defer mu.Unlock()
		most[string(sp)+" device.tmpl rebuilding the ports"] = s
	}
	if _, err := r2.Render(scale, spine); err != nil {
		t.Fatal(err)
	}
	var all execStats
	for k, s := range most {
		t.Logf("%-40s %9d steps %9d string bytes %9d output bytes %s", k, s.Steps, s.StringBytes, s.OutputBytes, s.Took)
		all = execStats{max(all.Steps, s.Steps), max(all.StringBytes, s.StringBytes), max(all.OutputBytes, s.OutputBytes), max(all.Took, s.Took)}
	}
	t.Logf("most: %d steps, %d string bytes, %d output bytes, %s", all.Steps, all.StringBytes, all.OutputBytes, all.Took)
	if all.Steps*10 > DefaultStepLimit || all.StringBytes*10 > DefaultStringLimit || all.OutputBytes*10 > DefaultOutputLimit {
		t.Errorf("a copy of the embedded templates uses more than a tenth of a default budget: %+v", all)
	}
	for _, pl := range rendered() {
		measured := false
		for k := range most {
			measured = measured || strings.HasPrefix(k, string(pl.Name)+" ")
		}
		if !measured {
			t.Errorf("no render of %s measured: %v", pl.Name, most)
		}
	}
}

// TestBudgetBuiltinsAgree: the functions an override set replaces
// (comparisons, print, the escapers) give what text/template's builtins
// give, errors included.
func TestBudgetBuiltinsAgree(t *testing.T) {
	o := &overrideSet{timeLimit: time.Hour, stepLimit: 1 << 40, strLimit: 1 << 40, stop: new(atomic.Bool)}
	e := &limitedExec{set: o, stop: o.stop, deadline: time.Now().Add(time.Hour)}
	data := map[string]any{"i": 3, "u": uint8(3), "f": 3.0, "s": "b", "n": nil, "p": &struct{}{}, "l": []int{1}, "b": true, "ps": new(string), "e": errors.New("x")}
	exprs := []string{
		`eq 3 3`, `eq .i .u`, `eq .u .i`, `eq .i 4 5 3`, `eq .s "b"`, `eq .f 3.0`, `eq .n .n`, `eq .p .p`, `eq .l .l`, `eq .i`, `eq .i .s`, `eq .b true`, `eq .n .p`,
		`ne 1 2`, `ne .s "b"`, `ne .i .s`,
		`lt 1 2`, `lt .s "c"`, `lt -1 .u`, `lt .u -1`, `lt .b .b`, `lt .i .s`, `lt .l .l`, `lt 1.5 2.5`,
		`le 2 2`, `le 3 2`, `gt 3 2`, `gt .s "a"`, `ge 2 3`, `ge .i .s`,
		`print .i .s .f .n .l`, `println 1 "a"`, `printf "%d-%s-%5.2f" .i .s .f`, `printf "%v" .e`, `printf "%[2]s%[1]s" "a" "b"`,
		`html "<a href=\"x\">'&"`, `js "</script>\u2028'\""`, `urlquery "a b&c=d"`, `print .ps`,
	}
	for _, x := range exprs {
		want, werr := execute(t, template.New("t"), "{{"+x+"}}", data)
		got, gerr := execute(t, template.New("t").Funcs(e.budgetFuncs()), "{{"+x+"}}", data)
		if want != got || (werr == nil) != (gerr == nil) {
			t.Errorf("{{%s}}: builtin %q (%v), override %q (%v)", x, want, werr, got, gerr)
		}
	}
}

func execute(t *testing.T, tm *template.Template, text string, data any) (string, error) {
	t.Helper()
	tm, err := tm.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	err = tm.Execute(&b, data)
	return b.String(), err
}

// overrideDir writes files (slash paths under a --templates folder).
func overrideDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
