package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// mkFabric writes files into a fresh directory and returns it.
func mkFabric(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func mustLoad(t *testing.T, dir string, opts Options) *Fabric {
	t.Helper()
	f, ds := Load(dir, opts)
	if ds.HasErrors() {
		t.Fatalf("load: %s", ds.Error())
	}
	return f
}

const precedenceFabric = `
fabric "p" { qos_policy = qos_policy.base }
ecn_profile "e" {
  min_threshold = "150KB"
  max_threshold = "1500KB"
}
ecn_profile "deep" {
  min_threshold = "300KB"
  max_threshold = "3MB"
}
traffic_class "roce" {
  role     = "roce"
  dscp     = [26]
  priority = 3
  lossless = true
  ecn      = ecn_profile.e
  weight   = 50
}
traffic_class "cnp" {
  role      = "cnp"
  dscp      = [48]
  priority  = 6
  scheduler = "strict"
}
qos_policy "base" {
  trust   = "dscp"
  classes = [traffic_class.roce, traffic_class.cnp]
  mtu     = 9216
}
qos_policy "leafy" { mtu = 9000 }
qos_policy "odd" {
  dscp_map       = { "26" = 4 }
  pfc_priorities = [4]
  queue "3" {
    ecn = ecn_profile.deep
  }
}
qos_policy "noecn" {
  queue "3" {
    ecn = "off"
  }
  pfc_watchdog = "off"
}
role "leaf" { qos_policy = qos_policy.leafy }
device "leaf1" {
  kind     = "leaf"
  platform = "probe_a"
  port "Ethernet1" {}
  port "Ethernet2" { qos_policy = qos_policy.odd }
  port "Ethernet3" { mtu = 1500 }
}
device "leaf2" {
  kind       = "leaf"
  platform   = "probe_b"
  qos_policy = qos_policy.noecn
  port "Ethernet1/1" {}
}
device "spine1" {
  kind     = "spine"
  platform = "probe_asic"
  asic     = "broadcom"
  port "Ethernet0" {}
}
link "l" {
  a = "leaf1:Ethernet1"
  b = "spine1:Ethernet0"
}
`

func TestEffectiveQoSPrecedence(t *testing.T) {
	f := mustLoad(t, mkFabric(t, map[string]string{"f.fab.hcl": precedenceFabric}), Options{Platforms: testCatalog()})
	leaf1 := f.Device("leaf1")
	e1, e2, e3 := leaf1.Port("Ethernet1").QoS, leaf1.Port("Ethernet2").QoS, leaf1.Port("Ethernet3").QoS
	spine := f.Device("spine1").Port("Ethernet0").QoS
	line := func(v Range) int { return int(v.Start.Line) }

	if e1.MTU.V != 9000 || spine.MTU.V != 9216 || e3.MTU.V != 1500 {
		t.Errorf("mtu: role leaf=%d spine=%d port=%d; want 9000 9216 1500", e1.MTU.V, spine.MTU.V, e3.MTU.V)
	}
	if e1.DSCP[26].V != 3 || e2.DSCP[26].V != 4 {
		t.Errorf("dscp 26 → %d / %d, want 3 / 4", e1.DSCP[26].V, e2.DSCP[26].V)
	}
	if got := e2.Lossless.List(); len(got) != 1 || got[0] != 4 {
		t.Errorf("port override pfc = %v, want [4]", got)
	}
	if got := e1.Lossless.List(); len(got) != 1 || got[0] != 3 {
		t.Errorf("class pfc = %v, want [3]", got)
	}
	if e1.Queues[3].ECN.V.Name != "e" || e2.Queues[3].ECN.V.Name != "deep" {
		t.Errorf("queue 3 ecn: %v / %v", e1.Queues[3].ECN.V, e2.Queues[3].ECN.V)
	}
	if e1.Queues[6].Sched.V != SchedStrict || e1.Queues[3].Weight.V != 50 {
		t.Errorf("scheduler: %+v", e1.Queues)
	}
	// Sources point at the attribute that set each value.
	if line(e1.MTU.Src) != 30 || line(e2.DSCP[26].Src) != 32 || line(e1.DSCP[26].Src) != 13 || line(e3.MTU.Src) != 50 {
		t.Errorf("source lines: mtu %d, dscp override %d, class dscp %d, port mtu %d",
			line(e1.MTU.Src), line(e2.DSCP[26].Src), line(e1.DSCP[26].Src), line(e3.MTU.Src))
	}
	// Unset DSCPs map to priority 0, unset.
	if e1.DSCP[10].Set || e1.DSCP[10].V != 0 {
		t.Errorf("dscp 10 = %+v", e1.DSCP[10])
	}
	n := f.Device("leaf2").Port("Ethernet1/1").QoS
	if !n.Queues[3].ECN.Set || n.Queues[3].ECN.V != nil || !n.Watchdog.Set || n.Watchdog.V != nil {
		t.Errorf("explicit off: ecn %+v watchdog %+v", n.Queues[3].ECN, n.Watchdog)
	}
	// Identical attachments share one PortQoS.
	if e1 != f.Device("leaf1").Port("Ethernet1").QoS || e1 == e2 {
		t.Error("PortQoS sharing is wrong")
	}
	// Links are connected both ways.
	p := leaf1.Port("Ethernet1")
	if p.Peer == nil || p.Peer.Peer != p || p.Link.Other(p).ID() != "spine1:Ethernet0" {
		t.Error("link not wired both ways")
	}
}

func TestVariablesPrecedence(t *testing.T) {
	src := `
variable "mtu" {
  type    = number
  default = 1500
}
variable "plat" { default = "probe_a" }
fabric "v" { qos_policy = qos_policy.p }
qos_policy "p" { mtu = var.mtu }
device "d" {
  kind     = "leaf"
  platform = var.plat
  port "Ethernet1" {}
}
`
	dir := mkFabric(t, map[string]string{"v.fab.hcl": src, "vals.hcl": "mtu = 4000\n"})
	mtu := func(opts Options) int {
		return mustLoad(t, dir, opts).Device("d").Port("Ethernet1").QoS.MTU.V
	}
	env := func(k string) string {
		return map[string]string{"FABRICGEN_VAR_mtu": "3000"}[k]
	}
	if got := mtu(Options{Getenv: func(string) string { return "" }, Platforms: testCatalog()}); got != 1500 {
		t.Errorf("default: %d", got)
	}
	if got := mtu(Options{Getenv: env, Platforms: testCatalog()}); got != 3000 {
		t.Errorf("env: %d", got)
	}
	if got := mtu(Options{Getenv: env, VarFiles: []string{filepath.Join(dir, "vals.hcl")}, Platforms: testCatalog()}); got != 4000 {
		t.Errorf("var-file over env: %d", got)
	}
	if got := mtu(Options{Getenv: env, VarFiles: []string{filepath.Join(dir, "vals.hcl")}, Vars: map[string]string{"mtu": "9000"}, Platforms: testCatalog()}); got != 9000 {
		t.Errorf("-var over all: %d", got)
	}
	_, ds := Load(dir, Options{Vars: map[string]string{"mut": "1"}, Getenv: func(string) string { return "" }, Platforms: testCatalog()})
	if !ds.HasErrors() || !strings.Contains(ds.Error(), `Did you mean "mtu"`) {
		t.Errorf("undeclared -var: %v", ds)
	}
	_, ds = Load(dir, Options{Vars: map[string]string{"mtu": "big"}, Getenv: func(string) string { return "" }, Platforms: testCatalog()})
	if !ds.HasErrors() || !strings.Contains(ds.Error(), "Invalid value for variable") {
		t.Errorf("bad -var: %v", ds)
	}
}

func TestForEachCountAndJSON(t *testing.T) {
	hclSrc := `
fabric "j" {}
locals { leaves = ["la", "lb"] }
device "leaf" {
  for_each = toset(local.leaves)
  kind     = "leaf"
  platform = "probe_a"
  dynamic "port" {
    for_each = range(2)
    labels   = ["Ethernet${port.value + 1}"]
    content {
      speed = "100G"
    }
  }
}
device "nic" {
  count    = 2
  name     = format("nic%d", count.index)
  kind     = "nic"
  platform = "probe_host"
  port "eth0" {}
}
link "up" {
  count = 2
  a     = "nic${count.index}:eth0"
  b     = "${local.leaves[count.index]}:Ethernet1"
}
`
	jsonSrc := `{"device": {"spine1": {"kind": "spine", "platform": "probe_asic", "asic": "broadcom", "port": {"Ethernet0": {"speed": "400G"}}}},
 "link": {"s": {"a": "spine1:Ethernet0", "b": "la:Ethernet2"}}}`
	f := mustLoad(t, mkFabric(t, map[string]string{"a.fab.hcl": hclSrc, "b.fab.json": jsonSrc}), Options{Platforms: testCatalog()})
	var names []string
	for _, d := range f.Devices {
		names = append(names, d.Name)
	}
	if got := strings.Join(names, ","); got != "la,lb,nic0,nic1,spine1" {
		t.Errorf("devices %s", got)
	}
	var links []string
	for _, l := range f.Links {
		links = append(links, l.Name+"="+l.A.ID()+"-"+l.B.ID())
	}
	if got := strings.Join(links, " "); got != "up[0]=nic0:eth0-la:Ethernet1 up[1]=nic1:eth0-lb:Ethernet1 s=spine1:Ethernet0-la:Ethernet2" {
		t.Errorf("links %s", got)
	}
	if f.Device("la").Port("Ethernet2").Speed.V != 100e9 || f.Links[2].Speed.V != 400e9 {
		t.Error("speeds not decoded")
	}
}

func TestDigestDeterministic(t *testing.T) {
	dir := mkFabric(t, map[string]string{"f.fab.hcl": precedenceFabric})
	a, b := mustLoad(t, dir, Options{Platforms: testCatalog()}), mustLoad(t, dir, Options{Platforms: testCatalog()})
	if a.Digest != b.Digest || len(a.Digest) != 64 {
		t.Fatalf("digest %q vs %q", a.Digest, b.Digest)
	}
	other := mkFabric(t, map[string]string{"f.fab.hcl": strings.Replace(precedenceFabric, "9216", "9100", 1)})
	if mustLoad(t, other, Options{Platforms: testCatalog()}).Digest == a.Digest {
		t.Error("digest ignores content")
	}
}

func TestDiagnosticsText(t *testing.T) {
	dir := mkFabric(t, map[string]string{"f.fab.hcl": strings.Replace(precedenceFabric, "traffic_class.cnp]", "traffic_class.cpn]", 1)})
	f, ds := Load(dir, Options{Platforms: testCatalog()})
	if !ds.HasErrors() {
		t.Fatal("no error for a misspelt reference")
	}
	var b strings.Builder
	if err := ds.WriteText(&b, f.Files, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"error: Reference to undeclared traffic_class", ".fab.hcl:27:", `classes = [traffic_class.roce, traffic_class.cpn]`, "^^^^^^^^^^^^^^^^^", `Did you mean "cnp"?`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestLinkOrderAndEmptyKey(t *testing.T) {
	src := `
fabric "o" {}
device "a" {
  kind     = "leaf"
  platform = "probe_asic"
  asic     = "broadcom"
  port "Ethernet0" { peer = "b:Ethernet0" }
  port "Ethernet4" {}
}
device "b" {
  kind     = "spine"
  platform = "probe_asic"
  asic     = "broadcom"
  port "Ethernet0" {}
  port "Ethernet4" {}
}
link "first" {
  a = "a:Ethernet4"
  b = "b:Ethernet4"
}
`
	f := mustLoad(t, mkFabric(t, map[string]string{"o.fab.hcl": src}), Options{Platforms: testCatalog()})
	if len(f.Links) != 2 || f.Links[0].Name != "first" || f.Links[1].Name != "a:Ethernet0" {
		t.Errorf("links not in declaration order: %v, %v", f.Links[0].Name, f.Links[1].Name)
	}
	bad := `
fabric "o" {}
device "x" {
  for_each = { "" = 1, "b" = 2 }
  kind     = "leaf"
  platform = "probe_asic"
  asic     = "broadcom"
}
`
	_, ds := Load(mkFabric(t, map[string]string{"o.fab.hcl": bad}), Options{Platforms: testCatalog()})
	if !ds.HasErrors() || !strings.Contains(ds.Error(), "Invalid device name") {
		t.Errorf("empty for_each key: %v", ds)
	}
	huge := "fabric \"o\" {}\ndevice \"x\" {\n  count    = 1000000\n  name     = \"n${count.index}\"\n  kind     = \"leaf\"\n  platform = \"probe_asic\"\n}\n"
	_, ds = Load(mkFabric(t, map[string]string{"o.fab.hcl": huge}), Options{Platforms: testCatalog()})
	if !ds.HasErrors() || !strings.Contains(ds.Error(), "between 0 and 262144") {
		t.Errorf("huge count: %v", ds)
	}
}

// testCatalog is a small catalog for schema's own tests: probe platforms,
// named like no platform folder, with generic facts. probe_a is a switch
// with a MAJOR.MINOR release form (default 5.14) that reads model
// ("big…" is family "big", the default "small"); probe_b a switch that renders class
// and re-marking ACL names with a prefix, 40 characters at most;
// probe_asic a switch that requires asic, with a YYYYMM release form;
// probe_host a host NIC (host port names, shell quoting) that reads
// driver. The switches accept every port name and refuse the CLI's
// characters in free text. The vendors' own facts are in the platform
// folders, tested there (platforms/<name>/spec_test.go) and on the
// registry.
func testCatalog() []PlatformSpec { return append(probeCatalog(), ibTestCatalog()...) }

// ibTestCatalog is the InfiniBand part of testCatalog, named like the
// real platforms (which the lead registers): ib_switch, a switch the SM
// manages, with ports named by number 1–255; opensm, the subnet manager
// host; nvidia_mlnx, a host NIC of either link layer. ProbeCatalog leaves
// them out, since the registry's catalog has them.
func ibTestCatalog() []PlatformSpec {
	ib := []LinkLayer{LinkInfiniBand}
	number := PortNaming{func(s string) bool {
		n, err := strconv.Atoi(s)
		return err == nil && n >= 1 && n <= 255 && strconv.Itoa(n) == s
	}, "port numbers 1–255"}
	none := TextRule{Why: "the SM renders no text of a switch's"}
	shell := TextRule{Refuse: ShellRefuse, Why: ShellWhy}
	return []PlatformSpec{
		{Name: "ib_switch", Managed: true, LinkLayers: ib, Ports: number, Text: none},
		{Name: "opensm", Host: true, Kinds: []Kind{KindSubnetManager}, LinkLayers: ib, Ports: HostPorts(), Text: shell},
		{Name: "nvidia_mlnx", Host: true, LinkLayers: []LinkLayer{LinkEthernet, LinkInfiniBand}, Ports: HostPorts(), Text: shell},
	}
}

// probeCatalog is testCatalog without its InfiniBand platforms.
func probeCatalog() []PlatformSpec {
	anyName := PortNaming{func(string) bool { return true }, "any name"}
	cli := TextRule{Refuse: CLIRefuse, Why: CLIWhy}
	a := PlatformSpec{Name: "probe_a", Ports: anyName, Text: cli,
		Release: &ReleaseForm{Re: regexp.MustCompile(`^(\d{1,2})\.(\d{1,3})(?:\.(\d{1,3}))?$`), Groups: []int{1, 2, 3},
			Form: "MAJOR.MINOR[.PATCH]", Example: `"5.15"`, Default: "5.14"},
		Attrs: DeviceAttrs{Family: func(model string) (HardwareFamily, error) {
			switch {
			case model == "":
				return "small", nil
			case strings.HasPrefix(strings.ToLower(model), "big"):
				return "big", nil
			}
			return "", fmt.Errorf("%q is not a probe_a model: write big-N", model)
		}}}
	b := PlatformSpec{Name: "probe_b", Ports: anyName, Text: cli, NameLimits: []NameLimit{
		{Object: NameOfClass, What: "class-map", Prefix: "FG-DSCP-", Max: 40},
		{Object: NameOfACL, What: "policy-map", Prefix: "FABRICGEN-IN-", Remarking: true, Max: 40},
	}}
	asic := PlatformSpec{Name: "probe_asic", Ports: anyName, Text: cli,
		Release: &ReleaseForm{Re: regexp.MustCompile(`^(20\d{2}(?:0[1-9]|1[0-2]))$`), Groups: []int{1},
			Form: "YYYYMM", Example: `"202311"`, Default: "202305"},
		Attrs: DeviceAttrs{ASICs: []string{"mellanox", "broadcom"}, ASICWhy: "A probe platform reads asic."}}
	host := PlatformSpec{Name: "probe_host", Host: true, Ports: HostPorts(), Text: TextRule{Refuse: ShellRefuse, Why: ShellWhy},
		Attrs: DeviceAttrs{Drivers: []string{"mlx5_core", "ice"}, DefaultDriver: "mlx5_core"}}
	return []PlatformSpec{a, b, asic, host}
}
