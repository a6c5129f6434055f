package sonic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

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

// jsonLines turns byte offsets into 1-based line numbers; offsets must
// only grow, so counting is linear in the file.
type jsonLines struct {
	data []byte
	pos  int
	line int
}

func (l *jsonLines) at(off int64) int {
	o := int(min(max(off, 0), int64(len(l.data))))
	if o > l.pos {
		l.line += bytes.Count(l.data[l.pos:o], []byte{'\n'})
		l.pos = o
	}
	return l.line
}

// parseConfigDB reads data as one JSON object with a token walk (no
// recursion, depth bounded by importer.MaxDepth) and returns its tree;
// what is not JSON is an *importer.Error at the line where reading
// stopped.
func parseConfigDB(name string, data []byte) (*jsonNode, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, importer.Errorf(name, 0, "the file is empty; a SONiC configuration is CONFIG_DB JSON (config_db.json, or what `show runningconfiguration all` prints)")
	}
	lines := &jsonLines{data: data, line: 1}
	if trimmed[0] != '{' {
		return nil, importer.Errorf(name, lines.at(int64(len(data)-len(trimmed))), "a SONiC configuration is CONFIG_DB JSON, one object of tables (config_db.json, or what `show runningconfiguration all` prints); this file does not start with '{'")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var (
		root  *jsonNode
		stack []*jsonNode
		key   *jsonMember // the member whose value comes next
	)
	fail := func(err error) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return importer.Errorf(name, lines.at(se.Offset), "not CONFIG_DB JSON: %s", importer.Clean(se.Error()))
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return importer.Errorf(name, lines.at(int64(len(data))), "the JSON ends inside an object or array (%d left open): the file is cut short", len(stack))
		}
		return importer.Errorf(name, lines.at(dec.InputOffset()), "not CONFIG_DB JSON: %s", importer.Clean(err.Error()))
	}
	// attach places a new value under the innermost open object or array.
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
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) && root != nil && len(stack) == 0 {
				break
			}
			return nil, fail(err)
		}
		if root != nil && len(stack) == 0 {
			return nil, importer.Errorf(name, lines.at(before+1), "text after the CONFIG_DB object; a file holds one device's configuration")
		}
		end := lines.at(dec.InputOffset())
		// A key: an object is open and expects one.
		if len(stack) > 0 && stack[len(stack)-1].Kind == jsonObject && key == nil {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				top := stack[len(stack)-1]
				top.End = end
				stack = stack[:len(stack)-1]
				continue
			}
			s, _ := tok.(string)
			key = &jsonMember{Key: s, Line: end}
			continue
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if len(stack) >= importer.MaxDepth {
					return nil, importer.Errorf(name, end, "nested more than %d levels deep; CONFIG_DB nests three (TABLE, key, field)", importer.MaxDepth)
				}
				n := &jsonNode{Line: end, Kind: jsonObject}
				if t == '[' {
					n.Kind = jsonArray
				}
				attach(n)
				stack = append(stack, n)
			default: // ']' ('}' is handled with the keys)
				top := stack[len(stack)-1]
				top.End = end
				stack = stack[:len(stack)-1]
			}
		case string:
			attach(&jsonNode{Line: end, End: end, Str: t})
		case json.Number:
			attach(&jsonNode{Line: end, End: end, Str: t.String()})
		case bool:
			attach(&jsonNode{Line: end, End: end, Str: fmt.Sprint(t)})
		default: // null
			attach(&jsonNode{Line: end, End: end})
		}
	}
	return root, nil
}

// member returns the last member named key (JSON readers keep the last of
// duplicate keys, as sonic-cfggen's json.load does), or nil.
func (n *jsonNode) member(key string) *jsonMember {
	if n == nil {
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
