package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// The snippet convention (docs/contributing.md says it for writers): every
// ```hcl block of README.md and docs/**/*.md is a fabric that validates and
// lints with no finding, unless marker comments right above its fence say
// otherwise:
//
//	<!-- fabricgen:fabric NAME -->             a whole fabric, named so fragments can build on it
//	<!-- fabricgen:fragment base=BASE [name=NAME] [at=TYPE.LABEL...] [devices=own] -->
//	<!-- fabricgen:broken RULE... -->          lint reports exactly these rules
//
// A fragment is spliced into BASE (a named block of the docs, or an
// examples/ directory): each of its blocks replaces the base's block of the
// same type and labels (the fabric block replaces the base's fabric block,
// and a local replaces the base's local of that name), the others are
// added. at= splices the fragment's attributes and blocks into one nested
// block of the base instead (at=device.leaf1.port.Ethernet1); devices=own
// leaves the base's devices, links, meshes and subnets out, for a fragment
// that brings its own. A ```json block is checked the same way when it
// declares a fabric or carries a marker.

// snippetMarker matches one marker line.
var snippetMarker = regexp.MustCompile(`^<!-- fabricgen:(\S+)(.*?)\s*-->$`)

// mdFence is a fenced block of a Markdown file.
type mdFence struct {
	file    string
	line    int // the opening fence's line
	lang    string
	text    string
	markers []string // the fabricgen marker lines right above the fence
	mline   int      // the first marker's line
}

// parseFences returns every fenced block of a Markdown file, indented ones
// included, with the fabricgen marker lines right above each.
func parseFences(name string, src []byte) ([]mdFence, error) {
	lines := strings.Split(string(src), "\n")
	var out []mdFence
	var markers []string
	mline := 0
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(lines[i], "    ") {
			l = "" // an indented code block's text
		}
		if strings.HasPrefix(l, "<!-- fabricgen:") {
			if len(markers) == 0 {
				mline = i + 1
			}
			markers = append(markers, l)
			continue
		}
		if !strings.HasPrefix(l, "```") {
			if len(markers) > 0 {
				return nil, fmt.Errorf("%s:%d: a fabricgen marker must stand right above a code fence", name, mline)
			}
			continue
		}
		indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " "))]
		fence := mdFence{file: name, line: i + 1, lang: strings.TrimSpace(strings.TrimPrefix(l, "```")), markers: markers, mline: mline}
		markers = nil
		var body []string
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			body = append(body, strings.TrimPrefix(lines[j], indent))
		}
		if j == len(lines) {
			return nil, fmt.Errorf("%s:%d: unclosed code block", name, i+1)
		}
		fence.text = strings.Join(body, "\n") + "\n"
		out = append(out, fence)
		i = j
	}
	if len(markers) > 0 {
		return nil, fmt.Errorf("%s:%d: a fabricgen marker must stand right above a code fence", name, mline)
	}
	return out, nil
}

// snippet is one intent block with what its markers say.
type snippet struct {
	mdFence
	name    string   // fabricgen:fabric NAME or fragment name=NAME
	base    string   // fragment base=
	at      []string // fragment at=, as TYPE, LABEL pairs
	own     bool     // fragment devices=own
	broken  []string // the rules it is meant to trigger
	isFrag  bool
	jsonSyn bool
}

func (s *snippet) where() string { return fmt.Sprintf("%s:%d", s.file, s.line) }

// snippetOf reads a block's markers. ok is false for a block that is no
// intent (another language, or JSON that declares no fabric).
func snippetOf(b mdFence) (sn *snippet, ok bool, err error) {
	sn = &snippet{mdFence: b}
	switch b.lang {
	case "hcl":
	case "json":
		sn.jsonSyn = true
		var top map[string]json.RawMessage
		if len(b.markers) == 0 && (json.Unmarshal([]byte(b.text), &top) != nil || top["fabric"] == nil) {
			return nil, false, nil
		}
	default:
		if len(b.markers) > 0 {
			return nil, false, fmt.Errorf("%s:%d: a fabricgen marker above a ```%s block: only hcl and json blocks are intent", b.file, b.mline, b.lang)
		}
		return nil, false, nil
	}
	for i, m := range b.markers {
		line := b.mline + i
		sm := snippetMarker.FindStringSubmatch(m)
		if sm == nil {
			return nil, false, fmt.Errorf("%s:%d: malformed marker %q: write <!-- fabricgen:KIND ARGS -->", b.file, line, m)
		}
		args := strings.Fields(sm[2])
		switch sm[1] {
		case "fabric":
			if len(args) != 1 {
				return nil, false, fmt.Errorf("%s:%d: write <!-- fabricgen:fabric NAME -->", b.file, line)
			}
			sn.name = args[0]
		case "fragment":
			sn.isFrag = true
			for _, a := range args {
				k, v, _ := strings.Cut(a, "=")
				switch {
				case k == "base" && v != "":
					sn.base = v
				case k == "name" && v != "":
					sn.name = v
				case k == "at" && v != "":
					sn.at = strings.Split(v, ".")
					if len(sn.at)%2 != 0 {
						return nil, false, fmt.Errorf("%s:%d: at=%s: write at=TYPE.LABEL[.TYPE.LABEL…], e.g. at=device.leaf1.port.Ethernet1", b.file, line, v)
					}
				case a == "devices=own":
					sn.own = true
				default:
					return nil, false, fmt.Errorf("%s:%d: unknown fragment argument %q: base=NAME, name=NAME, at=TYPE.LABEL…, devices=own", b.file, line, a)
				}
			}
			if sn.base == "" {
				return nil, false, fmt.Errorf("%s:%d: a fragment needs base=NAME (a named block of the docs or an examples/ directory)", b.file, line)
			}
		case "broken":
			if len(args) == 0 {
				return nil, false, fmt.Errorf("%s:%d: write <!-- fabricgen:broken RULE... --> naming the rules the example triggers", b.file, line)
			}
			for _, r := range args {
				if lint.Lookup(r) == nil {
					return nil, false, fmt.Errorf("%s:%d: broken %s: no such lint rule", b.file, line, r)
				}
			}
			sn.broken = args
		default:
			return nil, false, fmt.Errorf("%s:%d: unknown marker fabricgen:%s: use fabricgen:fabric, fabricgen:fragment or fabricgen:broken", b.file, line, sm[1])
		}
	}
	if sn.jsonSyn && sn.isFrag {
		return nil, false, fmt.Errorf("%s:%d: a JSON block cannot be a fragment: write it as a whole fabric", b.file, b.mline)
	}
	return sn, true, nil
}

// snippetFile is one file of a fabric a snippet check builds.
type snippetFile struct {
	name string
	src  []byte
	from *snippet // the snippet whose text this file is, line for line (nil: a base)
}

// snippetChecker builds and checks the snippets of a set of Markdown files.
type snippetChecker struct {
	root     string // the repository, for base=examples/DIR
	byName   map[string]*snippet
	fabrics  map[string][]snippetFile
	building map[string]bool
}

// checkSnippets checks every intent block of the given Markdown files
// (name → text) and returns one problem per failing snippet, each starting
// with its file:line.
func checkSnippets(ctx context.Context, root string, files map[string][]byte) []string {
	var problems []string
	var snippets []*snippet
	c := &snippetChecker{root: root, byName: map[string]*snippet{}, fabrics: map[string][]snippetFile{}, building: map[string]bool{}}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		blocks, err := parseFences(n, files[n])
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, b := range blocks {
			sn, ok, err := snippetOf(b)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			if !ok {
				continue
			}
			snippets = append(snippets, sn)
			if sn.name == "" {
				continue
			}
			if prev := c.byName[sn.name]; prev != nil {
				problems = append(problems, fmt.Sprintf("%s: the name %q is taken by %s", sn.where(), sn.name, prev.where()))
				continue
			}
			c.byName[sn.name] = sn
		}
	}
	for _, sn := range snippets {
		if p := c.check(ctx, sn); p != "" {
			problems = append(problems, p)
		}
	}
	return problems
}

// check builds a snippet's fabric, loads and lints it; it returns what is
// wrong, or "".
func (c *snippetChecker) check(ctx context.Context, sn *snippet) string {
	if !sn.jsonSyn {
		if canon, ds := formatHCL([]byte(sn.text), sn.where()); len(ds) == 0 && string(canon) != sn.text {
			return fmt.Sprintf("%s: the snippet is not laid out as fabricgen fmt writes it; write:\n%s", sn.where(), canon)
		}
	}
	files, err := c.build(sn)
	if err != nil {
		return fmt.Sprintf("%s: %v", sn.where(), err)
	}
	dir, err := os.MkdirTemp("", "snippet")
	if err != nil {
		return fmt.Sprintf("%s: %v", sn.where(), err)
	}
	defer os.RemoveAll(dir)
	at := map[string]*snippet{}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, f.src, 0o644); err != nil {
			return fmt.Sprintf("%s: %v", sn.where(), err)
		}
		if f.from != nil {
			at[p] = f.from
		}
	}
	// place is a diagnostic's place: its line in the Markdown file when
	// it is in a snippet's text, else the built file's name and line.
	place := func(r *schema.Range) string {
		if r == nil {
			return "(no place)"
		}
		if from := at[r.Filename]; from != nil {
			return fmt.Sprintf("%s:%d", from.file, from.line+int(r.Start.Line))
		}
		return fmt.Sprintf("%s:%d (in the base)", filepath.Base(r.Filename), r.Start.Line)
	}
	f, diags := schema.LoadContext(ctx, dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	var msgs []string
	for _, d := range diags {
		if d.Severity == schema.SevError {
			msgs = append(msgs, fmt.Sprintf("  %s: %s: %s", place(d.Subject), d.Summary, d.Detail))
		}
	}
	if len(msgs) > 0 || f == nil {
		return fmt.Sprintf("%s: the snippet does not validate:\n%s", sn.where(), strings.Join(msgs, "\n"))
	}
	findings, err := lint.Run(ctx, f, lint.Options{})
	if err != nil {
		return fmt.Sprintf("%s: lint: %v", sn.where(), err)
	}
	fired := map[string]bool{}
	for _, fd := range findings {
		fired[fd.Rule] = true
		msgs = append(msgs, fmt.Sprintf("  %s: %s[%s]: %s", place(fd.Subject), fd.Severity, fd.Rule, fd.Summary))
	}
	if len(sn.broken) == 0 {
		if len(findings) > 0 {
			return fmt.Sprintf("%s: the snippet does not lint clean (fix it, or mark it <!-- fabricgen:broken RULE... --> if it shows a mistake):\n%s", sn.where(), strings.Join(msgs, "\n"))
		}
		return ""
	}
	var missing, extra []string
	for _, r := range sn.broken {
		if !fired[r] {
			missing = append(missing, r)
		}
		delete(fired, r)
	}
	for r := range fired {
		extra = append(extra, r)
	}
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		return fmt.Sprintf("%s: the broken example should trigger %v and only those; missing %v, also %v:\n%s", sn.where(), sn.broken, missing, extra, strings.Join(msgs, "\n"))
	}
	return ""
}

// build returns the files of a snippet's fabric.
func (c *snippetChecker) build(sn *snippet) ([]snippetFile, error) {
	ext := ".fab.hcl"
	if sn.jsonSyn {
		ext = ".fab.json"
	}
	own := snippetFile{name: "snippet" + ext, src: []byte(sn.text), from: sn}
	if !sn.isFrag {
		if !sn.jsonSyn && !strings.Contains(sn.text, "fabric \"") {
			return nil, fmt.Errorf("not a whole fabric (no fabric block): mark it <!-- fabricgen:fragment base=NAME --> to splice it into a named fabric of the docs or an examples/ directory")
		}
		return []snippetFile{own}, nil
	}
	base, err := c.fabric(sn.base)
	if err != nil {
		return nil, err
	}
	frag, diags := hclwrite.ParseConfig(own.src, own.name, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, fmt.Errorf("the snippet does not parse: %s", diags.Error())
	}
	var parsed []*hclwrite.File
	for _, bf := range base {
		if strings.HasSuffix(bf.name, ".json") {
			return nil, fmt.Errorf("base %s is JSON: splice fragments into an HCL fabric", sn.base)
		}
		p, diags := hclwrite.ParseConfig(bf.src, bf.name, hcl.InitialPos)
		if diags.HasErrors() {
			return nil, fmt.Errorf("base %s does not parse: %s", sn.base, diags.Error())
		}
		parsed = append(parsed, p)
	}
	if sn.own {
		for _, p := range parsed {
			for _, b := range p.Body().Blocks() {
				if slices.Contains([]string{"device", "link", "mesh", "subnet"}, b.Type()) {
					p.Body().RemoveBlock(b)
				}
			}
		}
	}
	out := make([]snippetFile, 0, len(base)+1)
	if len(sn.at) > 0 {
		parent, target := findBlock(parsed, sn.at)
		if target == nil {
			return nil, fmt.Errorf("at=%s: the base %s has no such block", strings.Join(sn.at, "."), sn.base)
		}
		spliceInto(parent, target, frag.Body())
		// The snippet's text is in a base file now: its findings are
		// placed at the fence.
		for i, p := range parsed {
			out = append(out, snippetFile{name: base[i].name, src: p.Bytes()})
		}
		return out, nil
	}
	if attrs := frag.Body().Attributes(); len(attrs) > 0 {
		return nil, fmt.Errorf("attributes at the top level: add at=TYPE.LABEL… to the fragment marker to say which block they belong in")
	}
	for _, b := range frag.Body().Blocks() {
		for _, p := range parsed {
			replaceBlock(p.Body(), b)
		}
	}
	for i, p := range parsed {
		out = append(out, snippetFile{name: base[i].name, src: p.Bytes()})
	}
	return append(out, own), nil
}

// replaceBlock removes from body what the top-level block b replaces.
func replaceBlock(body *hclwrite.Body, b *hclwrite.Block) {
	for _, have := range body.Blocks() {
		switch {
		case have.Type() != b.Type():
		case b.Type() == "locals":
			for name := range b.Body().Attributes() {
				have.Body().RemoveAttribute(name)
			}
		case b.Type() == "fabric" || slices.Equal(have.Labels(), b.Labels()):
			body.RemoveBlock(have)
		}
	}
}

// spliceInto rebuilds the block b of parent with the fragment's
// attributes set and its blocks replacing (or added to) b's; rebuilt, a
// block written on one line takes more.
func spliceInto(parent *hclwrite.Body, b *hclwrite.Block, frag *hclwrite.Body) {
	nb := hclwrite.NewBlock(b.Type(), b.Labels())
	attrs := b.Body().Attributes()
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		nb.Body().SetAttributeRaw(name, attrs[name].Expr().BuildTokens(nil))
	}
	for name, a := range frag.Attributes() {
		nb.Body().SetAttributeRaw(name, a.Expr().BuildTokens(nil))
	}
	for _, have := range b.Body().Blocks() {
		replaced := false
		for _, fb := range frag.Blocks() {
			replaced = replaced || have.Type() == fb.Type() && slices.Equal(have.Labels(), fb.Labels())
		}
		if !replaced {
			nb.Body().AppendBlock(have)
		}
	}
	for _, fb := range frag.Blocks() {
		nb.Body().AppendBlock(fb)
	}
	parent.RemoveBlock(b)
	parent.AppendBlock(nb)
}

// findBlock finds the nested block a TYPE, LABEL path names, and the body
// it is in.
func findBlock(files []*hclwrite.File, path []string) (*hclwrite.Body, *hclwrite.Block) {
	for _, f := range files {
		body := f.Body()
		var parent *hclwrite.Body
		var found *hclwrite.Block
		for i := 0; i+1 < len(path); i += 2 {
			found = nil
			for _, b := range body.Blocks() {
				if b.Type() == path[i] && len(b.Labels()) == 1 && b.Labels()[0] == path[i+1] {
					found = b
					break
				}
			}
			if found == nil {
				break
			}
			parent, body = body, found.Body()
		}
		if found != nil {
			return parent, found
		}
	}
	return nil, nil
}

// fabric returns the files of a named fabric: a named snippet (built) or
// an examples/ directory.
func (c *snippetChecker) fabric(name string) ([]snippetFile, error) {
	if fs, ok := c.fabrics[name]; ok {
		return fs, nil
	}
	if dir, ok := strings.CutPrefix(name, "examples/"); ok {
		paths, err := schema.IntentFiles(filepath.Join(c.root, "examples", dir))
		if err != nil {
			return nil, fmt.Errorf("base %s: %w", name, err)
		}
		if len(paths) == 0 {
			return nil, fmt.Errorf("base %s: no fabric there", name)
		}
		var out []snippetFile
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("base %s: %w", name, err)
			}
			out = append(out, snippetFile{name: "base-" + filepath.Base(p), src: src})
		}
		c.fabrics[name] = out
		return out, nil
	}
	sn := c.byName[name]
	if sn == nil {
		return nil, fmt.Errorf("base %s: no block is named so: name one <!-- fabricgen:fabric %s -->, or use examples/DIR", name, name)
	}
	if c.building[name] {
		return nil, fmt.Errorf("base %s: the fragments' bases go round in a circle", name)
	}
	c.building[name] = true
	defer delete(c.building, name)
	files, err := c.build(sn)
	if err != nil {
		return nil, fmt.Errorf("base %s (%s): %w", name, sn.where(), err)
	}
	// A base's files keep their names apart from the fragment built on it.
	out := make([]snippetFile, len(files))
	for i, f := range files {
		out[i] = snippetFile{name: name + "-" + f.name, src: f.src}
	}
	c.fabrics[name] = out
	return out, nil
}

// docMarkdown is README.md and every docs/**/*.md of the repository.
func docMarkdown(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	read := func(rel string) {
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.ToSlash(rel)] = src
	}
	read("README.md")
	// docs/cli is generated from the commands' help (TestCLIDocs), which
	// holds no intent.
	err := fs.WalkDir(os.DirFS(root), "docs", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p == "docs/cli" {
			return fs.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			read(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestDocSnippets validates and lints every HCL snippet of README.md and
// docs/ (see the convention at the top of this file and in
// docs/contributing.md).
func TestDocSnippets(t *testing.T) {
	root := repoRoot(t)
	files := docMarkdown(t, root)
	hcl := 0
	for _, src := range files {
		hcl += strings.Count(string(src), "```hcl\n")
	}
	if hcl < 15 {
		t.Fatalf("found only %d ```hcl blocks in README.md and docs/", hcl)
	}
	for _, p := range checkSnippets(context.Background(), root, files) {
		t.Error(p)
	}
	// docMarkdown leaves the generated docs/cli out: it must hold no
	// intent, or it would go unchecked.
	generated, err := filepath.Glob(filepath.Join(root, "docs", "cli", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range generated {
		if src, err := os.ReadFile(p); err != nil || strings.Contains(string(src), "```hcl") {
			t.Errorf("%s: a command's help shows HCL (%v): check it here, or move it to docs/language.md", p, err)
		}
	}
}

// TestSnippetCheckerFails proves each kind of bad snippet is reported at
// its file:line, and that good ones pass.
func TestSnippetCheckerFails(t *testing.T) {
	root := repoRoot(t)
	overview := func(classes string) string {
		return "<!-- fabricgen:fabric base -->\n```hcl\n" + `fabric "f" { qos_policy = qos_policy.p }
ecn_profile "e" {
  min_threshold = "150KB"
  max_threshold = "1500KB"
}
pfc_watchdog "w" { detection = "200ms" }
traffic_class "default" {
  role     = "default"
  dscp     = [0]
  priority = 0
  weight   = 50
}
traffic_class "roce" {
  role     = "roce"
  dscp     = [26]
  priority = 3
  lossless = true
  ecn      = ecn_profile.e
  weight   = 50
}
traffic_class "cnp" {
  role      = "cnp"
  dscp      = [48]
  priority  = 6
  scheduler = "strict"
}
qos_policy "p" {
  trust            = "dscp"
  classes          = ` + classes + `
  default_priority = 0
  pfc_watchdog     = pfc_watchdog.w
  mtu              = 9214
}
device "leaf1" {
  kind     = "leaf"
  platform = "arista_eos"
  port "Ethernet1" {
    speed = "100G"
  }
}
device "n1" {
  kind     = "nic"
  platform = "nvidia_mlnx"
  rdma { tos = 106 }
  port "eth0" { speed = "100G" }
}
link "l" {
  a            = "n1:eth0"
  b            = "leaf1:Ethernet1"
  cable_length = "3m"
}
` + "```\n"
	}
	good := overview("[traffic_class.default, traffic_class.roce, traffic_class.cnp]")
	noDefault := strings.Replace(good, "classes          = [traffic_class.default, ", "classes          = [", 1)
	frag := func(marker, body string) string {
		return good + "\n" + marker + "\n```hcl\n" + body + "```\n"
	}
	cases := []struct {
		name, md string
		want     []string // substrings of the problems, in order; none: no problem
	}{
		{"clean", good, nil},
		{"lint finding", noDefault, []string{"R.md:2: the snippet does not lint clean", "R.md:21: error[ETS001]"}},
		{"broken as marked", strings.Replace(noDefault, "<!-- fabricgen:fabric base -->", "<!-- fabricgen:broken ETS001 -->", 1), nil},
		{"broken, other rules", strings.Replace(noDefault, "<!-- fabricgen:fabric base -->", "<!-- fabricgen:broken QOS005 -->", 1), []string{"R.md:2: the broken example should trigger [QOS005] and only those; missing [QOS005], also [ETS001]"}},
		{"invalid", strings.Replace(good, "priority = 3", "priority = 9", 1), []string{"R.md:2: the snippet does not validate", "R.md:18: Value out of range"}},
		{"not a fabric", good + "\n```hcl\nrole \"nic\" { qos_policy = qos_policy.p }\n```\n", []string{"R.md:56: not a whole fabric"}},
		{"fragment", frag("<!-- fabricgen:fragment base=base -->", "pfc_watchdog \"w\" {\n  detection = \"100ms\"\n}\n"), nil},
		{"fragment finding", frag("<!-- fabricgen:fragment base=base -->", "traffic_class \"default\" {\n  role     = \"default\"\n  dscp     = [0]\n  priority = 0\n  weight   = 40\n}\n"), []string{"R.md:57: the snippet does not lint clean", "R.md:62: error[ETS001]"}},
		{"fragment of an unknown base", frag("<!-- fabricgen:fragment base=nothing -->", "role \"nic\" {\n  qos_policy = qos_policy.p\n}\n"), []string{"R.md:57: base nothing: no block is named so"}},
		{"fragment of an example", frag("<!-- fabricgen:fragment base=examples/roce-storage -->", "role \"nic\" {\n  qos_policy = qos_policy.host\n}\n"), nil},
		{"attributes without at", frag("<!-- fabricgen:fragment base=base -->", "mtu = 9000\n"), []string{"R.md:57: attributes at the top level"}},
		{"attributes at", frag("<!-- fabricgen:fragment base=base at=device.leaf1.port.Ethernet1 -->", "mtu = 9300\n"), []string{"R.md:57: the snippet does not validate", "Value out of range"}},
		{"chained fragments", frag("<!-- fabricgen:fragment base=base name=two -->", "variable \"n\" {\n  default = 2\n}\n") +
			"<!-- fabricgen:fragment base=two -->\n```hcl\nlocals {\n  m = var.n + 1\n}\n```\n", nil},
		{"fragment of a fragment's error", frag("<!-- fabricgen:fragment base=base name=two -->", "locals {\n  m = var.n\n}\n") +
			"<!-- fabricgen:fragment base=two -->\n```hcl\nlocals {\n  k = 1\n}\n```\n", []string{"R.md:57: the snippet does not validate", "R.md:63: the snippet does not validate"}},
		{"circular bases", "<!-- fabricgen:fragment base=b name=a -->\n```hcl\nlocals {}\n```\n<!-- fabricgen:fragment base=a name=b -->\n```hcl\nlocals {}\n```\n", []string{"go round in a circle"}},
		{"own devices", frag("<!-- fabricgen:fragment base=base devices=own -->", "device \"leaf1\" {\n  kind     = \"leaf\"\n  platform = \"sonic\"\n  asic     = \"broadcom\"\n}\n"), nil},
		{"broken fragment", frag("<!-- fabricgen:fragment base=base -->\n<!-- fabricgen:broken WDG001 WDG004 -->", "qos_policy \"p\" {\n  trust            = \"dscp\"\n  classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]\n  default_priority = 0\n  mtu              = 9214\n}\n"), nil},
		{"not canonical", frag("<!-- fabricgen:fragment base=base -->", "pfc_watchdog \"w\" {\n  detection =   \"100ms\"\n}\n"), []string{"R.md:57: the snippet is not laid out as fabricgen fmt writes it"}},
		{"duplicate name", good + good, []string{"R.md:56: the name \"base\" is taken by R.md:2"}},
		{"unknown marker", "<!-- fabricgen:maybe -->\n```hcl\nx = 1\n```\n", []string{"R.md:1: unknown marker fabricgen:maybe"}},
		{"unknown rule", "<!-- fabricgen:broken XYZ001 -->\n```hcl\nx = 1\n```\n", []string{"R.md:1: broken XYZ001: no such lint rule"}},
		{"stray marker", "<!-- fabricgen:fabric a -->\n\ntext\n", []string{"R.md:1: a fabricgen marker must stand right above a code fence"}},
		{"json fabric", "```json\n{\"fabric\": {\"f\": {\"qos_policy\": \"qos_policy.x\"}}}\n```\n", []string{"R.md:1: the snippet does not validate"}},
		{"other json", "```json\n{\"leaf1\": \"192.0.2.1:22\"}\n```\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			problems := checkSnippets(context.Background(), root, map[string][]byte{"R.md": []byte(c.md)})
			text := strings.Join(problems, "\n")
			if len(c.want) == 0 && len(problems) > 0 {
				t.Fatalf("problems:\n%s", text)
			}
			if len(c.want) > 0 && len(problems) == 0 {
				t.Fatalf("no problem, want %q", c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("problems lack %q:\n%s", w, text)
				}
			}
		})
	}
}
