package main

import (
	"fmt"
	"io"
	"os"
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
)

// readFileBounded reads path, refusing it once it holds more than limit
// bytes (read through a bounded reader, so /dev/zero is refused at once).
func readFileBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d MiB", path, limit>>20)
	}
	return b, nil
}
