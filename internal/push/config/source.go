package config

import "github.com/fabricgen/fabricgen/internal/push/dialect"

// Source is a configuration text parsed once: the rendered config and the
// last-applied one of a device are compared with every read of the device
// during one plan or apply, and each comparison takes the tree parsed
// here instead of parsing the text again. A Source is read-only once made
// and safe to share. The nil Source is the empty config.
type Source struct {
	text string
	// tree is the parsed text for the indented dialects; nil for an
	// empty text, hosts and CONFIG_DB (compared from their own forms).
	tree *Tree
}

// NewSource parses text for the dialect d.
func NewSource(text string, d *dialect.Dialect) *Source {
	s := &Source{text: text}
	if text != "" && !d.Host && !d.ConfigDB && !d.Files {
		s.tree = Parse(text, d)
	}
	return s
}

// Text is the configuration text ("" for the nil Source).
func (s *Source) Text() string {
	if s == nil {
		return ""
	}
	return s.text
}

// parsed is the tree of an indented dialect's config: nil for an empty
// one (and the nil Source).
func (s *Source) parsed() *Tree {
	if s == nil {
		return nil
	}
	return s.tree
}

// orEmpty is the parsed tree, an empty tree for an empty config.
func (s *Source) orEmpty() *Tree {
	if t := s.parsed(); t != nil {
		return t
	}
	return &Tree{}
}
