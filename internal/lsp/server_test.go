package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lsp/jsonrpc"
)

// TestBrokenExampleThenFixed: the editor opens the broken example whose
// core zeroes DSCP; the server publishes QOS001 at the trust line with the
// hop trace as related information, each hop at the line that set it;
// fixing trust in the buffer (unsaved) clears the file's diagnostics.
func TestBrokenExampleThenFixed(t *testing.T) {
	dir := copyExample(t, "broken/core-zeroes-dscp")
	path := filepath.Join(dir, "fabric.fab.hcl")
	c := startServer(t, Options{})
	res := c.initialize()
	if res.Capabilities.PositionEncoding != "utf-16" {
		t.Errorf("position encoding %q without the client offering utf-8", res.Capabilities.PositionEncoding)
	}
	uri := c.open(path, "")
	p, ok := c.diagnostics(uri, 30*time.Second)
	if !ok {
		t.Fatal("no diagnostics published for the broken example")
	}
	if p.Version == nil || *p.Version != 1 {
		t.Errorf("version %v, want 1", p.Version)
	}
	var q *Diagnostic
	for i := range p.Diagnostics {
		if p.Diagnostics[i].Code == "QOS001" {
			q = &p.Diagnostics[i]
		}
	}
	if q == nil {
		t.Fatalf("no QOS001 among %+v", p.Diagnostics)
	}
	if q.Range.Start.Line != 70 || q.Range.Start.Character != 2 || q.Severity != SeverityError {
		t.Errorf("QOS001 at %+v severity %d, want line 70 (71 in the editor), character 2, error", q.Range.Start, q.Severity)
	}
	if q.CodeDescription == nil || !strings.Contains(q.CodeDescription.Href, "docs/rules.md#qos001") {
		t.Errorf("code description %+v", q.CodeDescription)
	}
	src, _ := os.ReadFile(path)
	lines := strings.Split(string(src), "\n")
	var hops []string
	for _, ri := range q.RelatedInformation {
		if strings.HasPrefix(ri.Message, "hop ") {
			if ri.Location.URI != uri {
				t.Errorf("hop at %s", ri.Location.URI)
			}
			hops = append(hops, ri.Message+" @ "+strings.TrimSpace(lines[ri.Location.Range.Start.Line]))
		}
	}
	want := []string{
		"hop 1/5 gpu01-cx6:eth0 @ tos          = 106",
		"hop 2/5 leaf1:Ethernet1 @ dscp      = [26]",
		"hop 3/5 core1:Ethernet1: DSCP 26 → 0: no trust dscp @ trust = \"none\"",
	}
	if len(hops) != 5 {
		t.Fatalf("%d hops in related information, want 5: %q", len(hops), hops)
	}
	for i, w := range want {
		if hops[i] != w {
			t.Errorf("hop %d:\n got %q\nwant %q", i+1, hops[i], w)
		}
	}

	fixed := strings.Replace(string(src), `trust = "none"`, `trust = "dscp"`, 1)
	c.change(uri, 2, fixed)
	p, ok = c.diagnostics(uri, 30*time.Second)
	if !ok {
		t.Fatal("nothing published after the fix")
	}
	if len(p.Diagnostics) != 0 || p.Version == nil || *p.Version != 2 {
		t.Errorf("after the fix: version %v, %d diagnostics: %+v", p.Version, len(p.Diagnostics), p.Diagnostics)
	}
	if err := c.exit(); err != nil {
		t.Errorf("Serve after shutdown and exit: %v", err)
	}
}

// TestRapidChanges: fifty changes in a row publish the last version's
// diagnostics only: no analysis of an earlier version reaches the editor.
func TestRapidChanges(t *testing.T) {
	dir := copyExample(t, "broken/core-zeroes-dscp")
	path := filepath.Join(dir, "fabric.fab.hcl")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{Debounce: 50 * time.Millisecond})
	c.initialize()
	uri := c.open(path, "")
	if _, ok := c.diagnostics(uri, 30*time.Second); !ok {
		t.Fatal("no diagnostics for the opened file")
	}
	// Versions alternate between broken and fixed: an analysis of any
	// earlier version would publish something unlike the last one's.
	for v := 2; v <= 51; v++ {
		text := string(src)
		if v%2 == 0 {
			text = strings.Replace(text, `trust = "none"`, `trust = "dscp"`, 1)
		}
		text += fmt.Sprintf("\n# edit %d\n", v)
		c.change(uri, v, text)
	}
	p, ok := c.diagnostics(uri, 30*time.Second)
	if !ok {
		t.Fatal("nothing published after fifty changes")
	}
	if p.Version == nil || *p.Version != 51 {
		t.Fatalf("the first publish after the changes is of version %v, want 51", p.Version)
	}
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "QOS001" {
		t.Errorf("version 51 (broken) published %+v", p.Diagnostics)
	}
	if extra, ok := c.diagnostics(uri, 500*time.Millisecond); ok {
		t.Errorf("a second publish after the last change: version %v, %d diagnostics", extra.Version, len(extra.Diagnostics))
	}
}

// TestSyntaxErrorAtOnce: a syntax error is published for the changed file
// before the debounce is over (here: a debounce far longer than the wait).
func TestSyntaxErrorAtOnce(t *testing.T) {
	dir := copyExample(t, "broken/core-zeroes-dscp")
	path := filepath.Join(dir, "fabric.fab.hcl")
	c := startServer(t, Options{Debounce: time.Hour})
	c.initialize()
	uri := c.open(path, "fabric \"x\" {\n  description = \n}\n")
	p, ok := c.diagnostics(uri, 5*time.Second)
	if !ok {
		t.Fatal("no syntax error published within 5 s with an hour of debounce")
	}
	if len(p.Diagnostics) == 0 || p.Diagnostics[0].Range.Start.Line != 1 || p.Diagnostics[0].Code != "VAL001" {
		t.Errorf("syntax diagnostics %+v", p.Diagnostics)
	}
}

// TestPositionEncodings: a finding after non-ASCII text on its line is
// placed in UTF-16 code units by default and in bytes when the client
// offers UTF-8; a comment with astral characters above it shifts nothing.
func TestPositionEncodings(t *testing.T) {
	for _, tc := range []struct {
		enc  []string
		want int
	}{
		{nil, len(`  /* café 🚀 */ `) - 1 - 2}, // é: 2 bytes, 1 unit; 🚀: 4 bytes, 2 units
		{[]string{"utf-16"}, len(`  /* café 🚀 */ `) - 1 - 2},
		{[]string{"utf-8", "utf-16"}, len(`  /* café 🚀 */ `)},
	} {
		t.Run(strings.Join(tc.enc, ","), func(t *testing.T) {
			dir := copyExample(t, "broken/core-zeroes-dscp")
			path := filepath.Join(dir, "fabric.fab.hcl")
			src, _ := os.ReadFile(path)
			text := strings.Replace(string(src), `  trust = "none"`, "  # ünïcödé 𝄞 comment\n  /* café 🚀 */ trust = \"none\"", 1)
			c := startServer(t, Options{})
			res := c.initialize(tc.enc...)
			uri := c.open(path, text)
			p, ok := c.diagnostics(uri, 30*time.Second)
			if !ok {
				t.Fatal("no diagnostics")
			}
			var q *Diagnostic
			for i := range p.Diagnostics {
				if p.Diagnostics[i].Code == "QOS001" {
					q = &p.Diagnostics[i]
				}
			}
			if q == nil {
				t.Fatalf("no QOS001: %+v", p.Diagnostics)
			}
			if q.Range.Start.Line != 71 || q.Range.Start.Character != tc.want {
				t.Errorf("encoding %s: QOS001 starts at %+v, want line 71 character %d", res.Capabilities.PositionEncoding, q.Range.Start, tc.want)
			}
			if n := q.Range.End.Character - q.Range.Start.Character; n != len(`trust = "none"`) {
				t.Errorf("range covers %d units, want %d", n, len(`trust = "none"`))
			}
		})
	}
}

// TestHostileClient: bad requests get errors and the session goes on;
// a broken frame ends it with an error; a vanished client ends it.
func TestHostileClient(t *testing.T) {
	c := startServer(t, Options{})
	if m := c.call("textDocument/hover", map[string]any{}); m.Error == nil || m.Error.Code != jsonrpc.CodeServerNotInitialized {
		t.Errorf("a request before initialize: %+v", m.Error)
	}
	c.initialize()
	if m := c.call("initialize", map[string]any{"capabilities": map[string]any{}}); m.Error == nil {
		t.Error("a second initialize was accepted")
	}
	if m := c.call("fabricgen/unknown", map[string]any{}); m.Error == nil || m.Error.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("an unknown method: %+v", m.Error)
	}
	c.notify("$/unknownNotification", map[string]any{})
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere/x.fab.hcl", "version": 2}, "contentChanges": []any{map[string]any{"text": "x"}}})
	if m := c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere/x.fab.hcl"}}); m.Error == nil {
		t.Error("formatting a document that is not open succeeded")
	}
	if m := c.call("textDocument/formatting", "not an object"); m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("params of the wrong type: %+v", m.Error)
	}
	// Not JSON at all: a parse error, and the session goes on.
	if _, err := c.in.Write([]byte("Content-Length: 5\r\n\r\n{oops")); err != nil {
		t.Fatal(err)
	}
	if m := c.call("fabricgen/unknown", map[string]any{}); m.Error == nil || m.Error.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("after a parse error: %+v", m.Error)
	}
	if m := c.next("(error)", time.Second); m == nil || m.Error.Code != jsonrpc.CodeParseError {
		t.Errorf("no parse error answer for a body that is not JSON: %+v", m)
	}
	// A message claiming a gigabyte: refused without reading or allocating it.
	if _, err := c.in.Write([]byte("Content-Length: 1073741824\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-c.done:
		c.done <- err
		if err == nil || !errors.Is(err, jsonrpc.ErrFraming) {
			t.Errorf("Serve after an oversized frame: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server is still reading a gigabyte it was promised")
	}
}

// TestClientVanishes: a client that closes the stream mid-analysis ends
// the session with ErrNoShutdown, and the analysis is cancelled.
func TestClientVanishes(t *testing.T) {
	dir := copyExample(t, "clos-400g")
	c := startServer(t, Options{Debounce: -1})
	c.initialize()
	c.open(filepath.Join(dir, "qos.fab.hcl"), "")
	c.in.Close()
	select {
	case err := <-c.done:
		c.done <- err
		if !errors.Is(err, ErrNoShutdown) {
			t.Errorf("Serve after the client vanished: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not notice the client leave")
	}
}

// TestSlowFabricOnSave: a fabric whose check takes longer than SlowAfter
// is checked on save, and the editor is told once.
func TestSlowFabricOnSave(t *testing.T) {
	dir := copyExample(t, "broken/core-zeroes-dscp")
	path := filepath.Join(dir, "fabric.fab.hcl")
	src, _ := os.ReadFile(path)
	c := startServer(t, Options{SlowAfter: time.Nanosecond})
	c.initialize()
	uri := c.open(path, "")
	if _, ok := c.diagnostics(uri, 30*time.Second); !ok {
		t.Fatal("no first analysis")
	}
	m := c.next("window/showMessage", 5*time.Second)
	if m == nil {
		t.Fatal("no showMessage for a slow fabric")
	}
	var sm ShowMessageParams
	if err := json.Unmarshal(m.Params, &sm); err != nil || !strings.Contains(sm.Message, "when you save") {
		t.Errorf("showMessage %s", m.Params)
	}
	fixed := strings.Replace(string(src), `trust = "none"`, `trust = "dscp"`, 1)
	c.change(uri, 2, fixed)
	if p, ok := c.diagnostics(uri, time.Second); ok {
		t.Errorf("a change to a slow fabric was analysed as you type: %+v", p)
	}
	if err := os.WriteFile(path, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("textDocument/didSave", DidSaveParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	p, ok := c.diagnostics(uri, 30*time.Second)
	if !ok || len(p.Diagnostics) != 0 {
		t.Errorf("after save: %v %+v", ok, p.Diagnostics)
	}
	if m := c.next("window/showMessage", 300*time.Millisecond); m != nil {
		t.Errorf("a second showMessage while still slow: %s", m.Params)
	}
}

// TestStaleFilesCleared: a finding in one file of the directory is
// published for that file, and cleared once a change in another file
// removes its cause; files never open are published by path.
func TestStaleFilesCleared(t *testing.T) {
	dir := copyExample(t, "broken/core-zeroes-dscp")
	path := filepath.Join(dir, "fabric.fab.hcl")
	src, _ := os.ReadFile(path)
	// Move the core's policy to a file of its own that stays closed.
	i := strings.Index(string(src), "qos_policy \"core\"")
	if i < 0 {
		t.Fatal("example changed: no qos_policy \"core\"")
	}
	j := i + strings.Index(string(src[i:]), "\n}\n") + 3
	other := filepath.Join(dir, "core.fab.hcl")
	if err := os.WriteFile(other, src[i:j], 0o644); err != nil {
		t.Fatal(err)
	}
	rest := string(src[:i]) + string(src[j:])
	if err := os.WriteFile(path, []byte(rest), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{})
	c.initialize()
	uri := c.open(path, "")
	otherURI := pathToURI(other)
	p, ok := c.diagnostics(otherURI, 30*time.Second)
	if !ok || len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "QOS001" || p.Version != nil {
		t.Fatalf("the closed file: %v %+v", ok, p)
	}
	// Attach the core's ports to another policy in the open file: the
	// closed file's finding goes, and its diagnostics are cleared.
	fixed := strings.ReplaceAll(rest, "qos_policy.core", "qos_policy.lossless")
	if fixed == rest {
		t.Fatal("example changed: nothing refers to qos_policy.core")
	}
	c.change(uri, 2, fixed)
	p, ok = c.diagnostics(otherURI, 30*time.Second)
	if !ok || len(p.Diagnostics) != 0 {
		t.Errorf("the closed file after the fix: %v %+v", ok, p)
	}
}

// TestFormatting: formatting returns fabricgen fmt's text as one edit,
// nothing for a canonical buffer, and an error naming the line for one
// that does not parse.
func TestFormatting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.fab.hcl")
	c := startServer(t, Options{Debounce: time.Hour})
	c.initialize()
	uri := c.open(path, "fabric \"x\" {\ndescription=\"y\"\n}\n")
	m := c.call("textDocument/formatting", DocumentFormattingParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	var edits []TextEdit
	if m.Error != nil || json.Unmarshal(m.Result, &edits) != nil || len(edits) != 1 {
		t.Fatalf("formatting: %s %v", m.Result, m.Error)
	}
	if edits[0].NewText != "fabric \"x\" {\n  description = \"y\"\n}\n" || edits[0].Range.End.Line != 3 {
		t.Errorf("edit %+v", edits[0])
	}
	c.change(uri, 2, edits[0].NewText)
	m = c.call("textDocument/formatting", DocumentFormattingParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	if m.Error != nil || string(m.Result) != "[]" {
		t.Errorf("formatting a canonical buffer: %s %v", m.Result, m.Error)
	}
	c.change(uri, 3, "fabric \"x\" {\n  description = \n")
	m = c.call("textDocument/formatting", DocumentFormattingParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	if m.Error == nil || !strings.Contains(m.Error.Message, "line ") {
		t.Errorf("formatting a broken buffer: %s %+v", m.Result, m.Error)
	}
}

// TestLintConfigBuffer: an open, unsaved .fabricgen.hcl that turns a rule
// off takes effect, and a broken one is reported in its own file.
func TestLintConfigBuffer(t *testing.T) {
	dir := copyExample(t, "broken/core-zeroes-dscp")
	path := filepath.Join(dir, "fabric.fab.hcl")
	c := startServer(t, Options{})
	c.initialize()
	uri := c.open(path, "")
	if p, ok := c.diagnostics(uri, 30*time.Second); !ok || len(p.Diagnostics) == 0 {
		t.Fatal("no finding to turn off")
	}
	cfg := filepath.Join(dir, ".fabricgen.hcl")
	cfgURI := c.open(cfg, "rule \"QOS001\" {\n  enabled = false\n}\n")
	p, ok := c.diagnostics(uri, 30*time.Second)
	if !ok || len(p.Diagnostics) != 0 {
		t.Errorf("with QOS001 off: %v %+v", ok, p.Diagnostics)
	}
	c.change(cfgURI, 2, "rule \"QOS999\" {\n  enabled = false\n}\n")
	p, ok = c.diagnostics(cfgURI, 30*time.Second)
	if !ok || len(p.Diagnostics) == 0 || p.Diagnostics[0].Range.Start.Line != 0 {
		t.Errorf("a broken configuration: %v %+v", ok, p.Diagnostics)
	}
}

// TestHostileDocuments: buffers and files no intent should be — 100,000
// nested brackets, a named pipe called *.fab.hcl, a symlink out of the
// directory, invalid UTF-8 — give diagnostics at their file, never a
// crash or a hang.
func TestHostileDocuments(t *testing.T) {
	dir := copyExample(t, "broken/core-zeroes-dscp")
	if err := mkfifo(filepath.Join(dir, "pipe.fab.hcl")); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.fab.hcl")
	if err := os.WriteFile(outside, []byte("fabric \"other\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.fab.hcl")); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{})
	c.initialize()
	deep := filepath.Join(dir, "deep.fab.hcl")
	uri := c.open(deep, "locals {\n  x = "+strings.Repeat("[", 100000)+"\n}\n")
	p, ok := c.diagnostics(uri, 30*time.Second)
	if !ok || len(p.Diagnostics) == 0 || !strings.Contains(p.Diagnostics[0].Message, "Nested too deeply") {
		t.Fatalf("100,000 brackets: %v %+v", ok, p.Diagnostics)
	}
	pipe, ok := c.diagnostics(pathToURI(filepath.Join(dir, "pipe.fab.hcl")), 30*time.Second)
	if !ok || len(pipe.Diagnostics) == 0 || !strings.Contains(pipe.Diagnostics[0].Message, "Not a regular file") {
		t.Errorf("the named pipe: %v %+v", ok, pipe.Diagnostics)
	}
	c.change(uri, 2, "fabric \"\xff\" {}\n")
	if m := c.call("textDocument/formatting", DocumentFormattingParams{TextDocument: TextDocumentIdentifier{URI: uri}}); m.Error != nil && m.Error.Code == jsonrpc.CodeInternalError {
		t.Errorf("formatting invalid UTF-8: %v", m.Error)
	}
	if err := c.exit(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestCodeActions: QOS001's quick fix sets trust = "dscp" in the policy
// the finding points at, and the suppression inserts a comment above the
// attribute; applying either (through the server, as an editor does)
// clears the finding.
func TestCodeActions(t *testing.T) {
	dir := copyExample(t, "broken/core-zeroes-dscp")
	path := filepath.Join(dir, "fabric.fab.hcl")
	src, _ := os.ReadFile(path)
	c := startServer(t, Options{})
	c.initialize()
	uri := c.open(path, "")
	p, ok := c.diagnostics(uri, 30*time.Second)
	if !ok {
		t.Fatal("no diagnostics")
	}
	var q Diagnostic
	for _, d := range p.Diagnostics {
		if d.Code == "QOS001" {
			q = d
		}
	}
	params := CodeActionParams{TextDocument: TextDocumentIdentifier{URI: uri}, Range: q.Range}
	params.Context.Diagnostics = []Diagnostic{q}
	m := c.call("textDocument/codeAction", params)
	var actions []CodeAction
	if m.Error != nil || json.Unmarshal(m.Result, &actions) != nil || len(actions) != 2 {
		t.Fatalf("code actions: %s %v", m.Result, m.Error)
	}
	if !actions[0].IsPreferred || actions[0].Title != `Set trust = "dscp"` || actions[0].Kind != "quickfix" {
		t.Errorf("first action %+v", actions[0])
	}
	lines := strings.Split(string(src), "\n")
	for i, a := range actions {
		edits := a.Edit.Changes[uri]
		if len(edits) != 1 {
			t.Fatalf("action %q: %d edits", a.Title, len(edits))
		}
		e := edits[0]
		l := append([]string(nil), lines...)
		line := l[e.Range.Start.Line]
		l[e.Range.Start.Line] = line[:e.Range.Start.Character] + e.NewText + line[e.Range.End.Character:]
		if e.Range.Start.Line != e.Range.End.Line {
			t.Fatalf("action %q spans lines: %+v", a.Title, e.Range)
		}
		text := strings.Join(l, "\n")
		c.change(uri, 2+i, text)
		p, ok := c.diagnostics(uri, 30*time.Second)
		if !ok {
			t.Fatalf("action %q: nothing published", a.Title)
		}
		for _, d := range p.Diagnostics {
			if d.Code == "QOS001" {
				t.Errorf("action %q left QOS001: %s", a.Title, d.Message)
			}
			if d.Severity <= SeverityWarning {
				t.Errorf("action %q brought %s: %s", a.Title, d.Code, d.Message)
			}
		}
		c.change(uri, 10+i, string(src))
		if _, ok := c.diagnostics(uri, 30*time.Second); !ok {
			t.Fatal("nothing published after the undo")
		}
	}
}

// TestChangeCancelsAnalysis: a change while the directory is being
// analysed cancels that analysis (it publishes nothing), and the next
// publish is of the new version.
func TestChangeCancelsAnalysis(t *testing.T) {
	dir := copyExample(t, "scale")
	path := filepath.Join(dir, "scale.fab.hcl")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{}, 16)
	cancelled := make(chan bool, 16)
	getenv := func(k string) string {
		if k == "FABRICGEN_VAR_leaves" {
			started <- struct{}{} // the loader reads variables first
			return "512"
		}
		return ""
	}
	c := startServer(t, Options{Debounce: -1, Getenv: getenv, analysed: func(_ string, c bool) { cancelled <- c }})
	c.initialize()
	uri := c.open(path, string(src))
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the first analysis did not start")
	}
	c.change(uri, 2, string(src)+"\n# edit\n")
	p, ok := c.diagnostics(uri, time.Minute)
	if !ok || p.Version == nil || *p.Version != 2 {
		t.Fatalf("first publish: %v version %v", ok, p.Version)
	}
	select {
	case was := <-cancelled:
		if !was {
			t.Error("the analysis of version 1 ran to its end after version 2 arrived")
		}
	default:
		t.Error("no analysis was reported")
	}
}
