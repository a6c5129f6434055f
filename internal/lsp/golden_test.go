package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/golden"
)

// cursor is a request at the first occurrence of mark in file, at the
// byte offset of the "‸" inside mark (which is not in the file).
type cursor struct {
	method, file, mark string
}

// TestRequestGoldens: hover, definition, references, completion and
// document symbols on examples/clos-400g, through the server, against
// goldens in testdata/requests.golden (go test -update rewrites it).
func TestRequestGoldens(t *testing.T) {
	dir := copyExample(t, "clos-400g")
	c := startServer(t, Options{})
	c.initialize()
	uris := map[string]string{}
	texts := map[string]string{}
	for _, f := range []string{"qos.fab.hcl", "devices.fab.hcl"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		texts[f] = string(b)
		uris[f] = c.open(filepath.Join(dir, f), string(b))
	}
	if p, ok := c.diagnostics(uris["devices.fab.hcl"], 30*time.Second); !ok || len(p.Diagnostics) != 0 {
		t.Fatalf("clos-400g: %v %+v", ok, p.Diagnostics)
	}
	cases := []cursor{
		{"textDocument/hover", "qos.fab.hcl", "qos_policy  = qos_policy.fa‸bric"},
		{"textDocument/hover", "qos.fab.hcl", "traffic_class \"ro‸ce\""},
		{"textDocument/hover", "qos.fab.hcl", "ecn       = ecn_profile.ro‸ce"},
		{"textDocument/hover", "qos.fab.hcl", "  tru‸st            = \"dscp\""},
		{"textDocument/hover", "qos.fab.hcl", "pfc_watchdog     = pfc_watchdog.stan‸dard"},
		{"textDocument/hover", "devices.fab.hcl", "device \"le‸af\""},
		{"textDocument/hover", "devices.fab.hcl", "device \"ni‸c\""},
		{"textDocument/definition", "qos.fab.hcl", "qos_policy  = qos_policy.fa‸bric"},
		{"textDocument/definition", "qos.fab.hcl", "traffic_class.ro‸ce, traffic_class.cnp]"},
		{"textDocument/definition", "devices.fab.hcl", "for_each     = local.‸nics"},
		{"textDocument/references", "qos.fab.hcl", "traffic_class \"ro‸ce\""},
		{"textDocument/references", "qos.fab.hcl", "ecn_profile \"ro‸ce\""},
		{"textDocument/completion", "qos.fab.hcl", "qos_policy  = qos_policy.‸fabric"},
		{"textDocument/completion", "qos.fab.hcl", "  trust            = \"‸dscp\""},
		{"textDocument/completion", "qos.fab.hcl", "  scheduler = \"‸strict\""},
		{"textDocument/completion", "devices.fab.hcl", "  a            = \"‸${each.key}"},
		{"textDocument/documentSymbol", "qos.fab.hcl", "‸"},
	}
	var out bytes.Buffer
	for _, cs := range cases {
		text := texts[cs.file]
		at := strings.Index(cs.mark, "‸")
		i := strings.Index(text, strings.Replace(cs.mark, "‸", "", 1))
		if at < 0 || i < 0 {
			t.Fatalf("%s: %q is not in %s", cs.method, cs.mark, cs.file)
		}
		off := i + at
		tt := newText([]byte(text))
		pos := tt.position(off, encUTF16)
		var params any = TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: uris[cs.file]}, Position: pos}
		switch cs.method {
		case "textDocument/references":
			rp := ReferenceParams{TextDocumentPositionParams: params.(TextDocumentPositionParams)}
			rp.Context.IncludeDeclaration = true
			params = rp
		case "textDocument/documentSymbol":
			params = DocumentSymbolParams{TextDocument: TextDocumentIdentifier{URI: uris[cs.file]}}
		}
		m := c.call(cs.method, params)
		if m.Error != nil {
			t.Errorf("%s at %s: %v", cs.method, cs.mark, m.Error)
			continue
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, m.Result, "", "  "); err != nil {
			t.Fatal(err)
		}
		if string(m.Result) == "null" || string(m.Result) == "[]" {
			t.Errorf("%s at %q: %s", cs.method, cs.mark, m.Result)
		}
		fmt.Fprintf(&out, "=== %s %s %q (line %d, character %d)\n%s\n\n", cs.method, cs.file, cs.mark, pos.Line, pos.Character, pretty.String())
	}
	got := strings.ReplaceAll(out.String(), pathToURI(dir), "file:///DIR")
	golden.Check(t, filepath.Join("testdata", "requests.golden"), []byte(got), "go test ./internal/lsp -run TestRequestGoldens -update")
}
