// Package lsp is fabricgen lsp: a Language Server Protocol 3.17 server
// over stdio for fabric intent files.
//
// The unit of analysis is the fabric directory, with the buffers the
// editor has open laid over the files on disk (schema.Options.Overlay).
// On each change the changed file is parsed at once and its syntax errors
// published; after a short debounce, any analysis of the directory still
// running is cancelled and validate + lint run again, and the findings of
// every file of the directory are published, files that no longer have
// any cleared. A directory whose analysis takes longer than SlowAfter is
// analysed on save instead, and the editor is told so.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fabricgen/fabricgen/internal/lsp/jsonrpc"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/schema"
)

// Options configure a server.
type Options struct {
	// Platforms is the platform catalog the loader needs (platforms.Catalog()).
	Platforms []schema.PlatformSpec
	// Version is the server's version, reported to the client.
	Version string
	// Debounce is the quiet time after a change before the directory is
	// analysed again (DefaultDebounce when 0; negative: none).
	Debounce time.Duration
	// SlowAfter is the analysis time above which a directory is analysed
	// on save only (DefaultSlowAfter when 0).
	SlowAfter time.Duration
	// Getenv looks up FABRICGEN_VAR_name settings; nil means os.Getenv.
	Getenv func(string) string

	// analysed, when set (tests), hears of every analysis that ran: its
	// directory and whether it was cancelled before it could publish.
	analysed func(dir string, cancelled bool)
}

// Defaults of Options.
const (
	DefaultDebounce  = 200 * time.Millisecond
	DefaultSlowAfter = time.Second
)

// maxDocs bounds the documents a client may hold open, and maxDocBytes
// their total size: a client cannot make the server grow without bound.
const (
	maxDocs     = 4096
	maxDocBytes = 512 << 20
)

// ErrNoShutdown is returned when the client ends the session (exit, or
// closing the stream) without a shutdown request first.
var ErrNoShutdown = errors.New("the client ended the session without a shutdown request")

// Serve runs the server on in/out until the client sends exit or closes
// in, or ctx is done. It returns nil after shutdown and exit.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Debounce == 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.SlowAfter == 0 {
		opts.SlowAfter = DefaultSlowAfter
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	help := map[string]string{}
	for _, r := range lint.Rules() {
		help[strings.ToUpper(r.ID)] = r.HelpURI()
	}
	names := make([]string, 0, len(opts.Platforms))
	for _, p := range opts.Platforms {
		names = append(names, string(p.Name))
	}
	s := &server{
		opts:          opts,
		helpURIs:      help,
		platformNames: names,
		lang:          schema.Language(),
		w:             jsonrpc.NewWriter(out),
		ctx:           ctx,
		docs:          map[string]*document{},
		fabrics:       map[string]*fabricState{},
		enc:           encUTF16,
	}
	defer s.stop()
	r := jsonrpc.NewReader(in)
	frames := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		for {
			body, err := r.ReadFrame()
			if err != nil {
				readErr <- err
				return
			}
			select {
			case frames <- body:
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-readErr:
			if errors.Is(err, io.EOF) {
				if s.isShutdown() {
					return nil
				}
				return ErrNoShutdown
			}
			return fmt.Errorf("reading from the client: %w", err)
		case body := <-frames:
			done, err := s.handle(body)
			if err != nil {
				return err
			}
			if done {
				if s.isShutdown() {
					return nil
				}
				return ErrNoShutdown
			}
		}
	}
}

// server is one session's state.
type server struct {
	opts Options
	// helpURIs is each rule's documentation link, by upper-case ID.
	helpURIs map[string]string
	// platformNames are the catalog's platforms, for completion; lang is
	// the language's blocks (schema.Language), computed once.
	platformNames []string
	lang          []schema.BlockSpec
	w             *jsonrpc.Writer
	ctx           context.Context

	mu          sync.Mutex
	docs        map[string]*document // by path
	docBytes    int
	fabrics     map[string]*fabricState // by directory
	enc         string
	initialized bool
	shutdown    bool
	// stopped is set when the session ends: no analysis starts after it.
	stopped bool
	wg      sync.WaitGroup
}

// document is an open buffer.
type document struct {
	uri     string
	version int
	text    *text
}

func (s *server) isShutdown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}

// stop cancels every analysis and waits for them.
func (s *server) stop() {
	s.mu.Lock()
	s.stopped = true
	for _, st := range s.fabrics {
		if st.timer != nil {
			st.timer.Stop()
		}
		if st.cancel != nil {
			st.cancel()
		}
		st.gen++
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// handle processes one frame; done is true after exit. A write error
// (the client went away) ends the session.
func (s *server) handle(body []byte) (done bool, err error) {
	m, rerr := jsonrpc.Decode(body)
	if rerr != nil {
		if m != nil && len(m.ID) > 0 {
			return false, s.w.Reply(m.ID, nil, rerr)
		}
		return false, s.w.Reply(nil, nil, rerr)
	}
	if m.Method == "" {
		return false, nil // a response to a request the server never sends
	}
	if m.Method == "exit" {
		return true, nil
	}
	result, rerr := s.dispatch(m)
	if !m.IsRequest() {
		return false, nil
	}
	if rerr != nil {
		return false, s.w.Reply(m.ID, nil, rerr)
	}
	return false, s.w.Reply(m.ID, result, nil)
}

// dispatch runs one request or notification. A handler that panics is a
// bug: the request gets an internal error naming it, and the session goes on.
func (s *server) dispatch(m *jsonrpc.Message) (result any, rerr *jsonrpc.Error) {
	defer func() {
		if r := recover(); r != nil {
			result, rerr = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("fabricgen lsp failed on %s: %v (please report this)", clipText(m.Method, 80), r)}
		}
	}()
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case m.Method == "initialize":
		if initialized {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "initialize was sent twice"}
		}
		return s.initialize(m.Params)
	case !initialized:
		if m.IsRequest() {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeServerNotInitialized, Message: "the server is not initialized: send initialize first"}
		}
		return nil, nil
	case shutdown && m.IsRequest():
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "the server is shut down: send exit"}
	}
	h, ok := handlers[m.Method]
	if !ok {
		if m.IsRequest() {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("fabricgen lsp does not implement %q", clipText(m.Method, 80))}
		}
		return nil, nil // notifications the server does not handle ($/…, workspace/…) are ignored
	}
	return h(s, m.Params)
}

// handlers maps each method to its handler.
var handlers = map[string]func(*server, json.RawMessage) (any, *jsonrpc.Error){
	"initialized":                     func(*server, json.RawMessage) (any, *jsonrpc.Error) { return nil, nil },
	"shutdown":                        (*server).shutdownRequest,
	"textDocument/didOpen":            (*server).didOpen,
	"textDocument/didChange":          (*server).didChange,
	"textDocument/didClose":           (*server).didClose,
	"textDocument/didSave":            (*server).didSave,
	"textDocument/formatting":         (*server).formatting,
	"textDocument/hover":              (*server).hover,
	"textDocument/definition":         (*server).definition,
	"textDocument/references":         (*server).references,
	"textDocument/completion":         (*server).completion,
	"textDocument/documentSymbol":     (*server).documentSymbol,
	"textDocument/codeAction":         (*server).codeAction,
	"workspace/didChangeWatchedFiles": (*server).watchedFiles,
}

// decode parses params into v, or says what is wrong with them.
func decode(params json.RawMessage, v any) *jsonrpc.Error {
	if len(params) == 0 {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "params are missing"}
	}
	if err := json.Unmarshal(params, v); err != nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("params: %v", err)}
	}
	return nil
}

func (s *server) initialize(params json.RawMessage) (any, *jsonrpc.Error) {
	var p InitializeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	enc := encUTF16
	for _, e := range p.Capabilities.General.PositionEncodings {
		if e == encUTF8 {
			enc = encUTF8
		}
	}
	s.mu.Lock()
	s.enc = enc
	s.initialized = true
	s.mu.Unlock()
	return InitializeResult{
		ServerInfo: ServerInfo{Name: "fabricgen", Version: s.opts.Version},
		Capabilities: ServerCapabilities{
			PositionEncoding:           enc,
			TextDocumentSync:           TextDocumentSync{OpenClose: true, Change: 1, Save: SaveOptions{IncludeText: false}},
			HoverProvider:              true,
			DefinitionProvider:         true,
			ReferencesProvider:         true,
			DocumentSymbolProvider:     true,
			DocumentFormattingProvider: true,
			CompletionProvider:         &CompletionOptions{TriggerCharacters: []string{".", "\"", ":", "="}},
			CodeActionProvider:         &CodeActionOptions{CodeActionKinds: []string{"quickfix"}},
		},
	}, nil
}

func (s *server) shutdownRequest(json.RawMessage) (any, *jsonrpc.Error) {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	s.stop()
	return nil, nil
}

// intentPath reports whether path is a file the server analyses: an
// intent file, or a lint configuration.
func intentPath(path string) bool {
	b := filepath.Base(path)
	return strings.HasSuffix(b, schema.HCLSuffix) || strings.HasSuffix(b, schema.JSONSuffix) || b == lintConfigName
}

// lintConfigName is the lint configuration's file name.
const lintConfigName = ".fabricgen.hcl"

func (s *server) didOpen(params json.RawMessage) (any, *jsonrpc.Error) {
	var p DidOpenParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	return nil, s.setDoc(p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text, true)
}

func (s *server) didChange(params json.RawMessage) (any, *jsonrpc.Error) {
	var p DidChangeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if len(p.ContentChanges) == 0 {
		return nil, nil
	}
	// Full sync: the last change holds the whole text.
	last := p.ContentChanges[len(p.ContentChanges)-1]
	if last.Range != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "fabricgen lsp asked for full document sync (textDocumentSync.change = 1); a ranged change cannot be applied"}
	}
	return nil, s.setDoc(p.TextDocument.URI, p.TextDocument.Version, last.Text, false)
}

// setDoc records a buffer's new text, publishes its syntax errors at
// once and schedules the directory's analysis.
func (s *server) setDoc(uri string, version int, src string, open bool) *jsonrpc.Error {
	path, ok := uriToPath(uri)
	if !ok || !intentPath(path) {
		return nil // another file: nothing to analyse
	}
	s.mu.Lock()
	d := s.docs[path]
	switch {
	case d == nil && !open:
		s.mu.Unlock()
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s changed without being opened", clipText(uri, 200))}
	case d == nil && len(s.docs) >= maxDocs:
		s.mu.Unlock()
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("more than %d documents open: close some", maxDocs)}
	}
	old := 0
	if d != nil {
		old = len(d.text.src)
	}
	if s.docBytes-old+len(src) > maxDocBytes {
		s.mu.Unlock()
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("the open documents would hold more than %d MiB: close some", maxDocBytes>>20)}
	}
	if d == nil {
		d = &document{uri: uri}
		s.docs[path] = d
	}
	s.docBytes += len(src) - old
	d.version, d.text = version, newText([]byte(src))
	s.edited(path)
	s.mu.Unlock()
	s.changed(path, d)
	return nil
}

func (s *server) didClose(params json.RawMessage) (any, *jsonrpc.Error) {
	var p DidCloseParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, ok := uriToPath(p.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	s.mu.Lock()
	d := s.docs[path]
	if d != nil {
		s.docBytes -= len(d.text.src)
		delete(s.docs, path)
		s.edited(path)
	}
	s.mu.Unlock()
	if d != nil {
		// The file on disk is the truth again.
		s.schedule(s.dirsOf(path), 0)
	}
	return nil, nil
}

func (s *server) didSave(params json.RawMessage) (any, *jsonrpc.Error) {
	var p DidSaveParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, ok := uriToPath(p.TextDocument.URI)
	if !ok || !intentPath(path) {
		return nil, nil
	}
	s.schedule(s.dirsOf(path), 0)
	return nil, nil
}

// watchedFiles re-analyses the directories of files changed on disk.
func (s *server) watchedFiles(params json.RawMessage) (any, *jsonrpc.Error) {
	var p struct {
		Changes []struct {
			URI string `json:"uri"`
		} `json:"changes"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	var dirs []string
	for _, c := range p.Changes {
		if path, ok := uriToPath(c.URI); ok && intentPath(path) {
			s.mu.Lock()
			s.edited(path)
			s.mu.Unlock()
			dirs = append(dirs, s.dirsOf(path)...)
		}
	}
	s.schedule(dirs, s.opts.Debounce)
	return nil, nil
}

// edited records a change to path's directory (s.mu is held): its
// syntax index is rebuilt on the next request.
func (s *server) edited(path string) {
	if st := s.fabrics[filepath.Dir(path)]; st != nil {
		st.edits++
	}
}

// clipText bounds a client-given string quoted in a message.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
