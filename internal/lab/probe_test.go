package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/schema"
)

// TestHostScriptStopsOnMissingCapability runs rendered host scripts on
// emulated hosts that lack one capability the script uses (the MLNX_OFED
// ECN sysfs, mlx5's pfc-prevention-tout, ice's fw-lldp-agent flag): each
// stops at its probe with the message naming what is missing and which
// driver provides it, and the host is exactly as before. The same script on
// a host that has the capability runs to the end and changes the host, so
// the probes are not simply failing.
func TestHostScriptStopsOnMissingCapability(t *testing.T) {
	cases := []struct {
		name, golden string
		port         string
		// missing is the host that lacks the capability, good one that has it.
		missing, good cli.Spec
		want          string
	}{
		{name: "ofed sysfs on inbox mlx5", golden: "clos-400g/nic01.sh", port: "ens1f0np0",
			missing: cli.Spec{InboxDriver: true}, good: cli.Spec{},
			want: "nic01: /sys/class/net/ens1f0np0/ecn/roce_np/enable/3 is missing: the ECN sysfs comes with MLNX_OFED's mlx5_core driver"},
		{name: "pfc-prevention-tout on bnxt_en", golden: "clos-400g/nic02.sh", port: "enp65s0f0np0",
			missing: cli.Spec{Driver: "bnxt_en"}, good: cli.Spec{Driver: "mlx5_core"},
			want: "nic02: enp65s0f0np0 has no ethtool tunable pfc-prevention-tout: the mlx5_core driver provides it"},
		{name: "fw-lldp-agent on mlx5", golden: "releases/leaf-eos421-dcb.sh", port: "ens2f0",
			missing: cli.Spec{Driver: "mlx5_core"}, good: cli.Spec{Driver: "ice"},
			want: "leaf-eos421-dcb: ens2f0 has no private flag fw-lldp-agent: the ice driver provides it"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "..", "templates", "testdata", "golden", filepath.FromSlash(tc.golden)))
			if err != nil {
				t.Fatal(err)
			}
			// The golden's header names its device's platform.
			m := goldenPlatformRe.FindStringSubmatch(string(data))
			if m == nil {
				t.Fatalf("%s: no \"device NAME (PLATFORM)\" header", tc.golden)
			}
			platform := schema.Platform(m[2])
			body := scriptBody(strings.Split(string(data), "\n"))
			for _, host := range []struct {
				spec cli.Spec
				ok   bool
			}{{tc.missing, false}, {tc.good, true}} {
				env := testEnv("h", platform)
				env.Spec.Ports = []string{tc.port}
				env.Spec.Driver, env.Spec.InboxDriver = host.spec.Driver, host.spec.InboxDriver
				emu, err := newEmulator(env)
				if err != nil {
					t.Fatal(err)
				}
				before := emu.Running()
				err = emu.OutOfBand(body)
				after := emu.Running()
				if host.ok {
					if err != nil {
						t.Fatalf("on a host with the capability (%+v) the script failed: %v", host.spec, err)
					}
					if after == before {
						t.Fatal("on a host with the capability the script changed nothing: the check would prove nothing")
					}
					continue
				}
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("on a host without the capability: error %v, want one containing %q", err, tc.want)
				}
				if after != before {
					t.Errorf("the script changed the host before it stopped:\nbefore:\n%s\nafter:\n%s", before, after)
				}
			}
		})
	}
}
