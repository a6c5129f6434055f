package aristaeos

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/push/config"
)

// importConfig reads an EOS running configuration into a Device: the
// `show running-config` text, or `show running-config | json` (the eAPI
// form: {"cmds": {"interface Ethernet1": {"cmds": {...}, "comments": []},
// "hostname leaf1": null}}, as aristanetworks/anta's VerifyRunningConfig
// consumes it), told apart by the first non-blank byte ("{"). Both forms
// become the same config.Node tree (the text through config.Parse with the
// folder's textForm, the JSON through jsonNodes, keeping each key's line),
// which importTree reads.
func importConfig(ctx context.Context, name string, data []byte) (*importer.Device, error) {
	if len(data) > importer.MaxFileBytes {
		return nil, importer.Errorf(name, 0, "the file is %d bytes, over the %d-byte limit of one configuration", len(data), importer.MaxFileBytes)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, importer.Errorf(name, lineAt(data, i), "binary data (a NUL byte): not an EOS running-config; give `show running-config` text or its `| json` form")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// A byte-order mark (a file saved by a Windows editor) is no content;
	// dropping it moves no line.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		nodes, header, err := jsonNodes(ctx, name, data)
		if err != nil {
			return nil, err
		}
		return importTree(ctx, name, slices.Values(nodes), header)
	}
	if err := checkLines(name, data); err != nil {
		return nil, err
	}
	text := string(data)
	return importTree(ctx, name, textNodes(text), textHeader(text))
}

// textNodes parses text one top-level stanza at a time (config.Parse with
// the folder's textForm, line numbers those of the whole text), so a 50 MB
// configuration never has all its nodes in memory at once. A banner's
// lines up to its "EOF" belong to its stanza.
func textNodes(text string) iter.Seq[*config.Node] {
	return func(yield func(*config.Node) bool) {
		form := textForm()
		start, startLine := 0, 1
		flush := func(end int) bool {
			if end <= start {
				return true
			}
			for _, n := range config.Parse(text[start:end], form).Nodes {
				shiftLines(n, startLine-1)
				if !yield(n) {
					return false
				}
			}
			return true
		}
		inBanner := false
		for pos, num := 0, 1; pos < len(text); num++ {
			end := len(text)
			if i := strings.IndexByte(text[pos:], '\n'); i >= 0 {
				end = pos + i + 1
			}
			line := text[pos:end]
			t := strings.TrimSpace(line)
			top := t != "" && line[0] != ' ' && line[0] != '\t' && !strings.HasPrefix(t, "!")
			switch {
			case inBanner:
				inBanner = t != "EOF"
			case top:
				if pos > start {
					if !flush(pos) {
						return
					}
					start, startLine = pos, num
				}
				f := strings.Fields(t)
				inBanner = len(f) == 2 && f[0] == "banner"
			}
			pos = end
		}
		flush(len(text))
	}
}

// shiftLines adds off to the line numbers of n and the nodes under it.
func shiftLines(n *config.Node, off int) {
	stack := []*config.Node{n}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		k.Num += off
		stack = append(stack, k.Children...)
	}
}

// headerLine is one "!" comment of the configuration's head, with its line.
type headerLine struct {
	text string
	num  int
}

// lineAt is the 1-based line of byte offset off in data.
func lineAt(data []byte, off int) int {
	off = min(max(off, 0), len(data))
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// checkLines refuses a text with a line over importer.MaxLineBytes.
func checkLines(name string, data []byte) error {
	num := 1
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			i = len(data)
		}
		if i > importer.MaxLineBytes {
			return importer.Errorf(name, num, "the line is %d bytes, over the %d-byte limit of one configuration line", i, importer.MaxLineBytes)
		}
		if i == len(data) {
			break
		}
		data = data[i+1:]
		num++
	}
	return nil
}

// textHeader returns the "!" comment lines before the first command: the
// device's own header ("! device: leaf1 (DCS-7280SR3-48YC8, EOS-4.30.1F)")
// or fabricgen's ("! release 4.21.3F (os_version)").
func textHeader(text string) []headerLine {
	var out []headerLine
	num := 0
	for len(text) > 0 {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		num++
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "!"):
			out = append(out, headerLine{t, num})
			continue
		}
		break
	}
	return out
}

// jsonNodes reads `show running-config | json` into the tree the text form
// parses to. Each "cmds" key is one line (a banner's key holds its lines);
// its value is null (a leaf) or an object whose "cmds" are its children
// ("comments" and other keys are skipped). A top-level "header" array of
// strings is the comment header. The input is read as a token stream, so
// its nesting is bounded (importer.MaxDepth) before it costs anything.
func jsonNodes(ctx context.Context, name string, data []byte) ([]*config.Node, []headerLine, error) {
	p := &jsonReader{ctx: ctx, name: name, data: data, dec: json.NewDecoder(bytes.NewReader(data)), lineNum: 1, canonical: textForm().Canonical}
	p.dec.UseNumber()
	root := &config.Node{}
	var header []headerLine
	if err := p.delim('{'); err != nil {
		return nil, nil, err
	}
	for p.dec.More() {
		key, err := p.key()
		if err != nil {
			return nil, nil, err
		}
		switch key {
		case "cmds":
			if err := p.cmds(root, 1); err != nil {
				return nil, nil, err
			}
		case "header":
			if header, err = p.header(); err != nil {
				return nil, nil, err
			}
		default:
			if err := p.skip(1); err != nil {
				return nil, nil, err
			}
		}
	}
	if err := p.delim('}'); err != nil {
		return nil, nil, err
	}
	if _, err := p.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, nil, p.fail("text after the JSON document's end; give one `show running-config | json` output per file")
	}
	return root.Children, header, nil
}

// jsonReader walks an EOS JSON running-config token by token.
type jsonReader struct {
	ctx   context.Context
	name  string
	data  []byte
	dec   *json.Decoder
	steps int
	// canonical is the text form's canonical line (ACL ports by number).
	canonical func(string) string
	// lineOff and lineNum are the last offset line counted to and its
	// line (1-based).
	lineOff, lineNum int
}

// line is the line the decoder has reached, counted from where the last
// call left off (offsets only grow), so a large file is scanned once.
func (p *jsonReader) line() int {
	off := min(max(int(p.dec.InputOffset()), 0), len(p.data))
	if off < p.lineOff {
		return lineAt(p.data, off)
	}
	p.lineNum += bytes.Count(p.data[p.lineOff:off], []byte{'\n'})
	p.lineOff = off
	return p.lineNum
}

func (p *jsonReader) fail(format string, args ...any) error {
	return importer.Errorf(p.name, p.line(), format, args...)
}

// token reads the next token, turning a syntax error into an *importer.Error
// at its line.
func (p *jsonReader) token() (json.Token, error) {
	p.steps++
	if p.steps%4096 == 0 {
		if err := p.ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", p.name, err)
		}
	}
	t, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, importer.Errorf(p.name, lineAt(p.data, int(se.Offset)), "not valid JSON (%v); give `show running-config | json` output whole", se)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, importer.Errorf(p.name, lineAt(p.data, len(p.data)), "the JSON document ends early (an unclosed brace or bracket); give `show running-config | json` output whole")
		}
		return nil, importer.Errorf(p.name, p.line(), "not valid JSON: %v", err)
	}
	return t, nil
}

func (p *jsonReader) delim(want json.Delim) error {
	t, err := p.token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return p.fail("expected %q in the EOS JSON running-config, found %s", string(want), tokenName(t))
	}
	return nil
}

func (p *jsonReader) key() (string, error) {
	t, err := p.token()
	if err != nil {
		return "", err
	}
	s, ok := t.(string)
	if !ok {
		return "", p.fail("expected an object key, found %s", tokenName(t))
	}
	return s, nil
}

// cmds reads a "cmds" object into parent's children; depth is the
// object's nesting.
func (p *jsonReader) cmds(parent *config.Node, depth int) error {
	if depth > importer.MaxDepth {
		return p.fail("the JSON nests deeper than %d levels; an EOS running-config nests a few", importer.MaxDepth)
	}
	t, err := p.token()
	if err != nil {
		return err
	}
	if t == nil {
		return nil
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return p.fail(`"cmds" must be an object of configuration lines, found %s`, tokenName(t))
	}
	for p.dec.More() {
		key, err := p.key()
		if err != nil {
			return err
		}
		n := &config.Node{Line: strings.TrimSpace(key), Num: p.line()}
		if n.Line == "" {
			if err := p.skip(depth + 1); err != nil {
				return err
			}
			continue
		}
		if p.canonical != nil {
			n.Line = strings.TrimSpace(p.canonical(n.Line))
		}
		if strings.Contains(key, "\n") {
			n.Block = true
		}
		parent.Children = append(parent.Children, n)
		if err := p.stanza(n, depth+1); err != nil {
			return err
		}
	}
	return p.delim('}')
}

// stanza reads a command's value: null, or {"cmds": {...}, "comments": [...]}.
func (p *jsonReader) stanza(n *config.Node, depth int) error {
	if depth > importer.MaxDepth {
		return p.fail("the JSON nests deeper than %d levels; an EOS running-config nests a few", importer.MaxDepth)
	}
	t, err := p.token()
	if err != nil {
		return err
	}
	switch v := t.(type) {
	case nil:
		return nil
	case json.Delim:
		if v != '{' {
			return p.fail("the value of %q must be null or an object with \"cmds\", found %s", n.Line, tokenName(t))
		}
	default:
		return p.fail("the value of %q must be null or an object with \"cmds\", found %s", n.Line, tokenName(t))
	}
	for p.dec.More() {
		key, err := p.key()
		if err != nil {
			return err
		}
		if key == "cmds" {
			if err := p.cmds(n, depth+1); err != nil {
				return err
			}
			continue
		}
		if err := p.skip(depth + 1); err != nil {
			return err
		}
	}
	return p.delim('}')
}

// header reads the top-level "header" array of comment strings.
func (p *jsonReader) header() ([]headerLine, error) {
	t, err := p.token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok {
		return nil, nil // a scalar header: nothing to read
	} else if d != '[' {
		return nil, p.skipOpen(d, 2)
	}
	var out []headerLine
	for p.dec.More() {
		t, err := p.token()
		if err != nil {
			return nil, err
		}
		if s, ok := t.(string); ok {
			for _, l := range strings.Split(s, "\n") {
				if l = strings.TrimSpace(l); l != "" {
					out = append(out, headerLine{l, p.line()})
				}
			}
			continue
		}
		if d, ok := t.(json.Delim); ok {
			if err := p.skipOpen(d, 3); err != nil {
				return nil, err
			}
		}
	}
	return out, p.delim(']')
}

// skip reads and drops one value.
func (p *jsonReader) skip(depth int) error {
	t, err := p.token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); ok {
		return p.skipOpen(d, depth)
	}
	return nil
}

// skipOpen drops the rest of an object or array whose opening d was read.
func (p *jsonReader) skipOpen(d json.Delim, depth int) error {
	if d != '{' && d != '[' {
		return p.fail("unexpected %q", string(d))
	}
	level := 1
	for level > 0 {
		if depth+level > importer.MaxDepth {
			return p.fail("the JSON nests deeper than %d levels; an EOS running-config nests a few", importer.MaxDepth)
		}
		t, err := p.token()
		if err != nil {
			return err
		}
		if d, ok := t.(json.Delim); ok {
			switch d {
			case '{', '[':
				level++
			default:
				level--
			}
		}
	}
	return nil
}

// tokenName names a JSON token for an error.
func tokenName(t json.Token) string {
	switch v := t.(type) {
	case json.Delim:
		return fmt.Sprintf("%q", string(v))
	case string:
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		return fmt.Sprintf("the string %q", v)
	case nil:
		return "null"
	default:
		return fmt.Sprintf("%v", v)
	}
}
