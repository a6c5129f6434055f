package importer

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// emitPair builds the same body with the emitter and with hclwrite.
type emitPair struct {
	e *emitBody
	h *hclwrite.Body
}

// emitScript drives both writers from a byte script: each byte picks an
// operation, strings come from the texts (hostile ones included).
func emitScript(script []byte, texts []string) (got, want []byte) {
	root := &emitBody{}
	f := hclwrite.NewEmptyFile()
	stack := []emitPair{{root, f.Body()}}
	names := []string{"a", "kind", "description", "qos_policy", "cable_length", "x_y_z"}
	text := func(i int) string { return texts[i%len(texts)] }
	for i, op := range script {
		top := stack[len(stack)-1]
		name := names[int(op>>3)%len(names)]
		typed := op&64 != 0 // the typed setters, else SetAttributeValue
		switch op % 8 {
		case 0:
			if typed {
				top.e.SetString(name, text(i))
			} else {
				top.e.SetAttributeValue(name, cty.StringVal(text(i)))
			}
			top.h.SetAttributeValue(name, cty.StringVal(text(i)))
		case 1:
			if typed {
				top.e.SetInt(name, int64(i)*int64(op)-100)
			} else {
				top.e.SetAttributeValue(name, cty.NumberIntVal(int64(i)*int64(op)-100))
			}
			top.h.SetAttributeValue(name, cty.NumberIntVal(int64(i)*int64(op)-100))
		case 2:
			if typed {
				top.e.SetBool(name, op&16 != 0)
			} else {
				top.e.SetAttributeValue(name, cty.BoolVal(op&16 != 0))
			}
			top.h.SetAttributeValue(name, cty.BoolVal(op&16 != 0))
		case 3:
			if len(stack) < 6 {
				labels := []string{text(i)}
				if op&32 != 0 {
					labels = nil
				}
				stack = append(stack, emitPair{top.e.AppendNewBlock(name, labels), top.h.AppendNewBlock(name, labels).Body()})
			}
		case 4:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case 5:
			top.e.AppendNewline()
			top.h.AppendNewline()
		case 6:
			top.e.SetAttributeRef(name, "qos_policy", "p"+name)
			top.h.SetAttributeTraversal(name, hcl.Traversal{hcl.TraverseRoot{Name: "qos_policy"}, hcl.TraverseAttr{Name: "p" + name}})
		case 7:
			refs := []string{"a", "b_c"}[:1+int(op>>6)%2]
			top.e.SetAttributeRefs(name, "acl", refs)
			ts := make([]hclwrite.Tokens, len(refs))
			for j, r := range refs {
				ts[j] = hclwrite.TokensForTraversal(hcl.Traversal{hcl.TraverseRoot{Name: "acl"}, hcl.TraverseAttr{Name: r}})
			}
			top.h.SetAttributeRaw(name, hclwrite.TokensForTuple(ts))
		}
	}
	return root.Bytes(), hclwrite.Format(f.Bytes())
}

var emitTexts = []string{
	"plain", "", "to spine1:Ethernet1/1", `a "quoted" \ back`, "${oops}", "%{if x}y", "$ and % alone",
	"tab\there\nnewline\r", "\x1b[31mred\x1b[0m", "\u200bzero-width", "é ü 日本", "bad\xffutf8", "\U0001F600", "\u0085nel", "decomposed A\u030c and e\u0301",
}

// TestEmitMatchesHCLWrite holds the emitter to hclwrite's own layout
// and escaping, for the forms the devices file uses.
func TestEmitMatchesHCLWrite(t *testing.T) {
	for _, script := range [][]byte{
		{0, 8, 16, 1, 2},
		{3, 0, 8, 3, 16, 24, 4, 5, 0, 4, 3, 6, 7, 71},
		{24, 5, 24, 3, 3, 3, 0, 4, 0, 4, 4, 8},
		{35, 4, 35, 0, 40, 48, 1, 2, 6, 14, 7},
		[]byte("the quick brown fox jumps over the lazy dog 0123456789"),
		{64, 65, 66, 3, 72, 73, 74, 4, 80, 81, 82},
	} {
		got, want := emitScript(script, emitTexts)
		if string(got) != string(want) {
			t.Errorf("script %v:\ngot:\n%s\nwant:\n%s", script, got, want)
		}
		if f := hclwrite.Format(got); string(f) != string(got) {
			t.Errorf("script %v: not fmt-clean:\n%s", script, got)
		}
	}
}

// FuzzEmit drives the emitter and hclwrite with the same operations and
// texts: their outputs must be identical.
func FuzzEmit(f *testing.F) {
	f.Add([]byte{3, 0, 8, 4, 5, 6, 7}, "label", "${x}")
	f.Add([]byte("abcdefgh"), "\x00\x1b[2J", "%{")
	f.Fuzz(func(t *testing.T, script []byte, a, b string) {
		if len(script) > 256 {
			script = script[:256]
		}
		got, want := emitScript(script, []string{a, b})
		if string(got) != string(want) {
			t.Fatalf("got:\n%q\nwant:\n%q", got, want)
		}
	})
}

// TestCommentTextOneSpan holds the one-span shortcut to the general path.
func TestCommentTextOneSpan(t *testing.T) {
	for _, s := range []Span{{File: "dir/leaf1.cfg", From: 3, To: 9}, {File: "leaf1.cfg", From: 3, To: 3}, {File: "a.cfg", From: 5},
		{File: "a.cfg"}, {File: "a.cfg", From: 7, To: 2}, {File: "we\x1bird.cfg", From: 1, To: 2}} {
		got := commentText([]Span{s})
		// The general path, forced by a second span of no file.
		want := commentText([]Span{s, {}})
		if got != want {
			t.Errorf("%+v: %q, the general path gives %q", s, got, want)
		}
	}
}
