package config

import (
	"slices"
	"strings"
	"testing"
)

// TestHostScriptQuoting: names in quoted form parse to the name itself,
// and every command built from them (read-back, restore) quotes it again;
// an unquoted metacharacter is refused.
func TestHostScriptQuoting(t *testing.T) {
	cases := []struct {
		line, read, target string
	}{
		{`ip link set dev 'e$(reboot)' mtu 4200`, `ip link show dev 'e$(reboot)'`, `e$(reboot)`},
		{`ip link set dev eth0 mtu 4200`, `ip link show dev eth0`, `eth0`},
		{`ethtool -A 'a;b' rx off tx off || [ $? -eq 78 ]`, `ethtool -a 'a;b'`, `a;b`},
		{`mlnx_qos -i 'a b' --trust dscp`, `mlnx_qos -i 'a b'`, `a b`},
		{`mlnx_qos -i "x|y" --pfc 0,0,0,1,0,0,0,0`, `mlnx_qos -i 'x|y'`, `x|y`},
		{`echo 1 > '/sys/class/net/e;x/ecn/roce_np/enable/3'`, `cat '/sys/class/net/e;x/ecn/roce_np/enable/3'`, `/sys/class/net/e;x/ecn/roce_np/enable/3`},
		{`dcb pfc set dev 'it'\''s' prio-pfc all:off 3:on`, `dcb pfc show dev 'it'\''s'`, `it's`},
		{`dcb app replace dev '&&' dscp-prio 26:3`, `dcb -N app show dev '&&' dscp-prio`, `&&`},
		{`ethtool --set-tunable '` + "`id`" + `' pfc-prevention-tout 100`, `ethtool --get-tunable '` + "`id`" + `' pfc-prevention-tout`, "`id`"},
		{`cma_roce_tos -d 'm x' -t 106`, `cma_roce_tos -d 'm x' -p 1`, `m x`},
	}
	for _, c := range cases {
		actions, err := ParseHostScript(c.line + "\n")
		if err != nil {
			t.Errorf("%s: %v", c.line, err)
			continue
		}
		if len(actions) != 1 {
			t.Fatalf("%s: %d actions", c.line, len(actions))
		}
		a := actions[0]
		if a.Read != c.read {
			t.Errorf("%s: read %q, want %q", c.line, a.Read, c.read)
		}
		if a.Line != c.line {
			t.Errorf("%s: line became %q", c.line, a.Line)
		}
		for _, f := range a.Facts {
			if f.Target != c.target {
				t.Errorf("%s: target %q, want %q", c.line, f.Target, c.target)
			}
		}
		assertPlainCommand(t, a.Read)
	}
	for _, bad := range []string{
		"ip link set dev e$(reboot) mtu 4200",
		"ip link set dev e`reboot` mtu 4200",
		"ip link set dev eth0;reboot mtu 4200",
		"mlnx_qos -i eth0 --trust dscp; reboot",
		"mlnx_qos -i eth0 --trust dscp && reboot",
		"mlnx_qos -i eth0 | sh",
		`mlnx_qos -i "$(reboot)" --trust dscp`,
		"echo 1 > /sys/class/net/eth0/x; reboot",
		"echo $(reboot) > /sys/class/net/eth0/x",
		"ip link set dev eth* mtu 4200",
		"ip link set dev 'unterminated mtu 4200",
		"dcb pfc set dev {a,b} prio-pfc 3:on",
		"ip link set dev ~root mtu 4200",
	} {
		if a, err := ParseHostScript(bad + "\n"); err == nil {
			t.Errorf("%q: no error; actions %+v", bad, a)
		}
	}
}

// TestHostRestoreQuotes: restore commands quote targets and the values the
// host printed.
func TestHostRestoreQuotes(t *testing.T) {
	script := "echo 1 > '/sys/class/net/a b/ecn/roce_np/cnp_dscp'\nip link set dev 'a b' mtu 9000\n"
	backup := HostState([]string{`cat '/sys/class/net/a b/ecn/roce_np/cnp_dscp'`, `ip link show dev 'a b'`},
		[]string{"1; reboot\n", "2: a b: <UP> mtu 1500 qdisc mq\n"})
	now := HostState([]string{`cat '/sys/class/net/a b/ecn/roce_np/cnp_dscp'`, `ip link show dev 'a b'`},
		[]string{"1\n", "2: a b: <UP> mtu 9000 qdisc mq\n"})
	cmds, err := HostRestoreCommands(script, backup, now)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`echo '1; reboot' > '/sys/class/net/a b/ecn/roce_np/cnp_dscp'`, `ip link set dev 'a b' mtu 1500`}
	if !slices.Equal(cmds, want) {
		t.Errorf("restore:\n%s\nwant:\n%s", strings.Join(cmds, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range cmds {
		if strings.HasPrefix(c, "echo ") {
			continue
		}
		assertPlainCommand(t, c)
	}
}

// TestHostLookupsAndValues: a lookup command must be plain words, and a
// value the host printed is substituted only when it is a plain device
// name; otherwise the line using it is refused.
func TestHostLookupsAndValues(t *testing.T) {
	script := `set -eu
ibdev_a=$(find '/sys/class/net/a b/device/infiniband' -mindepth 1 -maxdepth 1 -printf '%f')
ibdev_b=$(find /sys/class/net/b/device/infiniband; reboot)
ibdev_c=$(find /sys/class/net/$(reboot)/device -printf '%f')
cma_roce_tos -d "$ibdev_a" -t 106
`
	ls := HostLookups(script)
	if len(ls) != 1 || ls[0].Var != "ibdev_a" {
		t.Fatalf("lookups %+v, want only ibdev_a", ls)
	}
	for _, v := range []string{"mlx5_0; reboot", "$(reboot)", "", "..", "-x", "a b"} {
		if _, err := ParseHostScript(ResolveHostScript(script, map[string]string{"ibdev_a": v})); err == nil {
			t.Errorf("value %q: no error", v)
		}
	}
	actions, err := ParseHostScript(ResolveHostScript(script, map[string]string{"ibdev_a": "mlx5_0", "ibdev_a1": "mlx5_9"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(actions) != 1 || actions[0].Read != "cma_roce_tos -d mlx5_0 -p 1" {
		t.Errorf("actions %+v", actions)
	}
}

// assertPlainCommand fails when cmd is not plain words once parsed, i.e.
// when something in it would be run or expanded by the shell.
func assertPlainCommand(t *testing.T, cmd string) {
	t.Helper()
	toks, err := shellWords(cmd)
	if err != nil {
		t.Errorf("%q does not parse as plain words: %v", cmd, err)
		return
	}
	if _, ok := wordsOnly(toks); !ok {
		t.Errorf("%q has a shell operator", cmd)
	}
}

// FuzzHostQuoting: whatever the interface name and value, a script line
// quoting them parses back to them, and the read-back and restore
// commands are plain words naming the same interface.
func FuzzHostQuoting(f *testing.F) {
	f.Add("eth0", "9000")
	f.Add("e$(reboot)", "1; reboot")
	f.Add("a'b", "`id`")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, name, value string) {
		if strings.ContainsAny(name+value, "\n\r\x00") {
			return
		}
		line := "ip link set dev " + quoteWord(name) + " mtu 9000"
		actions, err := ParseHostScript(line + "\n")
		if err != nil {
			if strings.TrimSpace(name) != name || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				return
			}
			t.Fatalf("%q: %v", line, err)
		}
		a := actions[0]
		if a.Facts[0].Target != name {
			t.Fatalf("target %q, want %q", a.Facts[0].Target, name)
		}
		toks, err := shellWords(a.Read)
		words, plain := wordsOnly(toks)
		if err != nil || !plain || len(words) != 5 || words[4] != name {
			t.Fatalf("read %q parses to %q (%v)", a.Read, words, err)
		}
		state := HostState([]string{a.Read}, []string{"mtu " + value})
		cmd, err := restoreCommand(a.Facts[0], value, "9000")
		if err != nil {
			t.Fatal(err)
		}
		toks, err = shellWords(cmd)
		words, plain = wordsOnly(toks)
		if err != nil || !plain || words[4] != name || words[6] != value {
			t.Fatalf("restore %q parses to %q (%v); state %q", cmd, words, err, state)
		}
	})
}
