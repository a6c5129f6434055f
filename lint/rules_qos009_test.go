package lint

import (
	"context"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// remapDSCP makes every port of f map DSCP d to priority prio, as the
// loader does when no class names d (default_priority 0).
func remapDSCP(f *schema.Fabric, d, prio int) {
	seen := map[*schema.PortQoS]bool{}
	for _, dev := range f.Devices {
		for _, p := range dev.Ports {
			if p.QoS == nil || seen[p.QoS] {
				continue
			}
			seen[p.QoS] = true
			p.QoS.DSCP[d] = schema.Value[int]{V: prio, Set: true, Src: p.QoS.DSCP[0].Src}
		}
	}
}

// setTrust sets the trust mode of every port keep accepts.
func setTrust(f *schema.Fabric, t schema.Trust, keep func(*schema.Port) bool) {
	for _, dev := range f.Devices {
		for _, p := range dev.Ports {
			if keep(p) {
				editQoS(p, func(q *schema.PortQoS) { q.Trust.V = t })
			}
		}
	}
}

// TestClassHasDSCP covers QOS009's branches on the Go fixture fabric
// (the loader fixtures qos009-* cover the same through schema.Load).
func TestClassHasDSCP(t *testing.T) {
	all := func(*schema.Port) bool { return true }
	cases := []struct {
		name string
		edit func(f *schema.Fabric)
		// want is a substring of the one QOS009 summary, "" for none.
		want string
		// at says the subject: "dscp" (the class's dscp attribute) or "block".
		at      string
		related string
	}{
		{"roce empty", func(f *schema.Fabric) { f.Class("roce").DSCP = []int{}; remapDSCP(f, 26, 0) },
			`traffic_class "roce" has an empty dscp list, but 4 NICs mark RoCE with DSCP 26 (gpu01: tos 106): switches put it in priority 0, not the class's priority 3`, "dscp", "gpu01 marks RoCE with DSCP 26 here (tos 106)"},
		{"roce attribute absent", func(f *schema.Fabric) {
			c := f.Class("roce")
			c.DSCP, c.DSCPRange = nil, schema.Range{}
			remapDSCP(f, 26, 0)
		}, `traffic_class "roce" sets no dscp, but 4 NICs mark RoCE`, "block", "gpu01 marks RoCE"},
		{"a dscp_map still sends it", func(f *schema.Fabric) { f.Class("roce").DSCP = []int{} },
			`switches send it to priority 3 only through dscp_map entries, which the class does not say`, "dscp", "gpu01 marks RoCE"},
		{"NICs disagree: the majority names the DSCP", func(f *schema.Fabric) {
			f.Class("roce").DSCP = []int{}
			remapDSCP(f, 26, 0)
			f.Device("gpu03").RDMA.ToS.V = 98
		}, `3 NICs mark RoCE with DSCP 26 (gpu01: tos 106; 1 other NIC marks DSCP 24)`, "dscp", "gpu01 marks RoCE"},
		{"another class claims it", func(f *schema.Fabric) {
			f.Class("roce").DSCP = []int{}
			f.Class("storage-mgmt").DSCP = []int{16, 26}
			remapDSCP(f, 26, 6)
		}, `which traffic_class "storage-mgmt" claims: switches put it in priority 6, not the class's priority 3`, "dscp", `traffic_class "storage-mgmt" claims DSCP 26 here`},
		{"only the NICs classify by DSCP", func(f *schema.Fabric) {
			f.Class("roce").DSCP = []int{}
			remapDSCP(f, 26, 0)
			setTrust(f, schema.TrustPCP, isSwitch)
		}, `the NICs' own DSCP maps put it in priority 0`, "dscp", "gpu01 marks RoCE"},
		{"no NIC sets tos", func(f *schema.Fabric) {
			f.Class("roce").DSCP = []int{}
			remapDSCP(f, 26, 0)
			for _, n := range []string{"gpu01", "gpu02", "gpu03", "gpu04"} {
				f.Device(n).RDMA.ToS = schema.Value[int]{}
			}
		}, `traffic_class "roce" has an empty dscp list, so no port that classifies by DSCP can put RoCE in the class's priority 3`, "dscp", "gpu01 sends RoCE"},
		{"cnp empty", func(f *schema.Fabric) { f.Class("cnp").DSCP = []int{}; remapDSCP(f, 56, 0) },
			`traffic_class "cnp" has an empty dscp list, but 4 NICs mark CNP with DSCP 56 (gpu01: cnp_dscp 56): switches put it in priority 0, not the class's priority 7`, "dscp", "gpu01 marks CNP with DSCP 56 here (cnp_dscp 56)"},
		{"lossless class nothing reaches", func(f *schema.Fabric) {
			c := f.Class("storage-mgmt")
			c.DSCP, c.Lossless.V = []int{}, true
			remapDSCP(f, 16, 0)
		}, `traffic_class "storage-mgmt" is lossless but has an empty dscp list: no port that classifies by DSCP puts anything in its priority 6`, "dscp", "classifies by DSCP here"},
		{"every port trusts pcp", func(f *schema.Fabric) {
			f.Class("roce").DSCP, f.Class("cnp").DSCP = []int{}, nil
			remapDSCP(f, 26, 0)
			remapDSCP(f, 56, 0)
			setTrust(f, schema.TrustPCP, all)
		}, "", "", ""},
		{"lossy class without dscp", func(f *schema.Fabric) { f.Class("storage-mgmt").DSCP = []int{}; remapDSCP(f, 16, 0) }, "", "", ""},
		{"lossless class reached through another class's priority", func(f *schema.Fabric) {
			c := f.Class("storage-mgmt")
			c.DSCP, c.Lossless.V, c.Priority.V = []int{}, true, 3
			remapDSCP(f, 16, 0)
		}, "", "", ""},
		{"iwarp NICs send neither flow", func(f *schema.Fabric) {
			f.Class("roce").DSCP, f.Class("roce").Lossless.V = []int{}, false
			f.Class("cnp").DSCP = []int{}
			remapDSCP(f, 26, 0)
			remapDSCP(f, 56, 0)
			for _, n := range []string{"gpu01", "gpu02", "gpu03", "gpu04"} {
				f.Device(n).RDMA.Transport = schema.Value[schema.Transport]{V: schema.TransportIWARP, Set: true}
			}
		}, "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := baseFabric()
			c.edit(f)
			f.Reindex()
			fs, err := Run(context.Background(), f, Options{Only: []string{"QOS009"}})
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				for _, fd := range fs {
					t.Errorf("unexpected %s: %s", fd.Rule, fd.Summary)
				}
				return
			}
			if len(fs) != 1 {
				t.Fatalf("%d findings, want one QOS009: %v", len(fs), fs)
			}
			fd := fs[0]
			if fd.Rule != "QOS009" || fd.Severity != schema.SevError || !strings.Contains(fd.Summary, c.want) {
				t.Errorf("got %s %s %q, want QOS009 error containing %q", fd.Rule, fd.Severity, fd.Summary, c.want)
			}
			if fd.Device != "" {
				t.Errorf("finding is pinned to device %q; a class line is fabric-wide (render refuses every device on it)", fd.Device)
			}
			var cls *schema.TrafficClass
			for _, x := range f.Classes {
				if strings.Contains(fd.Summary, `traffic_class "`+x.Name+`"`) {
					cls = x
					break
				}
			}
			want := cls.DSCPRange
			if c.at == "block" {
				want = cls.Range
			}
			if fd.Subject == nil || *fd.Subject != want {
				t.Errorf("subject %v, want the class's %s at %v", fd.Subject, c.at, want)
			}
			var rel []string
			for _, r := range fd.Related {
				rel = append(rel, r.Message)
			}
			if !strings.Contains(strings.Join(rel, "\n"), c.related) {
				t.Errorf("related %q lacks %q", rel, c.related)
			}
			if fd.Fix == "" || strings.Contains(fd.Fix, "%!") || strings.Contains(fd.Summary, "%!") {
				t.Errorf("bad text: %q / %q", fd.Summary, fd.Fix)
			}
		})
	}
}
