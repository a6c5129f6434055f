package nav

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/fabricgen/fabricgen/docs"
	"github.com/fabricgen/fabricgen/schema"
)

// langSpecs is schema.Language keyed by joined path, computed once.
var langSpecs = sync.OnceValue(specs)

// AttrInfo is one attribute's row of docs/language.md.
type AttrInfo struct {
	// Type, Default, Range and Meaning are the row's cells, Markdown as
	// written ("" where the table has no such column).
	Type, Default, Range, Meaning string
}

// docTables is docs/language.md's attribute tables and block paragraphs.
type docTables struct {
	// attrs maps a joined block path to attribute name to its row.
	attrs map[string]map[string]AttrInfo
	// blocks maps a joined block path to the block's first paragraph.
	blocks map[string]string
}

// langDocs parses docs.Language once.
var langDocs = sync.OnceValue(func() *docTables { return parseDocs(docs.Language) })

var (
	headingBlock = regexp.MustCompile("^### (?:The )?`([a-z_]+)[^`]*`")
	boldBlock    = regexp.MustCompile("^\\*\\*`([a-z_]+)[^`]*`\\*\\*")
	codeName     = regexp.MustCompile("`([a-z_]+)`")
)

// parseDocs reads the attribute tables of the language reference: a table
// whose header's first cell says "attribute" documents the block of the
// heading (### `BLOCK "NAME"`) or of the bold line above it
// (**`TYPE`** for a nested block); "`rule` attribute" names the nested
// block itself. The rows under "## `for_each`, `count` and `dynamic`
// blocks" document the meta-arguments of device and link, and those after
// its **`dynamic "TYPE"`** line the dynamic block of every block.
func parseDocs(md string) *docTables {
	d := &docTables{attrs: map[string]map[string]AttrInfo{}, blocks: map[string]string{}}
	lines := strings.Split(md, "\n")
	var root, cur []string // the heading's block, the block tables apply to
	meta := false          // inside the for_each/count/dynamic section
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "## "):
			root, cur = nil, nil
			meta = strings.Contains(l, "`for_each`")
			if meta {
				cur = []string{"*meta"}
			}
			continue
		case strings.HasPrefix(l, "### "):
			root, cur, meta = nil, nil, false
			if m := headingBlock.FindStringSubmatch(l); m != nil {
				if _, ok := specFor([]string{m[1]}); ok {
					root = []string{m[1]}
				} else if _, ok := specFor([]string{"device", m[1]}); ok {
					root = []string{"device", m[1]}
				}
				cur = root
				if cur != nil {
					d.blocks[strings.Join(cur, "/")] = paragraph(lines, i+1)
				}
			}
			continue
		}
		if m := boldBlock.FindStringSubmatch(l); m != nil {
			switch {
			case meta && m[1] == "dynamic":
				cur = []string{"*", "dynamic"}
				d.blocks["*/dynamic"] = strings.TrimSpace(strings.Join(collect(lines, i), " "))
			case root != nil:
				if _, ok := specFor(append(slices.Clone(root), m[1])); ok {
					cur = append(slices.Clone(root), m[1])
					d.blocks[strings.Join(cur, "/")] = strings.TrimSpace(strings.Join(collect(lines, i), " "))
				}
			}
			continue
		}
		if !strings.HasPrefix(l, "|") || cur == nil {
			continue
		}
		head := cells(l)
		if len(head) < 2 || !strings.Contains(head[0], "attribute") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "|---") {
			continue
		}
		path := cur
		if m := codeName.FindStringSubmatch(head[0]); m != nil && root != nil {
			path = append(slices.Clone(root), m[1])
			if k := strings.Join(path, "/"); d.blocks[k] == "" {
				// The block is introduced by its parent's paragraph.
				d.blocks[k] = d.blocks[strings.Join(root, "/")]
			}
		}
		col := map[string]int{}
		for j, h := range head {
			col[strings.TrimSpace(h)] = j
		}
		i += 2
		for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
			row := cells(lines[i])
			get := func(k string) string {
				if j, ok := col[k]; ok && j < len(row) {
					return strings.TrimSpace(row[j])
				}
				return ""
			}
			info := AttrInfo{Type: get("type"), Default: get("default"), Range: get("range"), Meaning: get("meaning")}
			key := strings.Join(path, "/")
			for _, m := range codeName.FindAllStringSubmatch(row[0], -1) {
				if d.attrs[key] == nil {
					d.attrs[key] = map[string]AttrInfo{}
				}
				d.attrs[key][m[1]] = info
			}
		}
		i--
	}
	return d
}

// cells splits a Markdown table row ("\|" is a pipe inside a cell).
func cells(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	l = strings.TrimSuffix(l, "|")
	l = strings.ReplaceAll(l, `\|`, "\x00")
	out := strings.Split(l, "|")
	for i := range out {
		out[i] = strings.ReplaceAll(out[i], "\x00", "|")
	}
	return out
}

// collect is the paragraph that starts at line i.
func collect(lines []string, i int) []string {
	var out []string
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != "" && !strings.HasPrefix(lines[i], "|") && !strings.HasPrefix(lines[i], "```"); i++ {
		out = append(out, strings.TrimSpace(lines[i]))
	}
	return out
}

// paragraph is the first paragraph at or after line i.
func paragraph(lines []string, i int) string {
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	return strings.Join(collect(lines, i), " ")
}

// lookup finds attr's row for the block at path: its own table, then the
// rules the reference states in prose — every block's optional
// description, device/link's for_each and count, a dynamic block's
// arguments, and a ports block sharing port's rows.
func (d *docTables) lookup(path []string, attr string) (AttrInfo, bool) {
	key := strings.Join(path, "/")
	if r, ok := d.attrs[key][attr]; ok {
		return r, true
	}
	switch {
	case len(path) > 0 && path[len(path)-1] == "dynamic":
		r, ok := d.attrs["*/dynamic"][attr]
		return r, ok
	case (key == "device" || key == "link") && (attr == "for_each" || attr == "count"):
		r, ok := d.attrs["*meta"][attr]
		return r, ok
	case key == "device/ports" && attr != "description":
		r, ok := d.attrs["device/port"][attr]
		return r, ok
	case attr == "description":
		if r, ok := d.attrs["fabric"]["description"]; ok {
			return r, true
		}
	}
	return AttrInfo{}, false
}

// AttrDoc returns the Markdown documentation of attribute attr of the block
// at path block (e.g. ["qos_policy"], "trust"; ["device", "port"],
// "fec"), from docs/language.md: "**trust** — string, default …, values
// …" and then the meaning. ok is false for an attribute the reference has
// no row for.
func AttrDoc(block []string, attr string) (string, bool) {
	info, ok := langDocs().lookup(block, attr)
	if !ok {
		return "", false
	}
	var parts []string
	if info.Type != "" {
		parts = append(parts, info.Type)
	}
	if info.Default != "" && info.Default != "—" {
		parts = append(parts, "default "+info.Default)
	}
	if info.Range != "" {
		parts = append(parts, "values "+info.Range)
	}
	s := fmt.Sprintf("**%s**", attr)
	if len(parts) > 0 {
		s += " — " + strings.Join(parts, ", ")
	}
	if info.Meaning != "" {
		s += "\n\n" + info.Meaning
	}
	return s, true
}

// BlockDoc returns the Markdown documentation of the block at path: the
// first paragraph under its heading in docs/language.md (for a nested
// block, the bold line that introduces it).
func BlockDoc(block []string) (string, bool) {
	d := langDocs()
	s, ok := d.blocks[strings.Join(block, "/")]
	if !ok && len(block) > 0 && block[len(block)-1] == "dynamic" {
		s, ok = d.blocks["*/dynamic"]
	}
	return s, ok && s != ""
}

// undocumented lists the schema's attributes that have no documentation row:
// "block/path.attr" each, sorted. Tests use it to keep docs and schema in
// step.
func undocumented() []string {
	var out []string
	for _, b := range schema.Language() {
		for _, a := range b.Attrs {
			if _, ok := AttrDoc(b.Path, a.Name); !ok {
				out = append(out, strings.Join(b.Path, "/")+"."+a.Name)
			}
		}
	}
	slices.Sort(out)
	return out
}
