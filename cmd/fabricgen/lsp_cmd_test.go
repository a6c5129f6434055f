package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// frames is the LSP framing of each JSON message.
func frames(msgs ...string) string {
	var b strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(m), m)
	}
	return b.String()
}

// TestLSPCommandExit: fabricgen lsp exits 0 after shutdown and exit, and
// 1 (saying why) when the client goes away without them, sends exit
// first, or breaks the framing; bad flags are refused.
func TestLSPCommandExit(t *testing.T) {
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`
	for _, tc := range []struct {
		name, in string
		args     []string
		code     int
		out, err string
	}{
		{"shutdown and exit", frames(initialize, `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`, `{"jsonrpc":"2.0","method":"exit"}`), nil, 0, `"name":"fabricgen"`, ""},
		{"stream closed", frames(initialize), nil, 1, `"positionEncoding":"utf-16"`, "without a shutdown request"},
		{"exit without shutdown", frames(initialize, `{"jsonrpc":"2.0","method":"exit"}`), nil, 1, "", "without a shutdown request"},
		{"broken frame", "Content-Length: x\r\n\r\n", nil, 1, "", "Content-Length"},
		{"negative debounce", "", []string{"--debounce", "-1s"}, 1, "", "--debounce"},
		{"an argument", "", []string{"dir"}, 1, "", "unknown command"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, out, errb := pushStreams(tc.in)
			code := run(context.Background(), append([]string{"lsp"}, tc.args...), s)
			if code != tc.code || !strings.Contains(out.String(), tc.out) || !strings.Contains(errb.String(), tc.err) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, tc.code, out, errb)
			}
		})
	}
}
