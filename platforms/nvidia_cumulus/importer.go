package nvidiacumulus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/fabricgen/fabricgen/internal/importer"
)

// Import reads the two forms a Cumulus Linux switch keeps its NVUE
// configuration in into one list of commands, then reads that list
// (importer_qos.go):
//   - `nv config show -o commands`: one `nv set …` (or `nv unset …`) per
//     line, words with POSIX quoting, fabricgen's own render form;
//   - `nv config show` and /etc/nvue.d/startup.yaml: a YAML list of
//     `- header:` and `- set:` documents, whose nested keys are the same
//     command words (a key with an empty map `{}` or no value is the last
//     word; a scalar value is the last word after its key).
//
// Interface names may be ranges and lists ("swp1-4,swp6", "swp1-2,32"),
// in both forms; each command is read once per port it names.

// importMaxPorts bounds the ports one interface range may name, and
// importMaxPortCmds the port commands a whole file may expand to: a range
// like swp1-99999999 is an error, never an allocation.
const (
	importMaxPorts    = 4096
	importMaxPortCmds = 4 << 20
	// importMaxYAMLBytes bounds the YAML form: its node tree costs tens
	// of times the file's size (a switch's startup.yaml is kilobytes).
	importMaxYAMLBytes = 16 << 20
	// importMaxYAMLNodes bounds the YAML nodes walked.
	importMaxYAMLNodes = 8 << 20
)

// nvCmd is one nv set or nv unset command: its words after "nv set",
// the line it was read on, and the text to report for it.
type nvCmd struct {
	line  int
	unset bool
	words []string
	text  string
}

// nvHeader is what a file says about the device outside its commands:
// the YAML header's model and version, fabricgen's render header.
type nvHeader struct {
	model, version string
	// device is the device name of fabricgen's header ("# fabricgen:
	// fabric F, device D (nvidia_cumulus)").
	device, fabric string
	// restoration is fabricgen's note of the watchdog's restoration time
	// ("# pfc_watchdog NAME restoration N ms not applied").
	wdName        string
	restorationMS int64
	// osSet is true when fabricgen's header says the release came from
	// the intent's os_version (not fabricgen's default).
	osSet bool
}

var (
	importReleaseRe = regexp.MustCompile(`^# release (\S+) \((os_version|fabricgen's default)`)
	importDeviceRe  = regexp.MustCompile(`^# fabricgen: fabric (\S+), device (\S+) \(nvidia_cumulus\)$`)
	importWDNoteRe  = regexp.MustCompile(`^# pfc_watchdog (\S+) restoration (\d{1,9}) ms not applied`)
	importYAMLErrRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	importVersionRe = regexp.MustCompile(`(\d{1,2}\.\d{1,2}(?:\.\d{1,2})?)`)
)

// importConfig is the platform's importer.Func: it reads either form of
// a Cumulus configuration into an importer.Device.
func importConfig(ctx context.Context, name string, data []byte) (*importer.Device, error) {
	if len(data) > importer.MaxFileBytes {
		return nil, importer.Errorf(name, 0, "the file is %d bytes, more than the %d a configuration may have", len(data), importer.MaxFileBytes)
	}
	if err := importCheckText(name, data); err != nil {
		return nil, err
	}
	var (
		cmds []nvCmd
		hdr  nvHeader
		err  error
	)
	if importIsYAML(data) {
		if len(data) > importMaxYAMLBytes {
			return nil, importer.Errorf(name, 0, "NVUE YAML of %d bytes, more than the %d import reads in that form (a YAML tree costs many times its size): export the configuration with nv config show -o commands", len(data), importMaxYAMLBytes)
		}
		cmds, hdr, err = importYAML(ctx, name, data)
	} else {
		cmds, hdr, err = importCommands(ctx, name, data)
	}
	if err != nil {
		return nil, err
	}
	return importRead(ctx, name, cmds, hdr)
}

// importCheckText refuses binary data and over-long lines, at the line
// where they are.
func importCheckText(name string, data []byte) error {
	line := 1
	for len(data) > 0 {
		n := bytes.IndexByte(data, '\n')
		cur := data
		if n >= 0 {
			cur = data[:n]
		}
		if len(cur) > importer.MaxLineBytes {
			return importer.Errorf(name, line, "the line is %d bytes, more than the %d a configuration line may have", len(cur), importer.MaxLineBytes)
		}
		if bytes.IndexByte(cur, 0) >= 0 || !utf8.Valid(cur) {
			return importer.Errorf(name, line, "binary data (a NUL byte or invalid UTF-8): not NVUE commands (nv set …) nor NVUE YAML (startup.yaml)")
		}
		if n < 0 {
			break
		}
		data = data[n+1:]
		line++
	}
	return nil
}

// importIsYAML reports whether the file's first significant line starts
// the NVUE YAML form ("- header:", "- set:", "---", "set:", "header:").
func importIsYAML(data []byte) bool {
	for len(data) > 0 {
		n := bytes.IndexByte(data, '\n')
		cur := data
		if n >= 0 {
			cur, data = data[:n], data[n+1:]
		} else {
			data = nil
		}
		s := strings.TrimSpace(string(cur))
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		return s == "---" || s == "-" || strings.HasPrefix(s, "- ") || strings.HasPrefix(s, "header:") || strings.HasPrefix(s, "set:") || strings.HasPrefix(s, "unset:")
	}
	return false
}

// importCommands reads `nv config show -o commands` output.
func importCommands(ctx context.Context, name string, data []byte) ([]nvCmd, nvHeader, error) {
	var (
		cmds     []nvCmd
		hdr      nvHeader
		other    int // first line that is neither a command nor a comment
		otherTxt string
	)
	line := 0
	// One string for the file: each command's text is a slice of it.
	text := string(data)
	cmds = make([]nvCmd, 0, strings.Count(text, "\n")+1)
	for len(text) > 0 {
		line++
		if line%4096 == 0 && ctx.Err() != nil {
			return nil, hdr, importer.Errorf(name, line, "import stopped: %v", ctx.Err())
		}
		n := strings.IndexByte(text, '\n')
		cur := text
		if n >= 0 {
			cur, text = text[:n], text[n+1:]
		} else {
			text = ""
		}
		s := strings.TrimSpace(cur)
		switch {
		case s == "":
		case strings.HasPrefix(s, "#"):
			importHeaderComment(s, &hdr)
		case strings.HasPrefix(s, "nv set ") || strings.HasPrefix(s, "nv unset "):
			words, err := importWords(s)
			// A quoted value may hold newlines (nv set system message
			// pre-login '…'): the command goes on until its quote closes.
			start, full := line, s
			for extra := 0; err != nil && errors.Is(err, errUnterminated) && text != "" && extra < importMaxQuotedLines; extra++ {
				n := strings.IndexByte(text, '\n')
				next := text
				if n >= 0 {
					next, text = text[:n], text[n+1:]
				} else {
					text = ""
				}
				line++
				full += "\n" + strings.TrimSuffix(next, "\r")
				words, err = importWords(full)
			}
			if err != nil {
				return nil, hdr, importer.Errorf(name, start, "%v: %s", err, importer.Clean(importShort(s)))
			}
			s = full
			unset := words[1] == "unset"
			if len(words) < 3 {
				continue
			}
			cmds = append(cmds, nvCmd{line: start, unset: unset, words: words[2:], text: s})
		case strings.HasPrefix(s, "nv "):
			// nv config apply, nv show …: not configuration.
		default:
			if other == 0 {
				other, otherTxt = line, s
			}
		}
	}
	if len(cmds) == 0 && other > 0 {
		return nil, hdr, importer.Errorf(name, other, "not an NVUE command (nv set …) nor NVUE YAML (startup.yaml): %s", importer.Clean(importShort(otherTxt)))
	}
	return cmds, hdr, nil
}

// importShort cuts a line for an error message.
func importShort(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// importHeaderComment reads fabricgen's own render header comments.
func importHeaderComment(s string, hdr *nvHeader) {
	if m := importReleaseRe.FindStringSubmatch(s); m != nil {
		hdr.version, hdr.osSet = m[1], m[2] == "os_version"
		return
	}
	if m := importDeviceRe.FindStringSubmatch(s); m != nil {
		hdr.fabric, hdr.device = m[1], m[2]
		return
	}
	if m := importWDNoteRe.FindStringSubmatch(s); m != nil {
		ms, _ := strconv.ParseInt(m[2], 10, 64)
		hdr.wdName, hdr.restorationMS = m[1], ms
	}
}

// errUnterminated is a quote a line does not close.
var errUnterminated = errors.New("unterminated")

// importMaxQuotedLines bounds the lines one quoted value may span.
const importMaxQuotedLines = 256

// importWords splits an NVUE command line into words with POSIX quoting
// ('…', "…" with \ escapes, \ outside quotes). Nothing is expanded: a $
// or a backquote is a character of its word.
func importWords(line string) ([]string, error) {
	if !strings.ContainsAny(line, "'\"\\") {
		return strings.Fields(line), nil // no quoting: the words are the fields
	}
	var (
		out    []string
		cur    strings.Builder
		inWord bool
	)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("%w single quote", errUnterminated)
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("$`\"\\", line[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(line[i])
			}
			if i >= len(line) {
				return nil, fmt.Errorf("%w double quote", errUnterminated)
			}
			inWord = true
		case c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

// importYAML reads NVUE YAML (nv config show, startup.yaml) into the
// commands its keys spell.
func importYAML(ctx context.Context, name string, data []byte) ([]nvCmd, nvHeader, error) {
	var hdr nvHeader
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, hdr, nil
		}
		if m := importYAMLErrRe.FindStringSubmatch(err.Error()); m != nil {
			n, _ := strconv.Atoi(m[1])
			return nil, hdr, importer.Errorf(name, n, "as NVUE YAML: %s", m[2])
		}
		return nil, hdr, importer.Errorf(name, 0, "as NVUE YAML: %v", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	w := &yamlWalk{ctx: ctx, name: name, budget: importMaxYAMLNodes}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	var items []*yaml.Node
	switch root.Kind {
	case yaml.SequenceNode:
		items = root.Content
	case yaml.MappingNode:
		items = []*yaml.Node{root}
	default:
		return nil, hdr, importer.Errorf(name, root.Line, "as NVUE YAML: expected a list of header: and set: entries")
	}
	for _, it := range items {
		if it.Kind != yaml.MappingNode {
			return nil, hdr, importer.Errorf(name, it.Line, "as NVUE YAML: expected header: or set:, found a %s", importYAMLKind(it))
		}
		for i := 0; i+1 < len(it.Content); i += 2 {
			k, v := it.Content[i], it.Content[i+1]
			switch k.Value {
			case "header":
				importYAMLHeader(v, &hdr)
			case "set", "unset":
				if err := w.walk(v, nil, k.Line, 1, k.Value == "unset"); err != nil {
					return nil, hdr, err
				}
			}
		}
	}
	return w.cmds, hdr, nil
}

// importYAMLKind names a node's kind for an error.
func importYAMLKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "map"
	case yaml.AliasNode:
		return "alias"
	}
	return "value"
}

// importYAMLHeader reads the header's model and version ("Cumulus Linux 5.9.2").
func importYAMLHeader(n *yaml.Node, hdr *nvHeader) {
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			continue
		}
		switch k.Value {
		case "model":
			hdr.model = v.Value
		case "version":
			if m := importVersionRe.FindString(v.Value); m != "" {
				hdr.version, hdr.osSet = m, true
			}
		}
	}
}

// yamlWalk flattens a set: tree into commands.
type yamlWalk struct {
	ctx    context.Context
	name   string
	budget int
	cmds   []nvCmd
}

// walk emits the commands under n; path is the words so far and line the
// line of the key that led here.
func (w *yamlWalk) walk(n *yaml.Node, path []string, line, depth int, unset bool) error {
	if w.budget--; w.budget < 0 {
		return importer.Errorf(w.name, n.Line, "as NVUE YAML: more than %d nodes", importMaxYAMLNodes)
	}
	if w.budget%65536 == 0 && w.ctx.Err() != nil {
		return importer.Errorf(w.name, n.Line, "import stopped: %v", w.ctx.Err())
	}
	if depth > importer.MaxDepth {
		return importer.Errorf(w.name, n.Line, "as NVUE YAML: nested more than %d deep", importer.MaxDepth)
	}
	switch n.Kind {
	case yaml.AliasNode:
		// NVUE writes no anchors or aliases; following them could expand
		// a small file without end.
		return importer.Errorf(w.name, n.Line, "as NVUE YAML: an alias (*%s): NVUE configurations have none", importer.Clean(importShort(n.Value)))
	case yaml.MappingNode:
		if len(n.Content) == 0 {
			w.emit(path, line, unset)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return importer.Errorf(w.name, k.Line, "as NVUE YAML: a key must be a word, found a %s", importYAMLKind(k))
			}
			next := append(path[:len(path):len(path)], k.Value)
			if err := w.walk(n.Content[i+1], next, k.Line, depth+1, unset); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for _, it := range n.Content {
			if err := w.walk(it, path, it.Line, depth+1, unset); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		if n.Tag == "!!null" || n.Value == "" && n.Style == 0 {
			w.emit(path, line, unset)
		} else {
			w.emit(append(path[:len(path):len(path)], n.Value), line, unset)
		}
	}
	return nil
}

// emit adds the command path spells.
func (w *yamlWalk) emit(path []string, line int, unset bool) {
	if len(path) == 0 {
		return
	}
	verb := "nv set "
	if unset {
		verb = "nv unset "
	}
	words := append([]string(nil), path...)
	w.cmds = append(w.cmds, nvCmd{line: line, unset: unset, words: words, text: verb + importQuoteWords(words)})
}

// importQuoteWords writes words as a command line, quoting those that
// need it.
func importQuoteWords(words []string) string {
	var b strings.Builder
	for i, s := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if s != "" && strings.IndexFunc(s, importNeedsQuote) < 0 {
			b.WriteString(s)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(s, "'", `'\''`) + "'")
	}
	return b.String()
}

// importExpandPorts expands an interface name, range or list ("swp1-4",
// "eth0,swp19-22", "swp1-2,32", "swp1s0-3") into names. A bare number
// in a list takes the prefix of the item before it.
func importExpandPorts(s string) ([]string, bool) {
	if !strings.ContainsAny(s, ",-") {
		return []string{s}, true
	}
	var out []string
	prefix := ""
	for _, item := range strings.Split(s, ",") {
		if item == "" {
			return nil, false
		}
		lo, hi, isRange := strings.Cut(item, "-")
		// The item's own prefix: everything up to its last digit run.
		i := len(lo)
		for i > 0 && lo[i-1] >= '0' && lo[i-1] <= '9' {
			i--
		}
		if i > 0 {
			prefix = lo[:i]
		}
		if i == len(lo) || prefix == "" {
			// No number at the end (a name with a dash, "br-default").
			if len(out) == 0 && !strings.Contains(s, ",") {
				return []string{s}, true
			}
			return nil, false
		}
		a, err := strconv.Atoi(lo[i:])
		if err != nil || len(lo)-i > 6 {
			return nil, false
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || len(hi) > 6 || b < a {
				return nil, false
			}
		}
		if b-a >= importMaxPorts || len(out)+b-a >= importMaxPorts {
			return nil, false
		}
		for n := a; n <= b; n++ {
			out = append(out, prefix+strconv.Itoa(n))
		}
	}
	return out, true
}

// importNeedsQuote reports whether r needs quoting in a shell word.
func importNeedsQuote(r rune) bool {
	plain := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.,:/@+=", r)
	return !plain
}
