package config_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestCheckSendable: every line of a change set is checked against the
// way it reaches the device; a refusal names the line and the reason, and
// an NVUE line is sent as the words it shows, re-quoted.
func TestCheckSendable(t *testing.T) {
	for _, tc := range []struct {
		platform schema.Platform
		line     string
		// want is "" for a line that may be sent, else part of the error.
		want string
		// sent is what ShellWordsCommand makes of an NVUE line.
		sent string
	}{
		{schema.AristaEOS, "qos map dscp 26 to traffic-class 3", "", ""},
		{schema.AristaEOS, "qos map dscp 26 to traffic-class 3\x03username evil", "control character U+0003", ""},
		{schema.AristaEOS, "qos map dscp 26 to traffic-class 3\x15", "U+0015", ""},
		{schema.AristaEOS, "qos map dscp 26 to traffic-class 3\x7f\x7f", "U+007F", ""},
		{schema.AristaEOS, "qos map dscp 26 to traffic-class 3\t", "U+0009", ""},
		{schema.AristaEOS, "qos map dscp 26 to traffic-class 3 ?", `"?"`, ""},
		{schema.AristaEOS, "qos map dscp 26 to traffic-class 3 | bash", `"|"`, ""},
		{schema.AristaEOS, "ip access-list FG\u200b", "U+200B", ""},
		{schema.AristaEOS, "ip access-list FG\u202e", "U+202E", ""},
		{schema.AristaEOS, "ip access-list FG\xff", "invalid UTF-8", ""},
		{schema.AristaEOS, "ip access-list FG-é", "", ""},
		{schema.CiscoNXOS, "match dscp 26 ; username evil", `";"`, ""},
		{schema.JuniperJunos, "set class-of-service forwarding-classes class roce queue-num 3 ?", `"?"`, ""},
		{schema.NvidiaCumulus, "nv set qos pfc default-global switch-priority 3", "", "nv set qos pfc default-global switch-priority 3"},
		{schema.NvidiaCumulus, "nv set interface swp1 description 'RoCE uplink'", "", "nv set interface swp1 description 'RoCE uplink'"},
		{schema.NvidiaCumulus, `nv set interface swp1 description "RoCE uplink"`, "", "nv set interface swp1 description 'RoCE uplink'"},
		{schema.NvidiaCumulus, "nv set qos x 50$(reboot)", "unquoted $", ""},
		{schema.NvidiaCumulus, `nv set qos x "$(reboot)"`, "unquoted $", ""},
		{schema.NvidiaCumulus, "nv set qos x 50`reboot`", "`", ""},
		{schema.NvidiaCumulus, "nv set qos x 50;reboot", "shell operator", ""},
		{schema.NvidiaCumulus, "nv set qos x 50|reboot", "shell operator", ""},
		{schema.NvidiaCumulus, "nv set qos x 50 > /etc/passwd", "shell operator", ""},
		{schema.NvidiaCumulus, "nv set qos x '50$(reboot)'", "", "nv set qos x '50$(reboot)'"},
		{schema.NvidiaCumulus, "nv set qos x 'it'\\''s'", "", `nv set qos x 'it'\''s'`},
		{schema.NvidiaCumulus, "nv set qos x '5", "unterminated", ""},
		{schema.NvidiaCumulus, "reboot", "not an nv set", ""},
		{schema.NvidiaCumulus, "nv set interface swp1 description 'why?'", `"?"`, ""},
		{schema.NvidiaCumulus, "nv config apply -y", "not an nv set", ""},
		{schema.SONiC, `{"op":"add","path":"/PORT/Ethernet0/description","value":"$(reboot)"}`, "", ""},
		{schema.SONiC, "{\"op\":\"add\",\"path\":\"/PORT/Ethernet0/description\",\"value\":\"\x7f\"}", "U+007F", ""},
	} {
		d, err := platforms.Dialect(tc.platform)
		if err != nil {
			t.Fatal(err)
		}
		err = config.CheckSendable(&config.ChangeSet{Blocks: []config.Block{{Lines: []string{tc.line}}}}, d)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %q: %v", tc.platform, tc.line, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing was sent")):
			t.Errorf("%s %q: error %v, want one saying %q and nothing was sent", tc.platform, tc.line, err, tc.want)
		}
		if tc.sent != "" {
			if got, err := config.ShellWordsCommand(tc.line); err != nil || got != tc.sent {
				t.Errorf("ShellWordsCommand(%q) = %q, %v; want %q", tc.line, got, err, tc.sent)
			}
		}
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
