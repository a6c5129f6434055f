package nvidiacumulus_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
)

// TestShellWordsSendable: an NVUE line is refused or sent as its words
// re-quoted (moved from internal/push/config's TestCheckSendable, which
// checks every shell-words dialect with lines built from its commands).
func TestShellWordsSendable(t *testing.T) {
	d := plat().Dialect()
	shellWords := []struct {
		line, want string
		// sent is what ShellWordsCommand makes of the line.
		sent string
	}{
		{"nv set qos pfc default-global switch-priority 3", "", "nv set qos pfc default-global switch-priority 3"},
		{"nv set interface swp1 description 'RoCE uplink'", "", "nv set interface swp1 description 'RoCE uplink'"},
		{`nv set interface swp1 description "RoCE uplink"`, "", "nv set interface swp1 description 'RoCE uplink'"},
		{"nv set qos x 50$(reboot)", "unquoted $", ""},
		{`nv set qos x "$(reboot)"`, "unquoted $", ""},
		{"nv set qos x 50`reboot`", "`", ""},
		{"nv set qos x 50;reboot", "shell operator", ""},
		{"nv set qos x 50|reboot", "shell operator", ""},
		{"nv set qos x 50 > /etc/passwd", "shell operator", ""},
		{"nv set qos x '50$(reboot)'", "", "nv set qos x '50$(reboot)'"},
		{"nv set qos x 'it'\\''s'", "", `nv set qos x 'it'\''s'`},
		{"nv set qos x '5", "unterminated", ""},
		{"reboot", "not an nv set", ""},
		{"nv set interface swp1 description 'why?'", `"?"`, ""},
		{"nv config apply -y", "not an nv set", ""},
	}
	for _, tc := range shellWords {
		err := config.CheckSendable(&config.ChangeSet{Blocks: []config.Block{{Lines: []string{tc.line}}}}, d)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.line, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing was sent")):
			t.Errorf("%q: error %v, want one saying %q and nothing was sent", tc.line, err, tc.want)
		}
		if tc.sent == "" {
			continue
		}
		if got, err := config.ShellWordsCommand(tc.line, d); err != nil || got != tc.sent {
			t.Errorf("ShellWordsCommand(%q) = %q, %v; want %q", tc.line, got, err, tc.sent)
		}
	}
}
