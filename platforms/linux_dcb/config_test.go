package linuxdcb_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	linuxdcb "github.com/fabricgen/fabricgen/platforms/linux_dcb"
)

// TestConfigDCBETSRestoredInOneCommand: iproute2 dcb refuses an ETS vector that
// does not add up (a TSA of ets with a bandwidth of 0, bandwidths not
// summing to 100), so a restore that set tc-tsa and then tc-bw would be
// refused half way or, with the connection lost between the two, leave a
// hybrid (the old TSA with the new bandwidths). The TSA and bandwidth
// vectors go back together, every index, in one dcb ets set.
func TestConfigDCBETSRestoredInOneCommand(t *testing.T) {
	dl := linuxdcb.Platform().Dialect()
	script := "dcb ets set dev enp1 prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0\n"
	reads, err := config.HostReadCommands(script, dl)
	if err != nil || len(reads) != 1 {
		t.Fatalf("read commands %q: %v", reads, err)
	}
	show := func(tsa, bw string) string {
		return config.HostState(reads, []string{"prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 tc-tsa " + tsa + " tc-bw " + bw + "\n"})
	}
	backup := show("0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:ets 7:strict", "0:30 1:10 2:0 3:0 4:60 5:0 6:0 7:0")
	tests := []struct{ name, now string }{
		{"both changed", show("0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets", "0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0")},
		{"only the bandwidths changed", show("0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:ets 7:strict", "0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0")},
		{"only one TSA changed", show("0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:strict", "0:30 1:10 2:0 3:0 4:60 5:0 6:0 7:0")},
	}
	const want = "dcb ets set dev enp1 tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:ets 7:strict tc-bw 0:30 1:10 2:0 3:0 4:60 5:0 6:0 7:0"
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmds, err := config.HostRestoreCommands(script, backup, tc.now)
			if err != nil {
				t.Fatal(err)
			}
			var ets []string
			for _, c := range cmds {
				if strings.HasPrefix(c, "dcb ets ") {
					ets = append(ets, c)
				}
			}
			if len(ets) != 1 || ets[0] != want {
				t.Errorf("ETS restore commands:\n%s\nwant exactly:\n%s", strings.Join(ets, "\n"), want)
			}
		})
	}
	if cmds, err := config.HostRestoreCommands(script, backup, backup); err != nil || len(cmds) != 0 {
		t.Errorf("nothing differs: %q %v", cmds, err)
	}
}

// TestConfigPrivFlagFacts reads ethtool --show-priv-flags back and restores a
// flag to its old value.
func TestConfigPrivFlagFacts(t *testing.T) {
	script := "ethtool --set-priv-flags ens2f0 fw-lldp-agent off\n"
	show := "Private flags for ens2f0:\nlink-down-on-close     : off\nfw-lldp-agent          : on\n"
	state := config.HostState([]string{"ethtool --show-priv-flags ens2f0"}, []string{show})
	cmp, err := config.Compare("nic", state, script, linuxdcb.Platform().Dialect())
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cmp.Changes.Commands(), "|"); got != "ethtool --set-priv-flags ens2f0 fw-lldp-agent off" {
		t.Errorf("changes %q", got)
	}
	done := config.HostState([]string{"ethtool --show-priv-flags ens2f0"}, []string{strings.Replace(show, ": on", ": off", 1)})
	if cmp, err := config.Compare("nic", done, script, linuxdcb.Platform().Dialect()); err != nil || !cmp.Changes.Empty() {
		t.Errorf("after the change: %v %q", err, cmp.Changes.Commands())
	}
}

// TestConfigFirmwareLLDPRestoredLast: on ice, the script turns the
// firmware LLDP agent off before its dcb lines (with it on, the driver
// refuses DCB changes from the host). A restore turns it back on only
// after the dcb entries are restored, or the dcb app del would be refused
// ("Operation not permitted") and the rollback would stop half way.
func TestConfigFirmwareLLDPRestoredLast(t *testing.T) {
	dl := linuxdcb.Platform().Dialect()
	script := "ethtool --set-priv-flags ens2f0 fw-lldp-agent off\ndcb app replace dev ens2f0 dscp-prio 26:3\n"
	reads, err := config.HostReadCommands(script, dl)
	if err != nil {
		t.Fatal(err)
	}
	state := func(flag, app string) string {
		var outs []string
		for _, r := range reads {
			switch {
			case strings.HasPrefix(r, "ethtool --show-priv-flags"):
				outs = append(outs, "Private flags for ens2f0:\nfw-lldp-agent          : "+flag+"\n")
			case strings.Contains(r, "app show"):
				outs = append(outs, app)
			default:
				t.Fatalf("unexpected read %q", r)
			}
		}
		return config.HostState(reads, outs)
	}
	cmds, err := config.HostRestoreCommands(script, state("on", ""), state("off", "dscp-prio 26:3\n"))
	if err != nil {
		t.Fatal(err)
	}
	flag, app := -1, -1
	for i, c := range cmds {
		switch {
		case strings.HasPrefix(c, "ethtool --set-priv-flags ens2f0 fw-lldp-agent on"):
			flag = i
		case strings.HasPrefix(c, "dcb app del dev ens2f0"):
			app = i
		}
	}
	if flag < 0 || app < 0 || flag < app {
		t.Errorf("restore commands %q: want the dcb app entry deleted, then fw-lldp-agent on", cmds)
	}
}
