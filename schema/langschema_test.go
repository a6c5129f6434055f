package schema_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/fabricgen/fabricgen/schema"
)

// langIndex is Language keyed by the joined block path.
func langIndex(t *testing.T) map[string]schema.BlockSpec {
	t.Helper()
	out := map[string]schema.BlockSpec{}
	for _, b := range schema.Language() {
		k := strings.Join(b.Path, "/")
		if _, dup := out[k]; dup {
			t.Errorf("Language lists %s twice", k)
		}
		out[k] = b
	}
	return out
}

// checkBody fails t for every block or attribute of body that the language
// does not list at path.
func checkBody(t *testing.T, lang map[string]schema.BlockSpec, where string, path []string, body *hclsyntax.Body) {
	t.Helper()
	spec, ok := lang[strings.Join(path, "/")]
	if !ok {
		t.Errorf("%s: block %s is not in schema.Language()", where, strings.Join(path, "/"))
		return
	}
	for name := range body.Attributes {
		if spec.AnyAttrs {
			continue
		}
		if !slices.ContainsFunc(spec.Attrs, func(a schema.AttrSpec) bool { return a.Name == name }) {
			t.Errorf("%s: attribute %s of %s is not in schema.Language()", where, name, strings.Join(path, "/"))
		}
	}
	for _, b := range body.Blocks {
		if !slices.Contains(spec.Blocks, b.Type) {
			t.Errorf("%s: %s accepts no block %s in schema.Language()", where, strings.Join(path, "/"), b.Type)
			continue
		}
		p := append(slices.Clone(path), b.Type)
		if b.Type == "content" && len(b.Labels) == 0 && len(path) > 0 && path[len(path)-1] == "dynamic" {
			// Checked by the dynamic block below.
			continue
		}
		checkBody(t, lang, where, p, b.Body)
		if b.Type == "dynamic" && len(b.Labels) == 1 {
			for _, c := range b.Body.Blocks {
				if c.Type == "content" {
					checkBody(t, lang, where, append(slices.Clone(path), b.Labels[0]), c.Body)
				}
			}
		}
	}
}

func TestLanguageCoversExamplesAndDocs(t *testing.T) {
	lang := langIndex(t)
	var srcs = map[string][]byte{}
	files, err := filepath.Glob("../examples/*/*.fab.hcl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	more, _ := filepath.Glob("../examples/broken/*/*.fab.hcl")
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = b
	}
	doc, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	// The Overview fabric and every fragment the docs test loads.
	fence := regexp.MustCompile("(?s)<!-- fabricgen:(?:fabric|fragment)([^>]*)-->\n```hcl\n(.*?)```")
	at := regexp.MustCompile(`\bat=(\S+)`)
	ms := fence.FindAllSubmatch(doc, -1)
	if len(ms) < 10 {
		t.Fatalf("found %d loadable hcl fences in docs/language.md", len(ms))
	}
	within := map[string][]string{}
	for i, m := range ms {
		name := "docs/language.md#fence" + strconv.Itoa(i)
		srcs[name] = m[2]
		if a := at.FindSubmatch(m[1]); a != nil {
			// A fragment the docs test places inside a block.
			// at=device.leaf1.port.Ethernet1: types and labels alternate.
			parts := strings.Split(string(a[1]), ".")
			for j := 0; j < len(parts); j += 2 {
				within[name] = append(within[name], parts[j])
			}
		}
	}
	seen := map[string]bool{}
	for name, src := range srcs {
		f, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
		if diags.HasErrors() {
			t.Errorf("%s: %v", name, diags)
			continue
		}
		body := f.Body.(*hclsyntax.Body)
		for _, b := range body.Blocks {
			seen[b.Type] = true
		}
		if p := within[name]; p != nil {
			checkBody(t, lang, name, p, body)
			continue
		}
		checkBody(t, lang, name, nil, &hclsyntax.Body{Blocks: body.Blocks, Attributes: hclsyntax.Attributes{}})
	}
	for _, want := range []string{"fabric", "traffic_class", "qos_policy", "device", "link", "mesh", "partition", "locals", "variable", "acl", "subnet", "role"} {
		if !seen[want] {
			t.Errorf("no example or doc fragment has a %s block: the test covers less than it claims", want)
		}
	}
}

func TestLanguageRoot(t *testing.T) {
	lang := langIndex(t)
	root := lang[""]
	if len(root.Blocks) != 14 {
		t.Errorf("root has %d block types, want 14: %v", len(root.Blocks), root.Blocks)
	}
	for _, tc := range []struct {
		path     string
		attr     string
		required bool
	}{
		{"device", "for_each", false},
		{"device", "kind", true},
		{"link", "count", false},
		{"traffic_class", "priority", true},
		{"traffic_class", "sl", false},
		{"device/dynamic", "for_each", true},
		{"qos_policy/queue", "shaper", false},
	} {
		spec, ok := lang[tc.path]
		if !ok {
			t.Errorf("%s missing", tc.path)
			continue
		}
		i := slices.IndexFunc(spec.Attrs, func(a schema.AttrSpec) bool { return a.Name == tc.attr })
		if i < 0 || spec.Attrs[i].Required != tc.required {
			t.Errorf("%s.%s: index %d, attrs %v; want required=%v", tc.path, tc.attr, i, spec.Attrs, tc.required)
		}
	}
	if got := lang["qos_policy/queue"].Labels; !slices.Equal(got, []string{"number"}) {
		t.Errorf("queue labels %v", got)
	}
	if got := lang["device/dynamic"].Labels; !slices.Equal(got, []string{"type"}) {
		t.Errorf("dynamic labels %v", got)
	}
	if !lang["locals"].AnyAttrs {
		t.Error("locals must take any attribute")
	}
}

func TestEnumValues(t *testing.T) {
	for _, tc := range []struct {
		block []string
		attr  string
		want  []string
	}{
		{[]string{"qos_policy"}, "trust", []string{"dscp", "pcp", "both", "none"}},
		{[]string{"traffic_class"}, "role", []string{"roce", "cnp", "control", "default", "bulk"}},
		{[]string{"traffic_class"}, "scheduler", []string{"strict", "dwrr"}},
		{[]string{"device"}, "kind", []string{"nic", "subnet_manager", "leaf", "spine", "superspine", "core"}},
		{[]string{"device", "port"}, "fec", []string{"none", "rs", "fc"}},
		{[]string{"device", "rdma"}, "transport", []string{"roce_v2", "roce_v1", "iwarp"}},
		{[]string{"fabric"}, "link_layer", []string{"ethernet", "infiniband"}},
		{[]string{"device"}, "platform", nil},
		{[]string{"qos_policy"}, "mtu", nil},
		{nil, "trust", nil},
	} {
		got := schema.EnumValues(tc.block, tc.attr)
		if !slices.Equal(got, tc.want) {
			t.Errorf("EnumValues(%v, %q) = %v, want %v", tc.block, tc.attr, got, tc.want)
		}
	}
	// The result is a copy: changing it changes nothing the decoder uses.
	v := schema.EnumValues([]string{"qos_policy"}, "trust")
	v[0] = "x"
	if schema.EnumValues([]string{"qos_policy"}, "trust")[0] != "dscp" {
		t.Error("EnumValues hands out the decoder's table")
	}
	// Every enum table belongs to an attribute the language accepts.
	lang := map[string]bool{}
	for _, b := range schema.Language() {
		for _, a := range b.Attrs {
			lang[strings.Join(append(slices.Clone(b.Path), a.Name), "/")] = true
		}
	}
	for k := range lang {
		parts := strings.Split(k, "/")
		_ = schema.EnumValues(parts[:len(parts)-1], parts[len(parts)-1])
	}
}
