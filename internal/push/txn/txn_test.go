package txn

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
)

// TestProgress: a list sent one by one says what the device took, what it
// refused and which line was in flight when the run stopped.
func TestProgress(t *testing.T) {
	var none *Progress
	if none.String() != "" {
		t.Errorf("nil progress says %q", none.String())
	}
	p := &Progress{What: "the change", Lines: []string{"a", "b", "c", "d"}}
	if got := p.String(); !strings.HasPrefix(got, "none of the 4 command(s) of the change had been taken") || !strings.Contains(got, `the next, "a"`) {
		t.Errorf("before any answer: %q", got)
	}
	p.Done(true)
	p.Done(false)
	got := p.String()
	for _, want := range []string{"1 of the 4 command(s) of the change were taken: a", "(1 refused)", `the next, "c", was being sent`, "the 1 after it were not sent"} {
		if !strings.Contains(got, want) {
			t.Errorf("after two answers %q lacks %q", got, want)
		}
	}
}

// TestLeftoversAndTheirs: an empty find is empty, and a change of theirs
// is summarised by its first lines.
func TestLeftoversAndTheirs(t *testing.T) {
	if !(Leftovers{Notes: map[string]string{"x": "y"}}).Empty() {
		t.Error("notes alone are not work in flight")
	}
	for _, l := range []Leftovers{{Names: []string{"n"}}, {Timer: "t"}, {Foreign: []string{"f"}}} {
		if l.Empty() {
			t.Errorf("%+v reads as empty", l)
		}
	}
	th := Theirs{Diff: config.Unified("a", "b", "x\ny\n", "x\nz\n")}
	if !th.Some() || !strings.Contains(th.Summary(), "2 line(s) fabricgen does not manage changed since the backup: -y; +z") {
		t.Errorf("theirs: some %v, summary %q", th.Some(), th.Summary())
	}
	if (Theirs{}).Some() {
		t.Error("no diff reads as a change")
	}
}

// TestHelpers: the small helpers the transactions share.
func TestHelpers(t *testing.T) {
	if JSONPart("prompt# {\"a\":1}") != `{"a":1}` || JSONPart("none") != "none" {
		t.Error("JSONPart")
	}
	if got := SortedKeys(map[string]int{"b": 1, "a": 2}); strings.Join(got, ",") != "a,b" {
		t.Errorf("SortedKeys = %v", got)
	}
	if CountLines("\na\nb\n") != 2 || FirstLine("\nx\ny") != "x" {
		t.Error("CountLines/FirstLine")
	}
	if !Contains([]string{"a"}, "a") || Contains(nil, "a") {
		t.Error("Contains")
	}
	if SafeText("a\x1bb\u00e9") != "a?b??" {
		t.Errorf("SafeText = %q", SafeText("a\x1bb\u00e9"))
	}
	if FirstNonEmpty("", "b", "c") != "b" || FirstErrOrNil(nil, nil) != nil || FirstErr(nil, nil) == nil {
		t.Error("FirstNonEmpty/FirstErr")
	}
}
