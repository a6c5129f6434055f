package nvidiamlnx_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/golden"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

func set[T any](v T) schema.Value[T] { return schema.Value[T]{V: v, Set: true} }

// ibFabric has GPU hosts in the compute (SL3) and storage (SL2)
// partitions; gpu01 uses SL3, gpu02 sets no SL, stor01 uses SL2.
func ibFabric() *schema.Fabric {
	f := &schema.Fabric{Name: "ib1", LinkLayer: set(schema.LinkInfiniBand)}
	leaf := &schema.Device{Name: "leaf1", Kind: set(schema.KindLeaf), Platform: set(schema.Platform("ib_switch")), GUID: set(uint64(0x0002c90000000101))}
	f.Devices = append(f.Devices, leaf)
	for i, h := range []struct {
		name string
		sl   int
	}{{"gpu01", 3}, {"gpu02", -1}, {"stor01", 2}} {
		d := &schema.Device{Name: h.name, Kind: set(schema.KindNIC), Platform: set(schema.Platform("nvidia_mlnx")), RDMA: &schema.RDMA{}}
		if h.sl >= 0 {
			d.RDMA.SL = set(h.sl)
		}
		p := &schema.Port{Name: "ib0", Device: d, GUID: set(uint64(0x0002c90300a00001 + 0x100*(i+1)))}
		d.Ports = []*schema.Port{p}
		lp := &schema.Port{Name: string(rune('1' + i)), Device: leaf}
		leaf.Ports = append(leaf.Ports, lp)
		f.Links = append(f.Links, &schema.Link{A: p, B: lp})
		f.Devices = append(f.Devices, d)
	}
	f.Classes = []*schema.TrafficClass{
		{Name: "compute", SL: set(3), Weight: set(50)},
		{Name: "default", SL: set(0), Weight: set(25), Role: schema.RoleDefault},
		{Name: "storage", SL: set(2), Weight: set(25)},
	}
	f.Reindex()
	d := f.Device
	f.Partitions = []*schema.Partition{
		{Name: "compute", PKey: set(0x8001), Members: []*schema.Device{d("gpu01"), d("gpu02")}, SL: set(3)},
		{Name: "default", PKey: set(0x7fff), Default: set(true)},
		{Name: "storage", PKey: set(0x8002), Members: []*schema.Device{d("gpu01"), d("gpu02")}, Membership: set(schema.MemberLimited), FullMembers: []*schema.Device{d("stor01")}, SL: set(2)},
	}
	return f
}

// TestInfiniBandHostEnv: an InfiniBand NIC gets the job environment
// (NCCL_IB_SL, UCX_IB_SL, NCCL_IB_PKEY) and nothing RoCE. Goldens in
// testdata/ib, behind the shared -update flag.
func TestInfiniBandHostEnv(t *testing.T) {
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := ibFabric()
	for _, name := range []string{"gpu01", "gpu02", "stor01"} {
		o, err := r.Render(f, f.Device(name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := string(o.Text)
		for _, roce := range []string{"mlnx_qos", "ecn", "cma_roce", "dscp", "pfc"} {
			if strings.Contains(strings.ToLower(text), roce) {
				t.Errorf("%s: RoCE setting %q on an InfiniBand host:\n%s", name, roce, text)
			}
		}
		golden.Check(t, filepath.Join("testdata", "ib", o.Filename), o.Text, "go test ./platforms/nvidia_mlnx -run TestInfiniBandHostEnv -update")
	}
}

// TestInfiniBandHostEnvFidelity: every line of the InfiniBand host
// goldens has a row in fidelity_ib.md.
func TestInfiniBandHostEnvFidelity(t *testing.T) {
	doc, err := os.ReadFile("fidelity_ib.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, l := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(l, "| `") {
			rows[strings.SplitN(strings.TrimPrefix(l, "| `"), "`", 2)[0]] = true
		}
	}
	num := regexp.MustCompile(`=\d+$`)
	files, _ := filepath.Glob(filepath.Join("testdata", "ib", "*"))
	if len(files) == 0 {
		t.Fatal("no goldens in testdata/ib")
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			shape := num.ReplaceAllString(l, "=N")
			if strings.HasPrefix(l, "# ") {
				shape = "# TEXT"
			}
			if !rows[shape] {
				t.Errorf("%s: %q has no fidelity_ib.md row", file, l)
			}
		}
	}
}
