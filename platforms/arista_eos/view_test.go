package aristaeos

import (
	"strings"
	"testing"
	"text/template"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

func set[T any](v T) schema.Value[T] { return schema.Value[T]{V: v, Set: true} }

// viewRender renders d with this folder's embedded templates and view
// builder, as the engine does without overrides: BuildBase, the builder
// (running the sub-templates), then device.tmpl.
func viewRender(t *testing.T, f *schema.Fabric, d *schema.Device) (string, error) {
	t.Helper()
	tm, err := template.New(string(name)).Option("missingkey=error").Funcs(view.Funcs()).ParseFS(Templates(), "*.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	b, err := view.BuildBase(f, d, nil, Platform().Render, &view.StanzaSet{Embedded: tm})
	if err != nil {
		return "", err
	}
	v, err := viewBuildEOS(f, d, b)
	if err != nil {
		return "", err
	}
	var out strings.Builder
	err = tm.ExecuteTemplate(&out, "device.tmpl", v)
	return out.String(), err
}

// tinyFabric builds a one-device fabric of this platform in Go: one port
// with RoCE on priority 3 (DSCP 26, lossless, ECN, DWRR 50), CNP on 6
// (DSCP 48, strict), as the templates package's tests build it.
func tinyFabric(port string) (*schema.Fabric, *schema.Device) {
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
	q.PFC[3] = set(true)
	q.Queues[0] = schema.QueueQoS{Sched: set(schema.SchedDWRR), Weight: set(50)}
	q.Queues[3] = schema.QueueQoS{Sched: set(schema.SchedDWRR), Weight: set(50), ECN: set(ecn)}
	q.Queues[6] = schema.QueueQoS{Sched: set(schema.SchedStrict)}
	d := &schema.Device{Name: "dut", Kind: set(schema.KindLeaf), Platform: set(name)}
	d.Ports = []*schema.Port{{Name: port, Device: d, Speed: set(int64(100e9)), QoS: q}}
	f := &schema.Fabric{Name: "tiny", Digest: "0123", Devices: []*schema.Device{d}, ECNProfiles: []*schema.ECNProfile{ecn}}
	f.Reindex()
	return f, d
}

// TestEOSSpeedKeywords: every speed in the table renders its EOS keyword.
func TestEOSSpeedKeywords(t *testing.T) {
	for speed, kw := range viewEOSSpeeds {
		f, d := tinyFabric("Ethernet1")
		d.Ports[0].Speed = set(speed)
		text, err := viewRender(t, f, d)
		if err != nil {
			t.Errorf("%s: %v", view.Bps(speed), err)
			continue
		}
		if !strings.Contains(text, "\n   speed "+kw+"\n") {
			t.Errorf("%s: no \"speed %s\" line", view.Bps(speed), kw)
		}
	}
}
