package sonic_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
	"github.com/fabricgen/fabricgen/platforms/sonic"
	"github.com/fabricgen/fabricgen/platforms/sonic/emulator"
)

// TestLabBufferModelRule: the emulator's copy of the default buffer model
// (it cannot import this package) is the platform's.
func TestLabBufferModelRule(t *testing.T) {
	spec := plat().Spec
	for _, asic := range append([]string{""}, sonic.ASICs...) {
		for _, raw := range []string{"201911", "202006", "202012", "202012.1", "202106", "202205", "202311", "202505"} {
			v, err := spec.ParseVersion(raw)
			if err != nil {
				t.Fatal(err)
			}
			want := sonic.DefaultBufferModel(asic, v)
			if asic == "" { // the emulator's switch without an asic is mellanox
				want = sonic.DefaultBufferModel("mellanox", v)
			}
			if got := emulator.DefaultBufferModel(asic, raw); got != want {
				t.Errorf("asic %q release %s: the emulator says %s, the platform %s", asic, raw, got, want)
			}
		}
	}
	if got, want := emulator.DefaultRelease, spec.DefaultVersion().String(); got != want {
		t.Errorf("emulator.DefaultRelease = %s, the platform's default release is %s", got, want)
	}
}

// TestLabBufferOverSSH: over real SSH, a switch of the intent's identity
// has its SKU's lookup file, buffermgrd acts on a patch, and lab show's
// export started again (--running-config) is the same switch.
func TestLabBufferOverSSH(t *testing.T) {
	cases := []struct {
		asic, release, model, file, profile string
	}{
		{"broadcom", "202311", "", "/usr/share/sonic/device/x86_64-dellemc_z9332f_d1508-r0/DellEMC-Z9332f-O32/pg_profile_lookup.ini", "pg_lossless_400000_40m_profile"},
		{"mellanox", "202311", "dynamic", "/usr/share/sonic/device/x86_64-mlnx_msn4700-r0/ACS-MSN4700/pg_profile_lookup.ini", "NULL"},
	}
	for _, c := range cases {
		t.Run(c.asic, func(t *testing.T) {
			l := labtest.Start(t, lab.DeviceSpec{Name: "d1", Platform: plat().Name, ASIC: c.asic, Release: c.release, BufferModel: c.model})
			sh := labtest.OpenShell(t, l, "d1", `\$ $`)
			if got := sh.Run("cat " + c.file); !strings.HasPrefix(got, "# PG lossless profiles.\n") || !strings.Contains(got, "  400000 40m ") {
				t.Errorf("cat %s:\n%s", c.file, got)
			}
			sh.Run(`printf '%s' '[{"op":"add","path":"/CABLE_LENGTH/AZURE/Ethernet0","value":"40m"},{"op":"add","path":"/PORT_QOS_MAP","value":{"Ethernet0":{"pfc_enable":"3,4"}}}]' > /tmp/p.json`)
			if got := sh.Run("sudo config apply-patch /tmp/p.json"); !strings.Contains(got, "Patch applied successfully.") {
				t.Fatalf("apply-patch: %s", got)
			}
			got, _, _ := strings.Cut(sh.Run("sonic-db-cli CONFIG_DB HGET 'BUFFER_PG|Ethernet0|3-4' profile"), "\n")
			if want := c.profile; got != want {
				t.Errorf("BUFFER_PG|Ethernet0|3-4 profile = %q, want %q", got, want)
			}
			exported := l.Device("d1").Export()
			l2 := labtest.Start(t, lab.DeviceSpec{Name: "d1", Platform: plat().Name, ASIC: c.asic, Release: c.release, RunningConfig: exported})
			if again := l2.Device("d1").Export(); again != exported {
				t.Errorf("started from its export, the switch differs:\n%s", cli.UnifiedDiff("export", "again", exported, again))
			}
		})
	}
}
