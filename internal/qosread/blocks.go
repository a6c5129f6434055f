package qosread

import (
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/config"
)

// MaxLines bounds what a line-by-line reader (Junos set lines, NVUE
// commands) looks at.
const MaxLines = 4 << 20

// Head is a node's line with runs of blanks collapsed, the form the
// readers match on. The tree itself is config.Parse's, with the platform's
// push dialect: the one parser of indented running-config text.
func Head(n *config.Node) string {
	if singleSpaced(n.Line) {
		return n.Line // most lines are already: no copy
	}
	return strings.Join(strings.Fields(n.Line), " ")
}

// singleSpaced reports whether s is its fields one space apart (what
// strings.Join(strings.Fields(s), " ") would give back).
func singleSpaced(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' && s[i-1] == ' ':
			return false
		case c < 0x20 || c >= 0x80:
			return false // tabs, line ends, and what unicode calls space
		}
	}
	return true
}

// Cut returns what follows prefix (and true) when s starts with it.
func Cut(s, prefix string) (string, bool) {
	if s == prefix {
		return "", true
	}
	if strings.HasPrefix(s, prefix+" ") {
		return s[len(prefix)+1:], true
	}
	return "", false
}
