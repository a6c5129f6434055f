package snapshot

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

const labSecret = "check-lab-7c1e"

func getenv(k string) string {
	if k == "FABRICGEN_PASSWORD" {
		return labSecret
	}
	return ""
}

// fabricLab is a lab serving an example fabric with its intent applied.
type fabricLab struct {
	f *schema.Fabric
	// devs are the devices of f the lab serves.
	devs []*schema.Device
	lab  *lab.Lab
	opts Options
}

// startFabricLab loads examples/NAME, starts a lab of every device with the
// fabric's data plane, and applies the intent with plan and apply, as an
// operator would. Each tweak edits the loaded intent first (the lab and
// check then share it, as if the HCL said so).
func startFabricLab(t testing.TB, name string, tweaks ...func(*schema.Fabric)) *fabricLab {
	t.Helper()
	f, diags := schema.Load(filepath.Join("..", "..", "..", "examples", name), schema.Options{Getenv: getenv, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, tw := range tweaks {
		tw(f)
	}
	fl := startLabOf(t, f, f.Devices)
	fl.apply(t)
	return fl
}

// startLabOf starts a lab of devs, with f's data plane (the intent is not
// applied: fabricLab.apply does that).
func startLabOf(t testing.TB, f *schema.Fabric, devs []*schema.Device) *fabricLab {
	t.Helper()
	var specs []lab.DeviceSpec
	for _, d := range devs {
		sp := lab.SpecOf(d)
		sp.Username, sp.Password = d.Credentials.Username.V, labSecret
		for _, p := range d.Ports {
			sp.Ports = append(sp.Ports, p.Name)
		}
		specs = append(specs, sp)
	}
	l, err := lab.Start(context.Background(), specs, lab.Options{Dir: t.TempDir(), Fabric: f})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	hk, err := session.NewHostKeys([]string{l.KnownHostsPath()}, false)
	if err != nil {
		t.Fatal(err)
	}
	inv := map[string]string{}
	for _, n := range l.Names() {
		inv[n] = l.Addr(n)
	}
	fl := &fabricLab{f: f, devs: devs, lab: l, opts: Options{Parallelism: 16, Timeout: time.Minute, HostKeys: hk, Inventory: inv, Getenv: getenv,
		Now: l.Clock().Time, Clock: check.ClockLab}}
	return fl
}

// apply plans and applies the intent to every device.
func (fl *fabricLab) apply(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	outs, err := r.RenderAll(ctx, fl.f, fl.devs)
	if err != nil {
		t.Fatal(err)
	}
	var inputs []push.Input
	for i, o := range outs {
		inputs = append(inputs, push.Input{Device: fl.devs[i], Rendered: o.Text})
	}
	opts := push.Options{Parallelism: 16, Timeout: time.Minute, HostKeys: fl.opts.HostKeys, Inventory: fl.opts.Inventory, Getenv: getenv,
		State: state.Dir{Path: t.TempDir()}}
	p, err := push.Plan(ctx, fl.f, inputs, "test", opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := push.Apply(ctx, p, fl.f, inputs, push.ApplyOptions{Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Status != push.StatusApplied && r.Status != push.StatusUnchanged {
			t.Fatalf("apply %s: %s: %s", r.Device, r.Status, r.Reason)
		}
	}
}

// check reads every device, advances the lab clock by interval, reads
// again and judges the pair.
func (fl *fabricLab) check(t testing.TB, interval time.Duration) ([]check.Finding, *check.Snapshot, *check.Snapshot) {
	t.Helper()
	ctx := context.Background()
	opts := fl.opts
	opts.Sessions = NewSessions(ctx)
	defer func() { _ = opts.Sessions.Close() }()
	before, err := Take(ctx, fl.f.Devices, opts)
	if err != nil {
		t.Fatal(err)
	}
	fl.lab.Clock().Advance(interval)
	after, err := Take(ctx, fl.f.Devices, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range after.Devices {
		if d.Error != "" {
			t.Fatalf("%s could not be read: %s", d.Name, d.Error)
		}
	}
	fs, err := check.Evaluate(fl.f, before, after, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return fs, before, after
}
