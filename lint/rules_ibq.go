package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fabricgen/fabricgen/internal/ibqos"
	"github.com/fabricgen/fabricgen/schema"
)

// The IBQ rules judge an InfiniBand fabric's QoS as the subnet manager
// will program it: every rule reads the tables internal/ibqos derives, the
// ones the opensm render writes, so a clean lint means the rendered
// opensm.conf, qos-policy.conf and partitions.conf say what the intent
// says. OpenSM accepts most of these mistakes with exit code 0 and
// programs something else (a weight modulo 256, a VL masked to the port's
// VL count), or drops the whole QoS policy during the sweep.

// Sources the IBQ rules cite.
const (
	refQoSDoc       = "OpenSM doc/QoS_management_in_OpenSM.txt (linux-rdma/opensm)"
	refQoSSrc       = "OpenSM opensm/osm_qos.c (linux-rdma/opensm)"
	refPartitionDoc = "OpenSM doc/partition-config.txt (linux-rdma/opensm)"
	refRoutingDoc   = "OpenSM doc/current-routing.txt (linux-rdma/opensm)"
	refIBTA         = "IBTA InfiniBand Architecture Specification vol. 1 (7.6.6 SL to VL mapping, 7.6.9 VL arbitration, 10.9 partitions)"
)

// ibOnly is LinkLayers for the IBQ rules.
func ibOnly() []schema.LinkLayer { return []schema.LinkLayer{schema.LinkInfiniBand} }

// engineHooks lists the OpenSM routing engines that choose SLs themselves
// (a path_sl hook: the SA answers with the engine's SL, not the QoS
// level's) and the one that also programs its own SL2VL tables
// (update_sl2vl: torus-2QoS).
var (
	pathSLEngines = []string{"dfsssp", "lash", "nue", "torus-2QoS"}
	sl2vlEngines  = []string{"torus-2QoS"}
)

func ibqRules() []*Rule {
	rs := []*Rule{
		{
			ID: "IBQ001", Title: "Every class's SL maps to an operational data VL", Severity: schema.SevError,
			Rationale: "An SL mapped to VL15 is dropped (VL15 in an SL2VL table means drop this SL). An SL mapped to a VL at or above the port's operational VL count (max_op_vls: 4 is VL0-7, 5 is VL0-14) is masked by OpenSM without any message: SL3 to VL9 on a VL0-7 port is programmed as VL1, so the class shares another class's lane.",
			Reference: refQoSDoc + " section 7; " + refQoSSrc + "; " + refIBTA,
			Fix:       "Give the class a vl below the VL count (vl = sl by default), or raise the subnet manager's max_op_vls.",
			Run:       runIBSLToVL,
		},
		{
			ID: "IBQ002", Title: "No VL a class uses has weight 0 in both arbitration tables", Severity: schema.SevError,
			Rationale: "A VL arbitration weight of 0 means the entry is skipped; a VL that some SL maps to but that has weight 0 (or no entry) in both the high and the low table is never scheduled, so its traffic is starved.",
			Reference: refQoSDoc + " section 7; " + refIBTA,
			Fix:       "Give the class a weight above 0, or make it strict (high table).",
			Run:       runIBStarvedVL,
		},
		{
			ID: "IBQ003", Title: "VL arbitration entries are VL 0-14 with weight 0-255", Severity: schema.SevError,
			Rationale: "OpenSM reads a VL arbitration weight as one byte and a VL as 0-14: a weight of 300 is programmed as 44 (300 mod 256) and VL15 as VL0, with only a warning on standard output. Classes sharing a VL add their weights into one entry, so two 60 % classes on one VL overflow even though each is in range; fabricgen caps the entry at 255, which is not the shares the intent states.",
			Reference: refQoSDoc + " section 7; " + refQoSSrc + "; " + refIBTA,
			Fix:       "Lower the weights of the classes sharing the VL, or give them separate VLs; keep vl within 0-14.",
			Run:       runIBVLArbRange,
		},
		{
			ID: "IBQ004", Title: "VL arbitration weights are whole 4 KB packets at MTU 4096", Severity: schema.SevInfo,
			Rationale: "A weight counts 64-byte credits and ports send MTU-sized packets: at MTU 4096 one packet is 64 credits, so a weight that is not a multiple of 64 is rounded by the hardware to whole packets and the shares between VLs are not the configured ones. fabricgen turns a share in percent into 256 credits per 100 %, so multiples of 25 % give whole packets.",
			Reference: refQoSDoc + " section 7 (weights should be multiples of 64 for 4 KB MTU)",
			Fix:       "Use weights in steps of 25 % (64, 128, 192 credits), or accept the rounding.",
			Run:       runIBWeight4K,
		},
		{
			ID: "IBQ005", Title: "high_limit 255 does not starve low-table classes", Severity: schema.SevWarning,
			Rationale: "high_limit is how many 4 KB units the high-priority table may send before the low table gets a turn; 255 means unbounded, and OpenSM's own documentation warns that the low-priority VLs may then be starved.",
			Reference: refQoSDoc + " section 7; " + refIBTA,
			Fix:       "Set high_limit in the sm block to a bound (for example 4 to 16), or drop it to use OpenSM's default 0 (one packet).",
			Run:       runIBHighLimit,
		},
		{
			ID: "IBQ006", Title: "A class maps to one VL on CA and switch ports alike", Severity: schema.SevError,
			Rationale: "fabricgen renders one SL2VL table for CA, switch and router ports, so a class can only map differently where that table is not what the intent says: two classes sharing an SL with different VLs (the SL has one entry, so one class's vl is never programmed), or the torus-2QoS routing engine, which programs its own SL2VL tables (its update_sl2vl hook) over the QoS ones while classes pin VLs.",
			Reference: refQoSSrc + " (update_sl2vl); OpenSM opensm/osm_torus.c; " + refIBTA,
			Fix:       "Give classes that share an SL the same vl (or separate SLs); with torus-2QoS leave vl unset and let the engine choose VLs.",
			Run:       runIBClassVLConsistent,
		},
		{
			ID: "IBQ007", Title: "A partition's SL is the SL of its members and of a class", Severity: schema.SevWarning,
			Rationale: "A partition's sl is what the SA hands out for its traffic (IPoIB and rdma_cm); when a QoS level gives the partition's traffic another SL, the SA answers PathRecords with the QoS level's SL while the partition's IPoIB broadcast group keeps the partition's, and OpenSM 3.3.23 says so only below its default log level (\"QoS Level SL (3) for Pkey 0x0001 in match rule differs from partition SL (2)\" at VERBOSE). A partition SL that no class names falls into the default class's VL; a partition whose members all run their applications on one class's SL (rdma sl) is that class's, and its sl should say so.",
			Reference: refPartitionDoc + " (sl=); " + refQoSDoc + " section 6",
			Fix:       "Set the partition's sl to the SL of the class its members use (their rdma sl), or leave it unset.",
			Run:       runIBPartitionSL,
		},
		{
			ID: "IBQ008", Title: "The QoS policy is one OpenSM accepts", Severity: schema.SevError,
			Rationale: "OpenSM rejects the whole QoS policy during the sweep (ERR AC10, AC13, AC04) when there is no DEFAULT qos-level or a match rule names an empty port group, and keeps running without QoS; an SL above 15 in a qos-level is accepted without a message although the LRH carries 4 bits.",
			Reference: refQoSDoc + " sections 2, 4 and 6 (a DEFAULT QoS level is a must; no match rule may refer to a nonexistent port group); " + refIBTA,
			Fix:       "Give one class role = \"default\", keep every sl within 0-15, and give every partition members.",
			Run:       runIBPolicyAccepted,
		},
		{
			ID: "IBQ009", Title: "No routing engine overrides the classes' SLs", Severity: schema.SevWarning,
			Rationale: "Routing engines that use SLs for deadlock freedom (dfsssp, lash, nue, torus-2QoS) answer the SA's PathRecord queries with their own SL (a path_sl hook), which overrides the QoS level's SL; DFSSSP logs ERR 1F2A when a request pins another SL. The classes' SLs then hold only for applications that bypass the SA.",
			Reference: refRoutingDoc + "; OpenSM opensm/osm_ucast_dfsssp.c and opensm/osm_sa_path_record.c",
			Fix:       "Use ftree or updn (deadlock free without SLs) when classes pin SLs, or accept the engine's SLs.",
			Run:       runIBPathSLEngine,
		},
		{
			ID: "IBQ010", Title: "The routing engine can route the topology without falling back", Severity: schema.SevError,
			Rationale: "updn needs root switches; without a root_guid_file its statistical detection may find none, and OpenSM falls back to minhop, which can form credit loops. ftree needs a fat tree of rank 2 to 8 whose switches of one rank have the same number of up-going port groups (here: hosts on leaves only, no links between switches of one tier, every leaf under as many spines). allow_fallback = true drops no_fallback, so any engine failure silently becomes minhop (a warning).",
			Reference: refRoutingDoc + " (UPDN: without roots or a guid file OpenSM defaults back to Min Hop; Fat-tree: the topology rules); opensm(8) --routing_engine no_fallback",
			Fix:       "Give the spines guid attributes (they become updn's roots), use ftree only on a fat tree, and leave allow_fallback unset.",
			Run:       runIBRoutingEngine,
		},
		{
			ID: "IBQ011", Title: "Every NIC's applications use a class's SL", Severity: schema.SevWarning,
			Rationale: "NCCL and UCX build their QPs without asking the SA, so the subnet manager's qos-levels never apply to them: the SL on the wire is NCCL_IB_SL (default 0) and UCX_IB_SL (default auto). A NIC without rdma { sl } sends on SL 0; one whose SL no class names falls into the default class's VL.",
			Reference: "NVIDIA/nccl src/transport/net_ib.cc (NCCL_PARAM IbSl \"IB_SL\"); openucx/ucx src/uct/ib/base/ib_iface.c (UCX_IB_SL); " + refQoSDoc + " section 6.6 (MPI)",
			Fix:       "Set rdma { sl = N } on the NIC to the SL of the class its jobs belong to.",
			Run:       runIBNICSL,
		},
		{
			ID: "IBQ012", Title: "Partitions have full members where members must talk", Severity: schema.SevError,
			Rationale: "Limited members of a partition cannot talk to each other, only to its full members: a partition whose members are all limited carries no traffic (an error), and storage hosts that are limited members cannot serve limited clients (a warning). When partitions.conf has no Default rule, OpenSM gives end ports limited membership in 0x7fff (a warning).",
			Reference: refPartitionDoc + "; NVIDIA UFM REST API guide, PKey GUIDs (limited members cannot communicate with other limited members)",
			Fix:       "Make the hosts that serve others (storage targets, the subnet managers) full members with full_members, and declare a default = true partition.",
			Run:       runIBMembership,
		},
		{
			ID: "IBQ013", Title: "P_Keys are unique in their low 15 bits", Severity: schema.SevError,
			Rationale: "OpenSM uses only the low 15 bits of a P_Key (bit 15 is the membership bit): 0x8002 and 0x0002 are the same partition, and repeated P_Keys are merged, so two partitions the intent keeps apart become one.",
			Reference: refPartitionDoc + "; " + refIBTA,
			Fix:       "Give each partition its own P_Key in 0x0001-0x7ffe.",
			Run:       runIBPKeyUnique,
		},
		{
			ID: "IBQ014", Title: "IPoIB partitions' MTU matches the links'", Severity: schema.SevWarning,
			Rationale: "IPoIB's MTU follows the partition's broadcast group, whose mtu defaults to 2048 bytes (mtu=4): on 4096-byte links IPoIB datagram mode still gets 2044 bytes, which is the MTU every host then uses.",
			Reference: refPartitionDoc + " (mtu=, default 4 = 2048); Linux Documentation/infiniband/ipoib.rst (datagram mode: the IB MTU minus the 4-byte IPoIB header, 2048 - 4 = 2044)",
			Fix:       "Set the partition's mtu to the links' MTU (mtu = 4096).",
			Run:       runIBIPoIBMTU,
		},
		{
			ID: "IBQ015", Title: "Every subnet manager host has the same sm settings", Severity: schema.SevError,
			Rationale: "A standby subnet manager with another routing engine, max_op_vls or high_limit reprograms the fabric's tables when it takes over, so a fail-over changes QoS and routing. fabricgen refuses to render SM hosts whose settings differ. The election priority may differ: each host's sm_priority is its own.",
			Reference: "opensm(8) (SM priority, standby SMs); " + refQoSDoc + " section 7",
			Fix:       "Give every subnet_manager device the same sm block apart from priority.",
			Run:       runIBSMConsistent,
		},
	}
	for _, r := range rs {
		r.LinkLayers = ibOnly()
	}
	return rs
}

// ibClasses are the classes with an SL in 0–15, by SL (the order Derive
// uses: the first class of an SL is the one its SL2VL entry follows).
func ibClasses(f *schema.Fabric) []*schema.TrafficClass {
	var out []*schema.TrafficClass
	for _, c := range f.Classes {
		if c.SL.Set && c.SL.V >= 0 && c.SL.V <= ibqos.MaxSL {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b *schema.TrafficClass) int { return a.SL.V - b.SL.V })
	return out
}

// vlSubject is the line that sets the class's VL: vl, else sl (which vl
// defaults to).
func vlSubject(c *schema.TrafficClass) schema.Range {
	return subjectOr(c.VL.Src, c.SL.Src, c.Range)
}

// weightSubject is the line that sets the class's weight (or scheduler).
func weightSubject(c *schema.TrafficClass) schema.Range {
	return subjectOr(c.Weight.Src, c.Sched.Src, c.Range)
}

// smSetting is where the subnet manager's setting v is given, or the sm
// block (or the device) when it is not.
func smSetting[T any](d *schema.Device, v func(*schema.SubnetManager) schema.Value[T]) schema.Range {
	if d == nil {
		return schema.Range{}
	}
	if d.SM == nil {
		return d.Range
	}
	return subjectOr(v(d.SM).Src, d.SM.Range, d.Range)
}

func runIBSLToVL(p *Pass) {
	t := ibqos.Derive(p.Fabric)
	for sl, c := range t.ClassOfSL {
		if c == nil {
			continue
		}
		vl := t.SL2VL[sl]
		var what string
		switch {
		case vl == ibqos.MaxDataVL+1:
			what = "VL15, which drops the SL (VL15 is management only)"
		case t.VLs > 0 && vl >= t.VLs:
			what = fmt.Sprintf("VL%d, beyond the %d operational VLs of max_op_vls %d (VL0-%d)", vl, t.VLs, t.MaxOpVLs, t.VLs-1)
			if t.VLs&(t.VLs-1) == 0 {
				what += fmt.Sprintf(": OpenSM masks it to VL%d without a message", vl&(t.VLs-1))
			}
		default:
			continue
		}
		f := Finding{Subject: ptr(vlSubject(c)),
			Summary: fmt.Sprintf("traffic_class %q maps SL %d to %s", c.Name, sl, what)}
		if r := smSetting(t.SM, func(s *schema.SubnetManager) schema.Value[int] { return s.MaxOpVLs }); !r.IsZero() && vl <= ibqos.MaxDataVL {
			f.Related = []Related{{Range: r, Message: fmt.Sprintf("max_op_vls %d of subnet manager %s", t.MaxOpVLs, t.SM.Name)}}
		}
		p.Report(f)
	}
}

func runIBStarvedVL(p *Pass) {
	t := ibqos.Derive(p.Fabric)
	seen := map[int]bool{}
	for sl, c := range t.ClassOfSL {
		vl := t.SL2VL[sl]
		if c == nil || seen[vl] || vl < 0 || vl > ibqos.MaxDataVL || (t.VLs > 0 && vl >= t.VLs) {
			continue // other VLs are IBQ001's
		}
		seen[vl] = true
		if h, l := t.WeightOf(vl); h+l > 0 {
			continue
		}
		var rel []Related
		for sl2, c2 := range t.ClassOfSL {
			if c2 != nil && c2 != c && t.SL2VL[sl2] == vl {
				rel = append(rel, Related{Range: weightSubject(c2), Message: fmt.Sprintf("traffic_class %q (SL %d) is on VL%d too", c2.Name, sl2, vl)})
			}
		}
		p.Report(Finding{Subject: ptr(weightSubject(c)), Related: rel,
			Summary: fmt.Sprintf("traffic_class %q (SL %d) is on VL%d, which has weight 0 in both VL arbitration tables: it is never scheduled", c.Name, sl, vl)})
	}
}

// vlArbSums are the weights of each table's VL entries before ibqos caps
// them at 255, with the classes that contributed, as Derive adds them.
type vlArbSum struct {
	high    bool
	vl, sum int
	classes []*schema.TrafficClass
}

func vlArbSums(f *schema.Fabric) []*vlArbSum {
	var out []*vlArbSum
	at := map[[2]int]*vlArbSum{}
	for _, c := range ibClasses(f) {
		high, w := c.Sched.V == schema.SchedStrict, ibqos.Weight(c.Weight.V)
		if high && !c.Weight.Set {
			w = ibqos.MaxWeight
		}
		vl := ibqos.VLOf(c)
		k := [2]int{vl, 0}
		if high {
			k[1] = 1
		}
		s := at[k]
		if s == nil {
			s = &vlArbSum{high: high, vl: vl}
			at[k] = s
			out = append(out, s)
		}
		s.sum += w
		s.classes = append(s.classes, c)
	}
	return out
}

func tableName(high bool) string {
	if high {
		return "high"
	}
	return "low"
}

func runIBVLArbRange(p *Pass) {
	for _, s := range vlArbSums(p.Fabric) {
		c := s.classes[0]
		if s.vl < 0 || s.vl > ibqos.MaxDataVL {
			p.Report(Finding{Subject: ptr(vlSubject(c)),
				Summary: fmt.Sprintf("traffic_class %q puts VL%d in the VL arbitration %s table: OpenSM takes VL 0-14 (it programs VL15 as VL0)", c.Name, s.vl, tableName(s.high))})
			continue
		}
		if s.sum <= ibqos.MaxWeight {
			continue
		}
		names := make([]string, len(s.classes))
		for i, c2 := range s.classes {
			names[i] = fmt.Sprintf("%q", c2.Name)
		}
		at, others := vlJoiner(s.classes)
		c = s.classes[at]
		var rel []Related
		if c.VL.Set && !c.VL.Src.IsZero() {
			rel = append(rel, Related{Range: c.VL.Src, Message: fmt.Sprintf("traffic_class %q pins VL%d, another SL's lane", c.Name, s.vl)})
		}
		for _, i := range others {
			c2 := s.classes[i]
			rel = append(rel, Related{Range: weightSubject(c2), Message: fmt.Sprintf("traffic_class %q shares VL%d", c2.Name, s.vl)})
		}
		p.Report(Finding{Subject: ptr(weightSubject(c)), Related: rel,
			Summary: fmt.Sprintf("VL%d's %s-table weight is %d (classes %s): above 255, which OpenSM would program modulo 256; the render caps it at 255, not the shares the intent states",
				s.vl, tableName(s.high), s.sum, strings.Join(names, ", "))})
	}
}

// vlJoiner picks, among classes that share one VL, the one to change
// (schema.Outlier): a class that pins its vl joined the lane, while one
// whose VL is its own SL (vl unset) is where the lane belongs; between
// classes alike, the first listed. It returns that class's index and the
// others', the lane's owner last.
func vlJoiner(classes []*schema.TrafficClass) (int, []int) {
	sides := make([]schema.Side, len(classes))
	for i, c := range classes {
		sides[i] = schema.Side{Key: c.Name, Src: weightSubject(c), Holders: 1, Intent: !c.VL.Set}
	}
	return schema.Outlier(sides)
}

// mtu4096 is where the fabric uses MTU 4096 (a port or a partition), or
// the zero range.
func mtu4096(f *schema.Fabric) (schema.Range, string) {
	for _, pa := range f.Partitions {
		if pa.MTU.V == 4096 {
			return pa.MTU.Src, fmt.Sprintf("partition %q has mtu 4096", pa.Name)
		}
	}
	for _, d := range f.Devices {
		for _, pt := range d.Ports {
			if pt.MTU.V == 4096 {
				return subjectOr(pt.MTU.Src, pt.Range), fmt.Sprintf("port %s has mtu 4096", pt.ID())
			}
		}
	}
	return schema.Range{}, ""
}

func runIBWeight4K(p *Pass) {
	at, why := mtu4096(p.Fabric)
	if why == "" {
		return
	}
	t := ibqos.Derive(p.Fabric)
	check := func(es []ibqos.Entry, high bool) {
		for _, e := range es {
			// A strict class without a weight gets the largest, 255: the
			// render's choice for "as much as high_limit allows".
			if e.Weight == 0 || e.Weight%ibqos.CreditsPer4K == 0 || (high && !e.Class.Weight.Set) {
				continue
			}
			p.Report(Finding{Subject: ptr(weightSubject(e.Class)), Related: []Related{{Range: at, Message: why}},
				Summary: fmt.Sprintf("VL%d's %s-table weight is %d credits (traffic_class %q, weight %d %%): not a whole number of 4 KB packets (64 credits) at MTU 4096",
					e.VL, tableName(high), e.Weight, e.Class.Name, e.Class.Weight.V)})
		}
	}
	check(t.High, true)
	check(t.Low, false)
}

func runIBHighLimit(p *Pass) {
	t := ibqos.Derive(p.Fabric)
	if t.SM == nil || t.HighLimit < ibqos.MaxWeight {
		return
	}
	var rel []Related
	for _, e := range t.Low {
		if e.Weight > 0 {
			rel = append(rel, Related{Range: weightSubject(e.Class), Message: fmt.Sprintf("traffic_class %q is in the low table (VL%d)", e.Class.Name, e.VL)})
		}
	}
	if len(rel) == 0 {
		return
	}
	p.Report(Finding{Subject: ptr(smSetting(t.SM, func(s *schema.SubnetManager) schema.Value[int] { return s.HighLimit })), Device: t.SM.Name, Related: rel,
		Summary: fmt.Sprintf("subnet manager %s sets high_limit 255 (unbounded) while %d class(es) are in the low table: the high table may starve them", t.SM.Name, len(rel))})
}

func runIBClassVLConsistent(p *Pass) {
	t := ibqos.Derive(p.Fabric)
	bySL := map[int][]*schema.TrafficClass{}
	var sls []int
	for _, c := range ibClasses(p.Fabric) {
		if bySL[c.SL.V] == nil {
			sls = append(sls, c.SL.V)
		}
		bySL[c.SL.V] = append(bySL[c.SL.V], c)
	}
	for _, sl := range sls {
		reportSharedSL(p, &t, sl, bySL[sl])
	}
	var pinned []Related
	for _, c := range ibClasses(p.Fabric) {
		if c.VL.Set {
			pinned = append(pinned, Related{Range: c.VL.Src, Message: fmt.Sprintf("traffic_class %q pins VL%d", c.Name, c.VL.V)})
		}
	}
	if len(pinned) == 0 {
		return
	}
	for _, d := range ibqos.SubnetManagers(p.Fabric) {
		if e := engineIn(d, sl2vlEngines); e != "" {
			p.Report(Finding{Subject: ptr(smSetting(d, func(s *schema.SubnetManager) schema.Value[[]string] { return s.RoutingEngine })), Device: d.Name, Related: pinned,
				Summary: fmt.Sprintf("subnet manager %s routes with %s, which programs its own SL2VL tables on switch and CA ports: the classes' VLs hold on no port", d.Name, e)})
		}
	}
}

// reportSharedSL reports the classes of one SL whose VL is not the one the
// SL's classes agree on (schema.Deviants): a class that pins a vl of its
// own is the change, one whose VL is its SL (vl unset) what the SL is for,
// else the VL more classes use; between values alike, the first class by
// name. Each finding is at the deviant class's vl line, with the
// reference class as related, and says which VL the one SL2VL entry holds
// (the first class's by name, as ibqos.Derive programs it) and which VLs
// the SL therefore never reaches.
func reportSharedSL(p *Pass, t *ibqos.Tables, sl int, classes []*schema.TrafficClass) {
	if len(classes) < 2 {
		return
	}
	sides := make([]schema.Side, len(classes))
	for i, c := range classes {
		sides[i] = schema.Side{Key: fmt.Sprint(ibqos.VLOf(c)), Src: vlSubject(c), Holders: 1, Intent: !c.VL.Set}
	}
	dev := schema.Deviants(sides)
	if len(dev) == 0 {
		return
	}
	ref := classes[schema.Reference(sides)]
	table, owner := t.SL2VL[sl], t.ClassOfSL[sl]
	var unused []string
	seen := map[int]bool{table: true}
	for _, c := range classes {
		if vl := ibqos.VLOf(c); !seen[vl] {
			seen[vl] = true
			unused = append(unused, fmt.Sprintf("VL%d", vl))
		}
	}
	verb := "is"
	if len(unused) > 1 {
		verb = "are"
	}
	tail := fmt.Sprintf("%s %s never used for SL %d", strings.Join(unused, ", "), verb, sl)
	ownerName := ""
	if owner != nil {
		ownerName = fmt.Sprintf(" (traffic_class %q's, the first by name)", owner.Name)
	}
	for _, i := range dev {
		c := classes[i]
		p.Report(Finding{Subject: ptr(vlSubject(c)),
			Related: []Related{{Range: vlSubject(ref), Message: fmt.Sprintf("traffic_class %q has SL %d and VL%d", ref.Name, sl, ibqos.VLOf(ref))}},
			Summary: fmt.Sprintf("traffic_class %q maps SL %d to VL%d, but traffic_class %q maps SL %d to VL%d: the SL has one SL2VL entry, VL%d%s, so %s",
				c.Name, sl, ibqos.VLOf(c), ref.Name, sl, ibqos.VLOf(ref), table, ownerName, tail)})
	}
}

// engineIn is the first routing engine of the subnet manager d that is in
// list, or "".
func engineIn(d *schema.Device, list []string) string {
	if d.SM == nil {
		return ""
	}
	for _, e := range d.SM.RoutingEngine.V {
		for _, l := range list {
			if strings.EqualFold(e, l) {
				return e
			}
		}
	}
	return ""
}

// classOfSL is the class whose SL is sl, or nil.
func classOfSL(f *schema.Fabric, sl int) *schema.TrafficClass {
	for _, c := range ibClasses(f) {
		if c.SL.V == sl {
			return c
		}
	}
	return nil
}

func runIBPartitionSL(p *Pass) {
	for _, pa := range p.Fabric.Partitions {
		if !pa.SL.Set || pa.SL.V < 0 || pa.SL.V > ibqos.MaxSL {
			continue
		}
		at := ptr(subjectOr(pa.SL.Src, pa.Range))
		if classOfSL(p.Fabric, pa.SL.V) == nil {
			p.Report(Finding{Subject: at,
				Summary: fmt.Sprintf("partition %q has sl %d, which no traffic_class names: its traffic goes to the default class's VL", pa.Name, pa.SL.V)})
			continue
		}
		// The class tied to the partition is the one all its members'
		// applications use; a member on the partition's SL unties it.
		var rel []Related
		sl := -1
		for _, d := range partitionMembers(pa) {
			r := d.RDMA
			if r == nil || !r.SL.Set {
				continue
			}
			if r.SL.V == pa.SL.V || (sl >= 0 && r.SL.V != sl) {
				rel = nil
				break
			}
			sl = r.SL.V
			rel = append(rel, Related{Range: r.SL.Src, Message: fmt.Sprintf("%s's applications use SL %d", d.Name, r.SL.V)})
		}
		if c := classOfSL(p.Fabric, sl); len(rel) > 0 && c != nil {
			p.Report(Finding{Subject: at, Related: rel,
				Summary: fmt.Sprintf("partition %q has sl %d but all its members use SL %d (traffic_class %q): the SA hands out SL %d for the partition's traffic", pa.Name, pa.SL.V, sl, c.Name, pa.SL.V)})
		}
	}
}

// partitionMembers are the partition's member devices, each once:
// members, then full_members.
func partitionMembers(pa *schema.Partition) []*schema.Device {
	var out []*schema.Device
	for _, d := range append(append([]*schema.Device(nil), pa.Members...), pa.FullMembers...) {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

func shortList(names []string) string {
	if len(names) > 4 {
		return strings.Join(names[:4], ", ") + fmt.Sprintf(" and %d more", len(names)-4)
	}
	return strings.Join(names, ", ")
}

func runIBPolicyAccepted(p *Pass) {
	f := p.Fabric
	t := ibqos.Derive(f)
	if t.Default == nil && len(f.Classes) > 0 {
		at := f.Range
		var rel []Related
		for i, c := range ibClasses(f) {
			if i == 0 {
				at = subjectOr(c.RoleRange, c.Range)
				continue
			}
			rel = append(rel, Related{Range: subjectOr(c.RoleRange, c.Range), Message: fmt.Sprintf("traffic_class %q (SL %d)", c.Name, c.SL.V)})
		}
		p.Report(Finding{Subject: ptr(at), Related: rel,
			Summary: "no traffic_class has role = \"default\": the QoS policy has no DEFAULT qos-level, and OpenSM rejects the whole policy (ERR AC10)"})
	}
	for _, c := range f.Classes {
		if c.SL.Set && (c.SL.V < 0 || c.SL.V > ibqos.MaxSL) {
			p.Report(Finding{Subject: ptr(subjectOr(c.SL.Src, c.Range)),
				Summary: fmt.Sprintf("traffic_class %q has sl %d: an SL is 0-15 (4 bits in the LRH)", c.Name, c.SL.V)})
		}
	}
	for _, pa := range f.Partitions {
		if pa.SL.Set && (pa.SL.V < 0 || pa.SL.V > ibqos.MaxSL) {
			p.Report(Finding{Subject: ptr(subjectOr(pa.SL.Src, pa.Range)),
				Summary: fmt.Sprintf("partition %q has sl %d: an SL is 0-15", pa.Name, pa.SL.V)})
		}
		if !pa.Default.V && len(pa.Members) == 0 && len(pa.FullMembers) == 0 {
			p.Report(Finding{Subject: ptr(subjectOr(pa.MembersRange, pa.Range)),
				Summary: fmt.Sprintf("partition %q has no members: its port group is empty and a match rule naming it makes OpenSM reject the whole policy (ERR AC13)", pa.Name)})
		}
	}
}

func runIBPathSLEngine(p *Pass) {
	var pinned []Related
	for _, c := range ibClasses(p.Fabric) {
		if c.Role != schema.RoleDefault {
			pinned = append(pinned, Related{Range: subjectOr(c.SL.Src, c.Range), Message: fmt.Sprintf("traffic_class %q pins SL %d", c.Name, c.SL.V)})
		}
	}
	if len(pinned) == 0 {
		return
	}
	for _, d := range ibqos.SubnetManagers(p.Fabric) {
		if e := engineIn(d, pathSLEngines); e != "" {
			p.Report(Finding{Subject: ptr(smSetting(d, func(s *schema.SubnetManager) schema.Value[[]string] { return s.RoutingEngine })), Device: d.Name, Related: pinned,
				Summary: fmt.Sprintf("subnet manager %s routes with %s, which answers PathRecord queries with its own SL: the classes' SLs hold only for applications that bypass the SA", d.Name, e)})
		}
	}
}

func runIBRoutingEngine(p *Pass) {
	f := p.Fabric
	for _, d := range ibqos.SubnetManagers(f) {
		if d.SM == nil {
			continue
		}
		at := ptr(smSetting(d, func(s *schema.SubnetManager) schema.Value[[]string] { return s.RoutingEngine }))
		if engineIn(d, []string{"updn"}) != "" && len(rootSwitches(f)) == 0 {
			p.Report(Finding{Subject: at, Device: d.Name,
				Summary: fmt.Sprintf("subnet manager %s routes with updn but no spine has a guid, so there is no root_guid_file: OpenSM may find no roots and fall back to minhop", d.Name)})
		}
		if engineIn(d, []string{"ftree"}) != "" {
			if why, rel := notFatTree(f); why != "" {
				p.Report(Finding{Subject: at, Device: d.Name, Related: rel,
					Summary: fmt.Sprintf("subnet manager %s routes with ftree, but the topology is not a fat tree: %s", d.Name, why)})
			}
		}
		if d.SM.AllowFallback.V {
			p.Report(Finding{Subject: ptr(subjectOr(d.SM.AllowFallback.Src, d.SM.Range)), Device: d.Name, Severity: schema.SevWarning,
				Summary: fmt.Sprintf("subnet manager %s allows fallback: if its routing engine fails, OpenSM routes with minhop, which can form credit loops, and says so only in its log", d.Name)})
		}
	}
}

// rootSwitches are the switches the render lists in updn's
// root_guid_file: the spines (and above) with a node GUID.
func rootSwitches(f *schema.Fabric) []*schema.Device {
	var out []*schema.Device
	for _, d := range f.Devices {
		if d.Kind.V.Tier() >= 2 && d.GUID.Set {
			out = append(out, d)
		}
	}
	return out
}

// notFatTree says why the fabric's links do not form a fat tree OpenSM's
// ftree routes (current-routing.txt: rank 2 to 8, switches of one rank
// with the same number of up-going port groups), or "": a host on a
// switch other than a leaf, two switches of one tier linked, no tier
// above the leaves, or leaves with different numbers of spines.
func notFatTree(f *schema.Fabric) (string, []Related) {
	up := map[*schema.Device]map[*schema.Device]bool{}
	upper := false
	for _, d := range f.Devices {
		switch {
		case d.Kind.V == schema.KindLeaf:
			up[d] = map[*schema.Device]bool{}
		case d.Kind.V.Tier() >= 2:
			upper = true
		}
	}
	for _, l := range f.Links {
		if l.A == nil || l.B == nil || l.A.Device == nil || l.B.Device == nil {
			continue
		}
		a, b := l.A.Device, l.B.Device
		ta, tb := a.Kind.V.Tier(), b.Kind.V.Tier()
		if ta > tb {
			a, b, ta, tb = b, a, tb, ta
		}
		rel := []Related{{Range: l.Range, Message: fmt.Sprintf("link %s", l.Name)}}
		switch {
		case ta == 0 && tb != 1:
			return fmt.Sprintf("host %s is linked to %s %s, not to a leaf", a.Name, b.Kind.V, b.Name), rel
		case ta > 0 && ta == tb:
			return fmt.Sprintf("%s %s is linked to %s %s of the same tier", a.Kind.V, a.Name, b.Kind.V, b.Name), rel
		case ta == 1:
			up[a][b] = true
		}
	}
	if len(up) > 0 && !upper {
		return "there is no switch above the leaves (ftree needs a tree of rank 2 to 8)", nil
	}
	var first *schema.Device
	for _, d := range f.Devices { // by name
		if up[d] == nil {
			continue
		}
		if first == nil {
			first = d
			continue
		}
		if len(up[d]) != len(up[first]) {
			return fmt.Sprintf("leaf %s has %d spine(s) above it and leaf %s %d (switches of one rank need the same number of up-going port groups)", first.Name, len(up[first]), d.Name, len(up[d])),
				[]Related{{Range: d.Range, Message: "leaf " + d.Name}, {Range: first.Range, Message: "leaf " + first.Name}}
		}
	}
	return "", nil
}

func runIBNICSL(p *Pass) {
	f := p.Fabric
	for _, d := range f.Devices {
		if d.Kind.V != schema.KindNIC {
			continue
		}
		r := d.RDMA
		if r == nil || !r.SL.Set {
			at := d.Range
			if r != nil {
				at = subjectOr(r.Range, d.Range)
			}
			p.Report(Finding{Subject: ptr(at), Device: d.Name,
				Summary: fmt.Sprintf("NIC %s has no rdma sl: NCCL sends on SL 0 (NCCL_IB_SL's default) and UCX picks its own, whatever the classes say", d.Name)})
			continue
		}
		if classOfSL(f, r.SL.V) == nil {
			p.Report(Finding{Subject: ptr(subjectOr(r.SL.Src, r.Range, d.Range)), Device: d.Name,
				Summary: fmt.Sprintf("NIC %s's applications use SL %d, which no traffic_class names: their traffic goes to the default class's VL", d.Name, r.SL.V)})
		}
	}
}

// storageClass reports whether c is a storage class: by convention, its
// name says storage.
func storageClass(c *schema.TrafficClass) bool {
	return c != nil && strings.Contains(strings.ToLower(c.Name), "storage")
}

func runIBMembership(p *Pass) {
	f := p.Fabric
	hasDefault := false
	for _, pa := range f.Partitions {
		hasDefault = hasDefault || pa.Default.V
		if pa.Default.V {
			continue
		}
		if len(pa.Members) > 0 && len(pa.FullMembers) == 0 && pa.Membership.V == schema.MemberLimited {
			p.Report(Finding{Subject: ptr(subjectOr(pa.Membership.Src, pa.Range)),
				Related: []Related{{Range: subjectOr(pa.MembersRange, pa.Range), Message: fmt.Sprintf("%d member(s), none in full_members", len(pa.Members))}},
				Summary: fmt.Sprintf("partition %q has only limited members: limited members cannot talk to each other, so it carries no traffic", pa.Name)})
			continue
		}
		var rel []Related
		var names []string
		var devs []*schema.Device
		for _, d := range pa.Members {
			if m, _ := pa.MembershipOf(d); m != schema.MemberLimited || d.RDMA == nil || !d.RDMA.SL.Set {
				continue
			}
			if c := classOfSL(f, d.RDMA.SL.V); storageClass(c) {
				rel = append(rel, Related{Range: d.RDMA.SL.Src, Message: fmt.Sprintf("%s uses traffic_class %q's SL %d", d.Name, c.Name, c.SL.V)})
				names = append(names, d.Name)
				devs = append(devs, d)
			}
		}
		if len(rel) > 0 {
			p.Report(Finding{Subject: ptr(subjectOr(pa.FullMembersRange, pa.Membership.Src, pa.Range)), Related: rel, Count: len(rel), Places: devicesPlaces(devs), Severity: schema.SevWarning,
				Summary: fmt.Sprintf("partition %q makes storage host(s) %s limited members: limited clients cannot reach them", pa.Name, shortList(names))})
		}
	}
	if !hasDefault && len(f.Partitions) > 0 {
		p.Report(Finding{Subject: ptr(f.Range), Severity: schema.SevWarning,
			Summary: "no partition has default = true: OpenSM then gives every end port limited membership in the Default partition (0x7fff)"})
	}
}

func runIBPKeyUnique(p *Pass) {
	seen := map[int]*schema.Partition{}
	for _, pa := range p.Fabric.Partitions {
		if !pa.PKey.Set {
			continue
		}
		if prev, ok := seen[pa.LowPKey()]; ok {
			p.Report(Finding{Subject: ptr(subjectOr(pa.PKey.Src, pa.Range)),
				Related: []Related{{Range: subjectOr(prev.PKey.Src, prev.Range), Message: fmt.Sprintf("partition %q has pkey %#04x", prev.Name, prev.PKey.V)}},
				Summary: fmt.Sprintf("partition %q's pkey %#04x is partition %q's (%#04x) without the membership bit: OpenSM merges them into one partition", pa.Name, pa.PKey.V, prev.Name, prev.PKey.V)})
			continue
		}
		seen[pa.LowPKey()] = pa
	}
}

func runIBIPoIBMTU(p *Pass) {
	for _, pa := range p.Fabric.Partitions {
		if !pa.IPoIB.V {
			continue
		}
		mtu := ibqos.DefaultPartitionMTU
		if pa.MTU.Set {
			mtu = pa.MTU.V
		}
		members := partitionMembers(pa)
		if pa.Default.V && len(members) == 0 {
			members = endPorts(p.Fabric) // the Default partition without members is ALL
		}
		// A member port's MTU is its effective one: its own mtu, else the
		// qos_policy mtu its attachments give it.
		var link *schema.Port
		var linkMTU schema.Value[int]
		for _, d := range members {
			for _, pt := range d.Ports {
				if m := ibPortMTU(pt); m.Set && m.V > mtu && (link == nil || m.V > linkMTU.V) {
					link, linkMTU = pt, m
				}
			}
		}
		if link == nil {
			continue
		}
		what := fmt.Sprintf("mtu %d", mtu)
		if !pa.MTU.Set {
			what = fmt.Sprintf("no mtu (OpenSM's default %d)", mtu)
		}
		p.Report(Finding{Subject: ptr(subjectOr(pa.MTU.Src, pa.IPoIB.Src, pa.Range)),
			Related: []Related{{Range: subjectOr(linkMTU.Src, link.Range), Message: fmt.Sprintf("port %s has mtu %d", link.ID(), linkMTU.V)}},
			Summary: fmt.Sprintf("IPoIB partition %q has %s below its members' link MTU %d: IPoIB gets %d bytes", pa.Name, what, linkMTU.V, mtu-4)})
	}
}

// ibPortMTU is a port's effective MTU: its own mtu attribute, else the
// mtu of the qos_policy attached to it (PortQoS.MTU, which the port's own
// attribute also beats), unset when neither gives one.
func ibPortMTU(pt *schema.Port) schema.Value[int] {
	if pt.MTU.Set {
		return pt.MTU
	}
	if pt.QoS != nil && pt.QoS.MTU.Set {
		return pt.QoS.MTU
	}
	return schema.Value[int]{}
}

// endPorts are the fabric's end devices: NICs and subnet managers.
func endPorts(f *schema.Fabric) []*schema.Device {
	var out []*schema.Device
	for _, d := range f.Devices {
		if d.Kind.V.Tier() == 0 {
			out = append(out, d)
		}
	}
	return out
}

// smValue is one sm setting of a subnet manager: its name, its effective
// value and where it is given.
type smValue struct {
	name, val string
	at        schema.Range
}

// smValues are a subnet manager's settings that must agree across SM
// hosts, effective values (defaults filled in) with where each is given.
func smValues(d *schema.Device) []smValue {
	sm := d.SM
	if sm == nil {
		sm = &schema.SubnetManager{Range: d.Range}
	}
	maxOp := ibqos.DefaultMaxOpVLs
	if sm.MaxOpVLs.Set {
		maxOp = sm.MaxOpVLs.V
	}
	or := func(r schema.Range) schema.Range { return subjectOr(r, sm.Range, d.Range) }
	return []smValue{
		{"routing_engine", strings.Join(sm.RoutingEngine.V, ","), or(sm.RoutingEngine.Src)},
		{"allow_fallback", fmt.Sprint(sm.AllowFallback.V), or(sm.AllowFallback.Src)},
		{"max_op_vls", fmt.Sprint(maxOp), or(sm.MaxOpVLs.Src)},
		{"high_limit", fmt.Sprint(sm.HighLimit.V), or(sm.HighLimit.Src)},
	}
}

// runIBSMConsistent reports each sm setting on which the subnet managers
// disagree, at the setting of the SM that deviates (schema.Rank: the
// value fewer SMs hold; of two, the later SM's), the reference related.
func runIBSMConsistent(p *Pass) {
	sms := ibqos.SubnetManagers(p.Fabric)
	if len(sms) < 2 {
		return
	}
	vals := make([][]smValue, len(sms))
	for i, d := range sms {
		vals[i] = smValues(d)
	}
	for k := range vals[0] {
		// Listed last first: a tie keeps the first SM as the reference.
		sides := make([]schema.Side, 0, len(sms))
		for i := len(sms) - 1; i >= 0; i-- {
			sides = append(sides, schema.Side{Key: vals[i][k].val, Src: vals[i][k].at, Holders: 1})
		}
		devs := schema.Deviants(sides)
		if len(devs) == 0 {
			continue
		}
		r := len(sms) - 1 - schema.Reference(sides)
		ref, rv := sms[r], vals[r][k]
		idx := make([]int, 0, len(devs))
		for _, j := range devs {
			idx = append(idx, len(sms)-1-j)
		}
		slices.Sort(idx)
		for _, i := range idx {
			d, v := sms[i], vals[i][k]
			p.Report(Finding{Subject: ptr(v.at), Device: d.Name,
				Related: []Related{{Range: rv.at, Message: fmt.Sprintf("subnet manager %s has %s %s", ref.Name, rv.name, orDefault(rv.val))}},
				Summary: fmt.Sprintf("subnet manager %s has %s %s but %s has %s: a fail-over would reprogram the fabric", d.Name, v.name, orDefault(v.val), ref.Name, orDefault(rv.val))})
		}
	}
}

func orDefault(s string) string {
	if s == "" {
		return "(default)"
	}
	return s
}
