package brownfield

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// TestLiveImport imports every switch of a lab of examples/clos-400g over
// SSH (five platforms in one run): running configurations and LLDP. The
// intent it writes has one link per leaf-spine cable, named as the
// example names its ports, and renders every switch. A second run
// against the lab started from those renders (lab up --running-config)
// gives the same links.
func TestLiveImport(t *testing.T) {
	root := filepath.Join("..", "..")
	f, diags := schema.Load(filepath.Join(root, "examples", "clos-400g"), schema.Options{Getenv: func(string) string { return labtest.Password }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, running := range []bool{false, true} {
		name := "factory"
		if running {
			name = "running-config"
		}
		t.Run(name, func(t *testing.T) {
			var specs []lab.DeviceSpec
			for _, dev := range f.Devices {
				sp := lab.SpecOf(dev)
				sp.Username, sp.Password = labtest.User, labtest.Password
				for _, port := range dev.Ports {
					sp.Ports = append(sp.Ports, port.Name)
				}
				if running && !dev.HostPlatform {
					out, err := r.Render(f, dev)
					if err != nil {
						t.Fatal(err)
					}
					sp.RunningConfig = string(out.Text)
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
			var live []Live
			for _, d := range f.Devices {
				if d.HostPlatform {
					continue
				}
				live = append(live, Live{Name: d.Name, Addr: l.Addr(d.Name), Platform: d.Platform.V,
					Creds: schema.Credentials{Username: schema.Value[string]{V: labtest.User, Set: true}, PasswordEnv: schema.Value[string]{V: "LAB_PW", Set: true}}})
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			srcs, err := ReadLive(ctx, live, LiveOptions{HostKeys: hk, Timeout: labtest.Patience(t), Getenv: func(k string) string {
				if k == "LAB_PW" {
					return labtest.Password
				}
				return ""
			}})
			if err != nil {
				t.Fatal(err)
			}
			in, devs, err := Import(ctx, srcs, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range in.Report {
				t.Logf("report: %s:%d: %s", l.File, l.Line, l.Why)
			}
			links := map[string]bool{}
			for _, d := range devs {
				if len(d.Neighbors) == 0 {
					t.Errorf("%s: no LLDP neighbours read", d.Name)
				}
			}
			for _, lk := range f.Links {
				if lk.A.Device.HostPlatform || lk.B.Device.HostPlatform {
					continue
				}
				links[lk.A.ID()+" "+lk.B.ID()] = true
			}
			text := string(in.Files[importer.FileDevices])
			for k := range links {
				a, b, _ := strings.Cut(k, " ")
				if !strings.Contains(text, `"`+a+`"`) || !strings.Contains(text, `"`+b+`"`) {
					t.Errorf("no link %s — %s written", a, b)
				}
			}
			if n := strings.Count(text, "link \""); n != len(links) {
				t.Errorf("%d link blocks, want %d (the example's switch-to-switch cables):\n%s", n, len(links), text)
			}
			dir := filepath.Join(t.TempDir(), "imported")
			if err := WriteDir(dir, in); err != nil {
				t.Fatal(err)
			}
			g, diags := schema.Load(dir, schema.Options{Getenv: os.Getenv, Platforms: platforms.Catalog()})
			if diags.HasErrors() {
				t.Fatalf("the imported intent does not load: %v\n%s", diags, dump(in))
			}
			if err := Renders(g); err != nil {
				t.Errorf("the imported intent does not render: %v", err)
			}
		})
	}
}
