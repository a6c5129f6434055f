package jsonrpc

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestReadFrame: good frames are read in order; each malformed one is an
// ErrFraming that says what is wrong; nothing a header claims is
// allocated beyond the limit.
func TestReadFrame(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
		err      string
	}{
		{"two frames", "Content-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n[1]", []string{"{}", "[1]"}, ""},
		{"content type and unknown headers", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nX-Other: 1\r\nContent-Length: 2\r\n\r\n{}", []string{"{}"}, ""},
		{"bare LF", "Content-Length: 2\n\n{}", []string{"{}"}, ""},
		{"case-insensitive name", "content-length:2\r\n\r\n{}", []string{"{}"}, ""},
		{"empty stream", "", nil, ""},
		{"no length", "X: 1\r\n\r\n{}", nil, "no Content-Length"},
		{"negative length", "Content-Length: -1\r\n\r\n", nil, "not a length"},
		{"length not a number", "Content-Length: 1e3\r\n\r\n", nil, "not a length"},
		{"two lengths", "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", nil, "two Content-Length"},
		{"no colon", "Content-Length 2\r\n\r\n{}", nil, "no colon"},
		{"too large", "Content-Length: 1073741824\r\n\r\n", nil, "over the limit"},
		{"short body", "Content-Length: 10\r\n\r\n{}", nil, "inside a 10-byte body"},
		{"ends in header", "Content-Length: 2\r\n", nil, "inside a header"},
		{"endless header line", "Content-Length: " + strings.Repeat("1", 5000), nil, "longer than"},
		{"endless headers", strings.Repeat("X: 1\r\n", 100), nil, "header lines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReaderLimit(strings.NewReader(tc.in), 1<<20)
			var got []string
			for {
				b, err := r.ReadFrame()
				if errors.Is(err, io.EOF) {
					if tc.err != "" {
						t.Fatalf("clean EOF, want error %q", tc.err)
					}
					break
				}
				if err != nil {
					if tc.err == "" || !errors.Is(err, ErrFraming) || !strings.Contains(err.Error(), tc.err) {
						t.Fatalf("error %v, want one containing %q", err, tc.err)
					}
					break
				}
				got = append(got, string(b))
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("frames %q, want %q", got, tc.want)
			}
		})
	}
}

// TestDecode: the shapes JSON-RPC allows, and the ones it does not.
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		code int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"x"}`, 0},
		{`{"jsonrpc":"2.0","id":"a","method":"x"}`, 0},
		{`{"jsonrpc":"2.0","method":"x"}`, 0},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}`, 0},
		{`{"jsonrpc":"1.0","id":1,"method":"x"}`, CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":{},"method":"x"}`, CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":[1],"method":"x"}`, CodeInvalidRequest},
		{`{"jsonrpc":"2.0"}`, CodeInvalidRequest},
		{`[]`, CodeParseError},
		{`{"jsonrpc":"2.0","id":1,"method":`, CodeParseError},
	} {
		_, err := Decode([]byte(tc.in))
		switch {
		case tc.code == 0 && err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case tc.code != 0 && (err == nil || err.Code != tc.code):
			t.Errorf("%s: %v, want code %d", tc.in, err, tc.code)
		}
	}
}

// TestWriteRoundTrip: what Writer sends, Reader reads back.
func TestWriteRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Notify("a/b", map[string]string{"k": "é𝄞"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Reply([]byte("7"), nil, &Error{Code: CodeMethodNotFound, Message: "no"}); err != nil {
		t.Fatal(err)
	}
	r := NewReader(&buf)
	for _, want := range []string{`{"jsonrpc":"2.0","method":"a/b","params":{"k":"é𝄞"}}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no"}}`} {
		b, err := r.ReadFrame()
		if err != nil || string(b) != want {
			t.Errorf("got %s (%v), want %s", b, err, want)
		}
	}
}

// FuzzReadFrame: whatever the bytes, the reader returns frames or an
// error, never panics, and never returns a body over its limit.
func FuzzReadFrame(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 99999999999999999999\r\n\r\n"))
	f.Add([]byte("content-length:3\n\n[1]Content-Length: 0\r\n\r\n"))
	f.Add([]byte("Content-Length: 2\r\nContent-Type: x\r\n\r\n{}"))
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewReaderLimit(bytes.NewReader(in), 1<<16)
		for range 64 {
			b, err := r.ReadFrame()
			if err != nil {
				return
			}
			if len(b) > 1<<16 {
				t.Fatalf("a body of %d bytes over the limit", len(b))
			}
			_, _ = Decode(b)
		}
	})
}
