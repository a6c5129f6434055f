package txn

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/filebundle"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/session"
)

// ReadFiles reads, for a Files dialect, every file the bundle names from
// the device, and returns what the device has as a bundle in the same
// order (a file the device lacks is absent). Each file is read with
// `base64 -w0 -- PATH` (coreutils), so no byte of it is taken for a
// prompt or mangled by the terminal; a file the device refuses to read
// (permissions, a directory) is an error.
func ReadFiles(conn *session.Conn, bundle string) (string, error) {
	want, err := config.FilesOf(bundle)
	if err != nil {
		return "", fmt.Errorf("the files to read: %w", err)
	}
	out := make([]filebundle.File, 0, len(want))
	for _, w := range want {
		f, err := ReadFile(conn, w.Path)
		if err != nil {
			return "", err
		}
		out = append(out, f)
	}
	b, err := filebundle.Encode(out)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// ReadFile reads one file of the device (absent when it has none).
func ReadFile(conn *session.Conn, path string) (filebundle.File, error) {
	if err := filebundle.CheckPath(path); err != nil {
		return filebundle.File{}, err
	}
	// The echo ends the base64 text with a newline, so the exit status
	// Run appends is a line of its own; it runs only when base64 did.
	out, status, _, err := conn.Run("base64 -w0 -- " + path + " && echo")
	if err != nil {
		return filebundle.File{}, fmt.Errorf("read %s: %w", path, err)
	}
	if status != 0 {
		if strings.Contains(out, "No such file or directory") {
			return filebundle.File{Path: path, Absent: true}, nil
		}
		return filebundle.File{}, fmt.Errorf("read %s: base64 exit status %d: %s", path, status, SafeText(strings.TrimSpace(out)))
	}
	text, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(out), ""))
	if err != nil {
		return filebundle.File{}, fmt.Errorf("read %s: the device's base64 of it does not decode: %w", path, err)
	}
	return filebundle.File{Path: path, Text: text}, nil
}
