package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fabricgen/fabricgen/internal/hclfmt"
	"github.com/fabricgen/fabricgen/internal/lsp/jsonrpc"
	"github.com/fabricgen/fabricgen/schema"
)

// doc returns the open document of uri with its path, or an error for a
// document the client did not open.
func (s *server) doc(uri string) (string, *document, *jsonrpc.Error) {
	path, ok := uriToPath(uri)
	if !ok {
		return "", nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s is not a file: URI", clipText(uri, 200))}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	if d == nil {
		return path, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s is not open", filepath.Base(path))}
	}
	return path, d, nil
}

// formatting is fabricgen fmt on a buffer: one edit replacing the whole
// text, none when it is already canonical. A buffer that does not parse
// is an error saying where.
func (s *server) formatting(params json.RawMessage) (any, *jsonrpc.Error) {
	var p DocumentFormattingParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, d, rerr := s.doc(p.TextDocument.URI)
	if rerr != nil {
		return nil, rerr
	}
	if !strings.HasSuffix(path, schema.HCLSuffix) {
		return []TextEdit{}, nil // JSON and configuration files have no canonical layout here
	}
	s.mu.Lock()
	t, enc := d.text, s.enc
	s.mu.Unlock()
	out, ds := hclfmt.Format(t.src, path)
	if ds.HasErrors() {
		msg := "cannot format: " + ds[0].Summary
		if ds[0].Subject != nil {
			msg = fmt.Sprintf("cannot format: line %d: %s", ds[0].Subject.Start.Line, ds[0].Summary)
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: msg}
	}
	if string(out) == string(t.src) {
		return []TextEdit{}, nil
	}
	end := t.position(len(t.src), enc)
	return []TextEdit{{Range: Range{End: end}, NewText: string(out)}}, nil
}
