package lint

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/schema"
)

func lintRule(t *testing.T, f *schema.Fabric, id string) []Finding {
	t.Helper()
	fs, err := Run(context.Background(), f, Options{Only: []string{id}})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return fs
}

func TestRegistryValid(t *testing.T) {
	if err := ValidateRules(Rules()); err != nil {
		t.Fatal(err)
	}
}

func TestBaseFabricClean(t *testing.T) {
	fs, err := Run(context.Background(), baseFabric(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		t.Errorf("unexpected %s %s: %s", f.Rule, f.Severity, f.Summary)
	}
}

type ruleCase struct {
	rule string
	name string
	// edit breaks (or, for a pass case, changes without breaking) the base fabric.
	edit func(f *schema.Fabric)
	// want is a substring of the finding's message; "" means no finding.
	want string
}

var ms = time.Millisecond

func ruleCases() []ruleCase {
	return []ruleCase{
		{"QOS001", "core trusts nothing", func(f *schema.Fabric) {
			editQoS(port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.Trust.V = schema.TrustNone })
		}, `spine1:Ethernet1 trusts "none"`},
		{"QOS001", "trust both is fine", func(f *schema.Fabric) {
			editQoS(port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.Trust.V = schema.TrustBoth })
		}, ""},
		{"QOS002", "spine maps 26 to 1", func(f *schema.Fabric) {
			editQoS(port(f, "spine2:Ethernet2"), func(q *schema.PortQoS) { q.DSCP[26].V = 1 })
		}, "maps RoCE data DSCP 26 to priority 1"},
		{"QOS002", "unrelated DSCP remapped", func(f *schema.Fabric) {
			editQoS(port(f, "spine2:Ethernet2"), func(q *schema.PortQoS) { q.DSCP[27].V = 1 })
		}, ""},
		{"QOS003", "priority 3 to queue 4", func(f *schema.Fabric) {
			editQoS(port(f, "spine1:Ethernet2"), func(q *schema.PortQoS) { q.Queue[3].V = 4 })
		}, "sends priority 3 (RoCE data) to queue 4"},
		{"QOS003", "priority 5 remapped", func(f *schema.Fabric) {
			editQoS(port(f, "spine1:Ethernet2"), func(q *schema.PortQoS) { q.Queue[5].V = 4 })
		}, ""},
		{"QOS005", "half a DSCP map", func(f *schema.Fabric) {
			editAll(f, port(f, "leaf1:Ethernet1"), func(q *schema.PortQoS) {
				for d := 32; d < 64; d++ {
					if d != 56 {
						q.DSCP[d].Set = false
					}
				}
			})
		}, "31 code points undefined"},
		{"QOS005", "full map", func(*schema.Fabric) {}, ""},
		{"QOS006", "NIC marks DSCP 24", func(f *schema.Fabric) { f.Device("gpu02").RDMA.ToS.V = 98 }, "tos 98 (DSCP 24)"},
		{"QOS006", "NIC maps 26 elsewhere", func(f *schema.Fabric) {
			editQoS(port(f, "gpu03:eth0"), func(q *schema.PortQoS) { q.DSCP[26].V = 4 })
		}, "maps DSCP 26 (roce) to priority 4"},
		{"QOS006", "NIC ToS 106", func(f *schema.Fabric) { f.Device("gpu02").RDMA.ToS.V = 105 }, ""},
		{"QOS006", "NIC PCP map differs under trust both", func(f *schema.Fabric) {
			editQoS(port(f, "gpu03:eth0"), func(q *schema.PortQoS) { q.Trust.V = schema.TrustBoth; q.PCP[3].V = 5 })
		}, "maps PCP 3 (roce) to priority 5"},
		{"QOS007", "trust pcp on routed spine", func(f *schema.Fabric) {
			editQoS(port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.Trust.V = schema.TrustPCP })
		}, "trusts PCP but receives routed frames"},
		{"QOS007", "trust pcp on tagged L2 link", func(f *schema.Fabric) {
			// Make leaf1:Ethernet49 ↔ spine1:Ethernet1 an L2 link: both ends lose their IP.
			port(f, "leaf1:Ethernet49").IP = schema.Value[netipPrefix]{}
			port(f, "spine1:Ethernet1").IP = schema.Value[netipPrefix]{}
			editQoS(port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.Trust.V = schema.TrustPCP })
		}, ""},
		{"PFC001", "spine end enables 3,4", func(f *schema.Fabric) {
			editQoS(port(f, "spine2:Ethernet1"), func(q *schema.PortQoS) { q.PFC[4].V = true })
		}, "spine2:Ethernet1 on 3,4"},
		{"PFC001", "both ends 3,4", func(f *schema.Fabric) {
			editQoS(port(f, "spine2:Ethernet1"), func(q *schema.PortQoS) { q.PFC[4].V = true })
			editQoS(port(f, "leaf1:Ethernet50"), func(q *schema.PortQoS) { q.PFC[4].V = true })
		}, ""},
		{"PFC002", "spine downlink without PFC", func(f *schema.Fabric) {
			editQoS(port(f, "leaf2:Ethernet49"), func(q *schema.PortQoS) { q.PFC[3].V = false })
		}, "PFC is off for priority 3 on leaf2:Ethernet49"},
		{"PFC002", "PFC off on an unused priority", func(f *schema.Fabric) {
			editQoS(port(f, "leaf2:Ethernet49"), func(q *schema.PortQoS) { q.PFC[5].V = false })
		}, ""},
		{"PFC003", "eight lossless priorities", func(f *schema.Fabric) {
			editAll(f, port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) {
				for i := range q.PFC {
					q.PFC[i].V = true
				}
			})
		}, "enables PFC on 8 priorities"},
		{"PFC003", "two lossless priorities", func(f *schema.Fabric) {
			editAll(f, port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.PFC[4].V = true })
		}, ""},
		{"PFC005", "link pause beside PFC", func(f *schema.Fabric) {
			editQoS(port(f, "leaf1:Ethernet1"), func(q *schema.PortQoS) { q.LinkPause = schema.Value[bool]{V: true, Set: true} })
		}, "802.3x link pause"},
		{"PFC005", "link pause off", func(f *schema.Fabric) {
			editQoS(port(f, "leaf1:Ethernet1"), func(q *schema.PortQoS) { q.LinkPause = schema.Value[bool]{V: false, Set: true} })
		}, ""},
		{"NIC001", "NIC pfc on 4", func(f *schema.Fabric) {
			editQoS(port(f, "gpu01:eth0"), func(q *schema.PortQoS) { q.PFC[3].V = false; q.PFC[4].V = true })
		}, "PFC vector 0,0,0,0,1,0,0,0 (mlnx_qos --pfc) but leaf1:Ethernet1 enables PFC on priority 3"},
		{"NIC001", "NIC and switch both on 3", func(*schema.Fabric) {}, ""},
		{"BUF001", "300 m at 400G", func(f *schema.Fabric) {
			l := port(f, "leaf1:Ethernet49").Link
			l.CableLength.V = 300
			l.A.Speed.V, l.B.Speed.V = 400e9, 400e9
		}, "is below the 370688 B"},
		{"BUF001", "30 m at 100G", func(*schema.Fabric) {}, ""},
		{"BUF002", "no cable length", func(f *schema.Fabric) { port(f, "leaf1:Ethernet49").Link.CableLength = schema.Value[float64]{} }, "has no cable_length"},
		{"BUF002", "cable length set", func(*schema.Fabric) {}, ""},
		{"BUF005", "xon above xoff", func(f *schema.Fabric) {
			editQoS(port(f, "leaf1:Ethernet1"), func(q *schema.PortQoS) {
				q.Buffer.XON = schema.Value[int64]{V: 200_000, Set: true}
				q.Buffer.XOFF = schema.Value[int64]{V: 120_000, Set: true}
			})
		}, "is not below xoff"},
		{"BUF005", "xon below xoff", func(f *schema.Fabric) {
			editQoS(port(f, "leaf1:Ethernet1"), func(q *schema.PortQoS) {
				q.Buffer.XON = schema.Value[int64]{V: 18_432, Set: true}
				q.Buffer.XOFF = schema.Value[int64]{V: 120_000, Set: true}
			})
		}, ""},
		{"ECN001", "spine queue 3 ecn off", func(f *schema.Fabric) {
			editQoS(port(f, "spine1:Ethernet2"), func(q *schema.PortQoS) { q.Queues[3].ECN = schema.Value[*schema.ECNProfile]{Set: true} })
		}, "does not mark ECN on queue 3"},
		{"ECN001", "ecn off on queue 5", func(f *schema.Fabric) {
			editQoS(port(f, "spine1:Ethernet2"), func(q *schema.PortQoS) { q.Queues[5].ECN = schema.Value[*schema.ECNProfile]{Set: true} })
		}, ""},
		{"ECN002", "min above max", func(f *schema.Fabric) { f.ECNProfiles[0].Min.V = 2_000_000 }, "is not below max_threshold"},
		{"ECN002", "probability 0", func(f *schema.Fabric) { f.ECNProfiles[0].Probability.V = 0 }, "outside 1–100"},
		{"ECN002", "seed thresholds 1000/2000", func(f *schema.Fabric) { f.ECNProfiles[0].Min.V, f.ECNProfiles[0].Max.V = 1000, 2000 }, ""},
		{"ECN003", "ECN max above XOFF trigger", func(f *schema.Fabric) {
			editAll(f, port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) {
				q.Buffer.IngressLosslessPool = schema.Value[int64]{V: 16_000_000, Set: true}
				q.Buffer.DynamicThreshold = schema.Value[int]{V: -3, Set: true}
			})
			f.ECNProfiles[0].Max.V = 4_000_000
		}, "above the estimated XOFF trigger"},
		{"ECN003", "ECN max below XOFF trigger", func(f *schema.Fabric) {
			editAll(f, port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) {
				q.Buffer.IngressLosslessPool = schema.Value[int64]{V: 16_000_000, Set: true}
				q.Buffer.DynamicThreshold = schema.Value[int]{V: -3, Set: true}
			})
		}, ""},
		{"ECN004", "PFC without ECN", func(f *schema.Fabric) { f.Class("roce").ECN = nil }, "has no ecn_profile"},
		{"ECN004", "pfc_only design is info", func(f *schema.Fabric) {
			f.Class("roce").ECN = nil
			f.PFCOnly = schema.Value[bool]{V: true, Set: true}
		}, "as the fabric's pfc_only design says"},
		{"ECN004", "PFC with ECN", func(*schema.Fabric) {}, ""},
		{"CNP001", "CNP in a DWRR queue", func(f *schema.Fabric) {
			editQoS(port(f, "leaf2:Ethernet49"), func(q *schema.PortQoS) { q.Queues[7].Sched.V = schema.SchedDWRR })
		}, "sends CNP (DSCP 56) to queue 7, scheduled dwrr, not strict"},
		{"CNP001", "CNP strict", func(*schema.Fabric) {}, ""},
		{"CNP002", "NIC CNP DSCP 46", func(f *schema.Fabric) { f.Device("gpu04").RDMA.CNPDSCP.V = 46 }, "sends CNP with DSCP 46"},
		{"CNP002", "CNP shares data DSCP", func(f *schema.Fabric) { f.Class("cnp").DSCP = []int{26} }, "shares DSCP 26"},
		{"CNP002", "NIC CNP DSCP 56", func(*schema.Fabric) {}, ""},
		{"CNP003", "CNP on the paused priority", func(f *schema.Fabric) {
			for _, d := range f.Devices {
				for _, p := range d.Ports {
					editQoS(p, func(q *schema.PortQoS) { q.PFC[7].V = true })
				}
			}
		}, "which PFC pauses"},
		{"CNP003", "CNP lossy", func(*schema.Fabric) {}, ""},
		{"ETS001", "weights sum to 110", func(f *schema.Fabric) {
			editAll(f, port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.Queues[3].Weight.V = 60 })
		}, "DWRR weights 30 0 0 60 0 0 20 s sum to 110, not 100"},
		{"ETS001", "seed 30 0 0 50 0 0 20 0", func(*schema.Fabric) {}, ""},
		{"ETS002", "zero weight on used queue", func(f *schema.Fabric) {
			editAll(f, port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.Queues[0].Weight.V = 0; q.Queues[3].Weight.V = 80 })
		}, "queue 0 carries traffic but has DWRR weight 0"},
		{"ETS002", "zero weight on unused queue", func(f *schema.Fabric) {
			editAll(f, port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) {
				q.Queues[5].Sched = schema.Value[schema.SchedMode]{V: schema.SchedDWRR, Set: true}
			})
		}, ""},
		{"ETS003", "RoCE strict", func(f *schema.Fabric) {
			editAll(f, port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.Queues[3].Sched.V = schema.SchedStrict; q.Queues[0].Weight.V = 80 })
		}, `queue 3 is strict priority but carries roce class "roce"`},
		{"ETS003", "control strict", func(f *schema.Fabric) {
			editAll(f, port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.Queues[6].Sched.V = schema.SchedStrict; q.Queues[0].Weight.V = 50 })
		}, ""},
		{"MTU001", "NIC MTU 4096", func(f *schema.Fabric) {
			editAll(f, port(f, "gpu01:eth0"), func(q *schema.PortQoS) { q.MTU.V = 4096 })
		}, "has MTU 4096 but RDMA path_mtu 4096 needs at least 4192"},
		{"MTU001", "NIC MTU 4200", func(*schema.Fabric) {}, ""},
		{"MTU002", "1500-byte spine", func(f *schema.Fabric) {
			editQoS(port(f, "spine2:Ethernet1"), func(q *schema.PortQoS) { q.MTU.V = 1500 })
			editQoS(port(f, "leaf1:Ethernet50"), func(q *schema.PortQoS) { q.MTU.V = 1500 })
		}, "has MTU 1500 on the RoCE path; RDMA path MTU 4096 needs 4192"},
		{"MTU002", "9000-byte spine", func(f *schema.Fabric) {
			editQoS(port(f, "spine2:Ethernet1"), func(q *schema.PortQoS) { q.MTU.V = 9000 })
		}, ""},
		{"MTU003", "9216 vs 9100", func(f *schema.Fabric) {
			editQoS(port(f, "spine2:Ethernet1"), func(q *schema.PortQoS) { q.MTU.V = 9100 })
		}, "has MTU 9216 but spine2:Ethernet1 has 9100"},
		{"MTU003", "NIC 4200 vs leaf 9216 is not a link mismatch", func(*schema.Fabric) {}, ""},
		{"ACL001", "core without UDP 4791 ACL", func(f *schema.Fabric) {
			requireACL(f)
			port(f, "spine1:Ethernet1").ACLIn = nil
		}, "routed hop spine1:Ethernet1 carries IPv4 RoCE to or from subnet pod-a"},
		{"ACL001", "IPv4-only classification misses IPv6 RoCE", func(f *schema.Fabric) {
			requireACL(f)
			f.Subnets[0].Prefix.V = netip.MustParsePrefix("fd00:1::/64")
			for i, n := range []string{"gpu01:eth0", "gpu02:eth0"} {
				port(f, n).IP.V = netip.MustParsePrefix(fmt.Sprintf("fd00:1::%d/64", i+10))
			}
			for _, d := range f.Devices {
				for _, p := range d.Ports {
					for _, acl := range p.ACLIn {
						acl.Rules[0].Family = "ipv4"
					}
				}
			}
		}, "carries IPv6 RoCE to or from subnet pod-a (require_roce_acl) but no ingress ACL classifies UDP 4791 for IPv6"},
		{"ACL001", "every routed hop classifies", func(f *schema.Fabric) { requireACL(f) }, ""},
		{"ACL002", "policer on RoCE", func(f *schema.Fabric) {
			acl := roceACL(26)
			acl.Rules[0].Police = schema.Value[int64]{V: 10e9, Set: true}
			port(f, "spine2:Ethernet2").ACLIn = []*schema.ACL{acl}
		}, `polices RoCE data on spine2:Ethernet2`},
		{"ACL002", "deny TCP only", func(f *schema.Fabric) {
			acl := roceACL(26)
			acl.Rules[0].Protocol.V = "tcp"
			acl.Rules[0].Action.V = schema.ActionDeny
			port(f, "spine2:Ethernet2").ACLIn = []*schema.ACL{acl}
		}, ""},
		{"XS001", "core re-marks to 0", func(f *schema.Fabric) {
			port(f, "spine1:Ethernet2").ACLIn = []*schema.ACL{roceACL(0)}
		}, "re-marks RoCE data from DSCP 26 to 0 on spine1:Ethernet2"},
		{"XS001", "classification keeps 26", func(f *schema.Fabric) {
			acl := roceACL(26)
			acl.Rules = append([]*schema.ACLRule{{Seq: 5, Protocol: schema.Value[string]{V: "udp", Set: true},
				DSCP: schema.Value[[]int]{V: []int{56}, Set: true}, Action: schema.Value[schema.ACLAction]{V: schema.ActionPermit, Set: true},
				SetDSCP: schema.Value[int]{V: -1}}}, acl.Rules...)
			port(f, "spine1:Ethernet2").ACLIn = []*schema.ACL{acl}
		}, ""},
		{"WDG001", "no watchdog on a spine", func(f *schema.Fabric) {
			editQoS(port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.Watchdog = schema.Value[*schema.Watchdog]{} })
		}, "has no pfc_watchdog"},
		{"WDG001", "watchdog everywhere", func(*schema.Fabric) {}, ""},
		{"WDG004", "NIC without watchdog", func(f *schema.Fabric) {
			editAll(f, port(f, "gpu01:eth0"), func(q *schema.PortQoS) { q.Watchdog = schema.Value[*schema.Watchdog]{} })
		}, "gpu01:eth0 enables PFC on priority 3 but has no pfc_watchdog"},
		{"WDG004", "NIC watchdog without detection", func(f *schema.Fabric) {
			editAll(f, port(f, "gpu01:eth0"), func(q *schema.PortQoS) {
				w := *q.Watchdog.V
				w.Detection = schema.Value[time.Duration]{}
				q.Watchdog.V = &w
			})
		}, "without a detection time"},
		{"WDG004", "NIC watchdog with detection", func(*schema.Fabric) {}, ""},
		{"WDG002", "50 ms detection", func(f *schema.Fabric) { f.Watchdogs[0].Detection.V = 50 * ms }, "detection 50ms is outside 100ms–5s"},
		{"WDG002", "SONiC defaults", func(f *schema.Fabric) { f.Watchdogs[0].PollInterval.V = 200 * ms }, ""},
		{"WDG003", "drop and forward", func(f *schema.Fabric) {
			w2 := *f.Watchdogs[0]
			w2.Name, w2.Action.V = "other", schema.WatchdogForward
			f.Watchdogs = append(f.Watchdogs, &w2)
			editQoS(port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.Watchdog.V = &w2 })
		}, `acts "forward" but pfc_watchdog "standard" acts "drop"`},
		{"WDG003", "two profiles, one action", func(f *schema.Fabric) {
			w2 := *f.Watchdogs[0]
			w2.Name = "other"
			f.Watchdogs = append(f.Watchdogs, &w2)
			editQoS(port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.Watchdog.V = &w2 })
		}, ""},
		{"LNK001", "100G vs 400G", func(f *schema.Fabric) { port(f, "spine1:Ethernet1").Speed.V = 400e9 }, "runs at 100G but spine1:Ethernet1 at 400G"},
		{"LNK001", "same speed", func(*schema.Fabric) {}, ""},
		{"DLK004", "lossless leaf-leaf link", func(f *schema.Fabric) { peerLink(f, "leaf1:Ethernet60", "leaf2:Ethernet60", true) },
			"joins leaf1:Ethernet60 and leaf2:Ethernet60, two leaf switches, and leaf1:Ethernet60 enables PFC on priority 3"},
		{"DLK004", "lossy leaf-leaf link", func(f *schema.Fabric) { peerLink(f, "leaf1:Ethernet60", "leaf2:Ethernet60", false) }, ""},
		{"DLK004", "leaf-spine links only", func(*schema.Fabric) {}, ""},
		{"LNK003", "rs vs fc", func(f *schema.Fabric) { port(f, "spine1:Ethernet1").FEC.V = "fc" }, `uses FEC "rs" but spine1:Ethernet1 uses "fc"`},
		{"LNK003", "same FEC", func(*schema.Fabric) {}, ""},
		{"LNK005", "30 m of DAC", func(f *schema.Fabric) {
			l := port(f, "leaf1:Ethernet49").Link
			l.Media = schema.Value[string]{V: "dac", Set: true}
		}, "30m of dac cable is beyond the media's reach of 5m"},
		{"LNK005", "30 m of AOC", func(f *schema.Fabric) {
			port(f, "leaf1:Ethernet49").Link.Media = schema.Value[string]{V: "aoc", Set: true}
		}, ""},
		{"NIC006", "dual-homed NIC, second port PFC off", func(f *schema.Fabric) {
			dualHome(f)
			editQoS(port(f, "gpu01:eth1"), func(q *schema.PortQoS) { q.PFC[3].V = false })
		}, "dual-homed NIC gpu01: port eth1 (to leaf2) and port eth0 (to leaf1) differ: PFC"},
		{"NIC006", "dual-homed NIC, identical ports", func(f *schema.Fabric) { dualHome(f) }, ""},
		{"QOS004", "catch-all into the lossless priority", func(f *schema.Fabric) {
			editAll(f, port(f, "spine1:Ethernet1"), func(q *schema.PortQoS) { q.DSCP[24].V = 3; q.DSCP[25].V = 3 })
		}, "maps 2 DSCP value(s) of no lossless class (24,25) to a PFC priority"},
		{"QOS004", "only RoCE lossless", func(*schema.Fabric) {}, ""},
		{"ECN005", "WRED drop on queue 3", func(f *schema.Fabric) { f.ECNProfiles[0].Mark.V = false }, `queue 3 is lossless (priority 3) but ecn_profile "roce" drops (WRED)`},
		{"ECN005", "ECN marking", func(*schema.Fabric) {}, ""},
		{"NIC003", "tos 104", func(f *schema.Fabric) { f.Device("gpu01").RDMA.ToS.V = 104 }, "tos 104: DSCP 26 without ECT bits"},
		{"NIC003", "tos 106", func(*schema.Fabric) {}, ""},
		{"NIC004", "DCQCN off on one NIC", func(f *schema.Fabric) { f.Device("gpu02").RDMA.ECN.V = false }, "NIC gpu02 has DCQCN off"},
		{"NIC004", "DCQCN off in a pfc_only fabric", func(f *schema.Fabric) {
			f.Device("gpu02").RDMA.ECN.V = false
			f.PFCOnly = schema.Value[bool]{V: true, Set: true}
		}, ""},
		{"SUP001", "ignore without reason", func(f *schema.Fabric) {
			f.Files["fixture.fab.hcl"] = []byte("# fabricgen:ignore QOS005\nfabric \"x\" {}\n")
		}, "has no reason"},
		{"SUP001", "ignore unknown rule", func(f *schema.Fabric) {
			f.Files["fixture.fab.hcl"] = []byte("# fabricgen:ignore XYZ999 because\nfabric \"x\" {}\n")
		}, "unknown rule XYZ999"},
		{"SUP001", "ignore with reason", func(f *schema.Fabric) {
			f.Files["fixture.fab.hcl"] = []byte("# fabricgen:ignore QOS005 vendor default map is complete\nfabric \"x\" {}\n")
		}, ""},
	}
}

func TestRules(t *testing.T) {
	for _, c := range ruleCases() {
		t.Run(c.rule+"/"+c.name, func(t *testing.T) {
			f := baseFabric()
			c.edit(f)
			f.Reindex()
			fs := lintRule(t, f, c.rule)
			if c.want == "" {
				for _, fd := range fs {
					t.Errorf("unexpected finding: %s", fd.Summary)
				}
				return
			}
			for _, fd := range fs {
				if strings.Contains(fd.Summary, c.want) {
					if fd.Subject.IsZero() {
						t.Errorf("finding has no source range: %s", fd.Summary)
					}
					return
				}
			}
			var got []string
			for _, fd := range fs {
				got = append(got, fd.Summary)
			}
			t.Errorf("no finding containing %q; got %q", c.want, got)
		})
	}
}

// TestEveryRuleHasFixtures fails when a rule lacks a failing or a passing case.
func TestEveryRuleHasFixtures(t *testing.T) {
	fail, pass := map[string]bool{}, map[string]bool{}
	for _, c := range ruleCases() {
		if c.want == "" {
			pass[c.rule] = true
		} else {
			fail[c.rule] = true
		}
	}
	for _, r := range Rules() {
		if r.ID == ValidationRule {
			continue // the loader's diagnostics; see the loader fixtures
		}
		if !fail[r.ID] || !pass[r.ID] {
			t.Errorf("rule %s needs a failing and a passing fixture (fail %v, pass %v)", r.ID, fail[r.ID], pass[r.ID])
		}
	}
}

// peerLink adds a link between two new switch ports (an MLAG peer-link),
// with the switches' QoS, or with PFC off on both ends.
func peerLink(f *schema.Fabric, a, b string, lossless bool) {
	mk := func(id string) *schema.Port {
		dn, pn, _ := strings.Cut(id, ":")
		d := f.Device(dn)
		tmpl := d.Ports[len(d.Ports)-1]
		p := &schema.Port{Name: pn, Device: d, Range: tmpl.Range, Speed: tmpl.Speed, QoS: tmpl.QoS}
		if !lossless {
			editQoS(p, func(q *schema.PortQoS) {
				for i := range q.PFC {
					q.PFC[i] = schema.Value[bool]{}
				}
			})
		}
		d.Ports = append(d.Ports, p)
		return p
	}
	pa, pb := mk(a), mk(b)
	l := &schema.Link{Name: "peer", Range: pa.Range, A: pa, B: pb}
	pa.Link, pb.Link, pa.Peer, pb.Peer = l, l, pb, pa
	f.Links = append(f.Links, l)
	f.Reindex()
}
