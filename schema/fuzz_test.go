package schema_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// fuzzMaxInput bounds one fuzz input. Larger inputs only test the size
// limit, which TestBadInput covers; small ones keep the fuzzer fast.
const fuzzMaxInput = 64 << 10

// scaleDefaults shrinks examples/scale's defaults so its file can seed the
// corpus without making each run load 67,648 devices.
var scaleDefaults = regexp.MustCompile(`default = \d+`)

// fuzzMinimize is how many executions the fuzzer spends minimizing an
// input that found new code, unless -fuzzminimizetime says otherwise.
// Go's default is 60 seconds, and its minimizer tries every subset of
// bytes, so each new input of a few kilobytes stopped all fuzzing for a
// minute ("execs: 686 (0/sec)" for 40 s).
const fuzzMinimize = "100x"

// limitMinimize sets -test.fuzzminimizetime to fuzzMinimize unless it was
// given. The coordinator reads it when f.Fuzz starts.
func limitMinimize(f *testing.F) {
	f.Helper()
	given := false
	flag.Visit(func(fl *flag.Flag) { given = given || fl.Name == "test.fuzzminimizetime" })
	if !given && flag.Lookup("test.fuzzminimizetime") != nil {
		if err := flag.Set("test.fuzzminimizetime", fuzzMinimize); err != nil {
			f.Fatal(err)
		}
	}
}

// fuzzOptions are the options every fuzz target loads with: no
// environment, and load-wide totals small enough that any input loads in
// a fraction of a second.
func fuzzOptions(o schema.Options) schema.Options {
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	o.Platforms = loadCatalog()
	return schema.WithFuzzLimits(o)
}

// FuzzLoad feeds arbitrary bytes to the loader as one intent file, in HCL
// or JSON syntax, alone or next to a valid base fabric. Load must never
// panic, and what it returns must be coherent: errors have a summary and a
// subject inside the input, and a load without errors yields a fabric whose
// links are wired both ways.
func FuzzLoad(f *testing.F) {
	for _, src := range fuzzSeeds(f) {
		f.Add(src, false, false)
		f.Add(src, false, true)
	}
	f.Add([]byte(`{"fabric": {"j": {"qos_policy": "qos_policy.lossless"}}}`), true, false)
	f.Add([]byte(`{"traffic_class": {"x": {"priority": 3, "dscp": [26, 27]}}}`), true, true)
	f.Add([]byte(`{"device": {"x": {"kind": "leaf", "platform": "probe_b", "port": {"Ethernet0": {"speed": "100G"}}}}}`), true, true)
	limitMinimize(f)
	// One directory for all inputs of this process (the fuzz function
	// runs one input at a time): a fresh one each time cost more than
	// loading most inputs.
	dir := f.TempDir()
	hcl, json, base := filepath.Join(dir, "in.fab.hcl"), filepath.Join(dir, "in.fab.json"), filepath.Join(dir, baseFile)
	f.Fuzz(func(t *testing.T, src []byte, isJSON, withBase bool) {
		if len(src) > fuzzMaxInput {
			return
		}
		write, drop := hcl, json
		if isJSON {
			write, drop = json, hcl
		}
		if err := os.WriteFile(write, src, 0o644); err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(drop)
		if withBase {
			if err := os.WriteFile(base, []byte(badBase), 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			_ = os.Remove(base)
		}
		fab, diags := schema.Load(dir, fuzzOptions(schema.Options{}))
		checkLoadResult(t, fab, diags, len(src))
	})
}

// checkLoadResult asserts the invariants every Load result keeps.
func checkLoadResult(t *testing.T, fab *schema.Fabric, diags schema.Diagnostics, size int) {
	t.Helper()
	for _, d := range diags {
		if d.Summary == "" {
			t.Errorf("diagnostic without a summary: %+v", d)
		}
		if d.Subject == nil || strings.HasPrefix(d.Subject.Filename, "-var") {
			continue
		}
		if s := d.Subject.Start; s.Line < 1 || s.Column < 1 || s.Byte < 0 {
			t.Errorf("%q: subject starts at line %d col %d byte %d", d.Summary, s.Line, s.Column, s.Byte)
		}
		if strings.HasSuffix(d.Subject.Filename, "in.fab.hcl") || strings.HasSuffix(d.Subject.Filename, "in.fab.json") {
			if int(d.Subject.Start.Byte) > size || int(d.Subject.End.Byte) > size {
				t.Errorf("%q: subject bytes %d-%d outside the %d-byte input", d.Summary, d.Subject.Start.Byte, d.Subject.End.Byte, size)
			}
		}
	}
	if diags.HasErrors() {
		return
	}
	if fab == nil {
		t.Fatal("Load returned no fabric and no error")
	}
	for _, l := range fab.Links {
		if l.A == nil || l.B == nil || l.A.Peer != l.B || l.B.Peer != l.A {
			t.Errorf("link %s is not wired both ways", l.Name)
		}
	}
	for _, d := range fab.Devices {
		if fab.Device(d.Name) != d {
			t.Errorf("device %s is not indexed", d.Name)
		}
		for _, p := range d.Ports {
			if p.Device != d || d.Port(p.Name) != p {
				t.Errorf("port %s is not indexed under its device", p.ID())
			}
			if p.QoS == nil {
				t.Errorf("port %s has no effective QoS", p.ID())
			}
		}
	}
}

// fuzzSeeds returns every example's intent files, the bad-input table's
// files and the base fabric.
func fuzzSeeds(f *testing.F) [][]byte {
	f.Helper()
	var seeds [][]byte
	ents, err := os.ReadDir(exampleDir)
	if err != nil {
		f.Fatalf("read %s: %v", exampleDir, err)
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		files, err := schema.IntentFiles(filepath.Join(exampleDir, e.Name()))
		if err != nil {
			f.Fatalf("list %s: %v", e.Name(), err)
		}
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			if e.Name() == "scale" {
				b = scaleDefaults.ReplaceAll(b, []byte("default = 2"))
			}
			seeds = append(seeds, b)
		}
	}
	seeds = append(seeds, []byte(badBase))
	// A whole InfiniBand fabric in one file (the example's files alone
	// refer to each other's locals).
	var ib []byte
	for _, name := range []string{"qos.fab.hcl", "devices.fab.hcl"} {
		b, err := os.ReadFile(filepath.Join(exampleDir, "ib-cluster", name))
		if err != nil {
			f.Fatal(err)
		}
		ib = append(ib, b...)
	}
	seeds = append(seeds, ib)
	for _, c := range badCases() {
		if c.bad != "" {
			seeds = append(seeds, []byte(c.bad))
		}
		for _, content := range c.files {
			if len(content) <= fuzzMaxInput {
				seeds = append(seeds, []byte(content))
			}
		}
	}
	return seeds
}

// FuzzVarValue feeds arbitrary -var and FABRICGEN_VAR_ values, for
// variables of any type and of a list type: Load must answer with a value
// or a diagnostic naming the variable, never panic or hang.
func FuzzVarValue(f *testing.F) {
	for _, v := range []string{"1", "[1, 2]", `{a = "b"}`, "[for i in range(3) : i]", `"${1 + 2}x"`, "1e400", "[[[[1]]]]", `jsondecode("[1]")`, "null"} {
		f.Add(v, false)
		f.Add(v, true)
	}
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, baseFile), []byte(badBase+"variable \"v\" {\n}\nvariable \"l\" {\n  type    = list(any)\n  default = []\n}\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	limitMinimize(f)
	f.Fuzz(func(t *testing.T, raw string, env bool) {
		if len(raw) > fuzzMaxInput {
			return
		}
		opts := schema.Options{Vars: map[string]string{"v": raw}}
		if env {
			opts = schema.Options{Vars: map[string]string{"v": "1"}, Getenv: func(k string) string {
				if k == "FABRICGEN_VAR_l" {
					return raw
				}
				return ""
			}}
		}
		fab, diags := schema.Load(dir, fuzzOptions(opts))
		checkLoadResult(t, fab, diags, 0)
	})
}

// FuzzVarFile feeds arbitrary bytes to the loader as a -var-file, in HCL
// or JSON syntax.
func FuzzVarFile(f *testing.F) {
	f.Add([]byte("v = 1\n"), false)
	f.Add([]byte("v = [for i in range(3) : \"${i}\"]\n"), false)
	f.Add([]byte(`{"v": [1, 2, {"a": "${1}"}]}`), true)
	f.Add([]byte(`{"v": "${[for i in [1] : i]}"}`), true)
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, baseFile), []byte(badBase+"variable \"v\" {\n  default = 0\n}\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	limitMinimize(f)
	vars := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte, json bool) {
		if len(src) > fuzzMaxInput {
			return
		}
		name := filepath.Join(vars, "vars.hcl")
		if json {
			name = strings.TrimSuffix(name, ".hcl") + ".json"
		}
		if err := os.WriteFile(name, src, 0o644); err != nil {
			t.Fatal(err)
		}
		fab, diags := schema.Load(dir, fuzzOptions(schema.Options{VarFiles: []string{name}}))
		for _, d := range diags {
			if d.Summary == "" {
				t.Errorf("diagnostic without a summary: %+v", d)
			}
		}
		if !diags.HasErrors() && fab == nil {
			t.Fatal("Load returned no fabric and no error")
		}
	})
}
