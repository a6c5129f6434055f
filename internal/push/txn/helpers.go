package txn

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/scrapli/scrapligo/response"

	"github.com/fabricgen/fabricgen/internal/push/session"
)

// Shell runs one shell command on conn and turns a non-zero exit status
// or a failure string into an error naming the command and its output.
func Shell(conn *session.Conn, cmd string) (string, error) {
	out, status, failed, err := conn.Run(cmd)
	switch {
	case err != nil:
		return out, err
	case failed || status < 0:
		return out, fmt.Errorf("the device rejected %q: %s", cmd, strings.TrimSpace(out))
	case status != 0:
		return out, fmt.Errorf("%q exited with status %d: %s", cmd, status, strings.TrimSpace(out))
	}
	return out, nil
}

// FirstNonEmpty is the first of ss that is not "".
func FirstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// FirstErr is the session error, else the device's rejection.
func FirstErr(err error, rej *session.Rejected) error {
	if err != nil {
		return err
	}
	if rej != nil {
		return rej
	}
	return errors.New("the device gave no reason")
}

// FirstErrOrNil is the session error, else the device's rejection, else
// nil.
func FirstErrOrNil(err error, rej *session.Rejected) error {
	if err != nil {
		return err
	}
	if rej != nil {
		return rej
	}
	return nil
}

// Rejection is a response's rejection, or nil.
func Rejection(r *response.Response) *session.Rejected {
	if r == nil || r.Failed == nil {
		return nil
	}
	return &session.Rejected{Input: r.Input, Output: r.Result}
}

// JSONPart drops anything before the first '{' or '[' (a prompt echo or
// a banner line).
func JSONPart(s string) string {
	if i := strings.IndexAny(s, "{["); i >= 0 {
		return s[i:]
	}
	return s
}

// SortedKeys is the keys of m, sorted.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// CountLines counts the lines of s, trimmed.
func CountLines(s string) int { return len(strings.Split(strings.TrimSpace(s), "\n")) }

// FirstLine is the first line of s, trimmed.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Contains reports whether ss holds s.
func Contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// SafeText keeps printable ASCII, replacing anything else with "?": text
// that goes into a command line on a device.
func SafeText(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c < 0x20 || c >= 0x7f {
			b[i] = '?'
		}
	}
	return string(b)
}
