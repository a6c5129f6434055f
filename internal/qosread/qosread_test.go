package qosread

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// TestReadsRenderedConfigs reads every golden render of the example
// fabrics and checks that each port classifies every class's code points
// into the intent's priority, with the intent's queue, PFC and ECN: what
// the lab's traffic and check's read-back rely on.
func TestReadsRenderedConfigs(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, ex := range []string{"clos-400g", "roce-storage", "ai-training-2subnet"} {
		f, diags := schema.Load(filepath.Join(root, "examples", ex), schema.Options{Getenv: func(string) string { return "" }})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", ex, diags)
		}
		checked := 0
		for _, dev := range f.Devices {
			if !Supported(dev.Platform.V) {
				continue
			}
			var text []byte
			for _, ext := range []string{".cfg", ".json", ".nvue", ".set"} {
				if b, err := os.ReadFile(filepath.Join(root, "templates", "testdata", "golden", ex, dev.Name+ext)); err == nil {
					text = b
				}
			}
			if text == nil {
				t.Fatalf("%s: no golden render of %s", ex, dev.Name)
			}
			q, err := Read(dev.Platform.V, string(text))
			if err != nil {
				t.Fatalf("%s/%s: %v", ex, dev.Name, err)
			}
			for _, port := range dev.Ports {
				if port.QoS == nil || port.Link == nil {
					continue
				}
				checked++
				qp := q.Port(port.Name)
				for _, c := range f.Classes {
					for _, d := range c.DSCP {
						roce := c.Role == schema.RoleRoCE || c.Role == schema.RoleCNP
						got, out := qp.Classify(d, roce)
						want := port.QoS.DSCP[out].V
						if out == d {
							want = port.QoS.DSCP[d].V
						}
						if got != want {
							t.Errorf("%s/%s:%s: class %s DSCP %d lands in priority %d (DSCP %d out), intent %d", ex, dev.Name, port.Name, c.Name, d, got, out, want)
						}
						if qp.Queue[got] != port.QoS.Queue[got].V {
							t.Errorf("%s/%s:%s: priority %d in queue %d, intent %d", ex, dev.Name, port.Name, got, qp.Queue[got], port.QoS.Queue[got].V)
						}
					}
				}
				if got, want := schema.PrioSetOf(qp.Lossless()...), port.QoS.Lossless(); got != want {
					t.Errorf("%s/%s:%s: PFC %s, intent %s", ex, dev.Name, port.Name, got, want)
				}
				for qn := 0; qn < 8; qn++ {
					want := port.QoS.Queues[qn].ECN.V != nil && port.QoS.Queues[qn].ECN.V.Mark.V
					if want && !qp.ECN[qn] {
						t.Errorf("%s/%s:%s: queue %d marks no ECN, intent does", ex, dev.Name, port.Name, qn)
					}
				}
			}
		}
		t.Logf("%s: %d ports checked", ex, checked)
		if checked == 0 {
			t.Errorf("%s: no port checked", ex)
		}
	}
}

func TestOutOfBandRewrite(t *testing.T) {
	text := `ip access-list roce
   10 permit udp any any eq 4791
class-map type qos match-any roce
   match ip access-group roce
policy-map type quality-of-service ZERO
   class roce
      set dscp 0
      set traffic-class 5
qos map dscp 46 to traffic-class 5
interface Ethernet1
   no switchport
   service-policy type qos input ZERO
`
	d, err := Read(schema.AristaEOS, text)
	if err != nil {
		t.Fatal(err)
	}
	prio, out := d.Port("Ethernet1").Classify(46, true)
	if prio != 5 || out != 0 {
		t.Errorf("Classify(46, roce) = %d, %d; want priority 5, DSCP 0", prio, out)
	}
	if prio, out := d.Port("Ethernet1").Classify(46, false); prio != 5 || out != 46 {
		t.Errorf("non-RoCE DSCP 46 = %d, %d; want 5, 46", prio, out)
	}
	if d.Port("Ethernet9").Trust != "dscp" || strings.Contains("x", "y") {
		t.Errorf("an unnamed port: %+v", d.Port("Ethernet9"))
	}
}

func FuzzReadQoS(f *testing.F) {
	f.Add(string(schema.AristaEOS), "interface Ethernet1\n   qos trust dscp\n   tx-queue 3\n      random-detect ecn minimum-threshold 1 bytes\n")
	f.Add(string(schema.CiscoNXOS), "class-map type qos match-any X\n  match dscp 0-63\npolicy-map type qos P\n  class X\n    set qos-group 3\ninterface Ethernet1/1\n  service-policy type qos input P\n")
	f.Add(string(schema.JuniperJunos), "set class-of-service classifiers dscp C forwarding-class roce loss-priority low code-points 011010\n")
	f.Add(string(schema.NvidiaCumulus), "nv set qos mapping default-global dscp 26 switch-priority 3\nnv set acl a rule 1 action set dscp 46\n")
	f.Add(string(schema.SONiC), `{"DSCP_TO_TC_MAP":{"M":{"26":"3"}},"PORT_QOS_MAP":{"Ethernet0":{"dscp_to_tc_map":"M","pfc_enable":"3"}}}`)
	f.Fuzz(func(t *testing.T, platform, text string) {
		p := schema.Platform(platform)
		if !Supported(p) {
			return
		}
		d, err := Read(p, text)
		if err != nil {
			return
		}
		for _, name := range append(d.PortNames(), "none") {
			qp := d.Port(name)
			for dscp := 0; dscp < 64; dscp++ {
				pr, out := qp.Classify(dscp, dscp%2 == 0)
				if !prio(pr) || !dscpOK(out) {
					t.Fatalf("%s: Classify(%d) = %d, %d out of range", name, dscp, pr, out)
				}
			}
		}
	})
}
