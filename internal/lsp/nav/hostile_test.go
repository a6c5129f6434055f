package nav

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// exercise runs every query of the index at off of name, checking the
// ranges it returns stay inside the file.
func exercise(t testing.TB, ix *Index, name string, src []byte, off int) {
	t.Helper()
	inFile := func(what string, r schema.Range) {
		if r.IsZero() {
			return
		}
		if r.Start.Byte < 0 || int(r.End.Byte) > len(ix.files[r.Filename].src) || r.Start.Byte > r.End.Byte {
			t.Fatalf("%s at %d: range %+v outside %s (%d bytes)", what, off, r, r.Filename, len(src))
		}
	}
	tg := ix.At(name, off)
	inFile("At", tg.Range)
	for _, r := range ix.Definition(name, off) {
		inFile("Definition", r)
	}
	for _, r := range ix.References(name, off, true) {
		inFile("References", r)
	}
	for _, it := range ix.Complete(name, off) {
		inFile("Complete", it.Replace)
	}
	_ = ix.Symbols(name)
	r := schema.Range{Filename: name, Start: schema.Pos{Byte: int32(off)}, End: schema.Pos{Byte: int32(off)}}
	if e, ok := ix.SetAttr(r, "mtu", "9000"); ok {
		inFile("SetAttr", e.Range)
	}
	if e, ok := ix.Ignore(r, "QOS001", ""); ok {
		inFile("Ignore", e.Range)
	}
}

// TestCutAtEveryByte indexes examples/clos-400g/qos.fab.hcl cut at every
// byte offset and queries at the cut: a half-typed file never panics.
func TestCutAtEveryByte(t *testing.T) {
	src, err := os.ReadFile("../../../examples/clos-400g/qos.fab.hcl")
	if err != nil {
		t.Fatal(err)
	}
	step := 1
	if testing.Short() {
		step = 7
	}
	for cut := 0; cut <= len(src); cut += step {
		part := src[:cut]
		ix := New(map[string][]byte{"q.fab.hcl": part})
		exercise(t, ix, "q.fab.hcl", part, cut)
		if cut > 0 {
			exercise(t, ix, "q.fab.hcl", part, cut/2)
		}
	}
}

func TestHostileInputs(t *testing.T) {
	deep := func(open, close string, n int) []byte {
		return []byte("locals {\n  x = " + strings.Repeat(open, n) + strings.Repeat(close, n) + "\n}\n")
	}
	cases := map[string][]byte{
		"empty.fab.hcl":         {},
		"braces.fab.hcl":        bytes.Repeat([]byte("{"), 100000),
		"brackets.fab.hcl":      bytes.Repeat([]byte("["), 100000),
		"blocks.fab.hcl":        []byte(strings.Repeat("a {\n", 100000)),
		"closers.fab.hcl":       []byte(strings.Repeat("[", 50000) + strings.Repeat(")", 50000)),
		"deep-list.fab.hcl":     deep("[", "]", 100000),
		"deep-object.fab.hcl":   deep("{a=", "}", 100000),
		"deep-interp.fab.hcl":   []byte("locals {\n  x = \"" + strings.Repeat("${\"", 20000) + "\"\n}\n"),
		"badutf8.fab.hcl":       []byte("qos_policy \"\xff\xfe\" {\n  trust = \"\xc3\x28\"\n  \xff = 1\n}\n"),
		"nul.fab.hcl":           []byte("device \"a\x00b\" {\x00 kind = \"leaf\" }"),
		"only-quote.fab.hcl":    []byte("\""),
		"heredoc.fab.hcl":       []byte("locals {\n  x = <<EOT\nhello ${\nEOT\n"),
		"labels.fab.hcl":        []byte("device " + strings.Repeat("\"x\" ", 10000) + "{}"),
		"crlf.fab.hcl":          []byte("fabric \"f\" {\r\n  qos_policy = qos_policy.p\r\n}\r\nqos_policy \"p\" {\r\n  trust = \"dscp\"\r\n}\r\n"),
		"json.fab.json":         []byte(`{"traffic_class": {"roce": {"priority": 3, "lossless": true}}, "device": {"leaf1": {"kind": "leaf", "port": {"Ethernet1": {"speed": "400G"}}}}, "locals": {"a": 1}}`),
		"badjson.fab.json":      []byte(`{"traffic_class": {"roce": {"priority": `),
		"deepjson.fab.json":     []byte(strings.Repeat(`{"a":`, 100000)),
		"notjsonarr.fab.json":   []byte(`[1, 2, 3]`),
		"comment-end.fab.hcl":   []byte("# no newline at the end"),
		"block-comment.fab.hcl": []byte("/* never closed"),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			ix := New(map[string][]byte{name: src})
			offs := []int{-1, 0, 1, len(src) / 2, len(src) - 1, len(src), len(src) + 1}
			for _, off := range offs {
				exercise(t, ix, name, src, off)
			}
		})
	}
	// The JSON file's blocks are symbols.
	ix := New(map[string][]byte{"j.fab.json": cases["json.fab.json"]})
	syms := ix.Symbols("j.fab.json")
	var names []string
	for _, s := range syms {
		names = append(names, s.Name)
		for _, c := range s.Children {
			names = append(names, "  "+c.Name)
		}
	}
	got := strings.Join(names, "|")
	for _, want := range []string{`traffic_class "roce"`, `device "leaf1"`, `  port "Ethernet1"`, "locals"} {
		if !strings.Contains(got, want) {
			t.Errorf("JSON symbols %q: no %q", got, want)
		}
	}
	if items := ix.Complete("j.fab.json", 5); items != nil {
		t.Errorf("completion in JSON: %v", items)
	}
	// A file nested too deeply is indexed without blocks, not parsed.
	dx := New(map[string][]byte{"d.fab.hcl": deep("[", "]", 100000)})
	if dx.files["d.fab.hcl"].root != nil {
		t.Error("a file nested 100,000 deep was parsed")
	}
	// An unknown file is nothing.
	if tg := dx.At("nope", 0); tg.Kind != None || dx.Symbols("nope") != nil || dx.Complete("nope", 0) != nil || dx.Definition("nope", 0) != nil || dx.References("nope", 0, true) != nil {
		t.Error("an unknown file answered")
	}
}

// TestExamplesNeverPanic queries every example file at every line start.
func TestExamplesNeverPanic(t *testing.T) {
	paths, _ := filepath.Glob("../../../examples/*/*.fab.hcl")
	more, _ := filepath.Glob("../../../examples/broken/*/*.fab.hcl")
	files := map[string][]byte{}
	for _, p := range append(paths, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = b
	}
	ix := New(files)
	for name, src := range files {
		if ix.files[name].root == nil {
			t.Errorf("%s did not parse", name)
		}
		for off := 0; off < len(src); off++ {
			if off == 0 || src[off-1] == '\n' || src[off-1] == '.' || src[off-1] == '"' {
				exercise(t, ix, name, src, off)
			}
		}
	}
}

// FuzzIndex indexes fuzzed bytes and queries at a fuzzed offset.
func FuzzIndex(f *testing.F) {
	for _, p := range []string{"../../../examples/clos-400g/qos.fab.hcl", "testdata/complete/a.fab.hcl", "testdata/defs/devices.fab.hcl"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint16(len(b)/2), false)
	}
	f.Add([]byte(`{"device": {"a": {"kind": "leaf"}}}`), uint16(3), true)
	f.Add([]byte("link \"x\" {\n  a = \"leaf1:\n"), uint16(20), false)
	f.Fuzz(func(t *testing.T, src []byte, off uint16, isJSON bool) {
		name := "f.fab.hcl"
		if isJSON {
			name = "f.fab.json"
		}
		ix := New(map[string][]byte{name: src})
		o := int(off)
		if len(src) > 0 {
			o %= len(src) + 1
		}
		exercise(t, ix, name, src, o)
	})
}

// BenchmarkIndex indexes examples/scale and asks for its symbols and a
// completion in a device's port block.
func BenchmarkIndex(b *testing.B) {
	src, err := os.ReadFile("../../../examples/scale/scale.fab.hcl")
	if err != nil {
		b.Fatal(err)
	}
	off := bytes.Index(src, []byte("ports {"))
	if off < 0 {
		b.Fatal("no ports block in examples/scale")
	}
	off += len("ports {") + 1
	b.ReportAllocs()
	for b.Loop() {
		ix := New(map[string][]byte{"scale.fab.hcl": src})
		if len(ix.Symbols("scale.fab.hcl")) == 0 {
			b.Fatal("no symbols")
		}
		if len(ix.Complete("scale.fab.hcl", off)) == 0 {
			b.Fatal("no completions")
		}
	}
}
