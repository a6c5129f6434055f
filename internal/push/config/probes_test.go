package config_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
)

// TestHostProbes: the preamble's capability probes come back as commands
// rebuilt from plain parts, with the script's message unquoted; a probe
// with anything but plain names is an error, and ParseHostScript skips
// probes like the other preamble lines.
func TestHostProbes(t *testing.T) {
	script := `set -eu
[ -d /sys/class/net/ens2f0/device/infiniband ] || { echo "h: ens2f0 has no RDMA device" >&2; exit 1; }
[ -e /sys/class/net/ens2f0/ecn/roce_np/cnp_dscp ] || { echo "h: cnp_dscp is missing: MLNX_OFED's mlx5_core" >&2; exit 1; }
dcb pfc show dev ens2f0 >/dev/null 2>&1 || { echo "h: no dcbnl" >&2; exit 1; }
ethtool --get-tunable ens2f0 pfc-prevention-tout >/dev/null 2>&1 || { echo "h: no tunable" >&2; exit 1; }
ethtool --show-priv-flags ens2f0 | grep -q '^fw-lldp-agent' || { echo "h: no flag" >&2; exit 1; }
ethtool --set-priv-flags ens2f0 fw-lldp-agent off
`
	probes, err := config.HostProbes(script)
	if err != nil {
		t.Fatal(err)
	}
	want := []config.HostProbe{
		{"test -d /sys/class/net/ens2f0/device/infiniband", "h: ens2f0 has no RDMA device"},
		{"test -e /sys/class/net/ens2f0/ecn/roce_np/cnp_dscp", "h: cnp_dscp is missing: MLNX_OFED's mlx5_core"},
		{"dcb pfc show dev ens2f0 >/dev/null 2>&1", "h: no dcbnl"},
		{"ethtool --get-tunable ens2f0 pfc-prevention-tout >/dev/null 2>&1", "h: no tunable"},
		{"ethtool --show-priv-flags ens2f0 | grep -q '^fw-lldp-agent'", "h: no flag"},
	}
	if len(probes) != len(want) {
		t.Fatalf("probes %q, want %q", probes, want)
	}
	for i := range want {
		if probes[i] != want[i] {
			t.Errorf("probe %d: %+v, want %+v", i, probes[i], want[i])
		}
	}
	acts, err := config.ParseHostScript(script)
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) != 1 || acts[0].Facts[0].Kind != "privflag" || acts[0].Read != "ethtool --show-priv-flags ens2f0" {
		t.Errorf("actions %+v, want the one priv-flag change", acts)
	}
	for _, hostile := range []string{
		`[ -d /sys/class/net/e$(reboot)/device/infiniband ] || { echo "x" >&2; exit 1; }`,
		`[ -e /etc/shadow ] || { echo "x" >&2; exit 1; }`,
		`[ -e /sys/class/net/../../etc ] || { echo "x" >&2; exit 1; }`,
		`dcb pfc show dev e;reboot >/dev/null 2>&1 || { echo "x" >&2; exit 1; }`,
		"ethtool --get-tunable e`reboot` pfc-prevention-tout >/dev/null 2>&1 || { echo \"x\" >&2; exit 1; }",
		`ethtool --show-priv-flags e|reboot | grep -q '^x' || { echo "x" >&2; exit 1; }`,
	} {
		if p, err := config.HostProbes(hostile + "\n"); err == nil {
			t.Errorf("%q: no error (probes %q)", hostile, p)
		}
	}
}
