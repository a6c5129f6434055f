package push

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// The matrix's own account of what fabricgen may change on each switch,
// written from docs/push.md's table of managed sections and the fixture's
// render, independently of the product's filter (config.Unmanaged): a
// state line matching none of these patterns is the device's own and must
// be byte-identical after every mutation. The patterns name fabricgen's
// objects (the fixture's ACLs, FABRICGEN/FG- names, the rendered ports)
// exactly, so a product change that claims a customer's object (an NX-OS
// JUMBO-NQ policy, an EOS qos profile, a SONiC AZURE map) shows up as a
// change of an unmanaged line.
var matrixManaged = map[schema.Platform][]string{
	mEOS: {`^qos (map|rewrite|random-detect) `, `^priority-flow-control pause watchdog `,
		`^ip access-list (roce-mark|guard)( >|$)`, `^(class-map|policy-map) .*\b(FG-|FABRICGEN)`,
		eosMatrixIfs + `(mtu |(no )?qos (trust|cos|dscp)|service-policy type qos input |priority-flow-control |tx-queue \d+|ip access-group |service-profile )`},
	mNXOS: {`^priority-flow-control (watch-dog|auto-restore)`, `^system qos( >|$)`,
		`^ip access-list (roce-mark|guard)( >|$)`, `^(class-map|policy-map) type \S+ (match-any )?(FG-|FABRICGEN)`,
		nxosMatrixIfs + `(mtu |priority-flow-control |service-policy |ip (port )?access-group )`},
	mJunos: {`^set class-of-service `, `^set firewall family inet filter (roce-mark|guard) `,
		`^set interfaces et-0/0/[01237] (mtu |unit \d+ family \S+ filter )`},
	mNVUE: {`^nv set qos `, `^nv set acl (roce-mark|guard) `, `^nv set interface swp(1|2|8|31|32) (link mtu |qos |acl )`},
	mSONiC: {`^(DSCP_TO_TC_MAP|TC_TO_QUEUE_MAP|TC_TO_PRIORITY_GROUP_MAP|MAP_PFC_PRIORITY_TO_QUEUE|PFC_PRIORITY_TO_PRIORITY_GROUP_MAP)\|FABRICGEN\|`,
		`^SCHEDULER\|fabricgen\.\d+\|`, `^WRED_PROFILE\|(roce|deep)\|`, `^ACL_(TABLE|RULE)\|(ROCE_MARK_IN|GUARD_IN)\|`,
		`^PFC_WD\|GLOBAL\|`, `^PORT_QOS_MAP\|global\|`,
		`^BUFFER_PROFILE\|pg_lossless_\d+_\d+m_profile\|`, `^BUFFER_POOL\|ingress_lossless_pool\|(type|mode) = `,
		`^(PORT_QOS_MAP|QUEUE|BUFFER_PG|BUFFER_QUEUE|PFC_WD)\|Ethernet(0|8|56|240|248)\|`,
		`^(PORT\|Ethernet(0|8|56|240|248)\|mtu|CABLE_LENGTH\|AZURE\|Ethernet(0|8|56|240|248)) = `},
}

// matrixKeep are lines of each brownfield device that sit next to what
// fabricgen manages and are not its: each must be on the device before
// and after every mutation.
var matrixKeep = map[schema.Platform][]string{
	mEOS: {"qos profile QP-STORAGE > tx-queue 4 > bandwidth percent 60", "interface Ethernet9/1 > service-profile QP-STORAGE",
		"interface Ethernet1/1 > description gpu-a01 ens1f0np0", "interface Ethernet31/1 > bfd interval 300 min-rx 300 multiplier 3",
		"vrf instance STORAGE", "router bgp 65101 > vrf STORAGE > redistribute connected", "logging host 192.0.2.10"},
	mNXOS: {"policy-map type network-qos JUMBO-NQ > class type network-qos c-8q-nq4 > pause pfc-cos 4",
		"policy-map type qos PM-STORAGE-IN > class CM-STORAGE > set qos-group 4", "class-map type qos match-any CM-STORAGE > match dscp 24-31",
		"interface Ethernet1/3 > service-policy type qos input PM-STORAGE-IN", "vrf context STORAGE > rd auto",
		"router bgp 65102 > template peer SPINES > remote-as 65000", "interface Ethernet1/1 > ip address 10.0.2.0/31"},
	mJunos: {"set routing-instances STORAGE interface et-0/0/5.0", "set routing-instances STORAGE protocols bgp group TENANT peer-as 65100",
		"set routing-instances MGMT instance-type virtual-router", "set interfaces et-0/0/5 mtu 9192",
		"set interfaces et-0/0/0 unit 0 family inet address 10.1.0.0/31", "deactivate protocols bgp group LEAVES neighbor 10.1.0.9",
		"set system ntp server 192.0.2.124"},
	mNVUE: {"nv set acl MGMT-IN rule 10 match ip tcp dest-port 22", "nv set interface swp1 ip address 10.0.4.0/31",
		"nv set interface swp1 link speed 400G", "nv set vrf mgmt router static 0.0.0.0/0 via 192.0.2.1", "nv set system timezone Europe/Berlin"},
	mSONiC: {"VRF|Vrf_storage|fallback = false", "INTERFACE|Ethernet64|vrf_name = Vrf_storage", "BGP_NEIGHBOR|Vrf_storage|10.20.0.0|asn = 65100",
		"PORT_QOS_MAP|Ethernet64|dscp_to_tc_map = AZURE", "QUEUE|Ethernet64|3|wred_profile = AZURE_LOSSLESS", "DSCP_TO_TC_MAP|AZURE|26 = 1",
		"PORT|Ethernet0|lanes = 0,1,2,3,4,5,6,7", "PORT|Ethernet56|speed = 400000"},
}

// unmanagedState is the device's state lines (CONFIG_DB fields sorted)
// that match none of the platform's managed patterns.
func (r *matrixRig) unmanagedState(t *testing.T, text string) []string {
	t.Helper()
	managed := compileAll(matrixManaged[r.dev.platform]...)
	var lines []string
	if r.dl.ConfigDB {
		for k, v := range dbFields(t, text) {
			lines = append(lines, k+" = "+v)
		}
		sort.Strings(lines)
	} else {
		lines = qualified(config.Parse(text, r.dl).Nodes, nil)
	}
	var out []string
	for _, l := range lines {
		if !matchesAny(l, managed) {
			out = append(out, l)
		}
	}
	return out
}

// checkUnmanagedIndependent compares the lines the matrix's own patterns
// call unmanaged before and after the change, and looks for the platform's
// keep lines on both sides.
func (r *matrixRig) checkUnmanagedIndependent(t *testing.T, before, after string) {
	t.Helper()
	b, a := r.unmanagedState(t, before), r.unmanagedState(t, after)
	if len(b) < 20 {
		t.Fatalf("only %d unmanaged lines before the change: the brownfield configuration is missing, the check proves nothing", len(b))
	}
	if bs, as := strings.Join(b, "\n")+"\n", strings.Join(a, "\n")+"\n"; bs != as {
		t.Errorf("lines fabricgen does not manage (by the matrix's own patterns) changed:\n%s", config.Unified("before", "after", bs, as).Text)
	}
	keep := matrixKeep[r.dev.platform]
	if len(keep) == 0 {
		t.Fatalf("no keep lines for %s", r.dev.platform)
	}
	for _, k := range keep {
		if !containsLine(b, k) || !containsLine(a, k) {
			t.Errorf("%q is not an unmanaged line of the device both before and after the change", k)
		}
	}
}

func containsLine(lines []string, l string) bool {
	for _, x := range lines {
		if x == l {
			return true
		}
	}
	return false
}

// TestMatrixManagedPatternsCompile keeps the patterns valid and every
// switch platform covered.
func TestMatrixManagedPatternsCompile(t *testing.T) {
	for _, md := range matrixDevices {
		if platforms.IsHost(md.platform) {
			continue
		}
		if len(matrixManaged[md.platform]) == 0 || len(matrixKeep[md.platform]) == 0 {
			t.Errorf("%s: no managed patterns or keep lines", md.platform)
		}
		for _, p := range matrixManaged[md.platform] {
			if _, err := regexp.Compile(p); err != nil {
				t.Errorf("%s: %v", md.platform, err)
			}
		}
	}
}
