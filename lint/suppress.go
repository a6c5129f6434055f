package lint

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/schema"
)

// Suppression is one `# fabricgen:ignore RULE-ID reason` comment. It applies
// to findings whose subject starts inside the block or attribute that begins
// on the comment's line or the line below.
type Suppression struct {
	// Rules are the rule IDs named (upper case).
	Rules []string
	// Reason is the text after the IDs; a suppression without one is SUP001.
	Reason string
	// Range is the comment; Covers the block or attribute it applies to.
	Range  schema.Range
	Covers schema.Range
}

// ignorePattern finds a suppression: the rule IDs (comma-separated, no
// spaces around the commas needed) and the reason. IDs are checked later, so a
// malformed one (QOS01) is reported instead of silently ignored.
var ignorePattern = regexp.MustCompile(`fabricgen:ignore(?:[ \t]+([^\s,]*(?:[ \t]*,[ \t]*[^\s,]*)*))?[ \t]*(.*)`)

// ParseSuppressions reads the ignore comments of every HCL file in f.Files,
// in file order.
func ParseSuppressions(f *schema.Fabric) []Suppression {
	names := make([]string, 0, len(f.Files))
	for n := range f.Files {
		if strings.HasSuffix(n, ".hcl") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var out []Suppression
	for _, n := range names {
		out = append(out, fileSuppressions(n, f.Files[n])...)
	}
	return out
}

func fileSuppressions(name string, src []byte) []Suppression {
	if !strings.Contains(string(src), "fabricgen:ignore") {
		return nil
	}
	toks, _ := hclsyntax.LexConfig(src, name, hcl.InitialPos)
	var items []hcl.Range
	// Intent files were bounded when loaded, but the parser is guarded
	// here too: f.Files may come from elsewhere (the language server).
	// Too deep a file keeps its comments, without the items they cover.
	if nestlimit.HCL(src, name) == nil {
		if file, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos); !diags.HasErrors() {
			if body, ok := file.Body.(*hclsyntax.Body); ok {
				items = bodyItems(body, nil)
			}
		}
	}
	var out []Suppression
	for _, t := range toks {
		if t.Type != hclsyntax.TokenComment {
			continue
		}
		m := ignorePattern.FindStringSubmatch(string(t.Bytes))
		if m == nil {
			continue
		}
		var ids []string
		for _, id := range strings.Split(m[1], ",") {
			if id = strings.ToUpper(strings.TrimSpace(id)); id != "" {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			ids = []string{""} // reported as a suppression that names no rule
		}
		reason := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m[2]), "*/"))
		if i := strings.Index(reason, "#"); i >= 0 {
			reason = strings.TrimSpace(reason[:i]) // a comment after the reason is not the reason
		}
		s := Suppression{Rules: ids, Reason: reason, Range: schema.RangeFromHCL(t.Range)}
		line := t.Range.Start.Line
		for _, it := range items {
			if it.Start.Line == line || it.Start.Line == line+1 {
				s.Covers = schema.RangeFromHCL(it)
				break
			}
		}
		if s.Covers.IsZero() {
			s.Covers = schema.Range{Filename: name, Start: schema.Pos{Line: int32(line + 1), Column: 1}, End: schema.Pos{Line: int32(line + 1), Column: 1 << 20}}
		}
		out = append(out, s)
	}
	return out
}

// bodyItems lists block and attribute ranges, outer before inner, in source order.
func bodyItems(b *hclsyntax.Body, acc []hcl.Range) []hcl.Range {
	type item struct {
		r     hcl.Range
		block *hclsyntax.Block
	}
	var its []item
	for _, a := range b.Attributes {
		its = append(its, item{r: a.SrcRange})
	}
	for _, bl := range b.Blocks {
		its = append(its, item{r: hcl.RangeBetween(bl.TypeRange, bl.CloseBraceRange), block: bl})
	}
	sort.Slice(its, func(i, j int) bool { return its[i].r.Start.Byte < its[j].r.Start.Byte })
	for _, it := range its {
		acc = append(acc, it.r)
		if it.block != nil {
			acc = bodyItems(it.block.Body, acc)
		}
	}
	return acc
}

// covers reports whether the suppression applies to a finding.
func (s *Suppression) covers(fd *Finding) bool {
	if fd.Range().Filename != s.Covers.Filename || !containsInsensitive(s.Rules, fd.Rule) {
		return false
	}
	sub := fd.Range()
	ln, col := sub.Start.Line, sub.Start.Column
	c := s.Covers
	if ln < c.Start.Line || ln > c.End.Line {
		return false
	}
	if ln == c.Start.Line && col < c.Start.Column {
		return false
	}
	return ln != c.End.Line || col <= c.End.Column
}

func containsInsensitive(xs []string, x string) bool {
	for _, v := range xs {
		if equalFold(v, x) {
			return true
		}
	}
	return false
}

func supRules() []*Rule {
	return []*Rule{{
		ID: "SUP001", Title: "Every suppression names a known rule and gives a reason", Severity: schema.SevWarning,
		Rationale:  "An ignore comment without a reason hides a finding without telling the next reader why it is safe; one naming an unknown or malformed rule ID (QOS01) suppresses nothing while looking as if it did.",
		Reference:  "tflint annotations (tflint-ignore, terraform-linters/tflint docs/user-guide/annotations.md); golangci-lint nolintlint",
		Fix:        "Write `# fabricgen:ignore RULE-ID why this is safe here`, with an ID from `fabricgen explain`.",
		LinkLayers: bothLinkLayers(),
		Run:        runSuppressionHygiene,
	}}
}

func runSuppressionHygiene(p *Pass) {
	known := map[string]bool{}
	for _, r := range Rules() {
		known[r.ID] = true
	}
	for _, s := range p.Suppressions {
		if s.Reason == "" {
			p.Report(Finding{Subject: ptr(s.Range), Summary: fmt.Sprintf("fabricgen:ignore %s has no reason", strings.Join(s.Rules, ","))})
		}
		for _, id := range s.Rules {
			switch {
			case id == "":
				p.Report(Finding{Subject: ptr(s.Range), Summary: "fabricgen:ignore names no rule"})
			case !ruleIDPattern.MatchString(id):
				p.Report(Finding{Subject: ptr(s.Range), Summary: fmt.Sprintf("fabricgen:ignore names %q, which is not a rule ID (three or four letters and three digits, e.g. QOS001)", id)})
			case !known[id]:
				p.Report(Finding{Subject: ptr(s.Range), Summary: fmt.Sprintf("fabricgen:ignore names unknown rule %s", id)})
			}
		}
	}
}
