package importer

import (
	"context"
	"fmt"
	"strings"
)

// Func reads one configuration file of a platform into a Device. name is
// the file's path as the user gave it (for spans and errors), data its
// bytes, already bounded by the caller (at most MaxFileBytes). A Func
// detects the file's form itself (EOS text or `| json`, Junos set or
// brace, NVUE `nv set` lines or startup.yaml, a host script or state).
// It never panics on any input: what it cannot read at all is an *Error
// at the line where reading stopped; what it reads but no intent
// expresses goes into Device.Unmapped.
type Func func(ctx context.Context, name string, data []byte) (*Device, error)

// MaxFileBytes bounds one configuration file (64 MiB: a 50 MB config of
// a device carrying years of changes fits).
const MaxFileBytes = 64 << 20

// MaxLineBytes bounds one line of a text configuration (4 MiB).
const MaxLineBytes = 4 << 20

// MaxDepth bounds the nesting of a structured configuration (JSON, YAML,
// Junos braces).
const MaxDepth = 200

// Error is a file that cannot be read at all, at the line where reading
// stopped (Line 0: the whole file).
type Error struct {
	File string
	Line int
	Msg  string
}

// Error writes "FILE:LINE: msg" (or "FILE: msg").
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// Errorf returns an *Error at file and line.
func Errorf(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Clean returns s as data safe to print on a terminal and to keep in a
// report: control characters (C0, DEL, C1) and invalid UTF-8 are escaped
// as \xNN or \u{N}, so a configuration can never move the cursor or
// recolour the operator's terminal.
func Clean(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\uFFFD' && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\u{%x}`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
