package push

import (
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/platforms"
)

func TestHostSettingChanges(t *testing.T) {
	var run, want strings.Builder
	for i := 0; i < 64; i++ {
		run.WriteString("eth0 dscp2prio " + strconv.Itoa(i) + " = <unset>\n")
		want.WriteString("eth0 dscp2prio " + strconv.Itoa(i) + " = 0\n")
	}
	fresh := config.Unified("h1 (running)", "h1 (fabricgen)", run.String(), want.String()).Text
	tests := []struct {
		name string
		diff string
		want []string
	}{
		{"fresh host: one line per setting", fresh, nil},
		{"only changed settings", "--- a\n+++ b\n@@ -1,3 +1,3 @@\n eth0 pfc = 0,0,0,1,0,0,0,0\n-eth0 trust = pcp\n+eth0 trust = dscp\n eth0 mtu = 9000\n",
			[]string{"eth0 trust: pcp -> dscp"}},
		{"removed and added with the same value", "-eth0 mtu = 9000\n+eth0 mtu = 9000\n", nil},
		{"only old side", "-eth1 trust = dscp\n", []string{"eth1 trust: dscp -> <unset>"}},
		{"only new side", "+eth1 trust = dscp\n", []string{"eth1 trust: <unset> -> dscp"}},
		{"value with = and arrows", "-x k = a = b\n+x k = c -> d\n", []string{"x k: a = b -> c -> d"}},
		{"junk lines ignored", "-\n+\n-no equals\n@@ -1 +1 @@\n", nil},
		{"empty", "", nil},
	}
	for i := 0; i < 64; i++ {
		tests[0].want = append(tests[0].want, "eth0 dscp2prio "+strconv.Itoa(i)+": <unset> -> 0")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range HostSettingChanges(tt.diff) {
				got = append(got, c.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestIsHost: a host NIC platform's diffs are settings; a subnet manager
// host's (a host whose configuration is files) are its files' lines.
func TestIsHost(t *testing.T) {
	want := map[string]bool{"bogus": false}
	for _, pl := range platforms.Needing("push dialect") {
		want[string(pl.Name)] = pl.Spec.Host && !pl.Dialect().Files
	}
	for p, want := range want {
		if got := IsHost(p); got != want {
			t.Errorf("IsHost(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestHostSettingSummary: a table's unset entries that all get one value
// are one line, counted as the settings they are; other changes (and
// short runs) stay one line each.
func TestHostSettingSummary(t *testing.T) {
	entries := func(iface string, from, to int, old, new string) (string, string) {
		var o, n strings.Builder
		for i := from; i <= to; i++ {
			if old != "" {
				o.WriteString(iface + " dscp2prio " + strconv.Itoa(i) + " = " + old + "\n")
			}
			n.WriteString(iface + " dscp2prio " + strconv.Itoa(i) + " = " + new + "\n")
		}
		return o.String(), n.String()
	}
	o1, n1 := entries("eth0", 0, 63, "<unset>", "0")
	o2, n2 := entries("eth1", 0, 2, "<unset>", "0")
	o3, n3 := entries("eth2", 0, 63, "5", "0")
	fresh := config.Unified("h", "h", o1+"eth0 trust = pcp\n", n1+"eth0 trust = dscp\n").Text
	short := config.Unified("h", "h", o2, n2).Text
	changed := config.Unified("h", "h", o3, n3).Text
	gap := "+eth0 dscp2prio 1 = 0\n+eth0 dscp2prio 3 = 0\n+eth0 dscp2prio 5 = 0\n+eth0 dscp2prio 7 = 0\n"
	tests := []struct {
		name          string
		diff          string
		want          []string
		changed, fill int
	}{
		{"fresh host: 64 entries in one line", fresh, []string{"eth0 dscp2prio 0-63: 64 unset entries set to 0", "eth0 trust: pcp -> dscp"}, 65, 64},
		{"a short run stays per entry", short, []string{"eth1 dscp2prio 0: <unset> -> 0", "eth1 dscp2prio 1: <unset> -> 0", "eth1 dscp2prio 2: <unset> -> 0"}, 3, 0},
		{"entries that had a value stay per entry", changed, nil, 64, 0},
		{"entries with gaps: no range", gap, []string{"eth0 dscp2prio: 4 unset entries set to 0"}, 4, 4},
	}
	for i := 0; i < 64; i++ {
		tests[2].want = append(tests[2].want, "eth2 dscp2prio "+strconv.Itoa(i)+": 5 -> 0")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.TrimSuffix(HostSettingText(tt.diff), "\n")
			if got != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", got, strings.Join(tt.want, "\n"))
			}
			if c, f := HostSettingCount(tt.diff); c != tt.changed || f != tt.fill {
				t.Errorf("HostSettingCount = %d, %d; want %d, %d", c, f, tt.changed, tt.fill)
			}
		})
	}
}
