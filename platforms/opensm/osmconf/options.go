// Package osmconf parses OpenSM's three configuration files the way OpenSM
// 3.3.23 reads them: opensm.conf (osm_subn_parse_conf_file in
// opensm/osm_subnet.c, tables built by opensm/osm_qos.c), partitions.conf
// (opensm/osm_prtn_config.c) and qos-policy.conf (opensm/osm_qos_parser_l.l
// and osm_qos_parser_y.y, checked by osm_qos_policy.c).
//
// The push transaction pre-checks candidate files with it and the lab's
// OpenSM emulator re-reads them with it, so both agree with each other and
// with the real binary. It imports nothing from platforms/opensm.
package osmconf

import (
	"fmt"
	"strings"
)

// MaxTextSize bounds every text given to this package's parsers (bytes).
const MaxTextSize = 8 << 20

// maxOptionLine is the longest opensm.conf line OpenSM reads whole:
// fgets(line, 1023, file) returns at most 1022 characters, so a longer line
// is read as two lines, the second of which starts mid-value.
const maxOptionLine = 1022

// Option is one "key value" line of opensm.conf.
type Option struct {
	Key, Value string
	Line       int
}

// Options is opensm.conf as osm_subn_parse_conf_file reads it.
type Options struct {
	Lines   []Option // every recognised option, in file order (a later line of a key wins)
	Unknown []Option // keys OpenSM 3.3.23 does not know ("Unrecognized token")
}

// ParseOptions reads opensm.conf text as OpenSM does: everything from '#'
// on is a comment, the key is the first token (separated by space, tab or
// newline), and the value is the rest of the line with surrounding white
// space and one pair of matching quotes removed. It fails only for text
// OpenSM cannot read as written: a NUL byte (C stops the line there), a line
// longer than 1022 bytes (OpenSM splits it) or a text above MaxTextSize.
func ParseOptions(text string) (*Options, error) {
	if len(text) > MaxTextSize {
		return nil, fmt.Errorf("opensm.conf: %d bytes exceeds the %d-byte limit", len(text), MaxTextSize)
	}
	o := &Options{}
	for i, line := range splitLines(text) {
		n := i + 1
		if j := strings.IndexByte(line, 0); j >= 0 {
			return nil, fmt.Errorf("opensm.conf line %d: NUL byte at column %d (OpenSM would stop reading the line there)", n, j+1)
		}
		if len(line) > maxOptionLine {
			return nil, fmt.Errorf("opensm.conf line %d: %d bytes; OpenSM reads at most %d per line and would split it", n, len(line), maxOptionLine)
		}
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		// strtok_r(line, " \t\n", &val): skip leading delimiters, the key
		// ends at the next delimiter, the value starts after it.
		line = strings.TrimLeft(line, " \t")
		if line == "" {
			continue
		}
		key, val := line, ""
		if j := strings.IndexAny(line, " \t"); j >= 0 {
			key, val = line[:j], line[j+1:]
		}
		opt := Option{Key: key, Value: cleanVal(val), Line: n}
		if Known(key) {
			o.Lines = append(o.Lines, opt)
		} else {
			o.Unknown = append(o.Unknown, opt)
		}
	}
	return o, nil
}

// splitLines splits text at '\n' as fgets does (no empty last line for a
// text that ends in a newline).
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// cIsSpace is C's isspace in the "C" locale.
func cIsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// cleanVal is OpenSM's clean_val: trim isspace on both ends, then remove
// one pair of matching double or single quotes.
func cleanVal(v string) string {
	i, j := 0, len(v)
	for i < j && cIsSpace(v[i]) {
		i++
	}
	for j > i && cIsSpace(v[j-1]) {
		j--
	}
	v = v[i:j]
	if len(v) >= 2 && ((v[0] == '"' && v[len(v)-1] == '"') || (v[0] == '\'' && v[len(v)-1] == '\'')) {
		v = v[1 : len(v)-1]
	} else if len(v) == 1 && (v[0] == '"' || v[0] == '\'') {
		// clean_val compares the first and the last character, which are
		// the same one: a lone quote becomes the empty string.
		v = ""
	}
	return v
}

// Get returns the effective value of key: the value of its last line.
func (o *Options) Get(key string) (string, bool) {
	opt, ok := o.lookup(key)
	return opt.Value, ok
}

// lookup returns the last line of key.
func (o *Options) lookup(key string) (Option, bool) {
	if o == nil {
		return Option{}, false
	}
	for i := len(o.Lines) - 1; i >= 0; i-- {
		if o.Lines[i].Key == key {
			return o.Lines[i], true
		}
	}
	return Option{}, false
}

// QoSEnabled reports whether the file turns QoS on: opts_parse_boolean
// treats exactly "TRUE" as true and anything else as false.
func (o *Options) QoSEnabled() bool {
	v, ok := o.Get("qos")
	return ok && v == "TRUE"
}
