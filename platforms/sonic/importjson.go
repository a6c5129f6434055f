package sonic

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/fabricgen/fabricgen/internal/importer"
)

// jsonNode is one value of a CONFIG_DB JSON text, with the lines it spans:
// a scalar (Str; numbers keep their text, true and false their word, null
// is ""), an object (Members, in the file's order, duplicates kept) or an
// array (Items).
type jsonNode struct {
	// Line and End are the value's first and last line (1-based).
	Line, End int
	Kind      jsonKind
	Str       string
	Members   []*jsonMember
	Items     []*jsonNode
	// index is the position of each key's last member, built on the
	// first lookup of a large object (lookups stay linear in the file).
	index map[string]int
}

// jsonKind is what a jsonNode holds.
type jsonKind uint8

const (
	jsonScalar jsonKind = iota
	jsonObject
	jsonArray
)

// jsonMember is one "key": value pair of an object; Line is the key's line.
type jsonMember struct {
	Key  string
	Line int
	Val  *jsonNode
}

// jsonScan reads a JSON text byte by byte, counting lines.
type jsonScan struct {
	file string
	data []byte
	pos  int
	line int
}

// ws skips white space.
func (s *jsonScan) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case '\n':
			s.line++
		case ' ', '\t', '\r':
		default:
			return
		}
		s.pos++
	}
}

// errf is an *importer.Error at the current line.
func (s *jsonScan) errf(format string, args ...any) error {
	return importer.Errorf(s.file, s.line, "not CONFIG_DB JSON: "+format, args...)
}

// found names the byte at the current position for an error.
func (s *jsonScan) found() string {
	if s.pos >= len(s.data) {
		return "the end of the file"
	}
	return importer.Clean(strconv.QuoteRune(rune(s.data[s.pos])))
}

// str reads a string literal at the current position.
func (s *jsonScan) str() (string, error) {
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return "", s.errf("expected a string, found %s", s.found())
	}
	start, plain := s.pos, true
	for i := s.pos + 1; i < len(s.data); i++ {
		switch c := s.data[i]; {
		case c == '"':
			s.pos = i + 1
			if plain {
				return string(s.data[start+1 : i]), nil
			}
			var out string
			if err := json.Unmarshal(s.data[start:i+1], &out); err != nil {
				return "", s.errf("a string with a bad escape: %s", importer.Clean(err.Error()))
			}
			return out, nil
		case c == '\\':
			plain = false
			i++ // the escaped byte is never the closing quote
		case c < 0x20:
			s.pos = i
			return "", s.errf("a control character %s inside a string (JSON escapes them)", s.found())
		case c >= 0x80:
			plain = false // json.Unmarshal replaces invalid UTF-8
		}
	}
	s.pos = len(s.data)
	return "", s.errf("a string that never ends: the file is cut short")
}

// jsonLiteralByte reports whether c may be part of a number, true,
// false or null.
func jsonLiteralByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.'
}

// literal reads a number, true, false or null.
func (s *jsonScan) literal() (string, error) {
	start := s.pos
	for s.pos < len(s.data) {
		if !jsonLiteralByte(s.data[s.pos]) {
			break
		}
		s.pos++
	}
	tok := s.data[start:s.pos]
	switch {
	case len(tok) == 0:
		return "", s.errf("expected a value, found %s", s.found())
	case string(tok) == "null":
		return "", nil
	case string(tok) == "true" || string(tok) == "false":
		return string(tok), nil
	case (tok[0] == '-' || tok[0] >= '0' && tok[0] <= '9') && len(tok) < 400 && json.Valid(tok):
		return string(tok), nil
	}
	s.pos = start
	return "", s.errf("expected a value, found %s", s.found())
}

// parseConfigDB reads data as one JSON object (no recursion; nesting
// bounded by importer.MaxDepth) and returns its tree; what is not JSON
// is an *importer.Error at the line where reading stopped.
func parseConfigDB(name string, data []byte) (*jsonNode, error) {
	s := &jsonScan{file: name, data: data, line: 1}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		s.pos = 3 // a UTF-8 byte order mark
	}
	s.ws()
	if s.pos >= len(data) {
		return nil, importer.Errorf(name, 0, "the file is empty; a SONiC configuration is CONFIG_DB JSON (config_db.json, or what `show runningconfiguration all` prints)")
	}
	if data[s.pos] != '{' {
		return nil, importer.Errorf(name, s.line, "a SONiC configuration is CONFIG_DB JSON, one object of tables (config_db.json, or what `show runningconfiguration all` prints); this file does not start with '{'")
	}
	var (
		root  *jsonNode
		stack []*jsonNode
		key   *jsonMember
	)
	attach := func(n *jsonNode) {
		if len(stack) == 0 {
			root = n
			return
		}
		top := stack[len(stack)-1]
		if top.Kind == jsonArray {
			top.Items = append(top.Items, n)
			return
		}
		key.Val = n
		top.Members = append(top.Members, key)
		key = nil
	}
	// readKey reads `"key" :` of the innermost object.
	readKey := func() error {
		s.ws()
		line := s.line
		k, err := s.str()
		if err != nil {
			return err
		}
		s.ws()
		if s.pos >= len(data) || data[s.pos] != ':' {
			return s.errf("expected ':' after key '%s', found %s", importer.Clean(k), s.found())
		}
		s.pos++
		key = &jsonMember{Key: k, Line: line}
		return nil
	}
	for {
		// A value.
		s.ws()
		if s.pos >= len(data) {
			return nil, importer.Errorf(name, s.line, "the JSON ends inside an object or array (%d left open): the file is cut short", len(stack))
		}
		switch c := data[s.pos]; c {
		case '{', '[':
			if len(stack) >= importer.MaxDepth {
				return nil, s.errf("nested more than %d levels deep; CONFIG_DB nests three (TABLE, key, field)", importer.MaxDepth)
			}
			n := &jsonNode{Line: s.line, Kind: jsonObject}
			if c == '[' {
				n.Kind = jsonArray
			}
			attach(n)
			stack = append(stack, n)
			s.pos++
			s.ws()
			if s.pos < len(data) && (data[s.pos] == '}' && c == '{' || data[s.pos] == ']' && c == '[') {
				n.End = s.line
				stack = stack[:len(stack)-1]
				s.pos++
				break
			}
			if c == '{' {
				if err := readKey(); err != nil {
					return nil, err
				}
			}
			continue
		case '"':
			line := s.line
			v, err := s.str()
			if err != nil {
				return nil, err
			}
			attach(&jsonNode{Line: line, End: line, Str: v})
		default:
			v, err := s.literal()
			if err != nil {
				return nil, err
			}
			attach(&jsonNode{Line: s.line, End: s.line, Str: v})
		}
		// After a value: a comma and the next, or the containers' ends.
		for {
			s.ws()
			if len(stack) == 0 {
				if s.pos < len(data) {
					return nil, s.errf("text after the CONFIG_DB object; a file holds one device's configuration")
				}
				return root, nil
			}
			if s.pos >= len(data) {
				return nil, importer.Errorf(name, s.line, "the JSON ends inside an object or array (%d left open): the file is cut short", len(stack))
			}
			top := stack[len(stack)-1]
			c := data[s.pos]
			if c == '}' && top.Kind == jsonObject || c == ']' && top.Kind == jsonArray {
				top.End = s.line
				stack = stack[:len(stack)-1]
				s.pos++
				continue
			}
			if c != ',' {
				want := "'}'"
				if top.Kind == jsonArray {
					want = "']'"
				}
				return nil, s.errf("expected ',' or %s, found %s", want, s.found())
			}
			s.pos++
			if top.Kind == jsonObject {
				if err := readKey(); err != nil {
					return nil, err
				}
			}
			break
		}
	}
}

// member returns the last member named key (JSON readers keep the last of
// duplicate keys, as sonic-cfggen's json.load does), or nil.
func (n *jsonNode) member(key string) *jsonMember {
	if n == nil {
		return nil
	}
	if len(n.Members) > 16 {
		if n.index == nil {
			n.index = make(map[string]int, len(n.Members))
			for i, m := range n.Members {
				n.index[m.Key] = i
			}
		}
		if i, ok := n.index[key]; ok {
			return n.Members[i]
		}
		return nil
	}
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return n.Members[i]
		}
	}
	return nil
}

// str returns the scalar of field key of object n ("" when absent or not
// a scalar) and whether it is there as a scalar.
func (n *jsonNode) str(key string) (string, bool) {
	m := n.member(key)
	if m == nil || m.Val.Kind != jsonScalar {
		return "", false
	}
	return m.Val.Str, true
}
