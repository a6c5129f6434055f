package templates

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

func set[T any](v T) schema.Value[T] { return schema.Value[T]{V: v, Set: true} }

// tinyFabric builds a one-device fabric in Go: one port with RoCE on
// priority 3 (DSCP 26, lossless, ECN, DWRR 50), CNP on 6 (DSCP 48, strict)
// and everything else on 0 (DWRR 50).
func tinyFabric(p schema.Platform, port string) (*schema.Fabric, *schema.Device) {
	ecn := &schema.ECNProfile{Name: "roce", Min: set(int64(150000)), Max: set(int64(1500000)), Probability: set(100), Mark: set(true)}
	q := &schema.PortQoS{Trust: set(schema.TrustDSCP), MTU: set(9214)}
	for i := range q.DSCP {
		q.DSCP[i] = set(0)
	}
	q.DSCP[26], q.DSCP[48] = set(3), set(6)
	for i := range q.Queue {
		q.Queue[i] = set(i)
		q.PCP[i] = set(i)
	}
	q.Lossless = schema.PrioSetOf(3)
	q.Queues[0] = schema.QueueQoS{Sched: set(schema.SchedDWRR), Weight: set(50)}
	q.Queues[3] = schema.QueueQoS{Sched: set(schema.SchedDWRR), Weight: set(50), ECN: set(ecn)}
	q.Queues[6] = schema.QueueQoS{Sched: set(schema.SchedStrict)}
	d := &schema.Device{Name: "dut", Kind: set(schema.KindLeaf), Platform: set(p)}
	if p == schema.SONiC {
		d.ASIC = set("broadcom")
	}
	if platforms.IsHost(p) {
		d.Kind, d.HostPlatform = set(schema.KindNIC), true
	}
	d.Ports = []*schema.Port{{Name: port, Device: d, Speed: set(int64(100e9)), QoS: q}}
	f := &schema.Fabric{Name: "tiny", Digest: "0123", Devices: []*schema.Device{d}, ECNProfiles: []*schema.ECNProfile{ecn}}
	f.Reindex()
	return f, d
}

func portName(p schema.Platform) string {
	switch p {
	case schema.CiscoNXOS:
		return "Ethernet1/1"
	case schema.JuniperJunos:
		return "et-0/0/0"
	case schema.NvidiaCumulus:
		return "swp1"
	case schema.SONiC:
		return "Ethernet0"
	case schema.NvidiaMLNX, schema.LinuxDCB:
		return "eth0"
	}
	return "Ethernet1"
}

// TestTinyFabricRendersEverywhere renders the hand-built fabric (without
// ECN, which Junos cannot take in bytes) on all seven platforms.
func TestTinyFabricRendersEverywhere(t *testing.T) {
	r := newTestRenderer(t)
	for _, p := range schema.Platforms() {
		f, d := tinyFabric(p, portName(p))
		d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
		o, err := r.Render(f, d)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if !strings.Contains(string(o.Text), "dut") && p != schema.SONiC {
			t.Errorf("%s: the header does not name the device", p)
		}
		if !strings.HasSuffix(o.Filename, "."+registry()[p].Ext) {
			t.Errorf("%s: file name %s lacks the platform extension", p, o.Filename)
		}
	}
}

// TestUnsupportedValues: a value a platform cannot express fails the render
// with an error naming the device, the value and the platform.
func TestUnsupportedValues(t *testing.T) {
	acl := &schema.ACL{Name: "mark", Rules: []*schema.ACLRule{{
		Seq: 10, Family: "ipv4", Protocol: set("udp"), Action: set(schema.ActionPermit),
		DstPorts: set([]schema.PortRange{{From: 4791, To: 4791}}), SetDSCP: set(46),
	}}}
	wd := &schema.Watchdog{Name: "wd", Detection: set(200 * time.Millisecond), Restoration: set(400 * time.Millisecond),
		PollInterval: set(100 * time.Millisecond), Action: set(schema.WatchdogDrop)}
	tests := []struct {
		platform schema.Platform
		mutate   func(f *schema.Fabric, d *schema.Device)
		value    string
	}{
		{schema.AristaEOS, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Trust = set(schema.TrustBoth) }, "trust both"},
		{schema.AristaEOS, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Buffer.Headroom = set(int64(160000)) }, "buffer.headroom 160000 B"},
		{schema.CiscoNXOS, func(_ *schema.Fabric, d *schema.Device) {
			w := *wd
			w.Action = set(schema.WatchdogAlert)
			d.Ports[0].QoS.Watchdog = set(&w)
		}, "action alert"},
		{schema.JuniperJunos, func(*schema.Fabric, *schema.Device) {}, "ecn_profile roce on queue 3"},
		{schema.JuniperJunos, func(f *schema.Fabric, d *schema.Device) {
			d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			f.ACLs = []*schema.ACL{acl}
			d.Ports[0].ACLIn = []*schema.ACL{acl}
		}, `acl mark rule 10 set_dscp 46: the firewall filter action "then dscp" is documented for MX and EX, not QFX`},
		{schema.SONiC, func(_ *schema.Fabric, d *schema.Device) { d.ASIC = schema.Value[string]{} }, "a device without asic"},
		{schema.SONiC, func(_ *schema.Fabric, d *schema.Device) {
			d.Ports[0].Link = &schema.Link{Name: "long", CableLength: set(400.0)}
		}, "cable length 400m on lossless port Ethernet0"},
		{schema.SONiC, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].Speed = schema.Value[int64]{} }, "lossless port Ethernet0 without a speed"},
		{schema.SONiC, func(_ *schema.Fabric, d *schema.Device) {
			d.OSVersion = set(schema.Version{Raw: "201711", Parts: []int{201711}})
		}, "os_version 201711"},
		{schema.NvidiaCumulus, func(_ *schema.Fabric, d *schema.Device) {
			d.OSVersion = set(schema.Version{Raw: "5.6", Parts: []int{5, 6}})
		}, "os_version 5.6"},
		{schema.CiscoNXOS, func(_ *schema.Fabric, d *schema.Device) {
			e := *d.Ports[0].QoS.Queues[3].ECN.V
			e.Min = set(int64(1000))
			d.Ports[0].QoS.Queues[3].ECN = set(&e)
		}, "minimum threshold 1000 bytes"},
		{schema.SONiC, func(f *schema.Fabric, d *schema.Device) {
			f.ACLs = []*schema.ACL{acl}
			d.Ports[0].ACLIn = []*schema.ACL{acl}
		}, "set_dscp 46"},
		{schema.SONiC, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Trust = set(schema.TrustNone) }, "trust none"},
		{schema.NvidiaMLNX, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Queues[0].Weight = set(40) }, "ETS weights summing to 90%"},
		{schema.NvidiaMLNX, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Trust = set(schema.TrustBoth) }, "trust both"},
		{schema.LinuxDCB, func(_ *schema.Fabric, d *schema.Device) { d.RDMA = &schema.RDMA{ECN: set(true)} }, "rdma ecn"},
		{schema.AristaEOS, func(f *schema.Fabric, d *schema.Device) {
			a := *acl
			r := *acl.Rules[0]
			r.Police = set(int64(10e9))
			a.Rules = []*schema.ACLRule{&r}
			d.Ports[0].ACLIn = []*schema.ACL{&a}
		}, "police 10G"},
		// nvidia_cumulus: NVUE matches ports only under udp|tcp, bw-percent
		// is 1–100, Spectrum runs Base-R FEC at 25G only; alpha not rendered.
		{schema.NvidiaCumulus, func(f *schema.Fabric, d *schema.Device) {
			a := *acl
			r := *acl.Rules[0]
			r.Protocol = set("icmp")
			a.Rules = []*schema.ACLRule{&r}
			f.ACLs = []*schema.ACL{&a}
			d.Ports[0].ACLIn = []*schema.ACL{&a}
		}, "acl mark rule 10 port match with protocol icmp"},
		{schema.NvidiaCumulus, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Queues[0].Weight = set(0) }, "queue 0 dwrr weight 0"},
		{schema.NvidiaCumulus, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].FEC = set("fc") }, "fec fc on swp1 at 100G"},
		{schema.NvidiaCumulus, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.Buffer.DynamicThreshold = set(1) }, "does not render NVUE alpha"},
		// nvidia_mlnx: mlx5 takes pfc-prevention-tout from 80 to 8000 ms.
		{schema.NvidiaMLNX, func(_ *schema.Fabric, d *schema.Device) {
			w := *wd
			w.Detection, w.Restoration, w.PollInterval = set(50*time.Millisecond), schema.Value[time.Duration]{}, schema.Value[time.Duration]{}
			d.Ports[0].QoS.Watchdog = set(&w)
		}, "pfc_watchdog wd detection 50 ms on eth0"},
		// arista_eos: interface MTU 68–9214, fixed speed keywords, watchdog
		// actions, random-detect ranges.
		{schema.AristaEOS, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.MTU = set(9216) }, "mtu 9216 on Ethernet1"},
		{schema.AristaEOS, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].QoS.MTU = set(64) }, "mtu 64 on Ethernet1"},
		{schema.AristaEOS, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].Speed = set(int64(2_500_000_000)) }, "speed 2500M on Ethernet1"},
		{schema.AristaEOS, func(_ *schema.Fabric, d *schema.Device) { d.Ports[0].Speed = set(int64(5_000_000_000)) }, "speed 5G on Ethernet1"},
		{schema.AristaEOS, func(_ *schema.Fabric, d *schema.Device) {
			w := *wd
			w.Action = set(schema.WatchdogForward)
			d.Ports[0].QoS.Watchdog = set(&w)
		}, "pfc_watchdog wd action forward"},
		{schema.AristaEOS, func(_ *schema.Fabric, d *schema.Device) {
			e := *d.Ports[0].QoS.Queues[3].ECN.V
			e.Probability = set(0)
			d.Ports[0].QoS.Queues[3].ECN = set(&e)
		}, "max_probability 0 on queue 3"},
		{schema.AristaEOS, func(_ *schema.Fabric, d *schema.Device) {
			e := *d.Ports[0].QoS.Queues[3].ECN.V
			e.Probability, e.Mark = set(0), set(false)
			d.Ports[0].QoS.Queues[3].ECN = set(&e)
		}, "drop-probability is 1–100"},
		{schema.AristaEOS, func(_ *schema.Fabric, d *schema.Device) {
			e := *d.Ports[0].QoS.Queues[3].ECN.V
			e.Min = set(int64(0))
			d.Ports[0].QoS.Queues[3].ECN = set(&e)
		}, "min_threshold 0 B on queue 3"},
		// cisco_nxos: fc-fec is CL74 (25/50G); 200G+ ports run RS(544,514).
		{schema.CiscoNXOS, func(_ *schema.Fabric, d *schema.Device) {
			d.Ports[0].Speed, d.Ports[0].FEC = set(int64(400e9)), set("fc")
		}, "fec fc on Ethernet1/1 (400G)"},
		// juniper_junos: one firewall filter per direction and family.
		{schema.JuniperJunos, func(f *schema.Fabric, d *schema.Device) {
			d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			a, b := *acl, *acl
			d.Family = schema.JunosMX
			a.Name, b.Name = "roce-a", "roce-b"
			f.ACLs = []*schema.ACL{&a, &b}
			d.Ports[0].ACLIn = []*schema.ACL{&a, &b}
		}, "2 ACLs bound in on et-0/0/0 (roce-a, roce-b)"},
		{schema.JuniperJunos, func(f *schema.Fabric, d *schema.Device) {
			d.Ports[0].QoS.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			a, b := *acl, *acl
			d.Family = schema.JunosMX
			a.Name, b.Name = "out-a", "out-b"
			f.ACLs = []*schema.ACL{&a, &b}
			d.Ports[0].ACLOut = []*schema.ACL{&a, &b}
		}, "2 ACLs bound out on et-0/0/0 (out-a, out-b)"},
	}
	r := newTestRenderer(t)
	for _, tc := range tests {
		t.Run(string(tc.platform)+"/"+tc.value, func(t *testing.T) {
			f, d := tinyFabric(tc.platform, portName(tc.platform))
			tc.mutate(f, d)
			_, err := r.Render(f, d)
			var ue *view.UnsupportedError
			if !errors.As(err, &ue) {
				t.Fatalf("want an UnsupportedError, got %v", err)
			}
			msg := err.Error()
			for _, want := range []string{"dut", string(tc.platform), tc.value} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not mention %q", msg, want)
				}
			}
		})
	}
}

// TestPortsMustAgree: platforms with device-wide maps reject ports that
// disagree, naming both ports.
func TestPortsMustAgree(t *testing.T) {
	r := newTestRenderer(t)
	for _, p := range []schema.Platform{schema.AristaEOS, schema.CiscoNXOS, schema.SONiC, schema.NvidiaCumulus, schema.JuniperJunos} {
		f, d := tinyFabric(p, portName(p))
		other := *d.Ports[0].QoS
		other.DSCP[26] = set(0)
		d.Ports = append(d.Ports, &schema.Port{Name: portName(p) + "9", Device: d, QoS: &other})
		f.Reindex()
		_, err := r.Render(f, d)
		if err == nil || !strings.Contains(err.Error(), "DSCP 26") {
			t.Errorf("%s: want an error about DSCP 26, got %v", p, err)
		}
	}
}

// TestTemplateOverride: --templates DIR replaces one platform's set and
// leaves the others embedded; a broken override is reported.
func TestTemplateOverride(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "arista_eos"), 0o755); err != nil {
		t.Fatal(err)
	}
	tmpl := `{{range .Ports}}port {{.Name}} mtu {{.MTU}} pfc {{.PFCVector}}
{{end}}`
	if err := os.WriteFile(filepath.Join(dir, "arista_eos", "device.tmpl"), []byte(tmpl), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	f, d := tinyFabric(schema.AristaEOS, "Ethernet1")
	o, err := r.Render(f, d)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(o.Text), "port Ethernet1 mtu 9214 pfc 0,0,0,1,0,0,0,0\n"; got != want {
		t.Errorf("override render = %q, want %q", got, want)
	}
	if r.Source(schema.SONiC) != "embedded" || r.Source(schema.AristaEOS) != filepath.Join(dir, "arista_eos") {
		t.Errorf("sources: sonic %q, eos %q", r.Source(schema.SONiC), r.Source(schema.AristaEOS))
	}
	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, "sonic"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := NewRenderer(Options{Dir: bad}); err == nil || !strings.Contains(err.Error(), "no *.tmpl files") {
		t.Errorf("empty override folder: got %v, want an error saying it holds no *.tmpl files", err)
	}
	// A folder without device.tmpl is laid over the embedded set, which
	// keeps its own device.tmpl.
	if err := os.WriteFile(filepath.Join(bad, "sonic", "other.tmpl"), []byte("{{.Device}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = NewRenderer(Options{Dir: bad})
	if err != nil {
		t.Fatalf("override without device.tmpl: %v", err)
	}
	f, d = tinyFabric(schema.SONiC, "Ethernet0")
	emb := newTestRenderer(t)
	want, err := emb.Render(f, d)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r.Render(f, d); err != nil || string(got.Text) != string(want.Text) {
		t.Errorf("override without device.tmpl renders %v, %v; want the embedded render", got, err)
	}
	if err := os.WriteFile(filepath.Join(bad, "sonic", "device.tmpl"), []byte("{{.NoSuchField}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = NewRenderer(Options{Dir: bad})
	if err != nil {
		t.Fatal(err)
	}
	f, d = tinyFabric(schema.SONiC, "Ethernet0")
	if _, err := r.Render(f, d); err == nil || !strings.Contains(err.Error(), "NoSuchField") {
		t.Errorf("template using a missing field: got %v", err)
	}
}
