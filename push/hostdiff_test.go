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
			if txt := HostSettingText(tt.diff); strings.Count(txt, "\n") != len(tt.want) {
				t.Errorf("HostSettingText has %d lines, want %d", strings.Count(txt, "\n"), len(tt.want))
			}
		})
	}
}

func TestIsHost(t *testing.T) {
	want := map[string]bool{"bogus": false}
	for _, pl := range platforms.All() {
		want[string(pl.Name)] = pl.Spec.Host
	}
	for p, want := range want {
		if got := IsHost(p); got != want {
			t.Errorf("IsHost(%q) = %v, want %v", p, got, want)
		}
	}
}
