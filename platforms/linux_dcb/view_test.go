package linuxdcb

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
)

// TestDCBTrustLines: DSCP trust sets no apptrust (mlx5, bnxt and ice have
// none; the first DSCP app entry switches them to DSCP trust) and reads
// the dcb app replace back, since it exits 0 when the kernel refuses.
func TestDCBTrustLines(t *testing.T) {
	f, d := rendertest.TinyFabric(Platform(), "eth0")
	text, err := rendertest.Render(t, Platform(), f, d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "apptrust") || strings.Contains(text, "pcp-prio") {
		t.Errorf("DSCP trust renders dcb apptrust or a PCP map:\n%s", text)
	}
	for _, want := range []string{
		`(install iproute2 5.12 or later)`,
		"\nethtool -A eth0 rx off tx off || [ $? -eq 78 ]\n",
		`[ "$(dcb -N app show dev eth0 dscp-prio)" = "dscp-prio 0:0 1:0 `,
		` 26:3 27:0 `,
		` 63:0 " ] || { echo "eth0: dcb app dscp-prio did not take" >&2; exit 1; }` + "\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("render lacks %q:\n%s", want, text)
		}
	}
}

// TestDCBConfigfsSetup: linux_dcb loads rdma_cm and mounts configfs once,
// before the first rdma_cm configfs write.
func TestDCBConfigfsSetup(t *testing.T) {
	f, d := rendertest.TinyFabric(Platform(), "eth0")
	d.Ports = append(d.Ports, &schema.Port{Name: "eth1", Device: d, Speed: rendertest.Set(int64(100e9)), QoS: d.Ports[0].QoS})
	d.RDMA = &schema.RDMA{ToS: rendertest.Set(106)}
	f.Reindex()
	text, err := rendertest.Render(t, Platform(), f, d)
	if err != nil {
		t.Fatal(err)
	}
	setup := "modprobe rdma_cm\nmountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config\n" +
		`mkdir -p "/sys/kernel/config/rdma_cm/$ibdev_eth0"` + "\n"
	if !strings.Contains(text, setup) || strings.Count(text, "modprobe rdma_cm\n") != 1 {
		t.Errorf("want one setup block before the first mkdir:\n%s", text)
	}
	for _, tool := range []string{"command -v modprobe ", "command -v mountpoint "} {
		if !strings.Contains(text, tool) {
			t.Errorf("no %q check:\n%s", tool, text)
		}
	}
}
