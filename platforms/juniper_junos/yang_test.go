package juniperjunos_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/internal/testtool"
	juniperjunos "github.com/fabricgen/fabricgen/platforms/juniper_junos"
	"github.com/fabricgen/fabricgen/schema"
)

// This file validates the Junos renders against Juniper's published YANG
// (github.com/Juniper/yang, Apache-2.0, vendored in testdata/yang with its
// licence): each "set" line is walked through the schema of the device's
// family (the conf-with-extensions modules, whose junos:cli-feature
// "nokeyword" marks the values the CLI writes without their statement
// name), the lines become one XML instance document, and yanglint
// validates it in strict mode (an unknown node is an error).

// junosYANGRelease is the release whose modules testdata/yang holds.
const junosYANGRelease = "23.4R1"

// junosYANGFamily names the module set (the folder of testdata/yang/<release>
// and the modules' name prefix) of each hardware family: Juniper publishes
// one for MX (junos), QFX (junos-qfx) and EX (junos-ex).
var junosYANGFamily = map[schema.HardwareFamily]string{
	juniperjunos.FamilyMX:       "junos",
	juniperjunos.FamilyQFX5000:  "junos-qfx",
	juniperjunos.FamilyQFX10000: "junos-qfx",
	juniperjunos.FamilyEX:       "junos-ex",
}

// junosYANGModules are the modules of a family's set the renders need,
// after its root module.
var junosYANGModules = []string{"root", "class-of-service", "firewall", "interfaces"}

// yangNode is one data node of the compiled schema: choices and cases are
// dissolved into their parent, as the CLI writes them.
type yangNode struct {
	name, kind string // kind: container, list, leaf, leaf-list
	ns         string // the XML namespace of the module defining it
	keys       []string
	empty      bool // a leaf of type empty: written without a value
	nokeyword  bool // junos:cli-feature "nokeyword": its value is written alone
	children   []*yangNode
	byName     map[string]*yangNode
}

func (n *yangNode) add(c *yangNode) {
	if n.byName == nil {
		n.byName = map[string]*yangNode{}
	}
	if _, dup := n.byName[c.name]; dup {
		return
	}
	n.byName[c.name] = c
	n.children = append(n.children, c)
}

// nokeywordChild is the child whose value the CLI writes without its name
// (filter input NAME), or nil.
func (n *yangNode) nokeywordChild() *yangNode {
	for _, c := range n.children {
		if c.nokeyword && (c.kind == "leaf" || c.kind == "leaf-list") && !n.isKey(c.name) {
			return c
		}
	}
	return nil
}

// impliedList is the list the CLI writes without its name under a
// container named for it in the plural: "interfaces NAME" is
// interfaces/interface[name=NAME] (the key is nokeyword); nil when there
// is none.
func (n *yangNode) impliedList() *yangNode {
	l := n.byName[strings.TrimSuffix(n.name, "s")]
	if l == nil || l.kind != "list" || len(l.keys) != 1 || !l.byName[l.keys[0]].nokeyword || !strings.HasSuffix(n.name, "s") {
		return nil
	}
	return l
}

func (n *yangNode) isKey(name string) bool {
	for _, k := range n.keys {
		if k == name {
			return true
		}
	}
	return false
}

// yangStmt is one statement of YANG text: keyword, argument, substatements.
type yangStmt struct {
	kw, arg string
	sub     []*yangStmt
}

// parseYANGStmts parses YANG text (RFC 7950 section 6: keyword, optional
// argument, then ";" or a block; strings single- or double-quoted and
// joined with "+").
func parseYANGStmts(src string) ([]*yangStmt, error) {
	p := &yangLexer{src: src}
	var root yangStmt
	stack := []*yangStmt{&root}
	for {
		tok, ok, err := p.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if tok == "}" {
			if len(stack) == 1 {
				return nil, fmt.Errorf("offset %d: unbalanced }", p.pos)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		st := &yangStmt{kw: tok}
		parent := stack[len(stack)-1]
		parent.sub = append(parent.sub, st)
		for {
			t, ok, err := p.next()
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, fmt.Errorf("statement %s %q: unexpected end of text", st.kw, st.arg)
			}
			if t == ";" {
				break
			}
			if t == "{" {
				stack = append(stack, st)
				break
			}
			if t == "+" {
				continue
			}
			st.arg += t
		}
	}
	if len(stack) != 1 {
		return nil, fmt.Errorf("%d unclosed blocks", len(stack)-1)
	}
	return root.sub, nil
}

// yangLexer splits YANG text into tokens: ";", "{", "}", "+", quoted
// strings (unquoted and unescaped) and bare words.
type yangLexer struct {
	src string
	pos int
}

func (l *yangLexer) next() (string, bool, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			l.pos++
		case strings.HasPrefix(l.src[l.pos:], "//"):
			if i := strings.IndexByte(l.src[l.pos:], '\n'); i >= 0 {
				l.pos += i
			} else {
				l.pos = len(l.src)
			}
		case strings.HasPrefix(l.src[l.pos:], "/*"):
			i := strings.Index(l.src[l.pos+2:], "*/")
			if i < 0 {
				return "", false, fmt.Errorf("offset %d: unclosed comment", l.pos)
			}
			l.pos += i + 4
		case c == ';' || c == '{' || c == '}':
			l.pos++
			return string(c), true, nil
		case c == '"':
			var b strings.Builder
			for i := l.pos + 1; i < len(l.src); i++ {
				switch l.src[i] {
				case '\\':
					i++
					if i < len(l.src) {
						switch l.src[i] {
						case 'n':
							b.WriteByte('\n')
						case 't':
							b.WriteByte('\t')
						default:
							b.WriteByte(l.src[i])
						}
					}
				case '"':
					l.pos = i + 1
					return b.String(), true, nil
				default:
					b.WriteByte(l.src[i])
				}
			}
			return "", false, fmt.Errorf("offset %d: unclosed string", l.pos)
		case c == '\'':
			i := strings.IndexByte(l.src[l.pos+1:], '\'')
			if i < 0 {
				return "", false, fmt.Errorf("offset %d: unclosed string", l.pos)
			}
			s := l.src[l.pos+1 : l.pos+1+i]
			l.pos += i + 2
			return s, true, nil
		default:
			start := l.pos
			for l.pos < len(l.src) && !strings.ContainsRune(" \t\r\n;{}\"'", rune(l.src[l.pos])) {
				l.pos++
			}
			return l.src[start:l.pos], true, nil
		}
	}
	return "", false, nil
}

// fixYANGEscapes makes Juniper's modules parse under RFC 7950 section
// 6.1.3, which allows only \n \t \" \\ in a double-quoted string: Juniper
// writes regular expressions such as "\*" and "\." (pyang 1.5, which they
// test with, accepts them). Each other backslash is doubled, which keeps
// the string's value.
func fixYANGEscapes(src string) string {
	const (
		code = iota
		dq
		sq
		line
		block
	)
	var b strings.Builder
	st := code
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch st {
		case code:
			switch {
			case c == '"':
				st = dq
			case c == '\'':
				st = sq
			case strings.HasPrefix(src[i:], "//"):
				st = line
			case strings.HasPrefix(src[i:], "/*"):
				st = block
			}
		case dq:
			if c == '\\' && i+1 < len(src) {
				if strings.IndexByte("nt\"\\", src[i+1]) < 0 {
					b.WriteString(`\\`)
					continue
				}
				b.WriteString(src[i : i+2])
				i++
				continue
			}
			if c == '"' {
				st = code
			}
		case sq:
			if c == '\'' {
				st = code
			}
		case line:
			if c == '\n' {
				st = code
			}
		case block:
			if strings.HasPrefix(src[i:], "*/") {
				b.WriteString("*/")
				i++
				st = code
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// junosSchema is a family's compiled schema: the configuration container
// and the files yanglint validates against.
type junosSchema struct {
	root    *yangNode
	rootNS  string
	dir     string
	modules []string
}

// loadJunosSchema copies a family's modules (escapes fixed) into a
// temporary directory and compiles them with yanglint -f info, whose
// output (groupings expanded, augments applied, extension instances kept)
// gives the data tree.
func loadJunosSchema(t *testing.T, tool, family string) *junosSchema {
	t.Helper()
	src := filepath.Join("testdata", "yang", junosYANGRelease)
	dir, err := os.MkdirTemp("", "junos-yang-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	var files []string
	for _, sub := range []string{"common", family} {
		fs, err := filepath.Glob(filepath.Join(src, sub, "*.yang"))
		if err != nil || len(fs) == 0 {
			t.Fatalf("no YANG modules in %s (%v)", filepath.Join(src, sub), err)
		}
		files = append(files, fs...)
	}
	s := &junosSchema{dir: dir}
	moduleNS := map[string]string{} // top container under configuration → namespace
	nsRe := regexp.MustCompile(`(?m)^\s*namespace\s+"([^"]+)"`)
	augRe := regexp.MustCompile(`augment /jc:configuration \{\s*uses ([A-Za-z0-9_-]+);`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := fixYANGEscapes(string(b))
		out := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(f)
		for i, m := range junosYANGModules {
			if !strings.HasPrefix(base, family+"-conf-"+m+"@") {
				continue
			}
			ns := nsRe.FindStringSubmatch(text)
			if ns == nil {
				t.Fatalf("%s: no namespace", base)
			}
			if i == 0 {
				s.rootNS = ns[1]
				s.modules = append([]string{out}, s.modules...)
				continue
			}
			s.modules = append(s.modules, out)
			// The module's top container: augment /jc:configuration
			// { uses G; } and grouping G { container NAME ... }.
			a := augRe.FindStringSubmatch(text)
			if a == nil {
				t.Fatalf("%s: no augment of /jc:configuration", base)
			}
			g := regexp.MustCompile(`grouping ` + regexp.QuoteMeta(a[1]) + ` \{\s*container ([A-Za-z0-9_-]+) \{`).FindStringSubmatch(text)
			if g == nil {
				t.Fatalf("%s: grouping %s has no container", base, a[1])
			}
			moduleNS[g[1]] = ns[1]
		}
	}
	if len(s.modules) != len(junosYANGModules) {
		t.Fatalf("%s: found %d of the modules %v", family, len(s.modules), junosYANGModules)
	}
	args := append([]string{"-f", "info", "-p", dir}, s.modules...)
	out, err := exec.Command(tool, args...).Output()
	if err != nil {
		t.Fatalf("yanglint -f info %s: %v", family, err)
	}
	stmts, err := parseYANGStmts(string(out))
	if err != nil {
		t.Fatalf("yanglint -f info %s: %v", family, err)
	}
	for _, m := range stmts {
		if m.kw != "module" || m.arg != family+"-conf-root" {
			continue
		}
		for _, c := range m.sub {
			if c.kw == "container" && c.arg == "configuration" {
				s.root = buildYANGNode(c, s.rootNS)
			}
		}
	}
	if s.root == nil {
		t.Fatalf("%s: no configuration container in yanglint -f info", family)
	}
	// The augmented subtrees belong to their modules, under configuration
	// and under each group.
	setNS := func(parent *yangNode) {
		for name, ns := range moduleNS {
			if c := parent.byName[name]; c != nil {
				reNS(c, s.rootNS, ns)
			}
		}
	}
	setNS(s.root)
	if g := s.root.byName["groups"]; g != nil {
		setNS(g)
	}
	return s
}

// reNS moves a subtree from one namespace to another.
func reNS(n *yangNode, from, to string) {
	if n.ns != from {
		return
	}
	n.ns = to
	for _, c := range n.children {
		reNS(c, from, to)
	}
}

// buildYANGNode turns a compiled (yanglint -f info) data node statement
// into a yangNode, dissolving choices and cases.
func buildYANGNode(st *yangStmt, ns string) *yangNode {
	n := &yangNode{name: st.arg, kind: st.kw, ns: ns}
	var walk func(parent *yangNode, subs []*yangStmt)
	walk = func(parent *yangNode, subs []*yangStmt) {
		for _, s := range subs {
			switch s.kw {
			case "container", "list", "leaf", "leaf-list":
				parent.add(buildYANGNode(s, ns))
			case "choice", "case":
				walk(parent, s.sub)
			case "key":
				// yanglint -f info (2.1) prints the keys of a compiled
				// list run together ("loss-priorityprotocol"); the
				// compiled list has its keys first, in order.
				parent.keys = []string{s.arg}
			case "type":
				parent.empty = s.arg == "empty"
			default:
				if strings.HasSuffix(s.kw, ":cli-feature") && s.arg == "nokeyword" {
					parent.nokeyword = true
				}
			}
		}
	}
	walk(n, st.sub)
	if n.kind == "list" && len(n.keys) == 1 {
		joined := n.keys[0]
		n.keys = nil
		for _, c := range n.children {
			if len(joined) == 0 || !strings.HasPrefix(joined, c.name) {
				break
			}
			n.keys = append(n.keys, c.name)
			joined = joined[len(c.name):]
		}
		if joined != "" {
			n.keys = nil // unresolved: walkSetLine reports it
		}
	}
	return n
}

// dataNode is one node of the instance data the set lines build.
type dataNode struct {
	schema   *yangNode
	keyVals  []string
	value    string
	children []*dataNode
}

func (d *dataNode) child(s *yangNode, keyVals []string) *dataNode {
	for _, c := range d.children {
		if c.schema == s && (s.kind == "container" || slicesEqual(c.keyVals, keyVals)) {
			return c
		}
	}
	c := &dataNode{schema: s, keyVals: keyVals}
	d.children = append(d.children, c)
	return c
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// splitSetLine splits a set line into words: double-quoted strings (with
// \" and \\ escapes) are one word without their quotes.
func splitSetLine(line string) ([]string, error) {
	var words []string
	for i := 0; i < len(line); {
		switch line[i] {
		case ' ', '\t':
			i++
		case '"':
			var b strings.Builder
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) {
					j++
				}
				b.WriteByte(line[j])
			}
			if j >= len(line) {
				return nil, errors.New("unclosed quote")
			}
			words = append(words, b.String())
			i = j + 1
		default:
			j := i
			for j < len(line) && line[j] != ' ' && line[j] != '\t' {
				j++
			}
			words = append(words, line[i:j])
			i = j
		}
	}
	return words, nil
}

// setToXML walks each "set" line of a Junos render through the schema and
// returns the configuration as XML instance data: a statement name walks
// into its container, list or leaf; a list takes its key values (a
// nokeyword key alone, another after its name); a leaf takes one value (a
// leaf of type empty none) and a leaf-list one or a [ … ] of them; a word
// that names no child is the value of the node's nokeyword leaf. Comment
// and blank lines are skipped; any other line is an error.
func setToXML(s *junosSchema, render string) ([]byte, error) {
	top := &dataNode{schema: s.root}
	var errs []string
	for i, line := range strings.Split(render, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := walkSetLine(top, line); err != nil {
			errs = append(errs, fmt.Sprintf("line %d %q: %v", i+1, line, err))
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	var b bytes.Buffer
	writeXML(&b, top, "")
	return b.Bytes(), nil
}

func walkSetLine(top *dataNode, line string) error {
	words, err := splitSetLine(line)
	if err != nil {
		return err
	}
	if len(words) < 2 || words[0] != "set" {
		return fmt.Errorf("not a set command")
	}
	words = words[1:]
	cur := top
	path := "configuration"
	take := func(what string) (string, error) {
		if len(words) == 0 {
			return "", fmt.Errorf("%s needs a value", what)
		}
		w := words[0]
		words = words[1:]
		return w, nil
	}
	for len(words) > 0 {
		w := words[0]
		sn := cur.schema.byName[w]
		if sn == nil || cur.schema.isKey(w) {
			sn = cur.schema.nokeywordChild()
			if sn == nil {
				sn = cur.schema.impliedList()
			}
			if sn == nil {
				return fmt.Errorf("%s has no statement %q", path, w)
			}
		} else {
			words = words[1:]
		}
		switch sn.kind {
		case "container":
			cur = cur.child(sn, nil)
			path += " " + sn.name
		case "list":
			if len(sn.keys) == 0 {
				return fmt.Errorf("%s %s: the list's keys are unknown", path, sn.name)
			}
			var keys []string
			for _, k := range sn.keys {
				ks := sn.byName[k]
				if ks == nil {
					return fmt.Errorf("%s %s: no key leaf %s", path, sn.name, k)
				}
				if !ks.nokeyword {
					kw, err := take(sn.name + " key name " + k)
					if err != nil {
						return err
					}
					if kw != k {
						return fmt.Errorf("%s %s: want key %s, have %q", path, sn.name, k, kw)
					}
				}
				v, err := take(sn.name + " " + k)
				if err != nil {
					return err
				}
				keys = append(keys, v)
			}
			cur = cur.child(sn, keys)
			path += " " + sn.name
		case "leaf":
			v := ""
			if !sn.empty {
				if v, err = take(path + " " + sn.name); err != nil {
					return err
				}
			}
			leaf := cur.child(sn, nil)
			leaf.value = v
		case "leaf-list":
			vals := []string{}
			v, err := take(path + " " + sn.name)
			if err != nil {
				return err
			}
			if v == "[" {
				for len(words) > 0 && words[0] != "]" {
					vals = append(vals, words[0])
					words = words[1:]
				}
				if len(words) == 0 {
					return fmt.Errorf("%s %s: [ without ]", path, sn.name)
				}
				words = words[1:]
			} else {
				vals = append(vals, v)
			}
			for _, v := range vals {
				cur.child(sn, []string{v})
			}
		}
	}
	return nil
}

// writeXML writes a data node: a namespace where it changes, list keys
// first.
func writeXML(b *bytes.Buffer, d *dataNode, parentNS string) {
	s := d.schema
	open := "<" + s.name
	if s.ns != parentNS {
		open += ` xmlns="` + s.ns + `"`
	}
	text := func(v string) {
		_ = xml.EscapeText(b, []byte(v))
	}
	switch s.kind {
	case "leaf":
		if s.empty {
			b.WriteString(open + "/>\n")
			return
		}
		b.WriteString(open + ">")
		text(d.value)
		b.WriteString("</" + s.name + ">\n")
		return
	case "leaf-list":
		b.WriteString(open + ">")
		text(d.keyVals[0])
		b.WriteString("</" + s.name + ">\n")
		return
	}
	b.WriteString(open + ">\n")
	for i, k := range s.keys {
		b.WriteString("<" + k + ">")
		text(d.keyVals[i])
		b.WriteString("</" + k + ">\n")
	}
	for _, c := range d.children {
		writeXML(b, c, s.ns)
	}
	b.WriteString("</" + s.name + ">\n")
}

// junosYANGLint validates XML instance data with yanglint against the
// schema's modules and returns the tool's output and whether it accepted
// the data.
func junosYANGLint(t *testing.T, tool string, s *junosSchema, data []byte) (string, bool) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "config.xml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-t", "config", "-p", s.dir}, s.modules...)
	args = append(args, file)
	out, err := exec.Command(tool, args...).CombinedOutput()
	text := string(out)
	return text, err == nil && !strings.Contains(text, "err :")
}

// validateJunos converts a render to instance data and validates it: the
// walker's errors (a statement the schema does not have) and yanglint's.
func validateJunos(t *testing.T, tool string, s *junosSchema, render string) (string, bool) {
	t.Helper()
	data, err := setToXML(s, render)
	if err != nil {
		return err.Error(), false
	}
	return junosYANGLint(t, tool, s, data)
}

// junosFamilyModels is a model of each family, to render the fixture's
// devices as each family's.
var junosFamilyModels = []struct {
	family schema.HardwareFamily
	model  string
}{
	{juniperjunos.FamilyQFX5000, "qfx5120-48y"},
	{juniperjunos.FamilyQFX10000, "qfx10002-36q"},
	{juniperjunos.FamilyEX, "ex4400-48mp"},
	{juniperjunos.FamilyMX, "mx304"},
}

// junosRender is one render to validate: its name, family and text.
type junosRender struct {
	name   string
	family schema.HardwareFamily
	text   string
}

// junosRenders returns the golden render of every device of this
// folder's fixture (testdata/golden, pinned to the render of
// testdata/fabric by TestPlatformFixtureGoldens in templates), and the
// fixture's render of each device as a model of each family.
func junosRenders(t *testing.T) []junosRender {
	t.Helper()
	fx := platformtest.Of(filepath.Join("..", ".."), plat())
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	out := junosGoldens(t)
	// A fixture device may be one a family refuses (a shaper on a
	// QFX10000 queue that is not strict-high): that pair is skipped, but
	// every family must get at least one render.
	perFamily := map[schema.HardwareFamily]int{}
	for _, d := range fx.Devices(f) {
		model, fam := d.Model, d.Family
		for _, m := range junosFamilyModels {
			d.Model, d.Family = schema.Value[string]{V: m.model, Set: true}, m.family
			name := fmt.Sprintf("%s as %s (%s)", d.Name, m.model, m.family)
			text, err := rendertest.Render(t, plat(), f, d)
			if err != nil && juniperjunos.IsQFX(m.family) {
				// QFX filters cannot re-mark DSCP (the render refuses
				// it): render the fixture without its re-marking.
				t.Logf("%s: %v; rendering it without ACL DSCP re-marking", name, err)
				g, gerr := fx.Load()
				if gerr != nil {
					t.Fatal(gerr)
				}
				for _, a := range g.ACLs {
					for _, r := range a.Rules {
						r.SetDSCP = schema.Value[int]{}
					}
				}
				gd := deviceNamed(fx.Devices(g), d.Name)
				gd.Model, gd.Family = d.Model, d.Family
				text, err = rendertest.Render(t, plat(), g, gd)
				name += " without re-marking"
			}
			if err != nil && m.family == juniperjunos.FamilyEX {
				// EX models have no no-loss class, DSCP PFC, watchdog or
				// scheduler ECN (the render refuses them): render the
				// fixture's device lossy, with WRED drop curves.
				t.Logf("%s: %v; rendering it lossy", name, err)
				g, gerr := fx.Load()
				if gerr != nil {
					t.Fatal(gerr)
				}
				gd := deviceNamed(fx.Devices(g), d.Name)
				gd.Model, gd.Family = d.Model, d.Family
				lossyEX(gd)
				text, err = rendertest.Render(t, plat(), g, gd)
				name += " lossy"
			}
			if err != nil && strings.Contains(err.Error(), "cannot express") {
				t.Logf("%s: the family refuses the device, skipped: %v", name, err)
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			perFamily[m.family]++
			out = append(out, junosRender{name, m.family, text})
		}
		d.Model, d.Family = model, fam
	}
	for _, m := range junosFamilyModels {
		if perFamily[m.family] == 0 {
			t.Errorf("no fixture device renders as %s (%s): the family's YANG is not exercised", m.model, m.family)
		}
	}
	if len(out) == 0 {
		t.Fatal("the fixture has no device of the platform")
	}
	return out
}

func deviceNamed(ds []*schema.Device, name string) *schema.Device {
	for _, d := range ds {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// junosYANGFinding is a render line Juniper's YANG of a module set does
// not accept and that fabricgen still renders: a known divergence the
// test reports (t.Log) and leaves out of the validation, until the render
// is fixed. A finding no render has any more fails the test: delete it.
type junosYANGFinding struct {
	modules string         // the family's module set
	line    *regexp.Regexp // the render lines it covers
	why     string
}

var junosYANGFindings = []junosYANGFinding{}

// lossyEX makes a device's ports lossy, without watchdog, and its ECN
// curves WRED drop curves: what an EX model can carry.
func lossyEX(d *schema.Device) {
	d.Lossless = 0
	drop := map[*schema.ECNProfile]*schema.ECNProfile{} // one copy per profile, shared as the original was
	for i := range d.Ports {
		q := d.Ports[i].QoS
		if q == nil {
			continue
		}
		q.Lossless = 0
		q.Watchdog = schema.Value[*schema.Watchdog]{}
		for j := range q.Queues {
			if e := q.Queues[j].ECN.V; e != nil {
				if drop[e] == nil {
					c := *e
					c.Mark = schema.Value[bool]{V: false, Set: true}
					drop[e] = &c
				}
				q.Queues[j].ECN.V = drop[e]
			}
		}
	}
}

// withoutFindings returns the render without the lines of the module
// set's known findings, and marks the findings it used.
func withoutFindings(t *testing.T, modules, render string, used map[int]bool) string {
	t.Helper()
	var keep []string
	for _, line := range strings.Split(render, "\n") {
		hit := false
		for i, f := range junosYANGFindings {
			if f.modules == modules && f.line.MatchString(strings.TrimSpace(line)) {
				if !used[i] {
					t.Logf("known finding (%s): %q: %s", modules, line, f.why)
				}
				used[i], hit = true, true
			}
		}
		if !hit {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// junosGoldens returns the golden render of every device of this
// folder's fixture (testdata/golden, pinned to the render of
// testdata/fabric by TestPlatformFixtureGoldens in templates).
func junosGoldens(t *testing.T) []junosRender {
	t.Helper()
	fx := platformtest.Of(filepath.Join("..", ".."), plat())
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	var out []junosRender
	for _, d := range fx.Devices(f) {
		if rel := d.OSVersion.V.String(); !strings.HasPrefix(rel, junosYANGRelease[:4]) {
			t.Errorf("%s: release %s, but testdata/yang holds the models of %s: vendor the release's (Juniper/yang <YY.Q>/<release>/native/conf-and-rpcs/<family>/conf-with-extensions)", d.Name, rel, junosYANGRelease)
		}
		text, err := os.ReadFile(fx.Golden(d.Name))
		if err != nil {
			t.Errorf("%s: %v", d.Name, err)
			continue
		}
		out = append(out, junosRender{"golden " + d.Name, d.Family, string(text)})
	}
	if len(out) == 0 {
		t.Fatal("the fixture has no device of the platform")
	}
	return out
}

// TestJunosYANG validates every golden render of this folder and the
// fixture's render for each hardware family against Juniper's YANG of the
// family (testdata/yang).
func TestJunosYANG(t *testing.T) {
	tool := testtool.Need(t, "yanglint", "libyang2-tools")
	schemas := map[string]*junosSchema{}
	used := map[int]bool{}
	for _, r := range junosRenders(t) {
		fam, ok := junosYANGFamily[r.family]
		if !ok {
			t.Errorf("%s: no YANG module set for family %q", r.name, r.family)
			continue
		}
		if schemas[fam] == nil {
			schemas[fam] = loadJunosSchema(t, tool, fam)
		}
		s := schemas[fam]
		t.Run(r.name, func(t *testing.T) {
			text := withoutFindings(t, fam, r.text, used)
			if out, ok := validateJunos(t, tool, s, text); !ok {
				t.Errorf("the %s YANG rejects the render:\n%s\nrender:\n%s", fam, out, r.text)
			}
		})
	}
	for i, f := range junosYANGFindings {
		if !used[i] {
			t.Errorf("finding %s %q matches no render line any more: delete it from junosYANGFindings", f.modules, f.line)
		}
	}
}

// TestJunosYANGRejectsBrokenRender proves the validation can fail: each
// edit of the fixture's golden render must be rejected.
func TestJunosYANGRejectsBrokenRender(t *testing.T) {
	tool := testtool.Need(t, "yanglint", "libyang2-tools")
	good := junosGoldens(t)[0]
	mods := junosYANGFamily[good.family]
	s := loadJunosSchema(t, tool, mods)
	good.text = withoutFindings(t, mods, good.text, map[int]bool{})
	if out, ok := validateJunos(t, tool, s, good.text); !ok {
		t.Fatalf("the unbroken render is rejected:\n%s", out)
	}
	tests := []struct {
		name     string
		old, new string // a regular expression on the render and its replacement
		want     string // in the rejection
	}{
		{"misspelled statement", ` queue-num `, ` queue-numb `, `no statement "queue-numb"`},
		{"queue number not a number", `queue-num 3`, `queue-num three`, `Invalid union value "three"`},
		{"statement at the wrong level", `set class-of-service schedulers (\S+) transmit-rate`, `set class-of-service scheduler-maps $1 transmit-rate`, `scheduler-maps has no statement "transmit-rate"`},
		{"unknown loss priority", `loss-priority low`, `loss-priority lowest`, `Invalid enumeration value "lowest"`},
		{"transmit rate above 100 percent", `transmit-rate percent \d+`, `transmit-rate percent 150`, `Invalid union value "150"`},
		{"MTU not a number", `mtu \d+`, `mtu jumbo`, `Invalid union value "jumbo"`},
		{"PFC priority out of range", `pfc-priority \d+`, `pfc-priority 9`, `Invalid union value "9"`},
		{"fill level above 100", `fill-level 90`, `fill-level 150`, `Invalid union value "150"`},
		{"watchdog detection out of range", `pfc-watchdog detection \d+`, `pfc-watchdog detection 11`, `Invalid union value "11"`},
		{"watchdog poll interval below its minimum", `pfc-watchdog poll-interval \d+`, `pfc-watchdog poll-interval 50`, `Invalid union value "50"`},
		{"flow-control queue out of range", `flow-control-queue \d+`, `flow-control-queue 8`, `Invalid union value "8"`},
		{"list without its key (the next word is taken as the key)", `congestion-notification-profile \S+ pfc-watchdog`, `congestion-notification-profile pfc-watchdog`, `has no statement "poll-interval"`},
		{"value of a leaf of type empty", `explicit-congestion-notification`, `explicit-congestion-notification on`, `has no statement "on"`},
		{"filter action misspelled", `then discard`, `then dicard`, `has no statement "dicard"`},
		{"unquoted description", `description "v6 uplink"`, `description v6 uplink`, `has no statement "uplink"`},
		{"unknown loss priority in a filter action", `then loss-priority low`, `then loss-priority lowest`, `Invalid enumeration value "lowest"`},
		{"a term that both accepts and discards", `(set firewall family inet filter (\S+) term (\S+) then discard)`, "$1\nset firewall family inet filter $2 term $3 then accept", `Data for both cases`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			re := regexp.MustCompile(tc.old)
			broken := re.ReplaceAllString(good.text, tc.new)
			if broken == good.text {
				t.Fatalf("%q matches nothing in the render: update the case", tc.old)
			}
			out, ok := validateJunos(t, tool, s, broken)
			switch {
			case ok:
				t.Errorf("the YANG accepted a broken render (%s → %s)", tc.old, tc.new)
			case !strings.Contains(out, tc.want):
				t.Errorf("rejected, but not for %q:\n%s", tc.want, firstLines(out, 5))
			}
		})
	}
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// TestSetToXML pins the walker on the CLI shapes the renders use.
func TestSetToXML(t *testing.T) {
	tool := testtool.Need(t, "yanglint", "libyang2-tools")
	s := loadJunosSchema(t, tool, "junos-qfx")
	tests := []struct {
		line string
		want []string // substrings of the XML, in order
		err  string
		lint bool // yanglint must accept the XML too
	}{
		{"set groups G class-of-service forwarding-classes class roce queue-num 3\nset apply-groups G",
			[]string{"<groups>", "<name>G</name>", `<class-of-service xmlns="http://yang.juniper.net/junos-qfx/conf/class-of-service">`, "<queue-num>3</queue-num>", "<apply-groups>G</apply-groups>"}, "", true},
		{`set interfaces et-0/0/0 unit 0 family inet filter input roce-mark`,
			[]string{"<interface>", "<name>et-0/0/0</name>", "<unit>", "<name>0</name>", "<inet>", "<filter>", "<input>", "<filter-name>roce-mark</filter-name>"}, "", true},
		{`set class-of-service schedulers S drop-profile-map loss-priority low protocol any drop-profile D`,
			[]string{"<drop-profile-map>", "<loss-priority>low</loss-priority>", "<protocol>any</protocol>", "<drop-profile>D</drop-profile>"}, "", true},
		{`set class-of-service forwarding-classes class roce queue-num 3 no-loss`,
			[]string{"<class>", "<name>roce</name>", "<queue-num>3</queue-num>", "<no-loss/>"}, "", true},
		{`set interfaces et-0/0/0 description "a \"b\" & c"`,
			[]string{"<description>a &#34;b&#34; &amp; c</description>"}, "", true},
		{`set class-of-service drop-profiles D interpolate fill-level [ 10 20 ]`,
			[]string{"<fill-level>10</fill-level>", "<fill-level>20</fill-level>"}, "", true},
		{`set class-of-service no-such-thing`, nil, `configuration class-of-service has no statement "no-such-thing"`, false},
		{`set class-of-service schedulers S drop-profile-map low any`, nil, `want key loss-priority`, false},
		{`set interfaces et-0/0/0 mtu`, nil, `needs a value`, false},
		{`delete interfaces et-0/0/0`, nil, `not a set command`, false},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			got, err := setToXML(s, tc.line)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.lint {
				if out, ok := junosYANGLint(t, tool, s, got); !ok {
					t.Errorf("yanglint rejects\n%s\n%s", got, out)
				}
			}
			rest := string(got)
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("no %q (in order) in\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

// TestFixYANGEscapes: only the backslashes RFC 7950 rejects are doubled,
// and only in double-quoted strings.
func TestFixYANGEscapes(t *testing.T) {
	tests := []struct{ in, want string }{
		{`pattern "\*";`, `pattern "\\*";`},
		{`pattern "^[0-9]+(\\\.[0-9]+)?$";`, `pattern "^[0-9]+(\\\\.[0-9]+)?$";`},
		{`description "a \"q\" \n";`, `description "a \"q\" \n";`},
		{`pattern '\d+';`, `pattern '\d+';`},
		{"// c \"\\d\n", "// c \"\\d\n"},
		{`/* "\d */ x "\d";`, `/* "\d */ x "\\d";`},
	}
	for _, tc := range tests {
		if got := fixYANGEscapes(tc.in); got != tc.want {
			t.Errorf("fixYANGEscapes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
