package main

import "github.com/fabricgen/fabricgen/internal/readlimit"

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
