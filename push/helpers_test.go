package push

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/schema"
)

// testSecret is the lab password; tests assert it never appears anywhere.
const testSecret = "s3cr3t-Lab-Pa55word"

const passwordEnv = "FABRICGEN_TEST_PASSWORD"

// rig is a fabric of lab devices with their rendered configs.
type rig struct {
	t      *testing.T
	f      *schema.Fabric
	lab    *lab.Lab
	inputs []Input
	opts   Options
	dir    string
}

func getenv(k string) string {
	if k == passwordEnv {
		return testSecret
	}
	return ""
}

// newRig starts one lab device per (name, platform, rendered) triple.
func newRig(t *testing.T, devs ...testDevice) *rig {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	var specs []lab.DeviceSpec
	f := &schema.Fabric{Name: "test", Dir: dir, Digest: "d1g35t"}
	for _, d := range devs {
		specs = append(specs, lab.DeviceSpec{Name: d.name, Platform: d.platform, Username: "admin", Password: testSecret, Ports: d.ports, RunningConfig: d.running,
			Driver: d.driver, InboxDriver: d.inbox})
		f.Devices = append(f.Devices, &schema.Device{
			Name:     d.name,
			Platform: schema.Value[schema.Platform]{V: d.platform, Set: true},
			Credentials: schema.Credentials{
				Username:    schema.Value[string]{V: "admin", Set: true},
				PasswordEnv: schema.Value[string]{V: passwordEnv, Set: true},
			},
		})
	}
	f.Reindex()
	l, err := lab.Start(ctx, specs, lab.Options{Dir: dir})
	if err != nil {
		t.Fatalf("lab.Start: %v", err)
	}
	t.Cleanup(func() { _ = l.Close() })
	hk, err := session.NewHostKeys([]string{l.KnownHostsPath()}, false)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, f: f, lab: l, dir: dir}
	r.opts = Options{Parallelism: 4, Timeout: time.Minute, HostKeys: hk, Inventory: map[string]string{}, Getenv: getenv,
		State: state.ForFabric(dir)}
	for i, d := range devs {
		r.opts.Inventory[d.name] = l.Addr(d.name)
		r.inputs = append(r.inputs, Input{Device: f.Devices[i], Rendered: []byte(d.rendered)})
	}
	return r
}

type testDevice struct {
	name     string
	platform schema.Platform
	rendered string
	ports    []string
	// running, when set, is the config the lab device starts from (a
	// brownfield device), in the form lab.DeviceSpec.RunningConfig takes.
	running string
	// driver and inbox describe a host's NICs (lab.DeviceSpec).
	driver string
	inbox  bool
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noSecret fails when s holds the lab password.
func noSecret(t *testing.T, what, s string) {
	t.Helper()
	if strings.Contains(s, testSecret) {
		t.Errorf("%s contains the secret", what)
	}
}

// NewHostKeysForTest loads one known_hosts file.
func NewHostKeysForTest(path string) (*session.HostKeys, error) {
	return session.NewHostKeys([]string{path}, false)
}
