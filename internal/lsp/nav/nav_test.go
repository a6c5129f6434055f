package nav

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/golden"
	"github.com/fabricgen/fabricgen/schema"
)

const hint = "go test ./internal/lsp/nav -update"

// marker is a cursor position in a fixture: /*|NAME*/, stripped before
// indexing.
var marker = regexp.MustCompile(`/\*\|([a-z0-9-]+)\*/`)

// mark is one stripped marker.
type mark struct {
	name, file string
	off        int
}

// loadMarked reads every *.fab.hcl of dir, strips the markers and returns
// the sources and the markers in file, then offset order.
func loadMarked(t *testing.T, dir string) (map[string][]byte, []mark) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.fab.*"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures in %s: %v", dir, err)
	}
	sort.Strings(paths)
	files := map[string][]byte{}
	var marks []mark
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		var out []byte
		last := 0
		for _, m := range marker.FindAllSubmatchIndex(src, -1) {
			out = append(out, src[last:m[0]]...)
			marks = append(marks, mark{name: string(src[m[2]:m[3]]), file: name, off: len(out)})
			last = m[1]
		}
		out = append(out, src[last:]...)
		files[name] = out
	}
	return files, marks
}

// text is the source a range covers, for goldens.
func text(files map[string][]byte, r schema.Range) string {
	src := files[r.Filename]
	if r.Start.Byte < 0 || int(r.End.Byte) > len(src) || r.Start.Byte > r.End.Byte {
		return "<bad range>"
	}
	return string(src[r.Start.Byte:r.End.Byte])
}

func rng(files map[string][]byte, r schema.Range) string {
	return fmt.Sprintf("%s:%d:%d-%d:%d %q", r.Filename, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column, text(files, r))
}

// TestRangesAreConsistent checks that every range nav returns has lines
// and columns that match its bytes (the server converts from either).
func checkPos(t *testing.T, files map[string][]byte, r schema.Range) {
	t.Helper()
	for _, p := range []schema.Pos{r.Start, r.End} {
		want := posAt(files[r.Filename], int(p.Byte))
		if int(p.Line) != want.Line || int(p.Column) != want.Column {
			t.Errorf("%s: position %d:%d does not match byte %d (%d:%d)", r.Filename, p.Line, p.Column, p.Byte, want.Line, want.Column)
		}
	}
}

func TestDefinitionReferences(t *testing.T) {
	files, marks := loadMarked(t, "testdata/defs")
	ix := New(files)
	var b strings.Builder
	for _, m := range marks {
		tg := ix.At(m.file, m.off)
		fmt.Fprintf(&b, "== %s (%s@%d)\n", m.name, m.file, m.off)
		fmt.Fprintf(&b, "target: %s ref=%s/%s block=%v labels=%v attr=%q range=%s\n", tg.Kind, tg.Ref.Kind, tg.Ref.Name, tg.Block, tg.Labels, tg.Attr, rng(files, tg.Range))
		for _, d := range ix.Definition(m.file, m.off) {
			checkPos(t, files, d)
			fmt.Fprintf(&b, "definition: %s\n", rng(files, d))
		}
		for _, r := range ix.References(m.file, m.off, true) {
			checkPos(t, files, r)
			fmt.Fprintf(&b, "reference: %s\n", rng(files, r))
		}
		without := ix.References(m.file, m.off, false)
		fmt.Fprintf(&b, "references without declaration: %d\n", len(without))
	}
	golden.Check(t, "testdata/defs.golden", []byte(b.String()), hint)
}

// TestDefinitionThroughModel resolves an instance name the syntax cannot
// (count) through WithModel's fabric.
func TestDefinitionThroughModel(t *testing.T) {
	src := []byte("device \"nic\" {\n  count = 2\n  name  = format(\"nic%d\", count.index)\n  kind = \"nic\"\n}\nlink \"l\" {\n  a = \"nic1:eth0\"\n  b = \"nic0:eth0\"\n}\n")
	ix := New(map[string][]byte{"d.fab.hcl": src})
	off := strings.Index(string(src), "nic1:") + 1
	if got := ix.Definition("d.fab.hcl", off); got != nil {
		t.Fatalf("without a model, a count instance resolved: %v", got)
	}
	devRange := schema.Range{Filename: "d.fab.hcl", Start: schema.Pos{Line: 1, Column: 1, Byte: 0}, End: schema.Pos{Line: 1, Column: 13, Byte: 12}}
	portRange := schema.Range{Filename: "d.fab.hcl", Start: schema.Pos{Line: 1, Column: 1, Byte: 0}, End: schema.Pos{Line: 1, Column: 2, Byte: 1}}
	f := &schema.Fabric{Devices: []*schema.Device{
		{Name: "nic0", Range: devRange},
		{Name: "nic1", Range: devRange, Ports: []*schema.Port{{Name: "eth0", Range: portRange}}},
	}}
	mx := ix.WithModel(f)
	if got := mx.Definition("d.fab.hcl", off); len(got) != 1 || got[0] != devRange {
		t.Errorf("device through the model: %v", got)
	}
	if got := mx.Definition("d.fab.hcl", off+5); len(got) != 1 || got[0] != portRange {
		t.Errorf("port through the model: %v", got)
	}
	// The device block's label: every instance's name is a reference.
	if got := mx.References("d.fab.hcl", 9, false); len(got) != 2 {
		t.Errorf("references of a count block through the model: %v", got)
	}
	// The copy leaves the original alone.
	if got := ix.Definition("d.fab.hcl", off); got != nil {
		t.Errorf("WithModel changed the index it copied: %v", got)
	}
	items := mx.Complete("d.fab.hcl", off+5)
	if len(items) != 1 || items[0].Label != "eth0" {
		t.Errorf("ports of a model device: %+v", items)
	}
}

func TestComplete(t *testing.T) {
	files, marks := loadMarked(t, "testdata/complete")
	ix := New(files).WithPlatforms([]string{"arista_eos", "linux_dcb", "sonic"})
	var b strings.Builder
	for _, m := range marks {
		items := ix.Complete(m.file, m.off)
		fmt.Fprintf(&b, "== %s (%s@%d): %d items\n", m.name, m.file, m.off, len(items))
		for _, it := range items {
			checkPos(t, files, it.Replace)
			doc := it.Doc
			if i := strings.IndexByte(doc, '\n'); i >= 0 {
				doc = doc[:i]
			}
			if len(doc) > 60 {
				doc = doc[:60] + "…"
			}
			fmt.Fprintf(&b, "%-22s kind=%d insert=%q replace=%q detail=%q doc=%q\n", it.Label, it.Kind, it.InsertText, text(files, it.Replace), it.Detail, doc)
		}
	}
	golden.Check(t, "testdata/complete.golden", []byte(b.String()), hint)
}

// TestCompleteCases pins the behaviour the goldens show, so that an
// -update cannot accept a regression silently.
func TestCompleteCases(t *testing.T) {
	files, marks := loadMarked(t, "testdata/complete")
	ix := New(files).WithPlatforms([]string{"arista_eos", "linux_dcb", "sonic"})
	at := map[string]mark{}
	for _, m := range marks {
		at[m.name] = m
	}
	labels := func(name string) []string {
		m, ok := at[name]
		if !ok {
			t.Fatalf("no marker %s", name)
		}
		var out []string
		for _, it := range ix.Complete(m.file, m.off) {
			out = append(out, it.Label)
		}
		return out
	}
	has := func(name string, want ...string) {
		t.Helper()
		got := labels(name)
		for _, w := range want {
			found := false
			for _, g := range got {
				found = found || g == w
			}
			if !found {
				t.Errorf("%s: no %q in %v", name, w, got)
			}
		}
	}
	hasNot := func(name string, bad ...string) {
		t.Helper()
		for _, g := range labels(name) {
			for _, b := range bad {
				if g == b {
					t.Errorf("%s: %q offered: %v", name, b, labels(name))
				}
			}
		}
	}
	if got := labels("root"); len(got) != 14 {
		t.Errorf("root: %d block types, want 14: %v", len(got), got)
	}
	has("enum-in-string", "roce", "cnp", "control", "default", "bulk")
	has("enum-bare", "strict", "dwrr")
	has("bool", "true", "false")
	has("after-dot", "roce")
	has("ref-attr", "qos_policy.p")
	has("class-attrs-minus-set", "dscp", "queue", "weight")
	hasNot("class-attrs-minus-set", "role", "priority", "lossless", "ecn", "scheduler")
	has("enum-prefix", "ecn", "drop")
	has("partial-attr", "trust", "queue", "buffer")
	has("list-after-dot", "roce")
	has("queue-attrs", "ecn", "scheduler", "weight", "shaper")
	has("platform", "arista_eos", "linux_dcb", "sonic")
	has("peer-device", "spine1", "nic1", "nic2")
	has("dynamic-content", "speed", "peer", "fec")
	has("device-no-second-rdma", "port", "credentials", "sm")
	hasNot("device-no-second-rdma", "rdma", "kind", "platform", "for_each")
	has("link-port", "Ethernet1", "Ethernet2")
	hasNot("link-port", "Ethernet3") // a dynamic port's label is computed
	has("link-device-prefix", "nic1", "spine1")
	has("role-label", "nic", "leaf", "spine")
	has("var-dot", "n")
	has("broken-file-attrs", "mtu", "queue")
	hasNot("broken-file-attrs", "trust", "classes")
	if got := labels("in-comment"); len(got) != 0 {
		t.Errorf("completion inside a comment: %v", got)
	}
}

func TestEdits(t *testing.T) {
	files, marks := loadMarked(t, "testdata/edits")
	ix := New(files)
	at := map[string]schema.Range{}
	for _, m := range marks {
		p := posAt(files[m.file], m.off)
		pos := schema.Pos{Line: int32(p.Line), Column: int32(p.Column), Byte: int32(p.Byte)}
		at[m.name] = schema.Range{Filename: m.file, Start: pos, End: pos}
	}
	apply := func(e Edit) string {
		src := files[e.Range.Filename]
		return string(src[:e.Range.Start.Byte]) + e.NewText + string(src[e.Range.End.Byte:])
	}
	var b strings.Builder
	cases := []struct {
		name, at, attr, value, rule, reason string
	}{
		{name: "replace the attribute under the cursor", at: "trust", attr: "trust", value: `"dscp"`},
		{name: "set another attribute of the block", at: "trust", attr: "link_pause", value: "false"},
		{name: "replace an attribute set elsewhere in the block", at: "class-body", attr: "priority", value: "4"},
		{name: "insert into a one-line block", at: "one-line", attr: "weight", value: "50"},
		{name: "insert into an empty block", at: "empty", attr: "scheduler", value: `"strict"`},
		{name: "insert with tabs", at: "tab-port", attr: "fec", value: `"rs"`},
		{name: "ignore an attribute", at: "trust", rule: "qos003", reason: "the hosts  re-mark"},
		{name: "ignore a nested block without a reason", at: "tab-port", rule: "BUF001"},
		{name: "ignore in a one-line block", at: "one-line", rule: "ETS001", reason: "lab only"},
	}
	for _, c := range cases {
		var e Edit
		var ok bool
		if c.rule != "" {
			e, ok = ix.Ignore(at[c.at], c.rule, c.reason)
		} else {
			e, ok = ix.SetAttr(at[c.at], c.attr, c.value)
		}
		fmt.Fprintf(&b, "== %s: ok=%v edit %s → %q\n", c.name, ok, rng(files, e.Range), e.NewText)
		if !ok {
			continue
		}
		checkPos(t, files, e.Range)
		out := apply(e)
		b.WriteString(out)
		// The edited file still parses, and the edit did what it says.
		nx := New(map[string][]byte{e.Range.Filename: []byte(out)})
		if nx.files[e.Range.Filename].root == nil || len(nx.Symbols(e.Range.Filename)) != len(ix.Symbols(e.Range.Filename)) {
			t.Errorf("%s: the edited file lost blocks:\n%s", c.name, out)
		}
		if c.rule == "" && !strings.Contains(out, c.attr+" = "+c.value) && !strings.Contains(out, c.value) {
			t.Errorf("%s: %s = %s not in the result", c.name, c.attr, c.value)
		}
	}
	// Not inside a block of a native file.
	between := int32(strings.Index(string(files["e.fab.hcl"]), "}\n\nqos_policy") + 2)
	for _, r := range []schema.Range{
		{Filename: "e.fab.hcl", Start: schema.Pos{Byte: between}},
		{Filename: "nope.fab.hcl"},
		{Filename: "e.fab.hcl", Start: schema.Pos{Byte: 1 << 20}},
		{Filename: "e.fab.hcl", Start: schema.Pos{Byte: -1}},
	} {
		if _, ok := ix.SetAttr(r, "x", "1"); ok {
			t.Errorf("SetAttr at %v: ok", r)
		}
		if _, ok := ix.Ignore(r, "QOS001", ""); ok {
			t.Errorf("Ignore at %v: ok", r)
		}
	}
	if _, ok := ix.Ignore(at["trust"], "QOS001 evil\n", ""); ok {
		t.Error("Ignore took a rule with blanks")
	}
	golden.Check(t, "testdata/edits.golden", []byte(b.String()), hint)
}

func TestSymbolsGolden(t *testing.T) {
	files := map[string][]byte{}
	for _, n := range []string{"devices.fab.hcl", "qos.fab.hcl"} {
		b, err := os.ReadFile(filepath.Join("../../../examples/clos-400g", n))
		if err != nil {
			t.Fatal(err)
		}
		files[n] = b
	}
	ix := New(files)
	var b strings.Builder
	var dump func(s Symbol, depth int)
	dump = func(s Symbol, depth int) {
		checkPos(t, files, s.Range)
		checkPos(t, files, s.Select)
		if s.Select.Start.Byte < s.Range.Start.Byte || s.Select.End.Byte > s.Range.End.Byte {
			t.Errorf("%s: selection %v outside %v", s.Name, s.Select, s.Range)
		}
		fmt.Fprintf(&b, "%s%s [%d] %q %d:%d-%d:%d sel %q\n", strings.Repeat("  ", depth), s.Name, s.Kind, s.Detail,
			s.Range.Start.Line, s.Range.Start.Column, s.Range.End.Line, s.Range.End.Column, text(files, s.Select))
		for _, c := range s.Children {
			dump(c, depth+1)
		}
	}
	for _, n := range []string{"devices.fab.hcl", "qos.fab.hcl"} {
		fmt.Fprintf(&b, "== %s\n", n)
		syms := ix.Symbols(n)
		if len(syms) == 0 {
			t.Errorf("%s: no symbols", n)
		}
		for _, s := range syms {
			dump(s, 0)
		}
	}
	golden.Check(t, "testdata/symbols.golden", []byte(b.String()), hint)
}

func TestDocsCoverSchema(t *testing.T) {
	if missing := undocumented(); len(missing) > 0 {
		t.Errorf("attributes the schema accepts without a row in docs/language.md:\n  %s", strings.Join(missing, "\n  "))
	}
	for _, b := range schema.Language() {
		if len(b.Path) == 0 || b.Type() == "content" {
			continue
		}
		if _, ok := BlockDoc(b.Path); !ok {
			t.Errorf("block %s has no paragraph in docs/language.md", strings.Join(b.Path, "/"))
		}
	}
}

func TestAttrDoc(t *testing.T) {
	for _, c := range []struct {
		block []string
		attr  string
		want  []string
	}{
		{[]string{"qos_policy"}, "trust", []string{"**trust** — string, values `dscp`, `pcp`, `both`, `none`", "classified by"}},
		{[]string{"traffic_class"}, "priority", []string{"**priority** — number, default **required** on Ethernet", "0–7"}},
		{[]string{"ecn_profile"}, "min_fill_level", []string{"**min_fill_level**", "percent of the queue buffer"}},
		{[]string{"acl", "rule"}, "action", []string{"**action** — string", "`permit`, `deny`"}},
		{[]string{"device", "port"}, "fec", []string{"`none`, `rs`, `fc`"}},
		{[]string{"device", "ports"}, "speed", []string{"**speed** — speed"}},
		{[]string{"device", "ports"}, "names", []string{"list of strings"}},
		{[]string{"device", "rdma"}, "tos", []string{"DSCP << 2 | ECN"}},
		{[]string{"device", "sm"}, "routing_engine", []string{"ftree"}},
		{[]string{"device"}, "for_each", []string{"each.key"}},
		{[]string{"qos_policy", "dynamic"}, "labels", []string{"labels"}},
		{[]string{"link"}, "description", []string{"free text"}},
	} {
		got, ok := AttrDoc(c.block, c.attr)
		if !ok {
			t.Errorf("AttrDoc(%v, %s): none", c.block, c.attr)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("AttrDoc(%v, %s) = %q, want it to contain %q", c.block, c.attr, got, w)
			}
		}
	}
	for _, c := range []struct {
		block []string
		attr  string
	}{{[]string{"qos_policy"}, "nope"}, {nil, "trust"}, {[]string{"nope"}, "trust"}, {[]string{"device", "port"}, "names"}} {
		if got, ok := AttrDoc(c.block, c.attr); ok {
			t.Errorf("AttrDoc(%v, %s) = %q, want none", c.block, c.attr, got)
		}
	}
}

// TestParseDocsHostile feeds the table parser broken Markdown.
func TestParseDocsHostile(t *testing.T) {
	for _, md := range []string{
		"",
		"| attribute |",
		"### `qos_policy \"NAME\"`\n| attribute | type |\n|---|---|\n| `trust` |\n| |\n|",
		"### `qos_policy \"NAME\"`\n| attribute | type |",
		"**`queue \"N\"`**\n| attribute |\n|---|\n| `x` | y | z | w | v |",
		strings.Repeat("|", 10000),
	} {
		d := parseDocs(md)
		if d == nil {
			t.Fatal("nil tables")
		}
	}
	d := parseDocs("### `qos_policy \"NAME\"`\n\nIntro.\n\n| attribute | type |\n|---|---|\n| `trust` | string \\| none |\n")
	if got := d.attrs["qos_policy"]["trust"].Type; got != "string | none" {
		t.Errorf("escaped pipe: %q", got)
	}
	if d.blocks["qos_policy"] != "Intro." {
		t.Errorf("block paragraph %q", d.blocks["qos_policy"])
	}
}
