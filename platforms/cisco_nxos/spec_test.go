package cisconxos_test

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	cisconxos "github.com/fabricgen/fabricgen/platforms/cisco_nxos"
)

// TestSpecReleases pins the NX-OS release syntax: MAJOR.MINOR[(MAINT)][TRAIN].
func TestSpecReleases(t *testing.T) {
	platformtest.CheckReleases(t, cisconxos.Platform().Spec,
		map[string][]int{"10.3(2)F": {10, 3, 2}, "9.3(10)": {9, 3, 10}, "10.4": {10, 4}},
		[]string{"10.3(2", "I7(9)"})
}

// TestSpecPortNames pins the NX-OS interface names: EthernetS/P[/B].
func TestSpecPortNames(t *testing.T) {
	platformtest.CheckPortNames(t, cisconxos.Platform().Spec,
		[]string{"Ethernet1/1", "Ethernet1/49/1"},
		[]string{"Ethernet1", "Eth1/1", "Ethernet1/1/1/1", "Ethernet/1"})
}

// TestSpecRefusedAtLoad: what the loader refuses on an NX-OS device: a
// release of the train alone, a port without a slot, and the names the
// platform renders longer than it accepts.
func TestSpecRefusedAtLoad(t *testing.T) {
	spec := cisconxos.Platform().Spec
	plat := "  platform   = \"" + string(spec.Name) + "\"\n"
	dev := "device \"x\" {\n  kind       = \"leaf\"\n" + plat
	platformtest.CheckRefused(t, spec, []platformtest.RefusedCase{
		{Name: "os_version train only", Src: dev + "  os_version = \"I7(9)\"\n}\n",
			Summary: "Invalid os_version", Detail: "10.3(2)F", Line: 4},
		{Name: "port without a slot", Src: dev + "  port \"Ethernet1\" {}\n}\n",
			Summary: "Port name does not fit the platform", Detail: "EthernetS/P", Line: 4},
		{Name: "class name too long", Src: "traffic_class \"" + strings.Repeat("c", 33) + "\" {\n  priority = 1\n  dscp     = [10]\n}\ndevice \"n9k\" {\n  kind     = \"leaf\"\n" + plat + "}\n",
			Summary: "Name too long for the platform", Detail: "class-map \"FG-DSCP-" + strings.Repeat("c", 33) + "\", 41 characters", Line: 1},
		{Name: "re-marking acl name too long", Src: "acl \"" + strings.Repeat("a", 28) + "\" {\n  rule {\n    action   = \"permit\"\n    set_dscp = 26\n  }\n}\ndevice \"n9k\" {\n  kind     = \"leaf\"\n" + plat + "  port \"Ethernet1/1\" {\n    speed  = \"100G\"\n    acl_in = acl." + strings.Repeat("a", 28) + "\n  }\n}\n",
			Summary: "Name too long for the platform", Detail: "policy-map \"FABRICGEN-IN-", Line: 1},
	})
}
