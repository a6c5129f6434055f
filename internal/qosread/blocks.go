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
func Head(n *config.Node) string { return strings.Join(strings.Fields(n.Line), " ") }

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
