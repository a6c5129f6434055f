package qosread

import "strings"

// Block is one configuration line with the lines indented under it.
type Block struct {
	Head string
	Kids []*Block
}

// MaxLines bounds what a reader looks at.
const MaxLines = 4 << 20

// ParseBlocks splits indented configuration text into a tree: a line
// indented deeper than the one before is its child. Lines starting with
// one of comments (after the indentation) and blank lines are skipped.
func ParseBlocks(text string, comments ...string) []*Block {
	type frame struct {
		indent int
		b      *Block
	}
	root := &Block{}
	stack := []frame{{-1, root}}
	n := 0
	for _, raw := range strings.Split(text, "\n") {
		if n++; n > MaxLines {
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
		b := &Block{Head: strings.Join(strings.Fields(t), " ")}
		parent := stack[len(stack)-1].b
		parent.Kids = append(parent.Kids, b)
		stack = append(stack, frame{ind, b})
	}
	return root.Kids
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
