package osmconf

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/readlimit"
)

// parseRendered parses one rendered OpenSM file by its name, and says
// whether the name is one of OpenSM's files.
func parseRendered(name, text string) (bool, error) {
	var err error
	switch {
	case strings.HasSuffix(name, "opensm.conf"):
		var o *Options
		if o, err = ParseOptions(text); err == nil {
			for _, p := range append([]string{""}, QoSPrefixes()...) {
				if _, err = o.QoS(p); err != nil {
					break
				}
			}
		}
	case strings.HasSuffix(name, "partitions.conf"):
		_, err = ParsePartitions(text)
	case strings.HasSuffix(name, "qos-policy.conf"):
		_, err = ParsePolicy(text)
	case strings.HasSuffix(name, "-guids.conf"):
		_, err = ParseGUIDFile(text)
	default:
		return false, nil
	}
	return true, err
}

// TestEveryRenderedFile: every file of platforms/opensm/testdata/render
// and every subnet manager file of the examples/ib-cluster render is one
// of OpenSM's files and parses without error.
func TestEveryRenderedFile(t *testing.T) {
	for _, dir := range []string{"../testdata/render", "../../../templates/testdata/golden/ib-cluster"} {
		entries, err := readlimit.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range entries {
			name := e.Name()
			if dir != "../testdata/render" && !strings.HasPrefix(name, "sm") {
				continue // host environment files of the example
			}
			ok, err := parseRendered(name, readRender(t, dir, name))
			if !ok {
				t.Errorf("%s: not an OpenSM file this package parses", filepath.Join(dir, name))
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", filepath.Join(dir, name), err)
			}
			n++
		}
		if n < 6 {
			t.Errorf("%s: only %d OpenSM files", dir, n)
		}
	}
	for name, want := range map[string][]uint64{
		"root-guids.conf": {0x0002c90000000201, 0x0002c90000000202},
		"io-guids.conf":   {0x0002c90300a00701},
		"cn-guids.conf":   {0x0002c90300a00301, 0x0002c90300a00401, 0x0002c90300a00501, 0x0002c90300a00601, 0x0002c90300a00101, 0x0002c90300a00201},
	} {
		got, err := ParseGUIDFile(readRender(t, "../testdata/render", name))
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %#x, %v", name, got, err)
		}
	}
	// The I/O nodes are the storage partition's full members.
	parts, err := ParsePartitions(readRender(t, "../testdata/render", "partitions.conf"))
	if err != nil {
		t.Fatal(err)
	}
	io, _ := ParseGUIDFile(readRender(t, "../testdata/render", "io-guids.conf"))
	for _, m := range parts[2].Members {
		if m.Full != slices.Contains(io, m.GUID) {
			t.Errorf("storage member %#x full=%v, in io-guids=%v", m.GUID, m.Full, slices.Contains(io, m.GUID))
		}
	}
}
