package juniperjunos

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
)

// importConfig reads a Junos configuration into an importer.Device: `show
// configuration | display set` (set lines, fabricgen's own form, with
// `deactivate` lines) or the hierarchical brace form (`system { host-name
// x; }`, with /* */ and # comments, quoted strings, [ a b ] lists and
// inactive:/protect: prefixes), which is converted to set statements with
// each one's line. It reads what the Junos templates render (forwarding
// classes, DSCP and 802.1p classifiers, congestion-notification profiles
// with the PFC watchdog, drop profiles, schedulers and scheduler maps,
// class-of-service interface bindings, interfaces, firewall filters) and
// reports every other QoS-relevant statement in Device.Unmapped.
func importConfig(ctx context.Context, file string, data []byte) (*importer.Device, error) {
	if len(data) > importer.MaxFileBytes {
		return nil, importer.Errorf(file, 0, "the file is %d bytes, more than the %d an import reads; give one device's configuration per file", len(data), importer.MaxFileBytes)
	}
	if err := importCheckBytes(file, data); err != nil {
		return nil, err
	}
	text := string(data)
	im := newImport(file)
	im.header(text)
	var err error
	if importBraceForm(text) {
		err = importEachBrace(ctx, file, text, im.statement, im.opened)
	} else {
		err = importEachSet(ctx, file, text, im.statement)
	}
	if err != nil {
		return nil, err
	}
	return im.device(), nil
}

// importCheckBytes refuses a binary file (a NUL byte) and a line longer
// than importer.MaxLineBytes, at the line where it is.
func importCheckBytes(file string, data []byte) error {
	line, start := 1, 0
	for i, c := range data {
		switch c {
		case 0:
			return importer.Errorf(file, line, "binary data (a NUL byte): a Junos configuration is text; save it with `show configuration | display set`")
		case '\n':
			if i-start > importer.MaxLineBytes {
				return importer.Errorf(file, line, "line longer than %d bytes: a Junos statement is one short line", importer.MaxLineBytes)
			}
			line++
			start = i + 1
		}
	}
	if len(data)-start > importer.MaxLineBytes {
		return importer.Errorf(file, line, "line longer than %d bytes: a Junos statement is one short line", importer.MaxLineBytes)
	}
	return nil
}

// importBraceForm reports whether text is the hierarchical form: its first
// statement line (not a comment) is no set/deactivate/delete command.
func importBraceForm(text string) bool {
	for len(text) > 0 {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "/*") {
			continue
		}
		w, _, _ := strings.Cut(t, " ")
		switch w {
		case "set", "deactivate", "delete", "activate", "protect", "unprotect", "annotate", "insert", "rename":
			return false
		}
		return true
	}
	return false
}

// importStmt is one configuration statement as a set command's words
// (without "set"): quoted strings keep their quotes, a list is one word
// "[ a b ]". Line is its line in the file; Inactive marks a statement the
// device does not apply (inactive:, deactivate).
type importStmt struct {
	W        []string
	Line     int
	Inactive bool
}

// text is the statement as a set command, for the report.
func (s importStmt) text() string { return "set " + strings.Join(s.W, " ") }

// importTokens splits one set-form line into words: a double-quoted string
// (backslash escapes) is one word with its quotes, [ a b ] one word.
func importTokens(s string) ([]string, string) {
	var out []string
	i := 0
	for i < len(s) {
		switch s[i] {
		case ' ', '\t':
			i++
		case '"':
			j, ok := importQuoteEnd(s, i)
			if !ok {
				return nil, "unterminated quoted string: close it with \""
			}
			out = append(out, s[i:j])
			i = j
		case '[':
			j := strings.IndexByte(s[i:], ']')
			if j < 0 {
				return nil, "unterminated list: close it with ]"
			}
			out = append(out, "[ "+strings.Join(strings.Fields(s[i+1:i+j]), " ")+" ]")
			i += j + 1
		default:
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\t' {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out, ""
}

// importQuoteEnd is the index after the closing quote of the string
// starting at s[i] (a backslash escapes the next byte).
func importQuoteEnd(s string, i int) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// importUnquote is a word's text: a quoted string without its quotes and
// escapes (Junos escapes with a backslash), else the word.
func importUnquote(w string) string {
	if len(w) < 2 || w[0] != '"' || w[len(w)-1] != '"' {
		return w
	}
	w = w[1 : len(w)-1]
	if !strings.Contains(w, `\`) {
		return w
	}
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		if w[i] == '\\' && i+1 < len(w) {
			i++
		}
		b.WriteByte(w[i])
	}
	return b.String()
}

// importItems is a word's values: a list's items, else the word.
func importItems(w string) []string {
	if strings.HasPrefix(w, "[ ") && strings.HasSuffix(w, " ]") {
		return strings.Fields(w[2 : len(w)-2])
	}
	return []string{w}
}

// importCancelEvery is how many lines an import reads between checks of
// its context.
const importCancelEvery = 1 << 14

// importEachSet calls fn with every set statement of a display-set text,
// in order. A deactivate command anywhere makes the statements under its
// path inactive.
func importEachSet(ctx context.Context, file, text string, fn func(importStmt)) error {
	var deact [][]string
	for n, rest := 0, text; len(rest) > 0; n++ {
		line, r, _ := strings.Cut(rest, "\n")
		rest = r
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "deactivate ") {
			w, msg := importTokens(t)
			if msg != "" {
				return importer.Errorf(file, n+1, "%s", msg)
			}
			deact = append(deact, w[1:])
		}
	}
	for n, rest := 0, text; len(rest) > 0; n++ {
		if n%importCancelEvery == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("reading %s: %w", file, err)
			}
		}
		line, r, _ := strings.Cut(rest, "\n")
		rest = r
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			continue
		}
		w, msg := importTokens(t)
		if msg != "" {
			return importer.Errorf(file, n+1, "%s", msg)
		}
		switch w[0] {
		case "set":
			if len(w) < 2 {
				continue
			}
			s := importStmt{W: w[1:], Line: n + 1}
			for _, d := range deact {
				if importHasPrefix(s.W, d) {
					s.Inactive = true
				}
			}
			fn(s)
		case "delete", "activate", "insert", "rename":
			if len(w) > 1 && importQoSTop(w[1]) {
				fn(importStmt{W: w, Line: n + 1, Inactive: true})
			}
		}
	}
	return nil
}

// importHasPrefix reports whether w starts with the words of p.
func importHasPrefix(w, p []string) bool {
	if len(p) > len(w) {
		return false
	}
	for i := range p {
		if w[i] != p[i] {
			return false
		}
	}
	return true
}

// importQoSTop reports whether a top-level hierarchy holds QoS-relevant
// statements.
func importQoSTop(w string) bool {
	return w == "class-of-service" || w == "interfaces" || w == "firewall"
}

// importFrame is one open block of the brace form: its words, the line of
// its "{", and whether it is inactive.
type importFrame struct {
	words    []string
	line     int
	inactive bool
}

// importEachBrace converts the brace form to set statements, calling fn
// with each (at the line of its first word) and opened with each block's
// path and line. Unbalanced braces, unterminated strings, lists and
// comments, and nesting deeper than importer.MaxDepth are errors at their
// line.
func importEachBrace(ctx context.Context, file, text string, fn func(importStmt), opened func([]string, int)) error {
	b := &importBrace{file: file, fn: fn, opened: opened}
	line := 1
	for i := 0; i < len(text); {
		if line%importCancelEvery == 0 && text[i] == '\n' {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("reading %s: %w", file, err)
			}
		}
		c := text[i]
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '#' || c == '/' && strings.HasPrefix(text[i:], "/*"):
			j, lines, ok := importBraceSkip(text, i)
			if !ok {
				return importer.Errorf(file, line, "unterminated comment: close it with */")
			}
			i, line = j, line+lines
		case c == '"' || c == '[':
			j, ok := importBraceEnd(text, i)
			if !ok {
				what := map[byte]string{'"': "quoted string: close it with \"", '[': "list: close it with ]"}[c]
				return importer.Errorf(file, line, "unterminated %s", what)
			}
			w := text[i:j]
			if c == '[' {
				w = "[ " + strings.Join(strings.Fields(w[1:len(w)-1]), " ") + " ]"
			}
			b.add(w, line)
			line += strings.Count(text[i:j], "\n")
			i = j
		case c == '{':
			if err := b.open(line); err != nil {
				return err
			}
			i++
		case c == ';' || c == '}':
			if err := b.end(c, line); err != nil {
				return err
			}
			i++
		default:
			j := i
			for j < len(text) && !strings.ContainsRune(" \t\r\n{};\"[", rune(text[j])) {
				j++
			}
			b.add(text[i:j], line)
			i = j
		}
	}
	if len(b.stack) > 0 {
		f := b.stack[len(b.stack)-1]
		return importer.Errorf(file, f.line, "unterminated block %q: it has no closing }", importer.Clean(importShort(strings.Join(f.words, " "))))
	}
	if len(b.words) > 0 {
		return importer.Errorf(file, b.wordLine, "statement %q has no ; or { (is this a Junos configuration?)", importer.Clean(importShort(strings.Join(b.words, " "))))
	}
	return nil
}

// importBrace is the state of the brace-form converter: the open blocks,
// the words of the statement being read, and where it started.
type importBrace struct {
	file     string
	fn       func(importStmt)
	opened   func([]string, int)
	stack    []importFrame
	words    []string
	wordLine int
	inactive bool
}

// path is the words of the open blocks.
func (b *importBrace) path() []string {
	var p []string
	for _, f := range b.stack {
		p = append(p, f.words...)
	}
	return p
}

// parentInactive reports whether the innermost open block is inactive.
func (b *importBrace) parentInactive() bool {
	return len(b.stack) > 0 && b.stack[len(b.stack)-1].inactive
}

// add takes one word of a statement (inactive: marks it, protect: and
// replace: are dropped).
func (b *importBrace) add(w string, at int) {
	switch {
	case len(b.words) == 0 && w == "inactive:":
		b.inactive, b.wordLine = true, at
		return
	case len(b.words) == 0 && (w == "protect:" || w == "replace:"):
		return
	}
	if len(b.words) == 0 && !b.inactive {
		b.wordLine = at
	}
	b.words = append(b.words, w)
}

// open opens a block named by the words read.
func (b *importBrace) open(line int) error {
	if len(b.words) == 0 {
		return importer.Errorf(b.file, line, "a block without a name: write NAME { … }")
	}
	if len(b.stack) >= importer.MaxDepth {
		return importer.Errorf(b.file, line, "blocks nested deeper than %d: a Junos configuration nests a few levels", importer.MaxDepth)
	}
	f := importFrame{words: b.words, line: b.wordLine, inactive: b.inactive || b.parentInactive()}
	b.stack = append(b.stack, f)
	b.opened(b.path(), f.line)
	b.words, b.inactive = nil, false
	return nil
}

// end ends a statement (;) or a block (}).
func (b *importBrace) end(c byte, line int) error {
	if len(b.words) > 0 {
		b.fn(importStmt{W: append(b.path(), b.words...), Line: b.wordLine, Inactive: b.inactive || b.parentInactive()})
	} else if c == ';' && b.inactive {
		return importer.Errorf(b.file, line, "inactive: without a statement")
	}
	b.words, b.inactive = nil, false
	if c == '}' {
		if len(b.stack) == 0 {
			return importer.Errorf(b.file, line, "a } without its {: remove it, or open the block it closes")
		}
		b.stack = b.stack[:len(b.stack)-1]
	}
	return nil
}

// importBraceSkip skips the white space or comment at text[i]: it
// returns the index after it and the newlines it holds (false: an
// unterminated comment).
func importBraceSkip(text string, i int) (int, int, bool) {
	switch text[i] {
	case '\n':
		return i + 1, 1, true
	case '#':
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			return len(text), 0, true
		}
		return i + j, 0, true
	case '/':
		j := strings.Index(text[i+2:], "*/")
		if j < 0 {
			return 0, 0, false
		}
		return i + j + 4, strings.Count(text[i:i+2+j], "\n"), true
	}
	return i + 1, 0, true
}

// importBraceEnd is the index after the quoted string or list starting at
// text[i] (false: unterminated).
func importBraceEnd(text string, i int) (int, bool) {
	if text[i] == '"' {
		return importQuoteEnd(text, i)
	}
	j := strings.IndexByte(text[i:], ']')
	if j < 0 {
		return 0, false
	}
	return i + j + 1, true
}

// importShort cuts s to 60 bytes for a message.
func importShort(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// header reads the header comment of a fabricgen render: the fabric's
// and the device's names ("fabric F, device NAME (juniper_junos)"), its release when the intent set it
// ("release R (os_version)") and its model ("(model M)").
func (im *importState) header(text string) {
	for n := 0; n < 12 && len(text) > 0; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "#") {
			if t == "" {
				continue
			}
			return
		}
		t = strings.TrimSpace(strings.TrimLeft(t, "#"))
		switch {
		case strings.HasPrefix(t, "fabricgen: fabric "):
			if fab, dev, ok := strings.Cut(strings.TrimPrefix(t, "fabricgen: fabric "), ", device "); ok {
				im.dev.Fabric = fab
				if i := strings.LastIndex(dev, " ("); i > 0 {
					im.headerName = dev[:i]
				}
			}
		case strings.HasPrefix(t, "release "):
			f := strings.Fields(t)
			if len(f) > 2 && f[2] == "(os_version)," || len(f) == 3 && f[2] == "(os_version)" {
				im.dev.OSVersion = f[1]
			}
			if i := strings.LastIndex(t, "(model "); i >= 0 && strings.HasSuffix(t, ")") {
				im.dev.Model = t[i+len("(model ") : len(t)-1]
			}
		}
	}
}

// importFC is one forwarding class.
type importFC struct {
	queue, prio int // -1: not set
	noLoss      bool
	line        int
	stmts       []importStmt
}

// importClassifier is a DSCP or 802.1p classifier: code point → class.
type importClassifier struct {
	cp       map[int]string
	from, to int
	used     bool
	stmts    []importStmt
}

// importCNP is a congestion-notification profile.
type importCNP struct {
	inDSCP, inPCP         []int
	out                   map[int]int // priority → flow-control queue
	outLine               map[int]int // priority → its output statement's line
	wd                    bool
	poll, detect, recover int64
	from, to              int
	used                  bool
	stmts                 []importStmt
}

// importDrop is a drop profile's curve points.
type importDrop struct {
	fill, prob []int
	from, to   int
	used       bool
	stmts      []importStmt
}

// importSched is a scheduler's statements.
type importSched struct {
	strict            bool
	trPct, shPct      *int
	trBps, shBps      int64
	trLine, shLine    int
	drop              string
	dropLine          int
	ecn               bool
	ecnLine, from, to int
	used              bool
	stmts             []importStmt
}

// importSmap is a scheduler map: class → scheduler.
type importSmap struct {
	fc       map[string]string
	from, to int
	used     bool
	stmts    []importStmt
}

// importBind is what class-of-service binds to an interface.
type importBind struct{ dscp, pcp, cnp, smap string }

// importPort is one interface being read.
type importPort struct {
	port  *importer.Port
	bind  importBind
	bound bool
	// disabled is a port shut by "disable" (no report of its missing
	// bindings: it carries no traffic).
	disabled bool
	cosSrc   int
	ipLine   int
	// aclLine is the line binding each filter.
	aclLine map[string]int
}

// importTerm is one firewall filter term being read.
type importTerm struct {
	name      string
	rule      *importer.ACLRule
	proto     []string
	src, dst  []string
	fc, lp    string
	setLine   int
	hasAction bool
	// skip leaves the term out: it matches what no intent rule can.
	skip bool
}

// importFilter is one firewall filter of a family being read.
type importFilter struct {
	family, name string
	terms        []*importTerm
	byName       map[string]*importTerm
	from, to     int
}

// importSeen is the last value a scalar statement was given, for Twice.
type importSeen struct {
	value string
	line  int
}

// importState collects what an import reads.
type importState struct {
	file       string
	dev        *importer.Device
	headerName string
	fcs        map[string]*importFC
	cls        map[string]*importClassifier // "dscp NAME", "ieee-802.1 NAME"
	cnps       map[string]*importCNP
	drops      map[string]*importDrop
	scheds     map[string]*importSched
	smaps      map[string]*importSmap
	ports      map[string]*importPort
	wild       []importWild
	filters    map[string]*importFilter // "inet NAME"
	forder     []string
	seen       map[string]importSeen
	blocks     map[string]int
	// cosBlocks are the lines opening class-of-service blocks (brace form).
	cosBlocks []int
	// bindLine is the first line binding each class-of-service object
	// ("dscp NAME", "congestion-notification-profile NAME", …).
	bindLine map[string]int
}

// importWild is a class-of-service binding of a wildcard interface name.
type importWild struct {
	pattern, kind, value string
	line                 int
	// applied is true when it binds a port.
	applied bool
}

func newImport(file string) *importState {
	return &importState{file: file, dev: &importer.Device{Platform: string(name), Src: importer.Span{File: file}},
		fcs: map[string]*importFC{}, cls: map[string]*importClassifier{}, cnps: map[string]*importCNP{},
		drops: map[string]*importDrop{}, scheds: map[string]*importSched{}, smaps: map[string]*importSmap{},
		ports: map[string]*importPort{}, filters: map[string]*importFilter{}, seen: map[string]importSeen{}, blocks: map[string]int{}, bindLine: map[string]int{}}
}

// unmapped reports a statement no intent expresses.
func (im *importState) unmapped(s importStmt, why string) {
	im.dev.Unmapped = append(im.dev.Unmapped, importer.Line{File: im.file, Line: s.Line, Text: s.text(), Why: why})
}

// scalar records a one-value statement of a port (key without the
// value) and reports a second, different value as Twice: a later set
// replaces the value, as Junos applies it.
func (im *importState) scalar(s importStmt, port, key, value string) {
	k := port + "\x00" + key
	if old, ok := im.seen[k]; ok && old.value != value {
		im.dev.Twice = append(im.dev.Twice, importer.Line{File: im.file, Line: s.Line, Text: s.text(),
			Why: fmt.Sprintf("%s %s is also set at line %d; the later statement replaces it, as Junos applies set commands", port, key, old.line)})
	}
	im.seen[k] = importSeen{value, s.Line}
}

// opened notes a brace-form block: an interface's block opened twice is a
// port configured twice.
func (im *importState) opened(path []string, line int) {
	if path[0] == "class-of-service" {
		im.cosBlocks = append(im.cosBlocks, line)
	}
	if len(path) != 2 || path[0] != "interfaces" && path[0] != "class-of-service" {
		if len(path) != 3 || path[0] != "class-of-service" || path[1] != "interfaces" {
			return
		}
	}
	k := strings.Join(path, " ")
	if first, ok := im.blocks[k]; ok {
		im.dev.Twice = append(im.dev.Twice, importer.Line{File: im.file, Line: line, Text: k + " {",
			Why: fmt.Sprintf("the block is also opened at line %d; Junos merges both, a later statement replacing an earlier one", first)})
		return
	}
	im.blocks[k] = line
}

// statement reads one statement.
func (im *importState) statement(s importStmt) {
	w := s.W
	if len(w) == 0 {
		return
	}
	if s.Inactive {
		if importQoSTop(w[0]) {
			im.unmapped(s, "inactive (deactivated): the device does not apply it")
		}
		return
	}
	switch w[0] {
	case "version":
		if len(w) == 2 && im.dev.OSVersion == "" && releaseRe.MatchString(importUnquote(w[1])) {
			im.dev.OSVersion = importUnquote(w[1])
		}
	case "system":
		if len(w) == 3 && w[1] == "host-name" {
			im.dev.Name = importUnquote(w[2])
		}
	case "class-of-service":
		im.cos(s, w[1:])
	case "interfaces":
		im.iface(s, w[1:])
	case "firewall":
		im.firewall(s, w[1:])
	case "groups":
		if len(w) > 2 && importQoSTop(w[2]) {
			im.unmapped(s, "configuration group: an import reads the configuration without group inheritance; save it with `show configuration | display inheritance no-comments | display set`")
		}
	}
}

// importSpan widens from..to to take line.
func importSpan(from, to *int, line int) {
	if *from == 0 || line < *from {
		*from = line
	}
	if line > *to {
		*to = line
	}
}

// importCoSWhy says why a class-of-service hierarchy no intent expresses
// is reported.
func importCoSWhy(w string) string {
	switch w {
	case "rewrite-rules":
		return "egress rewrite rule: the intent has no egress re-marking"
	case "shared-buffer", "dedicated-buffer", "dedicated-buffer-profile":
		return "buffer knob: fabricgen renders no Junos shared-buffer statements (Junos sizes buffers in percent)"
	case "traffic-control-profiles", "forwarding-class-sets":
		return "hierarchical (ETS) port scheduling: the intent schedules queues with one scheduler map"
	case "host-outbound-traffic":
		return "the queue of the switch's own traffic: the intent does not set it"
	case "code-point-aliases":
		return "a code-point alias: the intent names code points by number"
	case "multi-destination":
		return "a multidestination classifier: the intent classifies unicast traffic"
	case "policy-map", "translation-table", "loss-priority-maps", "loss-priority-rewrites":
		return "a " + w + " statement: the intent does not express it"
	}
	return "a class-of-service statement the intent does not express"
}

// cos reads "class-of-service …".
func (im *importState) cos(s importStmt, w []string) {
	if len(w) == 0 {
		return
	}
	switch w[0] {
	case "forwarding-classes":
		im.fc(s, w[1:])
	case "classifiers":
		im.classifier(s, w[1:])
	case "congestion-notification-profile":
		im.cnp(s, w[1:])
	case "drop-profiles":
		im.drop(s, w[1:])
	case "schedulers":
		im.sched(s, w[1:])
	case "scheduler-maps":
		if len(w) == 6 && w[2] == "forwarding-class" && w[4] == "scheduler" {
			m := im.smaps[w[1]]
			if m == nil {
				m = &importSmap{fc: map[string]string{}}
				im.smaps[w[1]] = m
			}
			m.fc[w[3]] = w[5]
			importSpan(&m.from, &m.to, s.Line)
			m.stmts = append(m.stmts, s)
			return
		}
		im.unmapped(s, "a scheduler-map statement the intent does not express")
	case "interfaces":
		im.cosIface(s, w[1:])
	default:
		im.unmapped(s, importCoSWhy(w[0]))
	}
}

// importQFXDefaults are QFX's default forwarding classes (queue, and the
// PFC priority of the lossless ones), which exist without configuration
// ("Understanding Default CoS Settings", Traffic Management for QFX).
var importQFXDefaults = map[string]importFC{
	"best-effort": {queue: 0, prio: -1}, "fcoe": {queue: 3, prio: 3, noLoss: true},
	"no-loss": {queue: 4, prio: 4, noLoss: true}, "network-control": {queue: 7, prio: -1},
}

// fc reads "forwarding-classes …": class NAME queue-num N [no-loss],
// class NAME pfc-priority P, class NAME no-loss, or queue N NAME.
func (im *importState) fc(s importStmt, w []string) {
	get := func(n string) *importFC {
		c := im.fcs[n]
		if c == nil {
			c = &importFC{queue: -1, prio: -1, line: s.Line}
			im.fcs[n] = c
		}
		return c
	}
	if len(w) == 3 && w[0] == "queue" {
		if q, err := strconv.Atoi(w[1]); err == nil && q >= 0 && q < 8 {
			c := get(w[2])
			c.queue, c.stmts = q, append(c.stmts, s)
			return
		}
	}
	if len(w) < 3 || w[0] != "class" {
		im.unmapped(s, "a forwarding-classes statement the intent does not express")
		return
	}
	c := get(w[1])
	c.stmts = append(c.stmts, s)
	for i := 2; i < len(w); i++ {
		switch {
		case w[i] == "no-loss":
			c.noLoss = true
		case w[i] == "queue-num" && i+1 < len(w):
			if q, err := strconv.Atoi(w[i+1]); err == nil && q >= 0 && q < 8 {
				c.queue = q
				i++
				continue
			}
			im.unmapped(s, "a queue outside 0–7: the intent has eight queues")
			return
		case w[i] == "pfc-priority" && i+1 < len(w):
			if p, err := strconv.Atoi(w[i+1]); err == nil && p >= 0 && p < 8 {
				c.prio = p
				i++
				continue
			}
			im.unmapped(s, "a PFC priority outside 0–7")
			return
		default:
			im.unmapped(s, "a forwarding-class option the intent does not express")
			return
		}
	}
}

// importDSCPAliases are Junos's standard DSCP aliases ("Default CoS
// Values": be, ef, afXY, csN, nc1, nc2).
var importDSCPAliases = func() map[string]int {
	m := map[string]int{"be": 0, "ef": 46, "nc1": 48, "nc2": 56}
	for x := 1; x <= 4; x++ {
		for y := 1; y <= 3; y++ {
			m[fmt.Sprintf("af%d%d", x, y)] = 8*x + 2*y
		}
	}
	for n := 0; n < 8; n++ {
		m["cs"+strconv.Itoa(n)] = 8 * n
	}
	return m
}()

// importCodePoint reads a classifier's code point: bits bits in binary,
// or (DSCP) an alias.
func importCodePoint(s string, bits int) (int, bool) {
	if len(s) == bits {
		if v, err := strconv.ParseUint(s, 2, 8); err == nil {
			return int(v), true
		}
	}
	if bits == 6 {
		v, ok := importDSCPAliases[s]
		return v, ok
	}
	return 0, false
}

// classifier reads "classifiers dscp|ieee-802.1 NAME forwarding-class FC
// loss-priority LP code-points CPS".
func (im *importState) classifier(s importStmt, w []string) {
	if len(w) < 1 || w[0] != "dscp" && w[0] != "ieee-802.1" {
		if len(w) > 0 && w[0] == "exp" {
			im.unmapped(s, "MPLS EXP classifier: the intent classifies by DSCP or PCP")
			return
		}
		im.unmapped(s, "a classifier the intent does not express (it classifies by DSCP or PCP)")
		return
	}
	bits := 6
	if w[0] == "ieee-802.1" {
		bits = 3
	}
	if len(w) != 8 || w[2] != "forwarding-class" || w[4] != "loss-priority" || w[6] != "code-points" {
		im.unmapped(s, "a classifier statement the intent does not express (import, or a statement without code points)")
		return
	}
	k := w[0] + " " + w[1]
	c := im.cls[k]
	if c == nil {
		c = &importClassifier{cp: map[int]string{}}
		im.cls[k] = c
	}
	importSpan(&c.from, &c.to, s.Line)
	c.stmts = append(c.stmts, s)
	for _, it := range importItems(w[7]) {
		v, ok := importCodePoint(it, bits)
		if !ok {
			im.unmapped(s, fmt.Sprintf("code point %q is not a %d-bit pattern or standard alias", it, bits))
			continue
		}
		c.cp[v] = w[3]
	}
}

// cnp reads "congestion-notification-profile NAME …".
func (im *importState) cnp(s importStmt, w []string) {
	if len(w) < 2 {
		im.unmapped(s, "a congestion-notification-profile statement the intent does not express")
		return
	}
	c := im.cnps[w[0]]
	if c == nil {
		c = &importCNP{out: map[int]int{}, outLine: map[int]int{}}
		im.cnps[w[0]] = c
	}
	importSpan(&c.from, &c.to, s.Line)
	c.stmts = append(c.stmts, s)
	r := w[1:]
	switch {
	case len(r) == 5 && r[0] == "input" && (r[1] == "dscp" || r[1] == "ieee-802.1") && r[2] == "code-point" && r[4] == "pfc":
		bits := map[string]int{"dscp": 6, "ieee-802.1": 3}[r[1]]
		v, ok := importCodePoint(r[3], bits)
		if !ok {
			im.unmapped(s, "a code point that is not a bit pattern")
			return
		}
		if bits == 6 {
			c.inDSCP = append(c.inDSCP, v)
		} else {
			c.inPCP = append(c.inPCP, v)
		}
	case len(r) == 6 && r[0] == "output" && r[1] == "ieee-802.1" && r[2] == "code-point" && r[4] == "flow-control-queue":
		p, ok := importCodePoint(r[3], 3)
		q, err := strconv.Atoi(r[5])
		if !ok || err != nil || q < 0 || q > 7 {
			im.unmapped(s, "an output entry of several queues or a queue outside 0–7: the intent pauses one queue per priority")
			return
		}
		c.out[p], c.outLine[p] = q, s.Line
	case r[0] == "pfc-watchdog":
		c.wd = true
		if len(r) == 1 {
			return
		}
		v, err := strconv.ParseInt(r[len(r)-1], 10, 64)
		if len(r) != 3 || err != nil {
			im.unmapped(s, "a pfc-watchdog statement the intent does not express")
			return
		}
		switch r[1] {
		case "poll-interval":
			c.poll = v
		case "detection":
			c.detect = v
		case "recovery":
			c.recover = v
		default:
			im.unmapped(s, "a pfc-watchdog statement the intent does not express")
		}
	case r[0] == "input" || r[0] == "output":
		im.unmapped(s, "buffer headroom or PFC knob (mru, cable-length, …): fabricgen renders no Junos buffer statements")
	default:
		im.unmapped(s, "a congestion-notification-profile statement the intent does not express")
	}
}

// drop reads "drop-profiles NAME [interpolate] fill-level V | drop-probability V".
func (im *importState) drop(s importStmt, w []string) {
	if len(w) < 3 {
		im.unmapped(s, "a drop-profiles statement the intent does not express")
		return
	}
	d := im.drops[w[0]]
	if d == nil {
		d = &importDrop{}
		im.drops[w[0]] = d
	}
	importSpan(&d.from, &d.to, s.Line)
	d.stmts = append(d.stmts, s)
	r := w[1:]
	if r[0] == "interpolate" {
		r = r[1:]
	}
	for len(r) >= 2 {
		var vals []int
		for _, it := range importItems(r[1]) {
			v, err := strconv.Atoi(strings.TrimSuffix(it, "%"))
			if err != nil || v < 0 || v > 100 {
				im.unmapped(s, "a drop-profile value that is not a percent")
				return
			}
			vals = append(vals, v)
		}
		switch r[0] {
		case "fill-level":
			d.fill = append(d.fill, vals...)
		case "drop-probability":
			d.prob = append(d.prob, vals...)
		default:
			im.unmapped(s, "a drop-profiles statement the intent does not express")
			return
		}
		r = r[2:]
	}
	if len(r) > 0 {
		im.unmapped(s, "a drop-profiles statement the intent does not express")
	}
}

// importRate reads a Junos rate (bit/s with k, m or g).
func importRate(s string) (int64, bool) {
	mul := int64(1)
	switch {
	case strings.HasSuffix(s, "k"):
		mul, s = 1_000, s[:len(s)-1]
	case strings.HasSuffix(s, "m"):
		mul, s = 1_000_000, s[:len(s)-1]
	case strings.HasSuffix(s, "g"):
		mul, s = 1_000_000_000, s[:len(s)-1]
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 || v > (1<<62)/mul {
		return 0, false
	}
	return v * mul, true
}

// sched reads "schedulers NAME …".
func (im *importState) sched(s importStmt, w []string) {
	if len(w) < 2 {
		im.unmapped(s, "a schedulers statement the intent does not express")
		return
	}
	sc := im.scheds[w[0]]
	if sc == nil {
		sc = &importSched{}
		im.scheds[w[0]] = sc
	}
	importSpan(&sc.from, &sc.to, s.Line)
	sc.stmts = append(sc.stmts, s)
	r := w[1:]
	rate := func(pct **int, bps *int64, line *int) bool {
		*line = s.Line
		switch {
		case len(r) == 3 && r[1] == "percent":
			v, err := strconv.Atoi(r[2])
			if err != nil || v < 0 || v > 100 {
				return false
			}
			*pct = &v
			return true
		case len(r) == 2:
			v, ok := importRate(r[1])
			*bps = v
			return ok
		}
		return false
	}
	switch {
	case len(r) == 2 && r[0] == "priority":
		switch r[1] {
		case "strict-high":
			sc.strict = true
		case "low":
		default:
			im.unmapped(s, "scheduler priority "+r[1]+": the intent schedules queues strict or DWRR")
		}
	case r[0] == "transmit-rate":
		if !rate(&sc.trPct, &sc.trBps, &sc.trLine) {
			im.unmapped(s, "a transmit-rate the intent does not express (exact, rate-limit or a remainder)")
		}
	case r[0] == "shaping-rate":
		if !rate(&sc.shPct, &sc.shBps, &sc.shLine) {
			im.unmapped(s, "a shaping-rate the intent does not express")
		}
	case len(r) == 7 && r[0] == "drop-profile-map" && r[1] == "loss-priority" && r[3] == "protocol" && r[5] == "drop-profile":
		if (r[2] != "low" && r[2] != "any") || r[4] != "any" {
			im.unmapped(s, "a drop profile for loss priority "+r[2]+" or protocol "+r[4]+": the intent has one curve per queue")
			return
		}
		sc.drop, sc.dropLine = r[6], s.Line
	case len(r) == 1 && r[0] == "explicit-congestion-notification":
		sc.ecn, sc.ecnLine = true, s.Line
	case strings.HasPrefix(r[0], "buffer-"):
		im.unmapped(s, "buffer knob: fabricgen renders no Junos buffer statements")
	default:
		im.unmapped(s, "a scheduler statement the intent does not express")
	}
}

// cosIface reads "class-of-service interfaces IF …".
func (im *importState) cosIface(s importStmt, w []string) {
	if len(w) < 2 {
		return
	}
	ifn := w[0]
	var kind, value string
	switch {
	case len(w) == 3 && (w[1] == "scheduler-map" || w[1] == "congestion-notification-profile"):
		kind, value = w[1], w[2]
	case len(w) == 6 && w[1] == "unit" && (w[2] == "0" || w[2] == "*") && w[3] == "classifiers" && (w[4] == "dscp" || w[4] == "ieee-802.1"):
		kind, value = w[4], w[5]
	case len(w) >= 5 && w[1] == "unit" && w[3] == "classifiers" && (w[4] == "dscp" || w[4] == "ieee-802.1"):
		im.unmapped(s, "a classifier on unit "+w[2]+": the intent classifies a port's unit 0")
		return
	case w[1] == "shaping-rate":
		im.unmapped(s, "port shaper: the intent shapes queues, not ports")
		return
	default:
		why := "a class-of-service interface statement the intent does not express"
		for _, x := range w[1:] {
			if x == "rewrite-rules" {
				why = importCoSWhy(x)
			}
		}
		if w[1] == "forwarding-class-set" || w[1] == "output-traffic-control-profile" {
			why = importCoSWhy("traffic-control-profiles")
		}
		im.unmapped(s, why)
		return
	}
	if strings.ContainsAny(ifn, "*<>") {
		im.wild = append(im.wild, importWild{pattern: ifn, kind: kind, value: value, line: s.Line})
		return
	}
	p := im.port(s, ifn)
	if p == nil {
		return
	}
	im.scalar(s, ifn, "class-of-service "+kind, value)
	switch kind {
	case "scheduler-map":
		p.bind.smap = value
	case "congestion-notification-profile":
		p.bind.cnp = value
	case "dscp":
		p.bind.dscp = value
	case "ieee-802.1":
		p.bind.pcp = value
	}
	p.bound = true
	if im.bindLine[kind+" "+value] == 0 {
		im.bindLine[kind+" "+value] = s.Line
	}
	if p.cosSrc == 0 {
		p.cosSrc = s.Line
	}
}

// port returns the port named ifn, creating it, or nil (reporting s) when
// ifn is no port the intent names.
func (im *importState) port(s importStmt, ifn string) *importPort {
	if ifn == "interface-range" {
		im.unmapped(s, "an interface-range: the import does not expand ranges; save the configuration with `| display inheritance`, or give the ports their own statements")
		return nil
	}
	if !portName(ifn) {
		im.unmapped(s, "interface "+ifn+" is not a port the intent names (et-, xe-, ge- or mge-FPC/PIC/PORT[:CHANNEL])")
		return nil
	}
	p := im.ports[ifn]
	if p == nil {
		p = &importPort{port: &importer.Port{Name: ifn, Src: importer.Span{File: im.file, From: s.Line, To: s.Line}}}
		im.ports[ifn] = p
		im.dev.Ports = append(im.dev.Ports, p.port)
	}
	importSpan(&p.port.Src.From, &p.port.Src.To, s.Line)
	return p
}

// importIfaceQoS reports whether an interface statement (after the name)
// is QoS-relevant: MTU, filters, flow control.
func importIfaceQoS(w []string) bool {
	for _, x := range w {
		switch x {
		case "mtu", "filter", "flow-control", "policer":
			return true
		}
	}
	return false
}

// iface reads "interfaces IF …".
func (im *importState) iface(s importStmt, w []string) {
	if len(w) < 2 {
		return
	}
	if !portName(w[0]) {
		if importIfaceQoS(w[1:]) {
			im.port(s, w[0])
		}
		return
	}
	p := im.port(s, w[0])
	r := w[1:]
	switch {
	case len(r) == 2 && r[0] == "description":
		p.port.Description = importUnquote(r[1])
		im.scalar(s, w[0], "description", r[1])
	case len(r) == 2 && r[0] == "mtu":
		v, err := strconv.Atoi(r[1])
		if err != nil || v <= 0 {
			im.unmapped(s, "an MTU that is not a number")
			return
		}
		p.port.MTU = v
		im.scalar(s, w[0], "mtu", r[1])
	case len(r) == 2 && r[0] == "speed":
		if v, ok := importRate(r[1]); ok {
			p.port.Speed = v
		}
	case len(r) == 3 && (r[0] == "gigether-options" || r[0] == "ether-options") && r[1] == "fec":
		p.port.FEC = map[string]string{"fec91": "rs", "fec74": "fc", "none": "none"}[r[2]]
	case len(r) >= 2 && (r[0] == "gigether-options" || r[0] == "ether-options") && r[1] == "flow-control":
		im.unmapped(s, "802.3x flow control: fabricgen renders no Junos link pause")
	case len(r) >= 4 && r[0] == "unit" && r[2] == "family" && (r[3] == "inet" || r[3] == "inet6"):
		im.family(s, p, r[1], r[3], r[4:])
	case len(r) >= 4 && r[0] == "unit" && r[2] == "family" && importIfaceQoS(r[4:]):
		im.unmapped(s, "a family "+r[3]+" filter or MTU: the intent's ACLs are IPv4 and IPv6 filters of unit 0")
	case len(r) >= 2 && r[0] == "unit" && importIfaceQoS(r[2:]):
		im.unmapped(s, "a unit statement the intent does not express")
	case len(r) == 1 && r[0] == "disable":
		p.disabled = true
	}
}

// family reads "unit U family inet|inet6 …" of a port.
func (im *importState) family(s importStmt, p *importPort, unit, fam string, r []string) {
	if unit != "0" {
		if importIfaceQoS(r) {
			im.unmapped(s, "a filter or MTU on unit "+unit+": the intent's port is unit 0")
		}
		return
	}
	switch {
	case len(r) == 0:
		p.port.Routed = true
	case len(r) >= 2 && r[0] == "address":
		p.port.Routed = true
		switch {
		case p.port.IP == "":
			p.port.IP, p.ipLine = r[1], s.Line
		case p.port.IP != r[1]:
			im.unmapped(s, fmt.Sprintf("a second address (the first is at line %d): an intent port has one address", p.ipLine))
		}
	case len(r) == 3 && r[0] == "filter" && (r[1] == "input" || r[1] == "output"):
		list := &p.port.ACLIn
		if r[1] == "output" {
			list = &p.port.ACLOut
		}
		for _, n := range *list {
			if n == r[2] {
				return
			}
		}
		*list = append(*list, r[2])
		if p.aclLine == nil {
			p.aclLine = map[string]int{}
		}
		if p.aclLine[r[2]] == 0 {
			p.aclLine[r[2]] = s.Line
		}
	case r[0] == "filter":
		im.unmapped(s, "a filter list or group: the intent binds one ACL per direction")
	case r[0] == "mtu":
		im.unmapped(s, "a family MTU: the intent's MTU is the interface's")
	case r[0] == "policer":
		im.unmapped(s, "an interface policer: the intent polices in ACL rules")
	}
}

// importServices are the service names Junos accepts for a port match that
// the import turns into numbers ("Firewall Filter Match Conditions Based
// on Numbers or Text Aliases").
var importServices = map[string]int{
	"ftp-data": 20, "ftp": 21, "ssh": 22, "telnet": 23, "smtp": 25, "tacacs": 49, "domain": 53,
	"bootps": 67, "bootpc": 68, "tftp": 69, "http": 80, "ntp": 123, "snmp": 161, "snmptrap": 162,
	"bgp": 179, "ldap": 389, "https": 443, "syslog": 514, "radius": 1812,
}

// importProtocols are the protocol names (and numbers) the intent's ACL
// rules match, in the intent's words.
var importProtocols = map[string]string{
	"tcp": "tcp", "udp": "udp", "icmp": "icmp", "icmp6": "icmp", "icmpv6": "icmp", "6": "tcp", "17": "udp", "1": "icmp", "58": "icmp",
}

// importLeftOut ends the why of a match no intent rule expresses.
const importLeftOut = ": an intent rule cannot match it, so the term is left out of the imported ACL"

// firewall reads "firewall [family inet|inet6] filter NAME term T from|then …".
func (im *importState) firewall(s importStmt, w []string) {
	fam := "inet"
	switch {
	case len(w) >= 3 && w[0] == "family":
		fam, w = w[1], w[2:]
		if fam != "inet" && fam != "inet6" {
			im.unmapped(s, "a family "+fam+" filter: the intent's ACLs are IPv4 and IPv6 filters")
			return
		}
	case len(w) > 0 && w[0] == "policer":
		im.unmapped(s, "a policer: the intent polices in ACL rules (police)")
		return
	}
	if len(w) < 2 || w[0] != "filter" {
		im.unmapped(s, "a firewall statement the intent does not express")
		return
	}
	k := fam + " " + w[1]
	f := im.filters[k]
	if f == nil {
		f = &importFilter{family: fam, name: w[1], byName: map[string]*importTerm{}}
		im.filters[k] = f
		im.forder = append(im.forder, k)
	}
	importSpan(&f.from, &f.to, s.Line)
	r := w[2:]
	if len(r) == 1 && r[0] == "interface-specific" {
		return
	}
	if len(r) < 3 || r[0] != "term" {
		im.unmapped(s, "a filter statement the intent does not express")
		return
	}
	t := f.byName[r[1]]
	if t == nil {
		t = &importTerm{name: r[1], rule: &importer.ACLRule{Action: "permit", Src: importer.Span{File: im.file}}}
		f.byName[r[1]] = t
		f.terms = append(f.terms, t)
	}
	importSpan(&t.rule.Src.From, &t.rule.Src.To, s.Line)
	if r[2] == "from" && len(r) >= 5 {
		im.termFrom(s, t, fam, r[3], r[4:])
		return
	}
	if r[2] == "then" && len(r) >= 4 {
		im.termThen(s, t, r[3:])
		return
	}
	im.unmapped(s, "a filter term statement the intent does not express")
}

// termFrom reads one match condition of a term.
func (im *importState) termFrom(s importStmt, t *importTerm, fam, what string, v []string) {
	items := importItems(v[0])
	if len(v) > 1 {
		im.skip(s, t, "a match with except or options")
		return
	}
	switch what {
	case "protocol", "next-header":
		for _, it := range items {
			p, ok := importProtocols[it]
			if !ok {
				im.skip(s, t, "protocol "+it)
				return
			}
			t.proto = append(t.proto, p)
		}
	case "source-address", "destination-address":
		for _, it := range items {
			if !strings.Contains(it, "/") {
				if fam == "inet6" {
					it += "/128"
				} else {
					it += "/32"
				}
			}
			if what == "source-address" {
				t.src = append(t.src, it)
			} else {
				t.dst = append(t.dst, it)
			}
		}
	case "source-port", "destination-port", "port":
		if what == "port" {
			im.skip(s, t, "a match on either port")
			return
		}
		for _, it := range items {
			from, to, ok := importPortRange(it)
			if !ok {
				im.skip(s, t, "port "+it)
				return
			}
			if what == "source-port" {
				t.rule.SrcPorts = append(t.rule.SrcPorts, [2]int{from, to})
			} else {
				t.rule.DstPorts = append(t.rule.DstPorts, [2]int{from, to})
			}
		}
	case "dscp", "traffic-class":
		for _, it := range items {
			d, ok := importDSCPAliases[it]
			if !ok {
				n, err := strconv.Atoi(it)
				d, ok = n, err == nil && n >= 0 && n < 64
			}
			if !ok {
				im.skip(s, t, "DSCP "+it)
				return
			}
			t.rule.DSCP = append(t.rule.DSCP, d)
		}
	default:
		im.skip(s, t, "a match on "+what)
	}
}

// skip reports a match of term t no intent rule expresses, and leaves
// the term out.
func (im *importState) skip(s importStmt, t *importTerm, what string) {
	t.skip = true
	im.unmapped(s, what+importLeftOut)
}

// importPortRange reads a port match: N, A-B or a service name.
func importPortRange(s string) (int, int, bool) {
	if n, ok := importServices[s]; ok {
		return n, n, true
	}
	a, b, isRange := strings.Cut(s, "-")
	from, err := strconv.Atoi(a)
	if err != nil || from < 0 || from > 65535 {
		return 0, 0, false
	}
	if !isRange {
		return from, from, true
	}
	to, err := strconv.Atoi(b)
	if err != nil || to < from || to > 65535 {
		return 0, 0, false
	}
	return from, to, true
}

// termThen reads one action of a term.
func (im *importState) termThen(s importStmt, t *importTerm, v []string) {
	switch {
	case len(v) == 1 && v[0] == "accept":
		t.rule.Action, t.hasAction = "permit", true
	case v[0] == "discard" || v[0] == "reject":
		t.rule.Action, t.hasAction = "deny", true
	case len(v) == 2 && v[0] == "dscp":
		d, ok := importDSCPAliases[v[1]]
		if !ok {
			n, err := strconv.Atoi(v[1])
			d, ok = n, err == nil && n >= 0 && n < 64
		}
		if !ok {
			im.unmapped(s, "a DSCP re-mark that is not 0–63")
			return
		}
		t.rule.SetDSCP, t.setLine = &d, s.Line
	case len(v) == 2 && v[0] == "forwarding-class":
		t.fc = v[1]
	case len(v) == 2 && v[0] == "loss-priority":
		t.lp = v[1]
	case v[0] == "count" || v[0] == "log" || v[0] == "syslog" || v[0] == "sample":
	default:
		im.unmapped(s, "a filter action the intent does not express (policer, next term, routing-instance, …)")
	}
}

// rule finishes a term's rule: one protocol and prefix per side, and a
// forwarding class only with a DSCP re-mark.
func (im *importState) rule(t *importTerm, fam string, next int, line func(string) importStmt) []*importer.ACLRule {
	r := t.rule
	if (t.fc != "" || t.lp != "") && r.SetDSCP == nil {
		im.unmapped(line("then"), "classifies into a forwarding class or loss priority by filter: the intent's ACLs re-mark DSCP")
	}
	if r.SetDSCP != nil {
		// What viewJunosFilters refuses: re-marking on QFX (the action
		// is documented for MX and EX) and in an IPv6 filter.
		fam2, _ := FamilyOf(im.dev.Model)
		switch {
		case fam == "inet6":
			im.unmapped(importStmt{W: line("then").W, Line: t.setLine}, "a DSCP re-mark in an IPv6 filter: fabricgen renders Junos re-marking for family inet only; the imported rule keeps the DSCP")
			r.SetDSCP = nil
		case IsQFX(fam2):
			im.unmapped(importStmt{W: line("then").W, Line: t.setLine}, "a DSCP re-mark on a QFX (the model, or fabricgen's default family): fabricgen renders `then dscp` for MX and EX only; the imported rule keeps the DSCP")
			r.SetDSCP = nil
		}
	}
	r.Family = map[string]string{"inet": "ipv4", "inet6": "ipv6"}[fam]
	// A term of several protocols or prefixes is one rule per
	// combination, numbered from the term's sequence number up, when the
	// numbers before the next term leave room.
	or := func(v []string) []string {
		if len(v) == 0 {
			return []string{""}
		}
		return v
	}
	protos, srcs, dsts := or(t.proto), or(t.src), or(t.dst)
	n := len(protos) * len(srcs) * len(dsts)
	if n > 1 && (n > importMaxSplit || r.Seq > math.MaxInt32 || r.Seq+n-1 >= next) {
		im.skip(line("from"), t, fmt.Sprintf("a term of %d protocol and prefix combinations, more than the sequence numbers from %d to the next term's leave room for", n, r.Seq))
		return nil
	}
	var out []*importer.ACLRule
	for _, p := range protos {
		for _, sp := range srcs {
			for _, dp := range dsts {
				c := *r
				c.Seq, c.Protocol, c.SrcPrefix, c.DstPrefix = r.Seq+len(out), p, sp, dp
				out = append(out, &c)
			}
		}
	}
	return out
}

// importMaxSplit bounds the rules one term becomes (lists of thousands of
// prefixes would otherwise multiply).
const importMaxSplit = 64

// acls builds the ACLs from the filters: one per name, its inet terms
// and inet6 terms by sequence, a term without prefixes in both families
// of one sequence number merged into one rule of family "any".
func (im *importState) acls() {
	byName := map[string]*importer.ACL{}
	fams := map[string]map[string]bool{}
	for _, k := range im.forder {
		f := im.filters[k]
		a := byName[f.name]
		if a == nil {
			a = &importer.ACL{Name: f.name, Src: importer.Span{File: im.file, From: f.from, To: f.to}}
			byName[f.name] = a
			fams[f.name] = map[string]bool{}
			im.dev.ACLs = append(im.dev.ACLs, a)
		}
		fams[f.name][f.family] = true
		importSpan(&a.Src.From, &a.Src.To, f.from)
		importSpan(&a.Src.From, &a.Src.To, f.to)
		numeric := true
		last := -1
		for _, t := range f.terms {
			n, err := strconv.Atoi(t.name)
			if err != nil || n <= last {
				numeric = false
				break
			}
			last = n
		}
		for i, t := range f.terms {
			t.rule.Seq = (i + 1) * 10
			if numeric {
				t.rule.Seq, _ = strconv.Atoi(t.name)
			}
		}
		for i, t := range f.terms {
			next := math.MaxInt
			if i+1 < len(f.terms) {
				next = f.terms[i+1].rule.Seq
			}
			rules := im.rule(t, f.family, next, func(what string) importStmt {
				return importStmt{W: []string{"firewall", "family", f.family, "filter", f.name, "term", t.name, what}, Line: t.rule.Src.From}
			})
			if !t.skip {
				a.Rules = append(a.Rules, rules...)
			}
		}
	}
	for _, a := range im.dev.ACLs {
		both := fams[a.Name]["inet"] && fams[a.Name]["inet6"]
		sort.SliceStable(a.Rules, func(i, j int) bool { return a.Rules[i].Seq < a.Rules[j].Seq })
		var out []*importer.ACLRule
		for i, r := range a.Rules {
			plain := r.SrcPrefix == "" && r.DstPrefix == ""
			switch {
			case !plain:
			case !both && r.Family == "ipv4":
				r.Family = "any"
			case both && r.Family == "ipv6" && i > 0 && importSameRule(a.Rules[i-1], r):
				a.Rules[i-1].Family = "any"
				continue
			}
			out = append(out, r)
		}
		a.Rules = out
	}
}

// bindings drops a port's filters that the configuration does not define,
// and keeps one per direction (the Junos render binds one filter per
// direction, viewJunosInterfaces), reporting the others.
func (im *importState) bindings() {
	defined := map[string]bool{}
	for _, a := range im.dev.ACLs {
		defined[a.Name] = true
	}
	for _, p := range im.dev.Ports {
		ip := im.ports[p.Name]
		for _, dir := range []*[]string{&p.ACLIn, &p.ACLOut} {
			var keep []string
			for _, n := range *dir {
				switch {
				case !defined[n]:
					im.dev.Unmapped = append(im.dev.Unmapped, importer.Line{File: im.file, Line: ip.aclLine[n], Text: "interfaces " + p.Name + " … filter " + n,
						Why: "binds filter " + n + ", which the configuration does not define (or defines for another family): the imported port binds none"})
				case len(keep) > 0:
					im.dev.Unmapped = append(im.dev.Unmapped, importer.Line{File: im.file, Line: ip.aclLine[n], Text: "interfaces " + p.Name + " … filter " + n,
						Why: "a second filter in one direction (" + keep[0] + " is the first): fabricgen binds one filter per direction on Junos; merge them"})
				default:
					keep = append(keep, n)
				}
			}
			*dir = keep
		}
	}
}

// importSameRule reports whether an inet rule and an inet6 rule match
// and do the same (a rule of family "any" rendered in both filters).
func importSameRule(a, b *importer.ACLRule) bool {
	if a.Family != "ipv4" || b.Family != "ipv6" || a.Seq != b.Seq || a.Action != b.Action || a.Protocol != b.Protocol ||
		a.SrcPrefix != "" || a.DstPrefix != "" || fmt.Sprint(a.SrcPorts, a.DstPorts, a.DSCP) != fmt.Sprint(b.SrcPorts, b.DstPorts, b.DSCP) {
		return false
	}
	return (a.SetDSCP == nil) == (b.SetDSCP == nil) && (a.SetDSCP == nil || *a.SetDSCP == *b.SetDSCP)
}

// importDropPrefix is the prefix the render gives an ecn_profile's drop
// profile (view.go: "FABRICGEN-ECN-" + the profile's name); the import
// takes it off, so the profile keeps its intent name.
const importDropPrefix = viewJunosObject + "-ECN-"

// importWildMatch reports whether a Junos wildcard interface name (with
// * for any run of characters) matches name.
func importWildMatch(pattern, name string) bool {
	pattern = strings.Trim(pattern, "<>")
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		return pattern == name
	}
	if !strings.HasPrefix(name, pattern[:star]) {
		return false
	}
	rest := name[star:]
	for i := 0; i <= len(rest); i++ {
		if importWildMatch(pattern[star+1:], rest[i:]) {
			return true
		}
	}
	return false
}

// classes gives each forwarding class a priority (the reader's rules:
// pfc-priority, prioN, the queue, the lowest free priority) and returns
// class → priority and class → queue. QFX's default classes count where a
// classifier or scheduler map names them without defining them.
func (im *importState) classes() (prio, queue map[string]int) {
	j := &readState{fcQueue: map[string]int{}, fcPrio: map[string]int{}, classifiers: map[string]map[int]string{}}
	for k, c := range im.cls {
		j.classifiers[k] = c.cp
	}
	named := map[string]bool{}
	for _, c := range im.cls {
		for _, fc := range c.cp {
			named[fc] = true
		}
	}
	for _, m := range im.smaps {
		for fc := range m.fc {
			named[fc] = true
		}
	}
	for fc := range named {
		if d, ok := importQFXDefaults[fc]; ok && im.fcs[fc] == nil {
			j.fcQueue[fc] = d.queue
			if d.prio >= 0 {
				j.fcPrio[fc] = d.prio
			}
		}
	}
	for fc, c := range im.fcs {
		q := c.queue
		if d, ok := importQFXDefaults[fc]; ok && q < 0 {
			q = d.queue
		}
		if q < 0 {
			continue
		}
		j.fcQueue[fc] = q
		if c.prio >= 0 && c.noLoss {
			j.fcPrio[fc] = c.prio
		}
	}
	for fc := range j.fcQueue {
		if _, ok := j.fcPrio[fc]; !ok && readQFXDefaultClass(fc) && !j.classified(fc) {
			delete(j.fcQueue, fc)
		}
	}
	// Code points a classifier leaves out go to the class of queue 0
	// (Juniper "Default Forwarding Classes": best-effort when the
	// configuration puts no class there).
	onZero := false
	for _, q := range j.fcQueue {
		onZero = onZero || q == 0
	}
	if !onZero && len(im.cls) > 0 {
		j.fcQueue["best-effort"] = 0
	}
	j.assignPrios()
	return j.prio, j.fcQueue
}

// device builds the Device from what was read.
func (im *importState) device() *importer.Device {
	d := im.dev
	if d.Name == "" {
		d.Name = im.headerName
	}
	prio, queue := im.classes()
	if len(prio) > 0 {
		d.ClassNames = map[int]string{}
		for fc, p := range prio {
			if fc != "prio"+strconv.Itoa(p) {
				d.ClassNames[p] = fc
			}
		}
		if len(d.ClassNames) == 0 {
			d.ClassNames = nil
		}
	}
	for i, wc := range im.wild {
		for _, p := range im.dev.Ports {
			ip := im.ports[p.Name]
			if !importWildMatch(wc.pattern, p.Name) {
				continue
			}
			b := &ip.bind
			for _, f := range []struct {
				kind string
				v    *string
			}{{"scheduler-map", &b.smap}, {"congestion-notification-profile", &b.cnp}, {"dscp", &b.dscp}, {"ieee-802.1", &b.pcp}} {
				if f.kind == wc.kind && *f.v == "" {
					*f.v, ip.bound, im.wild[i].applied = wc.value, true, true
					if ip.cosSrc == 0 {
						ip.cosSrc = wc.line
					}
				}
			}
		}
	}
	memo := map[importBind]*importer.QoS{}
	count := map[importBind]int{}
	var best importBind
	for _, p := range d.Ports {
		ip := im.ports[p.Name]
		if !ip.bound {
			continue
		}
		if memo[ip.bind] == nil {
			memo[ip.bind] = im.qos(ip.bind, prio, queue)
		}
		count[ip.bind]++
		if count[ip.bind] > count[best] || memo[best] == nil {
			best = ip.bind
		}
	}
	if q := memo[best]; q != nil {
		d.Default = q
	}
	for _, p := range d.Ports {
		ip := im.ports[p.Name]
		switch {
		case ip.bound && ip.bind != best:
			// The Junos render binds one classifier, scheduler map and
			// congestion-notification profile to every port
			// (viewBuildJunos: the QoS must be uniform), so a port that
			// binds others keeps the device's QoS, reported.
			im.dev.Unmapped = append(im.dev.Unmapped, importer.Line{File: im.file, Line: ip.cosSrc, Text: "class-of-service interfaces " + p.Name,
				Why: "the port's class-of-service bindings differ from the device's: fabricgen renders one classifier, scheduler map and congestion-notification profile per Junos device, so the imported port gets the device's QoS"})
		case !ip.bound && !ip.disabled && d.Default != nil:
			im.dev.Unmapped = append(im.dev.Unmapped, importer.Line{File: im.file, Line: p.Src.From, Text: "interfaces " + p.Name,
				Why: "the port has no class-of-service bindings (Junos's defaults apply); the imported intent gives it the device's QoS"})
		}
	}
	im.unused()
	im.devicewide()
	im.acls()
	im.bindings()
	sort.SliceStable(d.Unmapped, func(i, j int) bool { return d.Unmapped[i].Line < d.Unmapped[j].Line })
	sort.SliceStable(d.Twice, func(i, j int) bool { return d.Twice[i].Line < d.Twice[j].Line })
	return d
}

// unused reports each statement of the class-of-service objects no
// interface uses.
func (im *importState) unused() {
	report := func(stmts []importStmt) {
		for _, st := range stmts {
			im.unmapped(st, "defined but bound to no interface: it has no effect")
		}
	}
	for _, k := range importSorted(im.cls) {
		if !im.cls[k].used {
			report(im.cls[k].stmts)
		}
	}
	for _, k := range importSorted(im.cnps) {
		if !im.cnps[k].used {
			report(im.cnps[k].stmts)
		}
	}
	for _, k := range importSorted(im.smaps) {
		if !im.smaps[k].used {
			report(im.smaps[k].stmts)
		}
	}
	for _, k := range importSorted(im.scheds) {
		if !im.scheds[k].used {
			report(im.scheds[k].stmts)
		}
	}
	for _, k := range importSorted(im.drops) {
		if !im.drops[k].used {
			report(im.drops[k].stmts)
		}
	}
}

// devicewide records where the device-wide statements were read: the
// forwarding classes and the class-of-service blocks of the brace form
// are part of the default QoS; with no QoS bound anywhere they are
// reported.
func (im *importState) devicewide() {
	var stmts []importStmt
	for _, k := range importSorted(im.fcs) {
		stmts = append(stmts, im.fcs[k].stmts...)
	}
	for _, l := range im.cosBlocks {
		stmts = append(stmts, importStmt{W: []string{"class-of-service", "…", "{"}, Line: l})
	}
	for _, wc := range im.wild {
		st := importStmt{W: []string{"class-of-service", "interfaces", wc.pattern, wc.kind, wc.value}, Line: wc.line}
		if !wc.applied {
			im.unmapped(st, "a wildcard binding that binds no port of the configuration (each matching port binds its own)")
			continue
		}
		stmts = append(stmts, st)
	}
	for _, st := range stmts {
		if q := im.dev.Default; q != nil {
			q.Src = append(q.Src, importer.Span{File: im.file, From: st.Line, To: st.Line})
			continue
		}
		im.unmapped(st, "no interface binds a classifier, scheduler map or congestion-notification profile: the class-of-service statements decide nothing the intent expresses")
	}
}

// importSorted is a map's keys in order.
func importSorted[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// note reports a line once (a scheduler or profile shared by several
// bindings is read once per binding).
func (im *importState) note(line int, text, why string) {
	for _, u := range im.dev.Unmapped {
		if u.Line == line && u.Why == why {
			return
		}
	}
	im.dev.Unmapped = append(im.dev.Unmapped, importer.Line{File: im.file, Line: line, Text: text, Why: why})
}

// qos is the effective QoS of a port with bindings b.
func (im *importState) qos(b importBind, prio, queue map[string]int) *importer.QoS {
	q := &importer.QoS{PFCSet: true, Queue: map[int]int{}}
	src := func(from, to int) {
		q.Src = append(q.Src, importer.Span{File: im.file, From: from, To: to})
	}
	for fc, p := range prio {
		q.Queue[p] = queue[fc]
	}
	defPrio := 0
	best := ""
	for fc, p := range prio {
		if queue[fc] == 0 && (best == "" || fc == "best-effort" || best != "best-effort" && p < defPrio) {
			best, defPrio = fc, p
		}
	}
	classify := func(kind, n string, size int) map[int]int {
		if n == "" {
			return nil
		}
		c := im.cls[kind+" "+n]
		if c == nil {
			im.note(im.bindLine[kind+" "+n], "class-of-service interfaces … classifiers "+kind+" "+n, "binds classifier "+n+", which the configuration does not define (Junos's default classifier): the intent's map is the platform default")
			return nil
		}
		c.used = true
		src(c.from, c.to)
		m := map[int]int{}
		for v := 0; v < size; v++ {
			m[v] = defPrio
			if fc, ok := c.cp[v]; ok {
				if p, ok := prio[fc]; ok {
					m[v] = p
				} else {
					im.note(c.from, "class-of-service classifiers "+kind+" "+n, "names forwarding class "+fc+", which has no queue: its code points go to the default class")
				}
			}
		}
		if len(c.cp) < size && kind == "dscp" {
			dp := defPrio
			q.DefaultPriority = &dp
		}
		return m
	}
	q.DSCP = classify("dscp", b.dscp, 64)
	q.PCP = classify("ieee-802.1", b.pcp, 8)
	switch {
	case q.DSCP != nil && q.PCP != nil:
		q.Trust = "both"
	case q.DSCP != nil:
		q.Trust = "dscp"
	case q.PCP != nil:
		q.Trust = "pcp"
	}
	im.pfc(q, b)
	im.schedule(q, b, queue)
	return q
}

// pfc sets the PFC and watchdog of q from b's congestion-notification
// profile.
func (im *importState) pfc(q *importer.QoS, b importBind) {
	src := func(from, to int) {
		q.Src = append(q.Src, importer.Span{File: im.file, From: from, To: to})
	}
	if c := im.cnps[b.cnp]; c != nil {
		c.used = true
		src(c.from, c.to)
		set := map[int]bool{}
		for p := range c.out {
			set[p] = true
		}
		if len(set) == 0 {
			for _, p := range c.inPCP {
				set[p] = true
			}
		}
		if len(set) == 0 {
			for _, v := range c.inDSCP {
				if q.DSCP != nil {
					set[q.DSCP[v]] = true
				}
			}
		}
		for p := 0; p < 8; p++ {
			if set[p] {
				q.PFC = append(q.PFC, p)
			}
			if qn, ok := c.out[p]; ok && qn != q.Queue[p] {
				im.note(c.outLine[p], fmt.Sprintf("class-of-service congestion-notification-profile %s output ieee-802.1 code-point %03b flow-control-queue %d", b.cnp, p, qn),
					fmt.Sprintf("PFC priority %d pauses queue %d, not the queue of its forwarding class: the intent pauses a priority's own queue", p, qn))
			}
		}
		switch {
		case c.wd:
			rec := c.recover
			if rec == 0 {
				rec = 200 // Junos's default recovery (PFC Watchdog)
			}
			// Detection is in polls: 2 when not given (Junos's
			// default), of the poll interval (100 ms when not given).
			detect, poll := c.detect, c.poll
			if detect == 0 {
				detect = 2
			}
			if poll == 0 {
				poll = viewJunosWDPollMS
			}
			w := &importer.Watchdog{RestorationMS: rec, PollMS: c.poll, Action: "drop", DetectionMS: detect * poll}
			q.Watchdog = w
		case len(q.PFC) > 0:
			q.WatchdogOff = true
		}
	} else if b.cnp != "" {
		im.note(im.bindLine["congestion-notification-profile "+b.cnp], "class-of-service interfaces … congestion-notification-profile "+b.cnp, "binds a congestion-notification profile the configuration does not define: no PFC")
	}
}

// schedule sets the queues of q from b's scheduler map.
func (im *importState) schedule(q *importer.QoS, b importBind, queue map[string]int) {
	src := func(from, to int) {
		q.Src = append(q.Src, importer.Span{File: im.file, From: from, To: to})
	}
	if m := im.smaps[b.smap]; m != nil {
		m.used = true
		src(m.from, m.to)
		q.Queues = map[int]*importer.Queue{}
		for _, fc := range importSorted(m.fc) {
			qn, ok := queue[fc]
			sc := im.scheds[m.fc[fc]]
			if !ok || sc == nil {
				im.note(m.from, "class-of-service scheduler-maps "+b.smap, "maps forwarding class "+fc+" without a queue, or to an undefined scheduler")
				continue
			}
			if _, dup := q.Queues[qn]; dup {
				continue
			}
			sc.used = true
			src(sc.from, sc.to)
			if qu := im.queue(m.fc[fc], sc, &q.Src); qu != nil {
				q.Queues[qn] = qu
			}
		}
	}
}

// queue is one scheduler's queue treatment (nil: none).
func (im *importState) queue(n string, sc *importSched, srcs *[]importer.Span) *importer.Queue {
	qu := &importer.Queue{}
	text := "class-of-service schedulers " + n
	fam, _ := FamilyOf(im.dev.Model)
	if sc.strict {
		qu.Sched = "strict"
		// The cap of a strict-high queue is its transmit-rate on
		// QFX10000, else its shaping-rate (viewJunosStrictCap); the
		// other rate is a guarantee the intent does not express.
		capPct, capBps, capLine, other := sc.shPct, sc.shBps, sc.shLine, sc.trLine
		if fam == FamilyQFX10000 {
			capPct, capBps, capLine, other = sc.trPct, sc.trBps, sc.trLine, sc.shLine
		}
		switch {
		case capPct != nil && *capPct != viewJunosStrictCapPercent:
			im.note(capLine, text, fmt.Sprintf("a strict-high cap of %d percent: the intent's shaper is in bit/s; the imported queue gets fabricgen's default cap (%d percent)", *capPct, viewJunosStrictCapPercent))
		case capBps > 0:
			qu.ShaperBps = capBps
		}
		if other != 0 {
			im.note(other, text, "a rate on a strict-high queue that is not its cap on this model (the cap is shaping-rate, transmit-rate on QFX10000): the imported queue gets fabricgen's cap")
		}
	} else {
		if sc.trPct != nil {
			w := *sc.trPct
			qu.Sched, qu.Weight = "dwrr", &w
		}
		if sc.trBps > 0 {
			im.note(sc.trLine, text, "a transmit-rate in bit/s: the intent's DWRR weight is a percent")
		}
		switch {
		case sc.shBps > 0 && fam == FamilyQFX10000:
			im.note(sc.shLine, text, "a shaping-rate on a queue that is not strict-high of a QFX10000: fabricgen caps a QFX10000 queue only when it is strict-high")
		case sc.shBps > 0:
			qu.ShaperBps = sc.shBps
		}
		if sc.shPct != nil {
			im.note(sc.shLine, text, "a shaping-rate in percent: the intent's shaper is in bit/s")
		}
	}
	if dp := im.drops[sc.drop]; sc.drop != "" && dp != nil {
		dp.used = true
		*srcs = append(*srcs, importer.Span{File: im.file, From: dp.from, To: dp.to})
		if len(dp.fill) == 2 && len(dp.prob) == 2 && dp.prob[0] == 0 && dp.fill[0] < dp.fill[1] {
			lo, hi := dp.fill[0], dp.fill[1]
			qu.ECN = &importer.ECN{Name: strings.TrimPrefix(sc.drop, importDropPrefix), MinFill: &lo, MaxFill: &hi, Probability: dp.prob[1], Mark: sc.ecn}
		} else {
			im.note(dp.from, "class-of-service drop-profiles "+sc.drop, "a drop curve that is not two points from 0 percent: the intent's curve rises linearly from min to max")
		}
	} else if sc.drop != "" {
		im.note(sc.dropLine, text, "maps drop profile "+sc.drop+", which the configuration does not define")
	} else if sc.ecn {
		im.note(sc.ecnLine, text, "explicit-congestion-notification without a drop profile: no marking curve")
	}
	if qu.Sched == "" && qu.ShaperBps == 0 && qu.ECN == nil {
		return nil
	}
	return qu
}
