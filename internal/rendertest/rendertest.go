// Package rendertest helps a platform folder's tests render a device with
// the folder's own parts, as the engine (package templates) does with the
// embedded templates: view.BuildBase, the folder's view builder (which runs
// its sub-templates), then device.tmpl. It imports only kit packages, so a
// folder's internal tests can use it without importing the engine.
package rendertest

import (
	"fmt"
	"strings"
	"testing"
	"text/template"

	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// Set returns v as a value the intent set.
func Set[T any](v T) schema.Value[T] { return schema.Value[T]{V: v, Set: true} }

// TinyFabric builds a one-device fabric of platform p in Go: one port
// named port with RoCE on priority 3 (DSCP 26, lossless, ECN, DWRR 50),
// CNP on 6 (DSCP 48, strict), as the templates package's tests build it.
func TinyFabric(p platform.Platform, port string) (*schema.Fabric, *schema.Device) {
	ecn := &schema.ECNProfile{Name: "roce", Min: Set(int64(150000)), Max: Set(int64(1500000)), Probability: Set(100), Mark: Set(true)}
	q := &schema.PortQoS{Trust: Set(schema.TrustDSCP), MTU: Set(9214)}
	for i := range q.DSCP {
		q.DSCP[i] = Set(0)
	}
	q.DSCP[26], q.DSCP[48] = Set(3), Set(6)
	for i := range q.Queue {
		q.Queue[i] = Set(i)
		q.PCP[i] = Set(i)
	}
	q.Lossless = schema.PrioSetOf(3)
	q.Queues[0] = schema.QueueQoS{Sched: Set(schema.SchedDWRR), Weight: Set(50)}
	q.Queues[3] = schema.QueueQoS{Sched: Set(schema.SchedDWRR), Weight: Set(50), ECN: Set(ecn)}
	q.Queues[6] = schema.QueueQoS{Sched: Set(schema.SchedStrict)}
	d := &schema.Device{Name: "dut", Kind: Set(schema.KindLeaf), Platform: Set(p.Name), HostPlatform: p.Spec.Host}
	if p.Spec.Host {
		d.Kind = Set(schema.KindNIC)
	}
	d.Ports = []*schema.Port{{Name: port, Device: d, Speed: Set(int64(100e9)), QoS: q}}
	f := &schema.Fabric{Name: "tiny", Digest: "0123", Devices: []*schema.Device{d}, ECNProfiles: []*schema.ECNProfile{ecn}}
	f.Reindex()
	return f, d
}

// Render renders d with p's embedded templates and view builder; an error
// is a refusal of the builder or a template failure.
func Render(t testing.TB, p platform.Platform, f *schema.Fabric, d *schema.Device) (string, error) {
	t.Helper()
	tm, err := template.New(string(p.Name)).Option("missingkey=error").Funcs(view.Funcs()).ParseFS(p.Templates, "*.tmpl")
	if err != nil {
		t.Fatalf("parsing %s's templates: %v", p.Name, err)
	}
	b, err := view.BuildBase(f, d, nil, p.Render, &view.StanzaSet{Embedded: tm})
	if err != nil {
		return "", fmt.Errorf("device %s: %w", d.Name, err)
	}
	v, err := p.View(f, d, b)
	if err != nil {
		return "", fmt.Errorf("device %s: %w", d.Name, err)
	}
	var out strings.Builder
	if err := tm.ExecuteTemplate(&out, "device.tmpl", v); err != nil {
		return "", fmt.Errorf("device %s: executing device.tmpl: %w", d.Name, err)
	}
	return out.String(), nil
}
