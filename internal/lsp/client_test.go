package lsp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lsp/jsonrpc"
	"github.com/fabricgen/fabricgen/platforms"
)

// client speaks raw JSON-RPC to a server running on pipes, as an editor does.
type client struct {
	t    testing.TB
	w    *jsonrpc.Writer
	in   *io.PipeWriter
	msgs chan *jsonrpc.Message
	done chan error
	id   int

	mu      sync.Mutex
	pending []*jsonrpc.Message // notifications not taken yet
}

// startServer runs Serve on pipes with opts (the catalog filled in).
func startServer(t testing.TB, opts Options) *client {
	t.Helper()
	if opts.Platforms == nil {
		opts.Platforms = platforms.Catalog()
	}
	if opts.Debounce == 0 {
		opts.Debounce = 20 * time.Millisecond
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	c := &client{t: t, w: jsonrpc.NewWriter(cw), in: cw, msgs: make(chan *jsonrpc.Message, 1024), done: make(chan error, 1)}
	go func() {
		err := Serve(context.Background(), sr, sw, opts)
		sw.Close()
		sr.Close()
		c.done <- err
	}()
	go func() {
		r := jsonrpc.NewReader(cr)
		for {
			body, err := r.ReadFrame()
			if err != nil {
				close(c.msgs)
				return
			}
			m, rerr := jsonrpc.Decode(body)
			if rerr != nil {
				c.t.Errorf("the server sent a bad message %q: %v", body, rerr)
				continue
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() {
		c.in.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop within 10 s of its input closing")
		}
	})
	return c
}

// notify sends a notification.
func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.w.Notify(method, params); err != nil {
		c.t.Fatalf("sending %s: %v", method, err)
	}
}

// call sends a request and waits for its response; notifications that
// arrive meanwhile are kept for next.
func (c *client) call(method string, params any) *jsonrpc.Message {
	c.t.Helper()
	c.id++
	id := json.RawMessage(strings.TrimSpace(string(mustJSON(c.t, c.id))))
	raw := mustJSON(c.t, params)
	if params == nil {
		raw = nil
	}
	if err := c.w.Write(&jsonrpc.Message{ID: id, Method: method, Params: raw}); err != nil {
		c.t.Fatalf("sending %s: %v", method, err)
	}
	deadline := time.After(30 * time.Second)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("the server closed the stream before answering %s", method)
			}
			if m.Method != "" || len(m.ID) == 0 {
				// A notification, or the error answer to a message
				// without an id (a parse error): kept for next.
				if m.Method == "" {
					m.Method = "(error)"
				}
				c.mu.Lock()
				c.pending = append(c.pending, m)
				c.mu.Unlock()
				continue
			}
			if string(m.ID) != string(id) {
				c.t.Fatalf("answer to id %s while waiting for %s", m.ID, id)
			}
			return m
		case <-deadline:
			c.t.Fatalf("no answer to %s within 30 s", method)
		}
	}
}

// next returns the next notification of method within d, or nil.
func (c *client) next(method string, d time.Duration) *jsonrpc.Message {
	c.t.Helper()
	c.mu.Lock()
	for i, m := range c.pending {
		if m.Method == method {
			c.pending = append(c.pending[:i:i], c.pending[i+1:]...)
			c.mu.Unlock()
			return m
		}
	}
	c.mu.Unlock()
	deadline := time.After(d)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				return nil
			}
			if m.Method == method {
				return m
			}
			c.mu.Lock()
			c.pending = append(c.pending, m)
			c.mu.Unlock()
		case <-deadline:
			return nil
		}
	}
}

// diagnostics waits for the next publishDiagnostics of uri.
func (c *client) diagnostics(uri string, d time.Duration) (PublishDiagnosticsParams, bool) {
	c.t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		m := c.next("textDocument/publishDiagnostics", time.Until(deadline))
		if m == nil {
			break
		}
		var p PublishDiagnosticsParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			c.t.Fatalf("publishDiagnostics params: %v", err)
		}
		if p.URI == uri {
			return p, true
		}
	}
	return PublishDiagnosticsParams{}, false
}

// initialize runs the handshake; encodings are the client's position encodings.
func (c *client) initialize(encodings ...string) InitializeResult {
	c.t.Helper()
	caps := map[string]any{"general": map[string]any{"positionEncodings": encodings}}
	m := c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": caps})
	if m.Error != nil {
		c.t.Fatalf("initialize: %v", m.Error)
	}
	var r InitializeResult
	if err := json.Unmarshal(m.Result, &r); err != nil {
		c.t.Fatal(err)
	}
	c.notify("initialized", map[string]any{})
	return r
}

// open opens path with text (its file's when text is "").
func (c *client) open(path, text string) string {
	c.t.Helper()
	if text == "" {
		b, err := os.ReadFile(path)
		if err != nil {
			c.t.Fatal(err)
		}
		text = string(b)
	}
	uri := pathToURI(path)
	c.notify("textDocument/didOpen", DidOpenParams{TextDocument: TextDocumentItem{URI: uri, LanguageID: "fabricgen", Version: 1, Text: text}})
	return uri
}

// change replaces the whole text of uri.
func (c *client) change(uri string, version int, text string) {
	c.t.Helper()
	c.notify("textDocument/didChange", DidChangeParams{TextDocument: VersionedTextDocumentIdentifier{URI: uri, Version: version}, ContentChanges: []ContentChange{{Text: text}}})
}

// exit shuts the server down and returns what Serve returned.
func (c *client) exit() error {
	c.t.Helper()
	if m := c.call("shutdown", nil); m.Error != nil {
		c.t.Fatalf("shutdown: %v", m.Error)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		c.done <- err
		return err
	case <-time.After(10 * time.Second):
		c.t.Fatal("the server did not exit within 10 s")
	}
	return nil
}

func mustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// copyExample copies examples/NAME into a temporary directory and returns
// the directory (absolute).
func copyExample(t testing.TB, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "examples", name)
	dst := t.TempDir()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}
