package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/readlimit"
)

// Limits of the files the CLI reads besides intent and variable files
// (which schema bounds): no path given on the command line or found in a
// fabric may make fabricgen read without end (/dev/zero, a symlink to
// it, a huge file).
const (
	// maxInventorySize bounds an --inventory file ({"device": "host:port"},
	// about 40 bytes a device) and a lab's inventory.json.
	maxInventorySize = 64 << 20
	// maxPublicKeySize bounds a key_file's .pub, which lab up reads.
	maxPublicKeySize = 1 << 20
	// maxReportSize bounds how much of an earlier check report check
	// reads back (--output FILE of -format prometheus) for its last
	// success time.
	maxReportSize = 64 << 20
	// reportLabelPrefix is how much of that report is searched for its
	// fabric label, which its first sample line carries.
	reportLabelPrefix = 1 << 20
)

// readFileBounded reads path, refusing it once it holds more than limit
// bytes (read through a bounded reader, so /dev/zero is refused at once).
func readFileBounded(path string, limit int64) ([]byte, error) {
	return readlimit.File(path, limit)
}

// unmarshalJSON decodes b, the text of the file name, into v after
// checking its nesting (nestlimit.JSON): a file nested 100,000 levels deep
// is refused at its file:line:column, before the decoder sees it.
func unmarshalJSON(b []byte, name string, v any) error {
	if err := nestlimit.JSON(b, name); err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// newHostKeys is session.NewHostKeys after checking each --known-hosts
// file (or ~/.ssh/known_hosts, the default) is a regular file, so that a
// named pipe there is named as such before anything else is read.
// session.NewHostKeys reads the files with the bounded reader itself, so
// a file swapped for a pipe after this check is refused too.
func newHostKeys(files []string, insecure bool) (*session.HostKeys, error) {
	if !insecure {
		check := files
		if len(check) == 0 {
			if home, err := os.UserHomeDir(); err == nil {
				check = []string{filepath.Join(home, ".ssh", "known_hosts")}
			}
		}
		for _, f := range check {
			fh, err := readlimit.Open(f)
			if errors.Is(err, readlimit.ErrNotRegular) {
				return nil, fmt.Errorf("known_hosts file: %w", err)
			}
			if err == nil {
				_ = fh.Close()
			}
			// Other errors (a missing file) are NewHostKeys' to report.
		}
	}
	return session.NewHostKeys(files, insecure)
}
