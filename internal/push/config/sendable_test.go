package config_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms"
)

// checkSendable checks one line against d: want is "" for a line that may
// be sent, else part of the error, which also says nothing was sent.
func checkSendable(t *testing.T, who string, d *dialect.Dialect, line, want string) {
	t.Helper()
	err := config.CheckSendable(&config.ChangeSet{Blocks: []config.Block{{Lines: []string{line}}}}, d)
	switch {
	case want == "" && err != nil:
		t.Errorf("%s %q: %v", who, line, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "nothing was sent")):
		t.Errorf("%s %q: error %v, want one saying %q and nothing was sent", who, line, err, want)
	}
}

// TestCheckSendable: every line of a change set is checked against the
// way it reaches the device (each registry platform's dialect, by its
// line form); a refusal names the line and the reason, and a shell-words
// line is sent as the words it shows, re-quoted.
func TestCheckSendable(t *testing.T) {
	// Every dialect refuses what a terminal would act on or not show.
	terminal := []struct{ tail, want string }{
		{"\x03username evil", "control character U+0003"},
		{"\x15", "U+0015"},
		{"\x7f\x7f", "U+007F"},
		{"\t", "U+0009"},
		{"\u200b", "U+200B"},
		{"\u202e", "U+202E"},
		{"\xff", "invalid UTF-8"},
	}
	forms := map[dialect.LineForm]int{}
	for _, pl := range platforms.Needing("push dialect") {
		d := pl.Dialect()
		forms[d.Lines]++
		who := fmt.Sprintf("%s (line form %d)", pl.Name, d.Lines)
		var plain string
		switch d.Lines {
		case dialect.LinesCLI:
			plain = "ip access-list FG-é"
			checkSendable(t, who, d, plain, "")
			if d.Unsafe == "" || d.UnsafeWhy == "" {
				t.Errorf("%s: a CLI dialect without the characters its CLI acts on, or why", who)
			}
			for _, c := range d.Unsafe {
				checkSendable(t, who, d, "qos map dscp 26 to traffic-class 3 "+string(c)+" bash", fmt.Sprintf("%q", string(c)))
			}
		case dialect.LinesShellWords:
			if len(d.Commands) == 0 {
				t.Errorf("%s: a shell-words dialect without the commands its lines may be", who)
				continue
			}
			cases := shellWordsCases(d.Commands[0])
			plain = cases[0].line
			for _, tc := range cases {
				checkSendable(t, who, d, tc.line, tc.want)
				if tc.sent == "" {
					continue
				}
				if got, err := config.ShellWordsCommand(tc.line, d); err != nil || got != tc.sent {
					t.Errorf("%s: ShellWordsCommand(%q) = %q, %v; want %q", who, tc.line, got, err, tc.sent)
				}
			}
			for _, c := range d.Unsafe {
				checkSendable(t, who, d, d.Commands[0]+" x 'why"+string(c)+"'", fmt.Sprintf("%q", string(c)))
			}
		case dialect.LinesJSONPatch:
			// A JSON patch value is data, whatever it holds.
			plain = `{"op":"add","path":"/PORT/Ethernet0/description","value":"$(reboot)"}`
			checkSendable(t, who, d, plain, "")
			checkSendable(t, who, d, "{\"op\":\"add\",\"path\":\"/PORT/Ethernet0/description\",\"value\":\"\x7f\"}", "U+007F")
		case dialect.LinesFiles:
			// A file's line travels as base64 data: a tab is a tab,
			// and shell characters are text; what a reader of the
			// diff would not see is still refused.
			plain = "qos_policy_file /etc/opensm/$(reboot);`x`|y"
			checkSendable(t, who, d, plain, "")
			checkSendable(t, who, d, plain+"\t# a tab", "")
		default:
			plain = "ethtool --set-priv-flags ens2f0 fw-lldp-agent off"
		}
		for _, tc := range terminal {
			if d.Lines == dialect.LinesFiles && tc.tail == "\t" {
				continue
			}
			checkSendable(t, who, d, plain+tc.tail, tc.want)
		}
	}
	if forms[dialect.LinesCLI] == 0 || forms[dialect.LinesShellWords] == 0 || forms[dialect.LinesJSONPatch] == 0 || forms[dialect.LinesFiles] == 0 {
		t.Errorf("the registry's line forms %v leave a form unchecked", forms)
	}
}

// TestPatchDocumentASCII: the JSON patch written into a shell line is
// printable ASCII (DEL and non-ASCII escaped), and decodes to the values.
func TestPatchDocumentASCII(t *testing.T) {
	cs := &config.ChangeSet{Blocks: []config.Block{{Lines: []string{`{"op":"add","path":"/PORT/Ethernet0/description","value":"é😀` + "\x7f" + `"}`}}}}
	doc := config.PatchDocument(cs)
	for i := 0; i < len(doc); i++ {
		if doc[i] < 0x20 || doc[i] >= 0x7f {
			t.Fatalf("byte %d of %q is not printable ASCII", i, doc)
		}
	}
	if want := `\u00e9\ud83d\ude00\u007f`; !strings.Contains(doc, want) {
		t.Errorf("%s lacks %s", doc, want)
	}
}

// shellWordsCase is a shell-words line: want is "" for a line that may be
// sent, else part of the refusal; sent is what ShellWordsCommand makes of
// the line ("": not checked).
type shellWordsCase struct {
	line, want, sent string
}

// shellWordsCases are the lines of a shell-words dialect whose first
// command is cmd ("nv set"): a line is refused or sent as its words
// re-quoted. The platform's own lines are in its folder's tests.
func shellWordsCases(cmd string) []shellWordsCase {
	first := strings.Fields(cmd)[0]
	return []shellWordsCase{
		{cmd + " qos pfc default-global switch-priority 3", "", cmd + " qos pfc default-global switch-priority 3"},
		{cmd + " interface x1 description 'RoCE uplink'", "", cmd + " interface x1 description 'RoCE uplink'"},
		{cmd + ` interface x1 description "RoCE uplink"`, "", cmd + " interface x1 description 'RoCE uplink'"},
		{cmd + " qos x 50$(reboot)", "unquoted $", ""},
		{cmd + ` qos x "$(reboot)"`, "unquoted $", ""},
		{cmd + " qos x 50`reboot`", "`", ""},
		{cmd + " qos x 50;reboot", "shell operator", ""},
		{cmd + " qos x 50|reboot", "shell operator", ""},
		{cmd + " qos x 50 > /etc/passwd", "shell operator", ""},
		{cmd + " qos x '50$(reboot)'", "", cmd + " qos x '50$(reboot)'"},
		{cmd + " qos x 'it'\\''s'", "", cmd + ` qos x 'it'\''s'`},
		{cmd + " qos x '5", "unterminated", ""},
		{"reboot", "is not a", ""},
		{first + " config apply -y", "is not a", ""},
	}
}
