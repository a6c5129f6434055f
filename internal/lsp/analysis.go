package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/lsp/nav"
	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/schema"
)

// fabricState is one fabric directory's analysis state.
type fabricState struct {
	dir string
	// gen counts the analyses asked for: only the newest publishes.
	gen    uint64
	timer  *time.Timer
	cancel context.CancelFunc
	// published holds the URIs, by path, last published non-empty.
	published map[string]string
	// onSave is set while analysing takes longer than SlowAfter.
	onSave bool
	// fabric and texts are the last analysis' model and sources (fabric
	// nil when the intent did not load).
	fabric *schema.Fabric
	texts  map[string]*text
	// edits counts the changes to the directory's buffers and files
	// the server heard of; ix is the syntax index of them as of edits
	// ixGen, with the texts it was built from.
	edits   uint64
	ix      *nav.Index
	ixGen   uint64
	ixTexts map[string]*text
}

// state returns dir's state, creating it; s.mu is held.
func (s *server) state(dir string) *fabricState {
	st := s.fabrics[dir]
	if st == nil {
		st = &fabricState{dir: dir, published: map[string]string{}}
		s.fabrics[dir] = st
	}
	return st
}

// dirsOf is the fabric directories a change to path affects: its own for
// an intent file; for a lint configuration, every fabric directory the
// server knows under the configuration's directory.
func (s *server) dirsOf(path string) []string {
	dir := filepath.Dir(path)
	if filepath.Base(path) != lintConfigName {
		return []string{dir}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for d := range s.fabrics {
		if d == dir || strings.HasPrefix(d, dir+string(filepath.Separator)) {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// changed reacts to a buffer's new text: its syntax errors at once, the
// directory's analysis after the debounce (on save only, for a slow one,
// unless nothing was published for it yet).
func (s *server) changed(path string, d *document) {
	if filepath.Base(path) == lintConfigName {
		s.schedule(s.dirsOf(path), s.opts.Debounce)
		return
	}
	dir := filepath.Dir(path)
	s.mu.Lock()
	enc, uri, version, t := s.enc, d.uri, d.version, d.text
	st := s.state(dir)
	onSave, analysed := st.onSave, st.texts != nil
	s.mu.Unlock()
	if ds := syntaxDiagnostics(path, t.src); len(ds) > 0 {
		out := make([]Diagnostic, 0, len(ds))
		for _, d := range ds {
			out = append(out, s.convert(d, path, map[string]*text{path: t}, nil, enc))
		}
		s.mu.Lock()
		st.published[path] = uri
		s.mu.Unlock()
		s.publish(uri, &version, out)
	}
	if onSave && analysed {
		return
	}
	s.schedule([]string{dir}, s.opts.Debounce)
}

// syntaxDiagnostics parses one file alone: what the editor shows at once.
func syntaxDiagnostics(path string, src []byte) schema.Diagnostics {
	var deep *nestlimit.Error
	p := hclparse.NewParser()
	var ds hcl.Diagnostics
	if strings.HasSuffix(path, schema.JSONSuffix) {
		if errors.As(nestlimit.JSON(src, path), &deep) {
			return schema.Diagnostics{nestDiag(deep)}
		}
		_, ds = p.ParseJSON(src, path)
	} else {
		if errors.As(nestlimit.HCL(src, path), &deep) {
			return schema.Diagnostics{nestDiag(deep)}
		}
		_, ds = p.ParseHCL(src, path)
	}
	var out schema.Diagnostics
	for _, d := range ds {
		if d.Severity != hcl.DiagError {
			continue
		}
		sd := &schema.Diagnostic{Severity: schema.SevError, Summary: d.Summary, Detail: d.Detail}
		if d.Subject != nil {
			r := schema.RangeFromHCL(*d.Subject)
			sd.Subject = &r
		}
		out = append(out, sd)
	}
	return out
}

func nestDiag(e *nestlimit.Error) *schema.Diagnostic {
	r := schema.RangeFromHCL(e.Range)
	return &schema.Diagnostic{Severity: schema.SevError, Summary: "Nested too deeply", Detail: e.Detail, Subject: &r}
}

// schedule asks for an analysis of each dir after delay, cancelling the
// one in progress.
func (s *server) schedule(dirs []string, delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	for _, dir := range dirs {
		st := s.state(dir)
		st.gen++
		if st.timer != nil {
			st.timer.Stop()
		}
		if st.cancel != nil {
			st.cancel()
			st.cancel = nil
		}
		gen := st.gen
		st.timer = time.AfterFunc(max(delay, 0), func() { s.analyse(dir, gen) })
	}
}

// analyse runs analysis number gen of dir and publishes it unless a newer
// one was asked for meanwhile.
func (s *server) analyse(dir string, gen uint64) {
	s.mu.Lock()
	st := s.fabrics[dir]
	if s.stopped || st == nil || st.gen != gen {
		s.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	st.cancel = cancel
	overlay := map[string][]byte{}
	versions := map[string]int{}
	uris := map[string]string{}
	for p, d := range s.docs {
		overlay[p] = d.text.src
		versions[p] = d.version
		uris[p] = d.uri
	}
	enc := s.enc
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	defer cancel()

	start := time.Now()
	res, perr := s.runGuarded(ctx, dir, overlay, enc)
	if perr != "" {
		s.showMessage(MessageError, perr)
		return
	}
	took := time.Since(start)
	if s.opts.analysed != nil {
		s.opts.analysed(dir, ctx.Err() != nil)
	}
	if ctx.Err() != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped || st.gen != gen {
		return
	}
	st.cancel = nil
	st.fabric, st.texts = res.fabric, res.texts
	paths := make([]string, 0, len(res.byFile)+len(st.published))
	for p := range res.byFile {
		paths = append(paths, p)
	}
	for p := range res.texts {
		if _, ok := res.byFile[p]; !ok && strings.HasPrefix(p, dir+string(filepath.Separator)) {
			res.byFile[p] = nil
			paths = append(paths, p)
		}
	}
	for p := range st.published {
		if _, ok := res.byFile[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	next := map[string]string{}
	for _, p := range paths {
		uri := uris[p]
		if uri == "" {
			uri = st.published[p]
		}
		if uri == "" {
			uri = pathToURI(p)
		}
		var version *int
		if v, ok := versions[p]; ok {
			version = &v
		}
		ds := res.byFile[p]
		if ds == nil {
			ds = []Diagnostic{}
		} else {
			next[p] = uri
		}
		s.publish(uri, version, ds)
	}
	st.published = next
	switch {
	case took > s.opts.SlowAfter && !st.onSave:
		st.onSave = true
		s.showMessage(MessageInfo, fmt.Sprintf("fabricgen: checking %s took %.1f s; its findings now update when you save (as-you-type checks come back when a check takes under %.1f s).", dir, took.Seconds(), s.opts.SlowAfter.Seconds()/2))
	case took < s.opts.SlowAfter/2 && st.onSave:
		st.onSave = false
		s.showMessage(MessageInfo, fmt.Sprintf("fabricgen: checking %s takes %.2f s again; its findings update as you type.", dir, took.Seconds()))
	}
}

// publish sends one document's diagnostics. A write error means the
// client is gone: the read loop ends the session when the stream closes.
func (s *server) publish(uri string, version *int, ds []Diagnostic) {
	_ = s.w.Notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: uri, Version: version, Diagnostics: ds})
}

func (s *server) showMessage(typ int, msg string) {
	_ = s.w.Notify("window/showMessage", ShowMessageParams{Type: typ, Message: msg})
}

// result is one analysis of a directory.
type result struct {
	fabric *schema.Fabric
	byFile map[string][]Diagnostic
	texts  map[string]*text
}

// runGuarded is run, with a panic (a bug) turned into a message for the
// editor rather than the end of the session.
func (s *server) runGuarded(ctx context.Context, dir string, overlay map[string][]byte, enc string) (res result, msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("fabricgen: checking %s failed: %v (please report this)", dir, r)
		}
	}()
	return s.run(ctx, dir, overlay, enc), ""
}

// run validates and lints dir with overlay laid over the disk.
func (s *server) run(ctx context.Context, dir string, overlay map[string][]byte, enc string) result {
	res := result{byFile: map[string][]Diagnostic{}, texts: map[string]*text{}}
	var all diag.Diagnostics
	cfg, cfgErr := s.lintConfig(ctx, dir, overlay)
	var ce *lint.ConfigError
	switch {
	case errors.As(cfgErr, &ce):
		res.texts[ce.Path] = newText(ce.Source)
		all = append(all, ce.Diagnostics...)
	case cfgErr != nil:
		all = append(all, &diag.Diagnostic{Severity: diag.Error, Summary: "Cannot read the lint configuration", Detail: cfgErr.Error()})
	}
	opts := schema.Options{Platforms: s.opts.Platforms, Getenv: s.opts.Getenv, Overlay: overlay}
	f, diags := schema.LoadContext(ctx, dir, opts)
	if ctx.Err() != nil {
		return res
	}
	all = append(all, diags...)
	if f != nil {
		for p, src := range f.Files {
			res.texts[p] = newText(src)
		}
	}
	if f != nil && !diags.HasErrors() && cfgErr == nil {
		findings, err := lint.Run(ctx, f, lint.Options{Config: cfg})
		if err != nil {
			return res // cancelled
		}
		all = append(all, lint.Diagnostics(findings)...)
		res.fabric = f
	}
	fallback := ""
	if f != nil && !f.Range.IsZero() {
		fallback = f.Range.Filename
	} else if files, err := schema.IntentFiles(dir); err == nil && len(files) > 0 {
		fallback = files[0]
	}
	for _, d := range all {
		path := fallback
		if d.Subject != nil && !d.Subject.FromCommandLine() && d.Subject.Filename != "" {
			path = d.Subject.Filename
		}
		if path == "" {
			continue
		}
		s.textOf(path, overlay, res.texts)
		res.byFile[path] = append(res.byFile[path], s.convert(d, path, res.texts, res.fabric, enc))
	}
	return res
}

// textOf makes sure texts holds path's text: the buffer, else the file
// read as the loader reads it (empty when it cannot be read).
func (s *server) textOf(path string, overlay map[string][]byte, texts map[string]*text) *text {
	if t, ok := texts[path]; ok {
		return t
	}
	src, ok := overlay[path]
	if !ok {
		b, err := readlimit.File(path, schema.MaxFileSize)
		if err == nil {
			src = b
		}
	}
	t := newText(src)
	texts[path] = t
	return t
}

// lintConfig finds and reads dir's .fabricgen.hcl as lint does, an open
// buffer of it taking the place of the file.
func (s *server) lintConfig(ctx context.Context, dir string, overlay map[string][]byte) (*lint.Config, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("finding %s: %w", lintConfigName, err)
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := filepath.Join(abs, lintConfigName)
		if src, ok := overlay[p]; ok {
			return lint.ParseConfig(p, src)
		}
		if _, err := os.Stat(p); err == nil {
			return lint.LoadConfig(ctx, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("reading %s: %w", p, err)
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return nil, nil
		}
		abs = parent
	}
}

// maxRelated bounds a diagnostic's related locations.
const maxRelated = 48

// diagData is what a published diagnostic carries for its code actions.
type diagData struct {
	Rule string `json:"rule,omitempty"`
	// Attr and Value are the finding's one-attribute fix.
	Attr  string `json:"attr,omitempty"`
	Value string `json:"value,omitempty"`
}

// convert makes an LSP diagnostic of d, which belongs to path.
func (s *server) convert(d *diag.Diagnostic, path string, texts map[string]*text, f *schema.Fabric, enc string) Diagnostic {
	t := texts[path]
	if t == nil {
		t = newText(nil)
	}
	out := Diagnostic{Source: "fabricgen", Message: message(d)}
	if d.Subject != nil && d.Subject.Filename == path {
		out.Range = t.rangeOf(*d.Subject, enc)
	}
	switch d.Severity {
	case diag.Error:
		out.Severity = SeverityError
	case diag.Warning:
		out.Severity = SeverityWarning
	default:
		out.Severity = SeverityInformation
	}
	out.Code = d.Rule
	if out.Code == "" {
		out.Code = lint.ValidationRule
	}
	if href := s.helpURIs[strings.ToUpper(out.Code)]; href != "" {
		out.CodeDescription = &CodeDescription{Href: href}
	}
	loc := func(r schema.Range) (Location, bool) {
		if r.IsZero() || r.FromCommandLine() {
			return Location{}, false
		}
		rt, ok := texts[r.Filename]
		if !ok {
			return Location{}, false
		}
		return Location{URI: pathToURI(r.Filename), Range: rt.rangeOf(r, enc)}, true
	}
	add := func(r schema.Range, msg string) {
		if len(out.RelatedInformation) >= maxRelated {
			return
		}
		if l, ok := loc(r); ok {
			out.RelatedInformation = append(out.RelatedInformation, DiagnosticRelatedInformation{Location: l, Message: msg})
		}
	}
	for i, st := range d.Trace {
		msg := fmt.Sprintf("hop %d/%d %s", i+1, len(d.Trace), st.Port)
		if st.Note != "" {
			msg += ": " + st.Note
		}
		r := st.Src
		if r.IsZero() || r.FromCommandLine() {
			r = hopRange(f, st)
		}
		add(r, msg)
	}
	for _, r := range d.Related {
		add(r.Range, r.Message)
	}
	for _, r := range d.Places {
		add(r.Range, "place: "+r.Message)
	}
	dd := diagData{Rule: d.Rule}
	if d.Edit != nil {
		dd.Attr, dd.Value = d.Edit.Attr, d.Edit.Value
	}
	data, err := json.Marshal(dd)
	if err == nil {
		out.Data = data
	}
	return out
}

// hopRange is the location of a hop of a trace whose step names no
// source: the port's block.
func hopRange(f *schema.Fabric, st diag.Step) schema.Range {
	if f == nil {
		return schema.Range{}
	}
	dev, port, ok := strings.Cut(st.Port, ":")
	if !ok {
		return schema.Range{}
	}
	d := f.Device(dev)
	if d == nil {
		return schema.Range{}
	}
	if p := d.Port(port); p != nil {
		return p.Range
	}
	return d.Range
}

// message is a diagnostic's text: the summary, the detail, how many
// places share it and the fix.
func message(d *diag.Diagnostic) string {
	var b strings.Builder
	b.WriteString(d.Summary)
	if d.Detail != "" {
		b.WriteString("\n\n")
		b.WriteString(d.Detail)
	}
	if d.Count > 1 {
		fmt.Fprintf(&b, "\n\n%d places share this.", d.Count)
	}
	if d.Fix != "" {
		b.WriteString("\n\nFix: ")
		b.WriteString(d.Fix)
	}
	return b.String()
}
