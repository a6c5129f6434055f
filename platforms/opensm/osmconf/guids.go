package osmconf

import (
	"fmt"
	"strings"
)

// guidLineBuf is parse_node_map's line buffer (PARSE_NODE_MAP_BUFLEN in
// complib/cl_nodenamemap.c): fgets reads at most 255 bytes of a line.
const guidLineBuf = 256

// ParseGUIDFile reads a GUID list (root_guid_file, cn_guid_file,
// io_guid_file) as OpenSM's parse_node_map does: blank lines and lines
// starting with '#' are skipped, each other line starts with a GUID (C
// notation) followed by white space, '#' or the end of the line; what
// follows it is ignored. It fails where OpenSM does (ERR AB2A, AB23, AB28:
// a line that does not start with a number), where it would split a line
// (more than 255 bytes) or stop at a NUL byte, and for a list without
// GUIDs (ERR AB25, AB27, AB29: no valid roots/guids). Errors read
// "line N: ...".
func ParseGUIDFile(text string) ([]uint64, error) {
	if len(text) > MaxTextSize {
		return nil, fmt.Errorf("guid file: %d bytes exceeds the %d-byte limit", len(text), MaxTextSize)
	}
	var out []uint64
	for i, line := range splitLines(text) {
		n := i + 1
		if j := strings.IndexByte(line, 0); j >= 0 {
			return nil, fmt.Errorf("line %d: NUL byte at column %d (OpenSM would stop reading the line there)", n, j+1)
		}
		if len(line)+1 > guidLineBuf-1 {
			return nil, fmt.Errorf("line %d: %d bytes; OpenSM reads at most %d per line and would split it", n, len(line), guidLineBuf-2)
		}
		p := 0
		for p < len(line) && cIsSpace(line[p]) {
			p++
		}
		if p == len(line) || line[p] == '#' {
			continue
		}
		num := cParse(line[p:])
		if !num.digits {
			return nil, fmt.Errorf("line %d: %q does not start with a GUID (OpenSM cannot parse the file)", n, strings.TrimSpace(line))
		}
		if e := p + num.end; e < len(line) && !cIsSpace(line[e]) && line[e] != '#' {
			return nil, fmt.Errorf("line %d: %q: the GUID is followed by %q (OpenSM cannot parse the file)", n, strings.TrimSpace(line), line[e:e+1])
		}
		guid, _, _ := cStrtoul(line[p : p+num.end])
		out = append(out, guid)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("line %d: no GUID in the file (OpenSM: no valid GUIDs, the routing engine fails)", max(len(splitLines(text)), 1))
	}
	return out, nil
}
