// Package jsonrpc is the wire of fabricgen lsp: JSON-RPC 2.0 messages in
// the Language Server Protocol's base protocol framing (a Content-Length
// header, a blank line, the JSON body) over a byte stream, stdio in
// practice.
//
// The reader is bounded: a header line, the number of header lines and a
// body are each limited, and a frame that breaks a limit or the framing is
// an error the caller answers by closing the connection, never a panic or
// an allocation of what a length claims.
package jsonrpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// MaxBody bounds one message body: an intent file is at most 16 MiB
// (schema.MaxFileSize), and JSON escaping can double it.
const MaxBody = 40 << 20

// maxHeaderLine and maxHeaders bound the header part of a frame.
const (
	maxHeaderLine = 1024
	maxHeaders    = 16
)

// ErrFraming is the error of a frame that does not follow the base
// protocol (the stream cannot be resynchronised after it).
var ErrFraming = errors.New("bad frame")

// Standard JSON-RPC and LSP error codes.
const (
	CodeParseError           = -32700
	CodeInvalidRequest       = -32600
	CodeMethodNotFound       = -32601
	CodeInvalidParams        = -32602
	CodeInternalError        = -32603
	CodeServerNotInitialized = -32002
	CodeRequestCancelled     = -32800
	CodeContentModified      = -32801
)

// Message is one JSON-RPC message: a request (ID and Method), a
// notification (Method, no ID) or a response (ID, Result or Error).
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// IsRequest reports whether m expects a response.
func (m *Message) IsRequest() bool { return m.Method != "" && len(m.ID) > 0 }

// IsNotification reports whether m is a notification.
func (m *Message) IsNotification() bool { return m.Method != "" && len(m.ID) == 0 }

// Error is a JSON-RPC error object.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// Reader reads frames from a stream.
type Reader struct {
	r *bufio.Reader
	// max bounds a body (MaxBody unless set otherwise for tests).
	max int
}

// NewReader reads frames from r, each body at most MaxBody bytes.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, 64<<10), max: MaxBody} }

// NewReaderLimit is NewReader with another body limit.
func NewReaderLimit(r io.Reader, max int) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// ReadFrame returns the next frame's body. io.EOF means the stream ended
// cleanly between frames; an error wrapping ErrFraming means the frame was
// malformed or too large.
func (r *Reader) ReadFrame() ([]byte, error) {
	length := -1
	for n := 0; ; n++ {
		if n >= maxHeaders {
			return nil, fmt.Errorf("%w: more than %d header lines", ErrFraming, maxHeaders)
		}
		line, err := r.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) && n == 0 && line == "" {
				return nil, io.EOF
			}
			if errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("%w: the stream ended inside a header", ErrFraming)
			}
			return nil, err
		}
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%w: header line %q has no colon", ErrFraming, clip(line))
		}
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "content-length":
			v, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || v < 0 {
				return nil, fmt.Errorf("%w: Content-Length %q is not a length", ErrFraming, clip(value))
			}
			if length >= 0 {
				return nil, fmt.Errorf("%w: two Content-Length headers", ErrFraming)
			}
			length = v
		case "content-type":
			// The protocol's only type is utf-8 JSON; the header is informational.
		default:
			// Unknown headers are ignored, as the base protocol allows.
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("%w: no Content-Length header", ErrFraming)
	}
	if length > r.max {
		return nil, fmt.Errorf("%w: a message of %d bytes is over the limit of %d", ErrFraming, length, r.max)
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r.r, body); err != nil {
		return nil, fmt.Errorf("%w: the stream ended inside a %d-byte body: %w", ErrFraming, length, err)
	}
	return body, nil
}

// readLine reads one header line ending in CRLF (a bare LF is accepted),
// at most maxHeaderLine bytes.
func (r *Reader) readLine() (string, error) {
	var b []byte
	for {
		c, err := r.r.ReadByte()
		if err != nil {
			return string(b), err
		}
		if c == '\n' {
			return strings.TrimSuffix(string(b), "\r"), nil
		}
		if len(b) >= maxHeaderLine {
			return "", fmt.Errorf("%w: a header line longer than %d bytes", ErrFraming, maxHeaderLine)
		}
		b = append(b, c)
	}
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// Writer writes frames; it is safe for concurrent use.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter writes frames to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write sends m as one frame.
func (w *Writer) Write(m *Message) error {
	m.JSONRPC = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encoding a JSON-RPC message: %w", err)
	}
	var buf bytes.Buffer
	buf.Grow(len(body) + 32)
	fmt.Fprintf(&buf, "Content-Length: %d\r\n\r\n", len(body))
	buf.Write(body)
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("writing a JSON-RPC message: %w", err)
	}
	return nil
}

// Notify sends a notification.
func (w *Writer) Notify(method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("encoding %s params: %w", method, err)
	}
	return w.Write(&Message{Method: method, Params: raw})
}

// Reply sends the response to request id: result, or rerr when non-nil.
func (w *Writer) Reply(id json.RawMessage, result any, rerr *Error) error {
	m := &Message{ID: id}
	if rerr != nil {
		m.Error = rerr
	} else {
		raw, err := json.Marshal(result)
		if err != nil {
			return fmt.Errorf("encoding a result: %w", err)
		}
		m.Result = raw
	}
	if len(m.ID) == 0 {
		m.ID = json.RawMessage("null")
	}
	return w.Write(m)
}

// Decode parses one frame body into a message and checks its shape: a
// request or notification has a method, a response an id; the id is a
// number or a string.
func Decode(body []byte) (*Message, *Error) {
	var m Message
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, &Error{Code: CodeParseError, Message: fmt.Sprintf("the message is not JSON-RPC JSON: %v", err)}
	}
	if m.JSONRPC != "2.0" {
		return &m, &Error{Code: CodeInvalidRequest, Message: `"jsonrpc" must be "2.0"`}
	}
	if len(m.ID) > 0 {
		switch m.ID[0] {
		case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		case 'n':
			if string(m.ID) == "null" {
				m.ID = nil
			}
		default:
			id := m.ID
			m.ID = nil
			return &m, &Error{Code: CodeInvalidRequest, Message: fmt.Sprintf("id %s is not a number or a string", clip(string(id)))}
		}
	}
	if m.Method == "" && len(m.ID) == 0 && m.Error == nil {
		return &m, &Error{Code: CodeInvalidRequest, Message: "a message needs a method or an id"}
	}
	return &m, nil
}
