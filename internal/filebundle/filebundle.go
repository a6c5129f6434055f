// Package filebundle is the text form of a set of whole files on a device:
// the configuration of a platform whose state is files (OpenSM's), as push
// compares it and as the lab exports it. Each file is a header line
// naming its absolute path and its size in bytes, then exactly that many
// bytes, then a newline; a file the device does not have is a header
// saying "absent". The sizes make the form unambiguous whatever a file
// holds (a line that looks like a header is content).
//
//	# fabricgen files 1
//	=== /etc/opensm/opensm.conf 24
//	qos TRUE
//	max_op_vls 4
//
//	=== /etc/opensm/root-guids.conf absent
package filebundle

import (
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Magic is the first line of a bundle.
const Magic = "# fabricgen files 1"

// MaxFiles bounds the files of one bundle, and MaxPath a path's length.
const (
	MaxFiles = 256
	MaxPath  = 4096
)

// File is one file of a bundle: its absolute path on the device and its
// bytes; Absent means the device does not have it (Text is empty).
type File struct {
	Path   string
	Text   []byte
	Absent bool
}

// CheckPath reports whether p may name a file of a bundle: absolute,
// clean (no "." or ".." element, no doubled or trailing slash), printable
// UTF-8 without spaces or quotes, so that it is one shell word.
func CheckPath(p string) error {
	switch {
	case p == "" || p[0] != '/':
		return fmt.Errorf("file path %q is not absolute", p)
	case len(p) > MaxPath:
		return fmt.Errorf("file path of %d bytes is longer than %d", len(p), MaxPath)
	case path.Clean(p) != p || p == "/":
		return fmt.Errorf("file path %q is not clean (no ., .., doubled or trailing slash)", p)
	case !utf8.ValidString(p):
		return fmt.Errorf("file path %q is not UTF-8", p)
	}
	for _, r := range p {
		if r <= ' ' || r == 0x7f || strings.ContainsRune("'\"\\`$;&|<>(){}[]*?!~#=%", r) {
			return fmt.Errorf("file path %q holds %q, which a shell would read: name files with letters, digits, '.', '-', '_' and '/'", p, r)
		}
	}
	return nil
}

// Encode writes files as a bundle, in the order given.
func Encode(files []File) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(Magic + "\n")
	seen := map[string]bool{}
	for _, f := range files {
		if err := CheckPath(f.Path); err != nil {
			return nil, err
		}
		if seen[f.Path] {
			return nil, fmt.Errorf("file %s is in the bundle twice", f.Path)
		}
		seen[f.Path] = true
		if f.Absent {
			if len(f.Text) > 0 {
				return nil, fmt.Errorf("file %s is absent but has %d bytes", f.Path, len(f.Text))
			}
			fmt.Fprintf(&b, "=== %s absent\n", f.Path)
			continue
		}
		fmt.Fprintf(&b, "=== %s %d\n", f.Path, len(f.Text))
		b.Write(f.Text)
		b.WriteByte('\n')
	}
	if len(files) > MaxFiles {
		return nil, fmt.Errorf("%d files in one bundle: at most %d", len(files), MaxFiles)
	}
	return b.Bytes(), nil
}

// Decode reads a bundle Encode wrote. Every error names the line.
func Decode(data []byte) ([]File, error) {
	rest, ok := bytes.CutPrefix(data, []byte(Magic+"\n"))
	if !ok {
		return nil, fmt.Errorf("line 1: not a fabricgen file bundle (want %q)", Magic)
	}
	line := 2
	var out []File
	seen := map[string]bool{}
	for len(rest) > 0 {
		head, after, ok := bytes.Cut(rest, []byte("\n"))
		if !ok {
			return nil, fmt.Errorf("line %d: header %q has no newline", line, clip(head))
		}
		h, ok := strings.CutPrefix(string(head), "=== ")
		if !ok {
			return nil, fmt.Errorf("line %d: %q is not a file header (=== PATH SIZE or === PATH absent)", line, clip(head))
		}
		p, size, ok := strings.Cut(h, " ")
		if !ok {
			return nil, fmt.Errorf("line %d: header %q has no size", line, clip(head))
		}
		if err := CheckPath(p); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if seen[p] {
			return nil, fmt.Errorf("line %d: file %s is in the bundle twice", line, p)
		}
		seen[p] = true
		if len(out) == MaxFiles {
			return nil, fmt.Errorf("line %d: more than %d files in one bundle", line, MaxFiles)
		}
		line++
		if size == "absent" {
			out = append(out, File{Path: p, Absent: true})
			rest = after
			continue
		}
		n, err := strconv.Atoi(size)
		if err != nil || n < 0 || strconv.Itoa(n) != size {
			return nil, fmt.Errorf("line %d: size %q of %s is not a byte count", line-1, clip([]byte(size)), p)
		}
		if n+1 > len(after) || after[n] != '\n' {
			return nil, fmt.Errorf("line %d: %s is said to hold %d bytes, but the bundle has %d before the next header", line-1, p, n, max(len(after)-1, 0))
		}
		text := after[:n:n]
		out = append(out, File{Path: p, Text: bytes.Clone(text)})
		line += bytes.Count(text, []byte("\n")) + 1
		rest = after[n+1:]
	}
	return out, nil
}

// Map returns the files by path.
func Map(files []File) map[string]File {
	m := make(map[string]File, len(files))
	for _, f := range files {
		m[f.Path] = f
	}
	return m
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}
