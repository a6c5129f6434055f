package schema

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ibBase is a small valid InfiniBand fabric: one managed leaf, a subnet
// manager, a GPU host and a storage host, three classes, two partitions.
const ibBase = `fabric "ib" {
  link_layer = "infiniband"
  qos_policy = qos_policy.ib
}

traffic_class "compute" {
  sl     = 3
  weight = 60
}

traffic_class "storage" {
  sl     = 2
  vl     = 1
  weight = 30
}

traffic_class "default" {
  role   = "default"
  sl     = 0
  weight = 10
}

traffic_class "mgmt" {
  sl        = 1
  scheduler = "strict"
}

qos_policy "ib" {
  classes = [traffic_class.compute, traffic_class.storage, traffic_class.default, traffic_class.mgmt]
  mtu     = 2048
}

device "leaf1" {
  kind     = "leaf"
  platform = "ib_switch"
  guid     = "0x0002c90300a00001"
  port "1" { peer = "gpu01:ib0" }
  port "2" { peer = "sm01:ib0" }
  port "3" { peer = "stor01:ib0" }
}

device "sm01" {
  kind     = "subnet_manager"
  platform = "opensm"
  sm {
    routing_engine = ["ftree"]
    max_op_vls     = 4
    high_limit     = 0
    priority       = 15
  }
  port "ib0" { guid = "0x0002c90300a00101" }
}

device "gpu01" {
  kind     = "nic"
  platform = "nvidia_mlnx"
  rdma {
    sl       = 3
    path_mtu = 2048
  }
  port "ib0" {
    guid = "0x0002c90300a00201"
    mtu  = 2048
  }
}

device "stor01" {
  kind     = "nic"
  platform = "nvidia_mlnx"
  port "ib0" { guid = "0x0002C90300A00301" }
}

partition "Default" {
  default = true
  members = ["gpu01", "sm01", "stor01"]
  ipoib   = true
}

partition "storage" {
  pkey         = "0x8002"
  members      = ["gpu01"]
  membership   = "limited"
  full_members = ["stor01"]
  ipoib        = true
  mtu          = 2048
  sl           = 2
}
`

// ethBase is a small valid Ethernet fabric with a NIC.
const ethBase = `fabric "eth" {
  qos_policy = qos_policy.p
}

traffic_class "roce" {
  role     = "roce"
  dscp     = [26]
  priority = 3
  lossless = true
}

qos_policy "p" {
  trust   = "dscp"
  classes = [traffic_class.roce]
}

device "leaf1" {
  kind     = "leaf"
  platform = "probe_a"
  port "Ethernet1" { peer = "gpu01:eth0" }
}

device "gpu01" {
  kind     = "nic"
  platform = "nvidia_mlnx"
  rdma { tos = 104 }
  port "eth0" {}
}
`

func TestInfiniBandLoad(t *testing.T) {
	f := mustLoad(t, mkFabric(t, map[string]string{"f.fab.hcl": ibBase}), Options{Platforms: testCatalog()})
	if !f.InfiniBand() || !f.LinkLayer.Set || f.LinkLayer.Src.Start.Line != 2 {
		t.Errorf("link layer %+v, want infiniband set at line 2", f.LinkLayer)
	}
	classes := map[string]*TrafficClass{}
	for _, c := range f.Classes {
		classes[c.Name] = c
	}
	for name, want := range map[string][3]int{"compute": {3, 3, 0}, "storage": {2, 1, 1}, "default": {0, 0, 0}, "mgmt": {1, 1, 0}} {
		c := classes[name]
		if c == nil || c.SL.V != want[0] || !c.SL.Set || c.VL.V != want[1] || c.VL.Set != (want[2] == 1) || c.Priority.Set {
			t.Errorf("class %s = %+v, want sl %d vl %d (vl set %v), no priority", name, c, want[0], want[1], want[2] == 1)
		}
	}
	if classes["compute"].VL.Src != classes["compute"].SL.Src {
		t.Errorf("default vl's Src %v, want sl's %v", classes["compute"].VL.Src, classes["compute"].SL.Src)
	}
	if classes["default"].Role != RoleDefault || classes["mgmt"].Sched.V != SchedStrict {
		t.Errorf("roles/scheduler lost: %v %v", classes["default"].Role, classes["mgmt"].Sched)
	}
	leaf, sm, gpu, stor := f.Device("leaf1"), f.Device("sm01"), f.Device("gpu01"), f.Device("stor01")
	if leaf.GUID.V != 0x0002c90300a00001 || !leaf.GUID.Set {
		t.Errorf("leaf GUID %#x", leaf.GUID.V)
	}
	if g := stor.Port("ib0").GUID.V; g != 0x0002c90300a00301 {
		t.Errorf("upper-case GUID read as %#x", g)
	}
	if sm.SM == nil || strings.Join(sm.SM.RoutingEngine.V, ",") != "ftree" || sm.SM.MaxOpVLs.V != 4 || !sm.SM.HighLimit.Set || sm.SM.Priority.V != 15 || sm.SM.AllowFallback.Set {
		t.Errorf("sm = %+v", sm.SM)
	}
	if gpu.SM != nil || leaf.SM != nil {
		t.Errorf("SM settings on a non-SM device")
	}
	if gpu.RDMA == nil || gpu.RDMA.SL.V != 3 || !gpu.RDMA.SL.Set || gpu.RDMA.PathMTU.V != 2048 || gpu.RDMA.Transport.Set {
		t.Errorf("rdma = %+v", gpu.RDMA)
	}
	for _, d := range f.Devices {
		for _, p := range d.Ports {
			if p.QoS == nil {
				t.Fatalf("%s:%s has no QoS", d.Name, p.Name)
			}
			if p.QoS.Lossless != 0 {
				t.Errorf("%s:%s lossless %v on InfiniBand", d.Name, p.Name, p.QoS.Lossless)
			}
			if p.QoS.MTU.V != 2048 {
				t.Errorf("%s:%s mtu %d, want 2048", d.Name, p.Name, p.QoS.MTU.V)
			}
		}
	}
	if f.Lossless != 0 {
		t.Errorf("fabric lossless %v on InfiniBand", f.Lossless)
	}
	if len(f.Partitions) != 2 || f.Partitions[0].Name != "Default" || f.Partitions[1].Name != "storage" {
		t.Fatalf("partitions %v, want Default, storage (sorted)", f.Partitions)
	}
	def, st := f.Partitions[0], f.Partitions[1]
	if def.PKey.V != DefaultPKey || def.PKey.Set || def.PKey.Src != def.Default.Src || !def.IPoIB.V || def.MTU.Set {
		t.Errorf("Default partition %+v: want pkey 0x7fff from default = true", def)
	}
	if m, ok := def.MembershipOf(gpu); !ok || m != MemberFull {
		t.Errorf("gpu01 in Default: %v %v, want full", m, ok)
	}
	if st.PKey.V != 0x8002 || st.LowPKey() != 2 || st.MTU.V != 2048 || st.SL.V != 2 {
		t.Errorf("storage partition %+v", st)
	}
	if m, ok := st.MembershipOf(gpu); !ok || m != MemberLimited {
		t.Errorf("gpu01 in storage: %v %v, want limited", m, ok)
	}
	if m, ok := st.MembershipOf(stor); !ok || m != MemberFull {
		t.Errorf("stor01 in storage: %v %v, want full", m, ok)
	}
	if _, ok := st.MembershipOf(sm); ok {
		t.Errorf("sm01 is no member of storage")
	}
}

func TestEthernetDefaultLinkLayer(t *testing.T) {
	f := mustLoad(t, mkFabric(t, map[string]string{"f.fab.hcl": ethBase}), Options{Platforms: testCatalog()})
	if f.InfiniBand() || f.LinkLayer.V != LinkEthernet || f.LinkLayer.Set || f.LinkLayer.Src.Start.Line != 1 {
		t.Errorf("link layer %+v, want the ethernet default at the fabric block", f.LinkLayer)
	}
	if f.Device("gpu01").RDMA.Transport.V != TransportRoCEv2 {
		t.Errorf("rdma transport %v, want the roce_v2 default", f.Device("gpu01").RDMA.Transport)
	}
}

// ibCase is one broken intent: base with edit applied, and the error it
// must give at the first occurrence of at in the edited text.
type ibCase struct {
	name string
	eth  bool // edit ethBase rather than ibBase
	// edits replace old with new, each old occurring exactly once.
	edits [][2]string
	// extra is appended to the edited text.
	extra string
	// summary and detail are substrings of the error; at locates its
	// subject's start (line and column).
	summary, detail, at string
}

// rep is an edit replacing old with new.
func rep(old, new string) [2]string { return [2]string{old, new} }

func ibCases() []ibCase {
	return []ibCase{
		// The fabric's link layer.
		{name: "link layer unknown", edits: [][2]string{rep(`"infiniband"`, `"infiniband2"`)},
			summary: `Invalid value for "link_layer"`, detail: `Did you mean "infiniband"?`, at: `"infiniband2"`},
		{name: "link layer number", edits: [][2]string{rep(`"infiniband"`, `1`)},
			summary: "Incorrect attribute type", at: "1\n  qos_policy"},
		{name: "pfc_only on ib", edits: [][2]string{rep("  link_layer", "  pfc_only   = true\n  link_layer")},
			summary: "Ethernet-only setting on an InfiniBand fabric", detail: "credit-based", at: "pfc_only"},
		{name: "lossy_roce on ib", edits: [][2]string{rep("  link_layer", "  lossy_roce = true\n  link_layer")},
			summary: "Ethernet-only setting", at: "lossy_roce"},

		// Classes.
		{name: "class priority on ib", edits: [][2]string{rep("  sl     = 3\n", "  sl     = 3\n  priority = 3\n")},
			summary: "Ethernet-only setting", detail: "use sl = N", at: "priority = 3"},
		{name: "class dscp on ib", edits: [][2]string{rep("  sl     = 3\n", "  sl     = 3\n  dscp = [26]\n")},
			summary: "Ethernet-only setting", detail: "identifies a class", at: "dscp = [26]"},
		{name: "class queue on ib", edits: [][2]string{rep("  sl     = 3\n", "  sl     = 3\n  queue = 3\n")},
			summary: "Ethernet-only setting", detail: "vl = N", at: "queue = 3"},
		{name: "class lossless on ib", edits: [][2]string{rep("  sl     = 3\n", "  sl     = 3\n  lossless = true\n")},
			summary: "Ethernet-only setting", detail: "lossless by construction", at: "lossless = true"},
		{name: "class ecn on ib", edits: [][2]string{rep("  sl     = 3\n", "  sl     = 3\n  ecn = \"x\"\n")},
			summary: "Ethernet-only setting", at: "ecn = \"x\""},
		{name: "class without sl", edits: [][2]string{rep("  sl     = 3\n", "")},
			summary: "Missing sl", detail: "add sl = N (0–15)", at: `traffic_class "compute"`},
		{name: "class sl 16", edits: [][2]string{rep("sl     = 3", "sl     = 16")},
			summary: "Value out of range", detail: "between 0 and 15", at: "16"},
		{name: "class sl negative", edits: [][2]string{rep("sl     = 3", "sl     = -1")},
			summary: "Value out of range", at: "-1"},
		{name: "class sl string", edits: [][2]string{rep("sl     = 3", "sl     = \"three\"")},
			summary: "Incorrect attribute type", at: `"three"`},
		{name: "class vl 15", edits: [][2]string{rep("vl     = 1", "vl     = 15")},
			summary: "Value out of range", detail: "between 0 and 14", at: "15"},
		{name: "class role roce on ib", edits: [][2]string{rep("  sl     = 3\n", "  sl     = 3\n  role = \"roce\"\n")},
			summary: "Ethernet-only class role", detail: `role = "default"`, at: `"roce"`},
		{name: "class role cnp on ib", edits: [][2]string{rep("  sl     = 3\n", "  sl     = 3\n  role = \"cnp\"\n")},
			summary: "Ethernet-only class role", at: `"cnp"`},
		{name: "class sl on ethernet", eth: true, edits: [][2]string{rep("  priority = 3\n", "  priority = 3\n  sl = 3\n")},
			summary: "InfiniBand-only setting on an Ethernet fabric", detail: "identified by priority", at: "sl = 3"},
		{name: "class vl on ethernet", eth: true, edits: [][2]string{rep("  priority = 3\n", "  priority = 3\n  vl = 3\n")},
			summary: "InfiniBand-only setting", detail: "use queue", at: "vl = 3"},
		{name: "class without priority on ethernet", eth: true, edits: [][2]string{rep("  priority = 3\n", "")},
			summary: "Missing required argument", detail: `"priority"`, at: "{\n  role     = \"roce\""},

		// Policies and the Ethernet-only blocks.
		{name: "policy trust on ib", edits: [][2]string{rep("  mtu     = 2048\n", "  mtu     = 2048\n  trust = \"dscp\"\n")},
			summary: "Ethernet-only setting", detail: "does not classify", at: "trust"},
		{name: "policy dscp_map on ib", edits: [][2]string{rep("  mtu     = 2048\n", "  mtu     = 2048\n  dscp_map = { \"26\" = 3 }\n")},
			summary: "Ethernet-only setting", at: "dscp_map"},
		{name: "policy pcp_map on ib", edits: [][2]string{rep("  mtu     = 2048\n", "  mtu     = 2048\n  pcp_map = { \"3\" = 3 }\n")},
			summary: "Ethernet-only setting", at: "pcp_map"},
		{name: "policy queue_map on ib", edits: [][2]string{rep("  mtu     = 2048\n", "  mtu     = 2048\n  queue_map = { \"3\" = 3 }\n")},
			summary: "Ethernet-only setting", at: "queue_map"},
		{name: "policy default_priority on ib", edits: [][2]string{rep("  mtu     = 2048\n", "  mtu     = 2048\n  default_priority = 0\n")},
			summary: "Ethernet-only setting", detail: `role = "default"`, at: "default_priority"},
		{name: "policy pfc_priorities on ib", edits: [][2]string{rep("  mtu     = 2048\n", "  mtu     = 2048\n  pfc_priorities = [3]\n")},
			summary: "Ethernet-only setting", at: "pfc_priorities"},
		{name: "policy pfc_watchdog on ib", edits: [][2]string{rep("  mtu     = 2048\n", "  mtu     = 2048\n  pfc_watchdog = \"off\"\n")},
			summary: "Ethernet-only setting", at: "pfc_watchdog"},
		{name: "policy link_pause on ib", edits: [][2]string{rep("  mtu     = 2048\n", "  mtu     = 2048\n  link_pause = false\n")},
			summary: "Ethernet-only setting", detail: "pause frames", at: "link_pause"},
		{name: "policy queue block on ib", edits: [][2]string{rep("  mtu     = 2048\n", "  mtu     = 2048\n  queue \"3\" {\n    weight = 50\n  }\n")},
			summary: "Ethernet-only setting", detail: "queue block", at: `queue "3"`},
		{name: "policy buffer block on ib", edits: [][2]string{rep("  mtu     = 2048\n", "  mtu     = 2048\n  buffer {\n    xoff = \"100KB\"\n  }\n")},
			summary: "Ethernet-only setting", detail: "buffer block", at: "buffer {"},
		{name: "policy mtu 9000 on ib", edits: [][2]string{rep("mtu     = 2048", "mtu     = 9000")},
			summary: "Invalid InfiniBand MTU", detail: "256, 512, 1024, 2048 or 4096", at: "9000"},
		{name: "ecn_profile on ib", extra: "ecn_profile \"e\" {\n  min_threshold = \"1KB\"\n  max_threshold = \"2KB\"\n}\n",
			summary: "Ethernet-only setting", detail: `ecn_profile "e"`, at: `ecn_profile "e"`},
		{name: "pfc_watchdog block on ib", extra: "pfc_watchdog \"w\" {\n  detection = \"200ms\"\n}\n",
			summary: "Ethernet-only setting", detail: "credit-based", at: `pfc_watchdog "w"`},
		{name: "acl set_dscp on ib", extra: "acl \"a\" {\n  rule {\n    action = \"permit\"\n    set_dscp = 26\n  }\n}\n",
			summary: "Ethernet-only setting", detail: "set_dscp", at: "set_dscp"},

		// rdma.
		{name: "rdma tos on ib", edits: [][2]string{rep("    sl       = 3\n", "    sl       = 3\n    tos = 104\n")},
			summary: "Ethernet-only setting", detail: "use sl = N", at: "tos = 104"},
		{name: "rdma ecn on ib", edits: [][2]string{rep("    sl       = 3\n", "    sl       = 3\n    ecn = true\n")},
			summary: "Ethernet-only setting", detail: "DCQCN", at: "ecn = true"},
		{name: "rdma transport on ib", edits: [][2]string{rep("    sl       = 3\n", "    sl       = 3\n    transport = \"roce_v2\"\n")},
			summary: "Ethernet-only setting", at: "transport"},
		{name: "rdma roce_mode on ib", edits: [][2]string{rep("    sl       = 3\n", "    sl       = 3\n    roce_mode = \"v2\"\n")},
			summary: "Ethernet-only setting", at: "roce_mode"},
		{name: "rdma cnp_dscp on ib", edits: [][2]string{rep("    sl       = 3\n", "    sl       = 3\n    cnp_dscp = 48\n")},
			summary: "Ethernet-only setting", at: "cnp_dscp"},
		{name: "rdma cnp_priority on ib", edits: [][2]string{rep("    sl       = 3\n", "    sl       = 3\n    cnp_priority = 6\n")},
			summary: "Ethernet-only setting", at: "cnp_priority"},
		{name: "rdma sl 16", edits: [][2]string{rep("    sl       = 3\n", "    sl       = 16\n")},
			summary: "Value out of range", detail: "between 0 and 15", at: "16"},
		{name: "rdma path_mtu 3000 on ib", edits: [][2]string{rep("path_mtu = 2048", "path_mtu = 3000")},
			summary: "Invalid RDMA path MTU", at: "3000"},
		{name: "rdma sl on ethernet", eth: true, edits: [][2]string{rep("rdma { tos = 104 }", "rdma {\n    tos = 104\n    sl = 3\n  }")},
			summary: "InfiniBand-only setting", detail: "tos", at: "sl = 3"},
		{name: "rdma on a subnet manager", edits: [][2]string{rep("  port \"ib0\" { guid = \"0x0002c90300a00101\" }", "  rdma { sl = 1 }\n  port \"ib0\" { guid = \"0x0002c90300a00101\" }")},
			summary: "rdma on a subnet manager", at: "rdma { sl = 1 }"},

		// Ports.
		{name: "port mtu 9000 on ib", edits: [][2]string{rep("    mtu  = 2048\n", "    mtu  = 9000\n")},
			summary: "Invalid InfiniBand MTU", at: "9000"},
		{name: "port mtu 2044 on ib", edits: [][2]string{rep("    mtu  = 2048\n", "    mtu  = 2044\n")},
			summary: "Invalid InfiniBand MTU", detail: "got 2044", at: "2044"},
		{name: "switch port not a number", edits: [][2]string{rep(`port "3" {`, `port "Ethernet3" {`)},
			summary: "Port name does not fit the platform", detail: "port numbers 1–255", at: `"Ethernet3" {`},
		{name: "switch port 256", edits: [][2]string{rep(`port "3" {`, `port "256" {`)},
			summary: "Port name does not fit the platform", at: `"256" {`},

		// GUIDs.
		{name: "guid without 0x", edits: [][2]string{rep(`"0x0002c90300a00201"`, `"0002c90300a00201"`)},
			summary: `Invalid value for "guid"`, detail: `write "0x"`, at: `"0002c90300a00201"`},
		{name: "guid 17 digits", edits: [][2]string{rep(`"0x0002c90300a00201"`, `"0x00002c90300a00201"`)},
			summary: `Invalid value for "guid"`, detail: "sixteen hex digits", at: `"0x00002c90300a00201"`},
		{name: "guid not hex", edits: [][2]string{rep(`"0x0002c90300a00201"`, `"0x0002c90300a0020g"`)},
			summary: `Invalid value for "guid"`, at: `"0x0002c90300a0020g"`},
		{name: "guid unicode digits", edits: [][2]string{rep(`"0x0002c90300a00201"`, `"0x０００２"`)},
			summary: `Invalid value for "guid"`, at: `"0x０００２"`},
		{name: "guid zero", edits: [][2]string{rep(`"0x0002c90300a00201"`, `"0x0"`)},
			summary: `Invalid value for "guid"`, detail: "zero", at: `"0x0"`},
		{name: "guid number", edits: [][2]string{rep(`"0x0002c90300a00201"`, `1234`)},
			summary: "Incorrect attribute type", detail: "quote it", at: "1234"},
		{name: "guid huge", edits: [][2]string{rep(`"0x0002c90300a00201"`, `"0x`+strings.Repeat("f", 100000)+`"`)},
			summary: `Invalid value for "guid"`, at: `"0xfff`},
		{name: "guid duplicate", edits: [][2]string{rep(`"0x0002c90300a00201"`, `"0x0002c90300a00101"`)},
			summary: "Duplicate GUID", detail: `port "sm01:ib0"`, at: `guid = "0x0002c90300a00101"`},
		{name: "guid duplicate of a switch", edits: [][2]string{rep(`"0x0002c90300a00201"`, `"0x2c90300a00001"`)},
			summary: "Duplicate GUID", detail: `port "gpu01:ib0"`, at: `guid     = "0x0002c90300a00001"`},
		{name: "guid on a nic device", edits: [][2]string{rep("  rdma {\n    sl", "  guid = \"0x1\"\n  rdma {\n    sl")},
			summary: "GUID on a host device", detail: "port block", at: `guid = "0x1"`},
		{name: "guid on a switch port", edits: [][2]string{rep(`port "1" { peer = "gpu01:ib0" }`, `port "1" {
    peer = "gpu01:ib0"
    guid = "0x1"
  }`)}, summary: "Port GUID on a switch", detail: "node GUID", at: `guid = "0x1"`},
		{name: "guid in a ports block", edits: [][2]string{rep(`port "3" { peer = "stor01:ib0" }`, `port "3" { peer = "stor01:ib0" }
  ports {
    names = ["4", "5"]
    guid  = "0x1"
  }`)}, summary: "Unsupported argument", at: `guid  = "0x1"`},
		{name: "device guid on ethernet", eth: true, edits: [][2]string{rep("  platform = \"probe_a\"\n", "  platform = \"probe_a\"\n  guid = \"0x1\"\n")},
			summary: "InfiniBand-only setting", at: `guid = "0x1"`},
		{name: "port guid on ethernet", eth: true, edits: [][2]string{rep(`port "eth0" {}`, `port "eth0" { guid = "0x1" }`)},
			summary: "InfiniBand-only setting", at: `guid = "0x1"`},

		// Platforms and kinds.
		{name: "switch platform on ib", edits: [][2]string{rep(`platform = "ib_switch"`, `platform = "probe_a"`)},
			summary: "Platform does not fit the link layer", detail: "ib_switch, opensm, nvidia_mlnx", at: `"probe_a"`},
		{name: "host platform on ib", edits: [][2]string{rep("  kind     = \"nic\"\n  platform = \"nvidia_mlnx\"\n  rdma", "  kind     = \"nic\"\n  platform = \"probe_host\"\n  rdma")},
			summary: "Platform does not fit the link layer", at: `"probe_host"`},
		{name: "ib_switch on ethernet", eth: true, edits: [][2]string{rep(`platform = "probe_a"`, `platform = "ib_switch"`)},
			summary: "Platform does not fit the link layer", detail: `link_layer is "ethernet" (the default)`, at: `"ib_switch"`},
		{name: "subnet manager on nvidia_mlnx", edits: [][2]string{rep("  kind     = \"subnet_manager\"\n  platform = \"opensm\"", "  kind     = \"subnet_manager\"\n  platform = \"nvidia_mlnx\"")},
			summary: "Platform does not fit the kind", detail: "a subnet manager platform (opensm)", at: `"nvidia_mlnx"
  sm {`},
		{name: "nic on opensm", edits: [][2]string{rep("  kind     = \"nic\"\n  platform = \"nvidia_mlnx\"\n  rdma", "  kind     = \"nic\"\n  platform = \"opensm\"\n  rdma")},
			summary: "Platform does not fit the kind", detail: "a host platform (probe_host or nvidia_mlnx)", at: `"opensm"
  rdma`},
		{name: "leaf on opensm", edits: [][2]string{rep(`platform = "ib_switch"`, `platform = "opensm"`)},
			summary: "Platform does not fit the kind", detail: "a switch platform", at: `"opensm"`},
		{name: "subnet manager on ethernet", eth: true, extra: "device \"sm01\" {\n  kind = \"subnet_manager\"\n  platform = \"opensm\"\n}\n",
			summary: "Subnet manager on an Ethernet fabric", at: `"subnet_manager"`},
		{name: "subnet manager kind misspelt", edits: [][2]string{rep(`"subnet_manager"`, `"subnet_manger"`)},
			summary: `Invalid value for "kind"`, detail: `Did you mean "subnet_manager"?`, at: `"subnet_manger"`},

		// sm.
		{name: "sm on a nic", edits: [][2]string{rep("  rdma {\n    sl", "  sm {}\n  rdma {\n    sl")},
			summary: "sm on a device that is no subnet manager", at: "sm {}"},
		{name: "sm on ethernet", eth: true, edits: [][2]string{rep("rdma { tos = 104 }", "rdma { tos = 104 }\n  sm {}")},
			summary: "InfiniBand-only setting", detail: "sm block", at: "sm {}"},
		{name: "sm twice", edits: [][2]string{rep("  port \"ib0\" { guid = \"0x0002c90300a00101\" }", "  sm {}\n  port \"ib0\" { guid = \"0x0002c90300a00101\" }")},
			summary: "Duplicate sm block", at: "sm {}"},
		{name: "sm routing engine misspelt", edits: [][2]string{rep(`["ftree"]`, `["ftre"]`)},
			summary: "Unknown routing engine", detail: `Did you mean "ftree"?`, at: `["ftre"]`},
		{name: "sm routing engine twice", edits: [][2]string{rep(`["ftree"]`, `["ftree", "ftree"]`)},
			summary: "Duplicate routing engine", at: `["ftree", "ftree"]`},
		{name: "sm routing engine empty", edits: [][2]string{rep(`["ftree"]`, `[]`)},
			summary: "Empty routing_engine", at: `[]`},
		{name: "sm routing engine string", edits: [][2]string{rep(`["ftree"]`, `"ftree"`)},
			summary: "Incorrect attribute type", at: `"ftree"`},
		{name: "sm max_op_vls 6", edits: [][2]string{rep("max_op_vls     = 4", "max_op_vls     = 6")},
			summary: "Value out of range", detail: "between 1 and 5", at: "6\n    high_limit"},
		{name: "sm max_op_vls 0", edits: [][2]string{rep("max_op_vls     = 4", "max_op_vls     = 0")},
			summary: "Value out of range", at: "0\n    high_limit"},
		{name: "sm high_limit 256", edits: [][2]string{rep("high_limit     = 0", "high_limit     = 256")},
			summary: "Value out of range", detail: "between 0 and 255", at: "256"},
		{name: "sm priority 16", edits: [][2]string{rep("priority       = 15", "priority       = 16")},
			summary: "Value out of range", detail: "between 0 and 15", at: "16"},
		{name: "sm allow_fallback string", edits: [][2]string{rep("high_limit     = 0", "high_limit     = 0\n    allow_fallback = \"yes\"")},
			summary: "Incorrect attribute type", at: `"yes"`},
		{name: "sm unknown attribute", edits: [][2]string{rep("high_limit     = 0", "high_limit     = 0\n    routing = \"ftree\"")},
			summary: "Unsupported argument", at: "routing ="},

		// Partitions.
		{name: "pkey 0x0000", edits: [][2]string{rep(`"0x8002"`, `"0x0000"`)},
			summary: `Invalid value for "pkey"`, detail: "invalid P_Key", at: `"0x0000"`},
		{name: "pkey 0x8000", edits: [][2]string{rep(`"0x8002"`, `"0x8000"`)},
			summary: `Invalid value for "pkey"`, detail: "low 15 bits are zero", at: `"0x8000"`},
		{name: "pkey too wide", edits: [][2]string{rep(`"0x8002"`, `"0x18002"`)},
			summary: `Invalid value for "pkey"`, detail: "one to four hex digits", at: `"0x18002"`},
		{name: "pkey decimal string", edits: [][2]string{rep(`"0x8002"`, `"32770"`)},
			summary: `Invalid value for "pkey"`, detail: `"0x8001"`, at: `"32770"`},
		{name: "pkey number", edits: [][2]string{rep(`"0x8002"`, `32770`)},
			summary: "Incorrect attribute type", detail: "hex string", at: "32770"},
		{name: "pkey unicode", edits: [][2]string{rep(`"0x8002"`, `"0x８００２"`)},
			summary: `Invalid value for "pkey"`, at: `"0x８００２"`},
		{name: "pkey huge", edits: [][2]string{rep(`"0x8002"`, `"0x`+strings.Repeat("8", 1<<16)+`"`)},
			summary: `Invalid value for "pkey"`, at: `"0x888`},
		{name: "pkey empty", edits: [][2]string{rep(`"0x8002"`, `""`)},
			summary: `Invalid value for "pkey"`, at: `""`},
		{name: "pkey of the default partition", edits: [][2]string{rep(`"0x8002"`, `"0xffff"`)},
			summary: "Default P_Key on another partition", detail: "default = true", at: `"0xffff"`},
		{name: "default with another pkey", edits: [][2]string{rep("  default = true\n", "  default = true\n  pkey = \"0x0005\"\n")},
			summary: "Default partition with another P_Key", at: `"0x0005"`},
		{name: "two default partitions", edits: [][2]string{rep("  pkey         = \"0x8002\"\n", "  default = true\n")},
			summary: "Two Default partitions", at: "true\n  members      = [\"gpu01\"]"},
		{name: "duplicate pkey", extra: "partition \"other\" {\n  pkey = \"0x8002\"\n  members = [\"gpu01\"]\n}\n",
			summary: "Duplicate P_Key", detail: `partition "storage"`, at: `"0x8002"
  members = ["gpu01"]`},
		{name: "missing pkey", edits: [][2]string{rep("  pkey         = \"0x8002\"\n", "")},
			summary: "Missing pkey", at: `partition "storage"`},
		{name: "duplicate partition name", extra: "partition \"storage\" {\n  pkey = \"0x0003\"\n  members = [\"gpu01\"]\n}\n",
			summary: "Duplicate partition", at: `"storage" {
  pkey = "0x0003"`},
		{name: "partition name case clash", extra: "partition \"Storage\" {\n  pkey = \"0x0003\"\n  members = [\"gpu01\"]\n}\n",
			summary: "Duplicate partition", at: `"Storage"`},
		{name: "partition name invalid", extra: "partition \"a b\" {\n  pkey = \"0x0003\"\n  members = [\"gpu01\"]\n}\n",
			summary: "Invalid partition name", at: `"a b"`},
		{name: "unknown member", edits: [][2]string{rep(`members      = ["gpu01"]`, `members      = ["gpu1"]`)},
			summary: "Unknown partition member", detail: `Did you mean "gpu01"?`, at: `["gpu1"]`},
		{name: "unknown full member", edits: [][2]string{rep(`["stor01"]`, `["stor02", "x"]`)},
			summary: "Unknown partition member", detail: `"stor02" (and 1 other unknown names)`, at: `["stor02", "x"]`},
		{name: "switch as member", edits: [][2]string{rep(`members      = ["gpu01"]`, `members      = ["leaf1"]`)},
			summary: "Switch as partition member", at: `["leaf1"]`},
		{name: "member twice", edits: [][2]string{rep(`members      = ["gpu01"]`, `members      = ["gpu01", "gpu01"]`)},
			summary: "Duplicate member", at: `["gpu01", "gpu01"]`},
		{name: "members not a list", edits: [][2]string{rep(`members      = ["gpu01"]`, `members      = "gpu01"`)},
			summary: "Incorrect attribute type", at: `"gpu01"
  membership`},
		{name: "member not a string", edits: [][2]string{rep(`members      = ["gpu01"]`, `members      = [1]`)},
			summary: "Invalid name", at: `[1]`},
		{name: "partition without members", edits: [][2]string{rep("  members      = [\"gpu01\"]\n", ""), rep("  full_members = [\"stor01\"]\n", "")},
			summary: "Partition without members", at: `partition "storage"`},
		{name: "membership unknown", edits: [][2]string{rep(`"limited"`, `"limted"`)},
			summary: `Invalid value for "membership"`, detail: `Did you mean "limited"?`, at: `"limted"`},
		{name: "partition mtu 9000", edits: [][2]string{rep("mtu          = 2048", "mtu          = 9000")},
			summary: "Invalid InfiniBand MTU", at: "9000"},
		{name: "partition mtu 5", edits: [][2]string{rep("mtu          = 2048", "mtu          = 5")},
			summary: "Invalid InfiniBand MTU", detail: "in bytes", at: "5\n  sl"},
		{name: "partition sl 16", edits: [][2]string{rep("sl           = 2", "sl           = 16")},
			summary: "Value out of range", at: "16"},
		{name: "partition ipoib string", edits: [][2]string{rep("ipoib        = true", "ipoib        = \"yes\"")},
			summary: "Incorrect attribute type", at: `"yes"`},
		{name: "partition unknown attribute", edits: [][2]string{rep("ipoib        = true", "ipoib        = true\n  qkey = 1")},
			summary: "Unsupported argument", at: "qkey"},
		{name: "partition on ethernet", eth: true, extra: "partition \"p\" {\n  pkey = \"0x8001\"\n  members = [\"gpu01\"]\n}\n",
			summary: "InfiniBand-only setting on an Ethernet fabric", detail: "VLANs", at: `partition "p"`},
	}
}

func TestInfiniBandBadInput(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range ibCases() {
		if seen[c.name] {
			t.Fatalf("duplicate case %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			src := ibBase
			if c.eth {
				src = ethBase
			}
			for _, e := range c.edits {
				if n := strings.Count(src, e[0]); n != 1 {
					t.Fatalf("edit %q occurs %d times in the base, want once", e[0], n)
				}
				src = strings.Replace(src, e[0], e[1], 1)
			}
			src += c.extra
			i := strings.Index(src, c.at)
			if i < 0 {
				t.Fatalf("%q is not in the edited text", c.at)
			}
			line := 1 + strings.Count(src[:i], "\n")
			col := len([]rune(src[strings.LastIndex(src[:i], "\n")+1:i])) + 1
			_, ds := Load(mkFabric(t, map[string]string{"f.fab.hcl": src}), Options{Platforms: testCatalog()})
			for _, d := range ds {
				if d.Severity == SevError && strings.Contains(d.Summary, c.summary) && strings.Contains(d.Detail, c.detail) &&
					d.Subject != nil && filepath.Base(d.Subject.Filename) == "f.fab.hcl" && int(d.Subject.Start.Line) == line && int(d.Subject.Start.Column) == col {
					return
				}
			}
			var got strings.Builder
			for _, d := range ds {
				fmt.Fprintf(&got, "  %s\n", d.Error())
			}
			t.Errorf("want an error %q (detail %q) at f.fab.hcl:%d:%d; got:\n%s", c.summary, c.detail, line, col, got.String())
		})
	}
}

// TestInfiniBandHostileMembers loads a partition of 100,000 members, every
// one unknown: one error, quickly.
func TestInfiniBandHostileMembers(t *testing.T) {
	var b strings.Builder
	b.WriteString(`  members      = [`)
	for i := range 100000 {
		fmt.Fprintf(&b, "\"ghost%d\", ", i)
	}
	b.WriteString("]")
	src := strings.Replace(ibBase, `  members      = ["gpu01"]`, b.String(), 1)
	start := time.Now()
	_, ds := Load(mkFabric(t, map[string]string{"f.fab.hcl": src}), Options{Platforms: testCatalog()})
	n := 0
	for _, d := range ds {
		if d.Summary == "Unknown partition member" {
			n++
			if !strings.Contains(d.Detail, "(and 99999 other unknown names)") {
				t.Errorf("detail %q", d.Detail)
			}
		}
	}
	if n != 1 || len(ds) != 1 {
		t.Errorf("%d member errors of %d diagnostics, want 1 of 1:\n%s", n, len(ds), ds.Error())
	}
	// A bound against a quadratic member check (10^10 steps for 100,000
	// names: hours), not a speed test: the load takes 8 s under -race on
	// an idle 2-core machine and 32 s at load average 10.
	if el := time.Since(start); el > 2*time.Minute {
		t.Errorf("load took %v", el)
	}
}

func TestParsePKeyGUID(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"0x8001", 0x8001, true}, {"0x7fff", 0x7fff, true}, {"0xFFFF", 0xffff, true}, {"0X1", 1, true},
		{"0x0", 0, false}, {"0x8000", 0, false}, {"0x10000", 0, false}, {"8001", 0, false}, {"0x", 0, false},
		{"0x-1", 0, false}, {"0x+1", 0, false}, {"0x 1", 0, false}, {"0x1_0", 0, false},
	} {
		got, err := ParsePKey(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParsePKey(%q) = %#x, %v; want %#x ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"0x0002c90300a00101", 0x0002c90300a00101, true}, {"0xffffffffffffffff", ^uint64(0), true}, {"0x1", 1, true},
		{"0x0", 0, false}, {"0x10000000000000000", 0, false}, {"0002c90300a00101", 0, false}, {"0x_1", 0, false},
	} {
		got, err := ParseGUID(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseGUID(%q) = %#x, %v; want %#x ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
	if FormatGUID(0x2c90300a00101) != "0x0002c90300a00101" {
		t.Errorf("FormatGUID = %s", FormatGUID(0x2c90300a00101))
	}
}

// FuzzParseGUID checks that ParseGUID and ParsePKey never panic, accept
// only what they format back, and refuse zero.
func FuzzParseGUID(f *testing.F) {
	for _, s := range []string{"0x0002c90300a00101", "0x8001", "0x0", "0x８", "0x" + strings.Repeat("f", 17), "", "0x7fff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if g, err := ParseGUID(s); err == nil {
			if g == 0 {
				t.Fatalf("ParseGUID(%q) accepted zero", s)
			}
			if back, err := ParseGUID(FormatGUID(g)); err != nil || back != g {
				t.Fatalf("ParseGUID(FormatGUID(%#x)) = %#x, %v", g, back, err)
			}
		} else if len(err.Error()) > 400 {
			t.Fatalf("error of %d bytes for %d input bytes", len(err.Error()), len(s))
		}
		if p, err := ParsePKey(s); err == nil {
			if p&0x7fff == 0 || p > 0xffff {
				t.Fatalf("ParsePKey(%q) = %#x", s, p)
			}
			if back, err := ParsePKey(fmt.Sprintf("0x%04x", p)); err != nil || back != p {
				t.Fatalf("ParsePKey round trip of %#x: %#x, %v", p, back, err)
			}
		}
	})
}

// TestInfiniBandDefaultsAndForms: a subnet manager without an sm block
// gets empty settings, role "subnet_manager" attaches a policy, and a
// partition written in JSON loads like the HCL one.
func TestInfiniBandDefaultsAndForms(t *testing.T) {
	src := strings.Replace(ibBase, "  sm {\n    routing_engine = [\"ftree\"]\n    max_op_vls     = 4\n    high_limit     = 0\n    priority       = 15\n  }\n", "", 1)
	src = strings.Replace(src, "partition \"storage\" {", "partition \"unused\" {", 1)
	src += "qos_policy \"sm\" {\n  classes = [traffic_class.mgmt]\n  mtu     = 4096\n}\n\nrole \"subnet_manager\" { qos_policy = qos_policy.sm }\n"
	js := `{"partition": {"storage": {"pkey": "0x8002", "members": ["gpu01"], "membership": "limited", "full_members": ["stor01"], "sl": 2}}}`
	src = strings.Replace(src, "partition \"unused\" {\n  pkey         = \"0x8002\"", "partition \"unused\" {\n  pkey         = \"0x0009\"", 1)
	f := mustLoad(t, mkFabric(t, map[string]string{"f.fab.hcl": src, "p.fab.json": js}), Options{Platforms: testCatalog()})
	sm := f.Device("sm01")
	if sm.SM == nil || sm.SM.Range != sm.Range || sm.SM.RoutingEngine.Set || sm.SM.MaxOpVLs.Set {
		t.Errorf("sm without a block: %+v, want empty settings at the device", sm.SM)
	}
	if q := sm.Port("ib0").QoS; q.MTU.V != 4096 || len(q.Policies) != 2 {
		t.Errorf("role subnet_manager: mtu %d policies %d, want 4096 from 2 policies", q.MTU.V, len(q.Policies))
	}
	var st *Partition
	for _, p := range f.Partitions {
		if p.Name == "storage" {
			st = p
		}
	}
	if st == nil || st.PKey.V != 0x8002 || !strings.HasSuffix(st.PKey.Src.Filename, "p.fab.json") || st.SL.V != 2 {
		t.Fatalf("JSON partition %+v", st)
	}
	if m, ok := st.MembershipOf(f.Device("gpu01")); !ok || m != MemberLimited {
		t.Errorf("gpu01 in the JSON partition: %v %v", m, ok)
	}
}
