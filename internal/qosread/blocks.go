package qosread

import "strings"

// block is one configuration line with the lines indented under it.
type block struct {
	head string
	kids []*block
}

// maxLines bounds what a reader looks at.
const maxLines = 4 << 20

// parseBlocks splits indented configuration text into a tree: a line
// indented deeper than the one before is its child. Lines starting with
// one of comments (after the indentation) and blank lines are skipped.
func parseBlocks(text string, comments ...string) []*block {
	type frame struct {
		indent int
		b      *block
	}
	root := &block{}
	stack := []frame{{-1, root}}
	n := 0
	for _, raw := range strings.Split(text, "\n") {
		if n++; n > maxLines {
			break
		}
		line := strings.TrimRight(raw, " \t\r")
		t := strings.TrimLeft(line, " \t")
		if t == "" {
			continue
		}
		skip := false
		for _, c := range comments {
			if strings.HasPrefix(t, c) {
				skip = true
			}
		}
		if skip {
			continue
		}
		ind := len(line) - len(t)
		for len(stack) > 1 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		b := &block{head: strings.Join(strings.Fields(t), " ")}
		parent := stack[len(stack)-1].b
		parent.kids = append(parent.kids, b)
		stack = append(stack, frame{ind, b})
	}
	return root.kids
}

// cut returns what follows prefix (and true) when s starts with it.
func cut(s, prefix string) (string, bool) {
	if s == prefix {
		return "", true
	}
	if strings.HasPrefix(s, prefix+" ") {
		return s[len(prefix)+1:], true
	}
	return "", false
}
