package juniperjunos

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// JunosView is the juniper_junos template data: "set" commands, grouped.
type JunosView struct {
	view.Base
	// Family is the hardware family the model names (qfx5000, qfx10000,
	// ex, mx), which picks the strict-high rate cap and the filter actions.
	Family string
	// Object names every class-of-service object fabricgen defines
	// (classifiers, scheduler map, congestion-notification profile).
	Object string
	// Classes are the forwarding classes, one per priority that can carry
	// traffic (viewJunosCarried), then the QFX default classes redeclared
	// lossy ("forwarding-classes class NAME queue-num N [no-loss]", and
	// "pfc-priority P" for a lossless one).
	Classes []JunosClass
	// DSCPClassifier and PCPClassifier are the "classifiers dscp" and
	// "classifiers ieee-802.1" entries trust asks for (code points in
	// binary, as Junos writes them).
	DSCPClassifier, PCPClassifier []JunosCodePoint
	// PFC is the congestion-notification profile, nil when no priority
	// is lossless.
	PFC *JunosPFC
	// DropProfiles are the interpolated ECN drop profiles, one per
	// ecn_profile the queues use.
	DropProfiles []JunosDropProfile
	// Schedulers are the queues' schedulers, in queue order, and
	// SchedulerMap maps each forwarding class to its queue's scheduler.
	Schedulers   []JunosScheduler
	SchedulerMap []JunosMapEntry
	// Filters are the firewall filters, one per ACL and family (inet
	// first), by ACL name; each is printed by the "filter" template.
	Filters []JunosFilter
	// Interfaces are the per-port stanzas, in port order, each printed by
	// the "interface" template.
	Interfaces []JunosInterface
}

// JunosClass is one forwarding class: its name, queue and priority, and
// whether it is lossless (no-loss, with pfc-priority Priority). Default is
// true for a QFX default class (fcoe, no-loss) that fabricgen redeclares
// lossy because the intent keeps its queue lossy: it has no priority and
// no pfc-priority.
type JunosClass struct {
	Name            string
	Queue, Priority int
	NoLoss, Default bool
}

// JunosCodePoint is one classifier entry: the code point (DSCP or PCP)
// and the forwarding class it selects.
type JunosCodePoint struct {
	Class     string
	CodePoint int
}

// JunosPFC is the congestion-notification profile: the code points that
// pause on input (InputDSCP, or InputPCP under 802.1p trust), the
// priorities that flow-control a queue on output, and the watchdog.
type JunosPFC struct {
	InputDSCP, InputPCP []int
	Output              []JunosFlowControl
	Watchdog            *JunosWatchdog
}

// JunosFlowControl is one output entry: priority Priority pauses queue
// Queue.
type JunosFlowControl struct {
	Priority, Queue int
}

// JunosWatchdog is the profile's pfc-watchdog: Poll (ms) and Detection
// (in polls) when the intent sets them (0: Junos's default, not printed),
// Recovery (ms) always.
type JunosWatchdog struct {
	Poll, Detection, Recovery int64
}

// JunosDropProfile is one interpolated drop profile: fill levels (percent
// of the queue buffer) from MinFill to MaxFill, drop probability 0 to
// Probability.
type JunosDropProfile struct {
	Name                          string
	MinFill, MaxFill, Probability int
}

// JunosScheduler is one queue's scheduler: strict-high with its rate
// Cap ("shaping-rate …" or "transmit-rate …"; DefaultCap when it is
// fabricgen's default, not the intent's shaper), or a transmit-rate of
// Weight percent (Rate) with the intent's shaper as Shape ("shaping-rate
// RATE", or ""), and the drop profile of its ECN curve (with
// explicit-congestion-notification when ECN).
type JunosScheduler struct {
	Name, Cap, Shape, DropProfile string
	Strict, DefaultCap, Rate, ECN bool
	Weight                        int
}

// JunosMapEntry is one scheduler-map entry: forwarding class to scheduler.
type JunosMapEntry struct {
	Class, Scheduler string
}

// JunosFilter is one "set firewall family FAMILY filter NAME" filter.
type JunosFilter struct {
	// Family is "inet" or "inet6"; Name the ACL's name.
	Family, Name string
	// Terms are the ACL's rules of this family, in sequence order.
	Terms []JunosTerm
	// Text is the filter's set commands, one per line, as the "filter"
	// template renders this view (what device.tmpl prints).
	Text string
}

// JunosTerm is one term of a firewall filter, named after the rule's
// sequence number; the "filter_term" template prints its set commands.
type JunosTerm struct {
	// Family and Filter repeat the filter's ("inet"/"inet6", the name).
	Family, Filter string
	Seq            int
	// Protocol is "udp", "tcp" or "icmp" ("from protocol"), for inet6
	// "udp", "tcp" or "icmp6" ("from next-header": Junos's icmp there is
	// protocol 1, ICMPv4), or "" for any.
	Protocol string
	// Src and Dst are prefixes, or "".
	Src, Dst string
	// SrcPorts and DstPorts are the L4 ports or ranges matched.
	SrcPorts, DstPorts []view.PortRangeView
	// DSCP lists the matched code points ("from dscp", "from
	// traffic-class" for inet6).
	DSCP []int
	// Discard is true for a deny rule ("then discard").
	Discard bool
	// SetDSCP is the re-mark value of a permit rule, or -1, and
	// ForwardingClass the class of the re-marked priority (MX and EX).
	SetDSCP         int
	ForwardingClass string
}

// JunosInterface is one port's "set interfaces" and class-of-service
// interface statements, which the "interface" template prints.
type JunosInterface struct {
	// Name is the interface name (et-0/0/0: one word by the port naming
	// rules); Description the description already quoted for Junos (a
	// double-quoted string with its escapes), or "".
	Name, Description string
	// MTU is the interface MTU (0: not set).
	MTU int
	// Family is "inet" or "inet6": the family of the address and filters.
	Family string
	// IP is the address with prefix length, or ""; Routed is true for an
	// L3 port, which without IP runs on its IPv6 link-local address.
	IP     string
	Routed bool
	// FilterIn and FilterOut name the firewall filter bound in each
	// direction ("filter input|output NAME"), or "". FilterInFamilies and
	// FilterOutFamilies are the families it is bound under: those its
	// ACL has rules of ("inet", "inet6" or both), since a family inet6
	// filter binds under family inet6 whatever the port's address.
	FilterIn, FilterOut                 string
	FilterInFamilies, FilterOutFamilies []string
	// SchedulerMap, CNP, DSCPClassifier and PCPClassifier name the
	// class-of-service objects bound to the port, or "" for none.
	SchedulerMap, CNP, DSCPClassifier, PCPClassifier string
	// Text is the port's statements, one per line, as the "interface"
	// template renders this view (what device.tmpl prints; "" for none).
	Text string
}

// viewJunosIfKey is a JunosInterface without its identity fields (name,
// description, address): the key of its cached stanza.
type viewJunosIfKey struct {
	desc, ip                  bool
	mtu                       int
	family                    string
	routed                    bool
	in, out                   string
	inFams, outFams           string
	sched, cnp, dscpCl, pcpCl string
}

// viewJunosObject is the name of every class-of-service object fabricgen
// defines (classifiers, scheduler map, congestion-notification profile).
const viewJunosObject = "FABRICGEN"

// viewJunosStrictCapPercent is fabricgen's default cap on a strict-high
// queue whose intent sets no shaper (the render says so in a comment; the
// queue's shaper overrides it): Juniper recommends a rate on every
// strict-high queue ("Defining CoS Queue Scheduling Priority", Traffic
// Management for QFX) so it cannot starve the others, without naming a
// value; congestion notifications need a small fraction.
const viewJunosStrictCapPercent = 5

// viewJunosWDPollMS is the Junos PFC watchdog's default poll interval (Junos
// "Configuring PFC Watchdog": poll 100 ms, detection 2 polls, recovery 200 ms).
const viewJunosWDPollMS = 100

func viewBuildJunos(f *schema.Fabric, d *schema.Device, b view.Base) (any, error) {
	const global = "fabricgen writes one Junos classifier, scheduler map and congestion-notification profile per device; attach the same policy to every port"
	var rej view.Collector // every refusal of the device, not only the first
	rej.Add(view.RequireUniform(d, global, view.AspTrust, view.AspDSCP, view.AspPCP, view.AspQueueMap, view.AspQueues, view.AspPFCSet, view.AspWatchdog))
	rej.Add(view.RejectBuffers(d, b, "Junos derives PFC headroom from cable-length and MRU and sizes buffers in percent; fabricgen renders no Junos buffer statements"))
	q := b.QoS
	qq := view.FirstQoS(d)
	names := view.ClassNames(f)
	fam := d.Family
	if fam == "" {
		fam = FamilyQFX5000
	}
	v := &JunosView{Base: b, Family: string(fam), Object: viewJunosObject}
	trust := schema.Trust(q.Trust)
	carried := viewJunosCarried(q, qq, trust, b.ACLs, fam)
	classes, err := viewJunosForwardingClasses(d, q, qq, names, fam, carried)
	if !rej.Add(err) {
		return nil, err
	}
	v.Classes = classes
	if trust == schema.TrustNone {
		rej.Add(view.Unsupported(d, "trust none", "a Junos interface always has a classifier (default or explicit); fabricgen binds DSCP and/or 802.1p classifiers", qq.Trust.Src))
	}
	v.DSCPClassifier, v.PCPClassifier = viewJunosClassifiers(q, trust, names)
	switch {
	case q.Lossless != 0 && fam == FamilyEX:
		// Juniper's EX models (junos-ex-conf-class-of-service 23.4R1,
		// testdata/yang) have no forwarding-classes class no-loss, and a
		// congestion-notification-profile with input ieee-802.1 only: no
		// input dscp, no output flow-control-queue, no pfc-watchdog. A
		// class cannot be made lossless there by statements the schema
		// has, so the device is refused rather than rendered lossy.
		rej.Add(view.Unsupported(d, "lossless priorities "+viewJunosInts(slices.Collect(q.Lossless.All()))+" on an EX model ("+d.Model.V+")",
			"Juniper's EX Series models (junos-ex 23.4R1) have no no-loss forwarding class, no DSCP-based PFC, no output flow-control-queue and no pfc-watchdog; give a device on the lossless path a QFX5000 model (qfx5120-48y, or ex4650-48y of the EX4600 line), or keep this device's classes lossy", qq.PFCSource()))
	case q.Lossless != 0:
		pfc, err := viewJunosPFC(d, q, qq, trust)
		if !rej.Add(err) {
			return nil, err
		}
		v.PFC = pfc
	}
	drops, sch, smap, err := viewJunosSchedulers(f, d, q, names, fam, carried)
	if !rej.Add(err) {
		return nil, err
	}
	v.DropProfiles, v.Schedulers, v.SchedulerMap = drops, sch, smap
	for _, a := range b.ACLs {
		fs, err := viewJunosFilters(f, d, a, names, q, fam)
		if !rej.Add(err) {
			return nil, err
		}
		v.Filters = append(v.Filters, fs...)
	}
	if err := viewJunosACLText(b.Stanzas, d, v.Filters); !rej.Add(err) {
		return nil, err
	}
	ifs, err := viewJunosInterfaces(b.Stanzas, d, b.Ports, b.ACLs, qq != nil, trust)
	if !rej.Add(err) {
		return nil, err
	}
	v.Interfaces = ifs
	return v, rej.Err()
}

// viewJunosDefaultClass is one of the forwarding classes a QFX switch
// defines by default, on its default queue, lossless or not ("Understanding
// CoS Forwarding Classes", "Defining CoS Forwarding Classes", Traffic
// Management for QFX): best-effort (0), fcoe (3, no-loss), no-loss (4,
// no-loss), network-control (7). They stay beside the classes a
// configuration defines.
type viewJunosDefaultClass struct {
	name   string
	queue  int
	noLoss bool
}

// viewJunosDefaultClasses are the QFX default unicast forwarding classes.
func viewJunosDefaultClasses() []viewJunosDefaultClass {
	return []viewJunosDefaultClass{{"best-effort", 0, false}, {"fcoe", 3, true}, {"no-loss", 4, true}, {"network-control", 7, false}}
}

// viewJunosCarried is the set of priorities that can carry traffic on the
// device, the ones that get a forwarding class: the targets of the DSCP
// classifier (bound unless trust is pcp) and of the 802.1p classifier
// (bound under trust pcp or both), the lossless priorities, the priority of
// traffic no code point names (the policy's default_priority, 0 when
// unset), and on MX and EX the priorities an ACL re-marks into ("then
// forwarding-class"; QFX refuses re-marking).
func viewJunosCarried(q view.QoSView, qq *schema.PortQoS, trust schema.Trust, acls []view.ACLView, fam schema.HardwareFamily) schema.PrioSet {
	set := q.Lossless
	if trust != schema.TrustPCP {
		for _, pr := range q.DSCP {
			set = set.With(pr)
		}
	}
	if trust == schema.TrustPCP || trust == schema.TrustBoth {
		for _, pr := range q.PCP {
			set = set.With(pr)
		}
	}
	def := 0
	if qq != nil {
		for _, pol := range qq.Policies {
			if pol.DefaultPriority.Set {
				def = pol.DefaultPriority.V
			}
		}
	}
	set = set.With(def)
	if !IsQFX(fam) {
		for _, a := range acls {
			for _, r := range a.Rules {
				if r.Action != string(schema.ActionDeny) && r.SetDSCP >= 0 && r.SetDSCP < 64 {
					set = set.With(q.DSCP[r.SetDSCP])
				}
			}
		}
	}
	return set
}

// viewJunosMaxLossless is how many lossless forwarding classes a QFX
// switch supports, the default lossless classes fcoe and no-loss included
// ("Understanding CoS IEEE 802.1p Priorities for Lossless Traffic Flows",
// "class (Forwarding Classes)", Traffic Management for QFX).
const viewJunosMaxLossless = 6

// viewJunosQFX10000Classes16 is the first release in which QFX10000
// switches support 16 forwarding classes instead of 8 ("Defining CoS
// Forwarding Classes", Traffic Management for QFX: 22.1R1).
var viewJunosQFX10000Classes16 = []int{22, 1, 1}

// viewJunosClassLimit is how many forwarding classes the device's switch
// supports, default classes included ("Defining CoS Forwarding Classes",
// "Example: Configuring Forwarding Classes", Traffic Management for QFX):
// 8 on QFX10000 (16 from Junos 22.1R1, by the device's os_version, else
// fabricgen's default release), 10 on QFX5200 (model qfx52…), 12 on the
// other QFX switches; 0 for the EX and MX families, whose 16 classes
// (Junos "Configuring Up to 16 Custom Forwarding Classes") hold the eight
// priorities and their four defaults. what names the switch: family,
// model and, on QFX10000, the release.
func viewJunosClassLimit(d *schema.Device, fam schema.HardwareFamily) (limit int, what string) {
	model := ""
	if d.Model.V != "" {
		model = ", model " + view.OneLine(d.Model.V)
	}
	switch fam {
	case FamilyQFX10000:
		rel := d.OSVersion.V
		if len(rel.Parts) == 0 {
			rel = spec().DefaultVersion()
		}
		what = fmt.Sprintf("QFX10000 switch (family %s%s, os_version %s)", fam, model, rel.Raw)
		if rel.AtLeast(viewJunosQFX10000Classes16...) {
			return 16, what
		}
		return 8, what
	case FamilyQFX5000:
		what = fmt.Sprintf("QFX5000 switch (family %s%s)", fam, model)
		if strings.HasPrefix(strings.ToLower(d.Model.V), "qfx52") {
			return 10, "QFX5200 " + strings.TrimPrefix(what, "QFX5000 ")
		}
		return 12, what
	}
	return 0, ""
}

// viewJunosForwardingClasses lists one forwarding class per priority that
// can carry traffic (carried, viewJunosCarried), lossless ones with
// no-loss and their PFC priority. Junos requires every forwarding class
// mapped to one queue to have the same packet drop attribute
// ("forwarding-classes", Traffic Management for QFX), so two rendered
// classes of different PFC on one queue are refused, and on QFX a default
// lossless class (fcoe, no-loss) on a queue the rendered classes keep
// lossy is redeclared without no-loss, which makes it lossy ("class
// (Forwarding Classes)": an explicitly configured fcoe class without
// no-loss is lossy). A lossless priority on the queue of a default lossy
// class (best-effort, network-control) is refused: the switch's
// unclassified and control traffic would share a lossless queue. On QFX
// the classes the switch then has (the rendered ones, the defaults they do
// not replace, and mcast except on QFX10000) must fit the family's limit
// (viewJunosClassLimit), and its lossless ones viewJunosMaxLossless.
func viewJunosForwardingClasses(d *schema.Device, q view.QoSView, qq *schema.PortQoS, names [8]string, fam schema.HardwareFamily, carried schema.PrioSet) ([]JunosClass, error) {
	var fc []JunosClass
	var rej view.Collector
	var lossless, lossy [8][]int // rendered priorities by queue
	for pr := range carried.All() {
		qu := q.QueueOf[pr]
		fc = append(fc, JunosClass{Name: names[pr], Queue: qu, NoLoss: q.Lossless.Has(pr), Priority: pr})
		if qu < 0 || qu > 7 {
			continue
		}
		if q.Lossless.Has(pr) {
			lossless[qu] = append(lossless[qu], pr)
		} else {
			lossy[qu] = append(lossy[qu], pr)
		}
	}
	src := func(pr int) schema.Range {
		if qq == nil {
			return schema.Range{}
		}
		if r := qq.Queue[pr].Src; !r.IsZero() {
			return r
		}
		return qq.PFCSource()
	}
	for qu := 0; qu < 8; qu++ {
		if len(lossless[qu]) > 0 && len(lossy[qu]) > 0 {
			rej.Add(view.Unsupported(d, fmt.Sprintf("queue %d with lossless priorities %s and lossy priorities %s", qu, viewJunosInts(lossless[qu]), viewJunosInts(lossy[qu])),
				"Junos requires every forwarding class of a queue to have the same packet drop attribute (all no-loss or all lossy); map the lossy priorities to another queue in queue_map, or make them lossless in pfc_priorities", src(lossy[qu][0])))
		}
	}
	if !IsQFX(fam) {
		return fc, rej.Err()
	}
	named := map[string]bool{}
	all := map[string]bool{} // every class the switch will have
	var noLoss []string      // its lossless classes
	for _, c := range fc {
		named[c.Name] = true
		all[c.Name] = true
		if c.NoLoss {
			noLoss = append(noLoss, c.Name)
		}
	}
	for _, dc := range viewJunosDefaultClasses() {
		if named[dc.name] {
			continue // the intent's own class of that name replaces the default
		}
		all[dc.name] = true
		switch {
		case dc.noLoss && len(lossy[dc.queue]) > 0 && len(lossless[dc.queue]) == 0:
			fc = append(fc, JunosClass{Name: dc.name, Queue: dc.queue, Default: true})
		case dc.noLoss:
			noLoss = append(noLoss, dc.name) // stays lossless
		case len(lossless[dc.queue]) > 0:
			rej.Add(view.Unsupported(d, fmt.Sprintf("lossless priorities %s on queue %d", viewJunosInts(lossless[dc.queue]), dc.queue),
				fmt.Sprintf("queue %d carries the QFX default lossy forwarding class %s, and Junos requires every forwarding class of a queue to have the same packet drop attribute; map the lossless priorities to another queue in queue_map (QFX's lossless queues are 3 and 4 by default)", dc.queue, dc.name),
				src(lossless[dc.queue][0])))
		}
	}
	if fam != FamilyQFX10000 && !named["mcast"] {
		all["mcast"] = true // the default multidestination class
	}
	rej.Add(viewJunosClassCount(d, qq, fam, fc, all, noLoss))
	return fc, rej.Err()
}

// viewJunosClassCount refuses a QFX device whose switch would have more
// forwarding classes (all: rendered and default) than its family supports,
// or more than viewJunosMaxLossless lossless ones (noLoss).
func viewJunosClassCount(d *schema.Device, qq *schema.PortQoS, fam schema.HardwareFamily, fc []JunosClass, all map[string]bool, noLoss []string) error {
	var rej view.Collector
	limit, what := viewJunosClassLimit(d, fam)
	if limit > 0 && len(all) > limit {
		var own, defaults []string
		for _, c := range fc {
			if !c.Default {
				own = append(own, c.Name)
			}
		}
		for _, n := range []string{"best-effort", "fcoe", "no-loss", "network-control", "mcast"} {
			if all[n] && !slices.Contains(own, n) {
				defaults = append(defaults, n)
			}
		}
		fix := "map fewer priorities: only the priorities the classifiers (trust, dscp_map, pcp_map, default_priority) and pfc_priorities reach get a class, so trust = \"dscp\" instead of pcp/both, or a dscp_map onto fewer priorities, removes classes; or name a traffic class after a QFX default class it may replace (best-effort, fcoe, no-loss, network-control)"
		if fam == FamilyQFX10000 && limit == 8 {
			fix = "if the switch runs Junos 22.1R1 or later (16 forwarding classes), set its os_version; else " + fix
		}
		rej.Add(view.Unsupported(d, fmt.Sprintf("%d forwarding classes on a %s", len(all), what),
			fmt.Sprintf("the switch supports %d forwarding classes, its default classes included; fabricgen would define %s beside the defaults %s; %s",
				limit, strings.Join(own, ", "), strings.Join(defaults, ", "), fix), viewJunosClassSrc(d, qq)))
	}
	if len(noLoss) > viewJunosMaxLossless {
		var pfcSrc schema.Range
		if qq != nil {
			pfcSrc = qq.PFCSource()
		}
		rej.Add(view.Unsupported(d, fmt.Sprintf("%d lossless forwarding classes (%s) on a %s", len(noLoss), strings.Join(noLoss, ", "), viewJunosFamilyName(d, fam)),
			fmt.Sprintf("QFX switches support up to %d lossless forwarding classes, counting the default fcoe and no-loss classes while queues 3 and 4 carry no lossy class; make fewer priorities lossless in pfc_priorities, or map a lossy priority to queue 3 or 4 (which makes fcoe or no-loss lossy)", viewJunosMaxLossless),
			pfcSrc))
	}
	return rej.Err()
}

// viewJunosFamilyName names the device's switch for an error: its family
// and model.
func viewJunosFamilyName(d *schema.Device, fam schema.HardwareFamily) string {
	if _, what := viewJunosClassLimit(d, fam); what != "" {
		return what
	}
	return string(fam)
}

// viewJunosClassSrc is where a class-count refusal points: the trust that
// decides which classifiers (and so which priorities) the device binds,
// else the device's model, else the device.
func viewJunosClassSrc(d *schema.Device, qq *schema.PortQoS) schema.Range {
	if qq != nil && !qq.Trust.Src.IsZero() {
		return qq.Trust.Src
	}
	if !d.Model.Src.IsZero() {
		return d.Model.Src
	}
	return d.Range
}

// viewJunosInts writes priorities as "3" or "3, 4".
func viewJunosInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// viewJunosClassifiers lists the DSCP and/or 802.1p classifier entries
// trust asks for.
func viewJunosClassifiers(q view.QoSView, trust schema.Trust, names [8]string) (dscp, pcp []JunosCodePoint) {
	if trust != schema.TrustPCP {
		for _, g := range q.DSCPByPriority {
			for _, c := range g.Values {
				dscp = append(dscp, JunosCodePoint{Class: names[g.Priority], CodePoint: c})
			}
		}
	}
	if trust == schema.TrustPCP || trust == schema.TrustBoth {
		for _, g := range q.PCPByPriority {
			for _, c := range g.Values {
				pcp = append(pcp, JunosCodePoint{Class: names[g.Priority], CodePoint: c})
			}
		}
	}
	return dscp, pcp
}

// viewJunosPFC builds the congestion notification profile: DSCP-based (or
// 802.1p) PFC input, 802.1p output, and the PFC watchdog.
func viewJunosPFC(d *schema.Device, q view.QoSView, qq *schema.PortQoS, trust schema.Trust) (*JunosPFC, error) {
	lossless := q.Lossless
	pfc := &JunosPFC{}
	if trust == schema.TrustPCP {
		for p := range lossless.All() {
			pfc.InputPCP = append(pfc.InputPCP, p)
		}
	} else {
		for dscp := 0; dscp < 64; dscp++ {
			if lossless.Has(q.DSCP[dscp]) {
				pfc.InputDSCP = append(pfc.InputDSCP, dscp)
			}
		}
	}
	for p := range lossless.All() {
		pfc.Output = append(pfc.Output, JunosFlowControl{Priority: p, Queue: q.QueueOf[p]})
	}
	var rej view.Collector
	if w := q.Watchdog; w != nil {
		if w.Action != "" && w.Action != string(schema.WatchdogDrop) {
			rej.Add(view.WatchdogRefusal(d, qq, "pfc_watchdog "+w.Name+" action "+w.Action,
				"the Junos PFC watchdog disables (drops) a stormed queue for the recovery time; use action drop", view.WDAction))
		}
		// The bare pfc-watchdog statement enables the watchdog with its
		// defaults; with sub-statements Junos shows (display set) only
		// those, and recovery is always explicit (the intent's
		// restoration or fabricgen's default), so the bare line is never
		// printed. The statements and their ranges are Juniper's YANG
		// (junos-conf- and junos-qfx-conf-class-of-service 23.4R1,
		// container pfc-watchdog: poll-interval 100..1000 ms, detection
		// 2..10 polls, recovery 200..1000 ms).
		wd := &JunosWatchdog{Recovery: w.RestorationMS}
		if w.RestorationMS < 200 || w.RestorationMS > 1000 {
			rej.Add(view.WatchdogRefusal(d, qq, fmt.Sprintf("pfc_watchdog %s restoration %d ms", w.Name, w.RestorationMS),
				"the Junos pfc-watchdog recovery is 200–1000 ms; set restoration within that range", view.WDRestoration))
		}
		poll := int64(viewJunosWDPollMS)
		if w.PollSet {
			poll = w.PollMS
			wd.Poll = poll
			if poll < 100 || poll > 1000 {
				rej.Add(view.WatchdogRefusal(d, qq, fmt.Sprintf("pfc_watchdog %s poll_interval %d ms", w.Name, poll),
					"the Junos pfc-watchdog poll-interval is 100–1000 ms; set poll_interval within that range", view.WDPoll))
			}
		}
		if w.DetectionSet {
			switch {
			case poll <= 0 || w.DetectionMS%poll != 0:
				rej.Add(view.WatchdogRefusal(d, qq, fmt.Sprintf("pfc_watchdog %s detection %d ms", w.Name, w.DetectionMS),
					"Junos detects a storm after a whole number of poll intervals (detection); make detection a multiple of poll_interval", view.WDDetection, view.WDPoll))
			case w.DetectionMS/poll < 2 || w.DetectionMS/poll > 10:
				rej.Add(view.WatchdogRefusal(d, qq, fmt.Sprintf("pfc_watchdog %s detection %d ms (%d polls)", w.Name, w.DetectionMS, w.DetectionMS/poll),
					"the Junos pfc-watchdog detection is 2–10 poll intervals; set detection between 2 and 10 times poll_interval", view.WDDetection, view.WDPoll))
			default:
				wd.Detection = w.DetectionMS / poll
			}
		}
		pfc.Watchdog = wd
	}
	return pfc, rej.Err()
}

// viewJunosSchedulers builds the ECN drop profiles, the schedulers and the
// scheduler map. They follow the forwarding classes: a queue none of
// whose priorities carries traffic (carried) has no class, so no
// scheduler, drop profile or scheduler-map entry, and its settings are
// not checked.
func viewJunosSchedulers(f *schema.Fabric, d *schema.Device, q view.QoSView, names [8]string, fam schema.HardwareFamily, carried schema.PrioSet) (drops []JunosDropProfile, sch []JunosScheduler, smap []JunosMapEntry, err error) {
	dropSeen := map[string]bool{}
	var rej view.Collector
	for _, qu := range q.Queues {
		var prios []int
		for _, pr := range qu.Priorities {
			if carried.Has(pr) {
				prios = append(prios, pr)
			}
		}
		if len(prios) == 0 {
			continue
		}
		s := JunosScheduler{Name: "FABRICGEN-Q" + strconv.Itoa(qu.ID)}
		if qu.ShaperBps > 0 && !qu.Strict {
			// "shaping-rate (Schedulers)": the queue's maximum
			// bandwidth, in bit/s with k, m or g.
			if fam == FamilyQFX10000 {
				rej.Add(view.Unsupported(d, fmt.Sprintf("queue %d shaper %s", qu.ID, view.Bps(qu.ShaperBps)),
					"fabricgen caps a QFX10000 queue only when it is strict-high (transmit-rate); remove the shaper or make the queue strict", view.QueueSrc(d, qu.ID, view.QShaper)))
			} else {
				s.Shape = "shaping-rate " + viewJunosRate(qu.ShaperBps)
			}
		}
		// ECN: an interpolated drop profile (fill level in percent of the
		// queue buffer → probability) mapped into the scheduler, plus
		// explicit-congestion-notification to mark instead of drop
		// ("Example: Configuring WRED Drop Profiles", "CoS Explicit
		// Congestion Notification", Traffic Management for QFX).
		if e := qu.ECN; e != nil {
			if !e.HasFill {
				rej.Add(view.Unsupported(d, fmt.Sprintf("ecn_profile %s on queue %d (%d–%d bytes)", e.Name, qu.ID, e.MinBytes, e.MaxBytes),
					"Junos drop profiles take thresholds as fill levels in percent of the queue buffer, not bytes; give the ecn_profile min_fill_level and max_fill_level", viewEcnProfileSrc(f, e.Name, view.QueueSrc(d, qu.ID, view.QECN))))
			}
			if e.Mark && fam == FamilyEX {
				rej.Add(view.Unsupported(d, fmt.Sprintf("ecn_profile %s marking on queue %d of an EX model", e.Name, qu.ID),
					"Juniper's EX Series models (junos-ex 23.4R1) have no scheduler explicit-congestion-notification; give the device a QFX5000 model, or give the ecn_profile mode = \"drop\" for a WRED drop curve on a lossy queue", viewEcnProfileSrc(f, e.Name, view.QueueSrc(d, qu.ID, view.QECN))))
			}
			s.DropProfile = "FABRICGEN-ECN-" + e.Name
			s.ECN = e.Mark
			if !dropSeen[s.DropProfile] {
				dropSeen[s.DropProfile] = true
				drops = append(drops, JunosDropProfile{Name: s.DropProfile, MinFill: e.MinFill, MaxFill: e.MaxFill, Probability: e.Probability})
			}
		}
		switch {
		case qu.Strict:
			s.Strict = true
			s.Cap = viewJunosStrictCap(fam, qu.ShaperBps)
			s.DefaultCap = qu.ShaperBps <= 0
		case qu.Sched == string(schema.SchedDWRR) || qu.Weight > 0:
			s.Rate = true
			s.Weight = qu.Weight
		case s.DropProfile == "" && s.Shape == "":
			continue
		}
		sch = append(sch, s)
		for _, pr := range prios {
			smap = append(smap, JunosMapEntry{Class: names[pr], Scheduler: s.Name})
		}
	}
	if err := rej.Err(); err != nil {
		return nil, nil, nil, err
	}
	return drops, sch, smap, nil
}

// viewJunosInterfaces builds the ports' stanzas (description, MTU, address,
// filters and, when the device has QoS, the class-of-service bindings) and
// renders each through the "interface" template.
func viewJunosInterfaces(st *view.StanzaSet, d *schema.Device, ports []view.PortView, acls []view.ACLView, hasQoS bool, trust schema.Trust) ([]JunosInterface, error) {
	var ifs []JunosInterface
	var rej view.Collector
	families := map[string][]string{}
	for _, a := range acls {
		if a.HasIPv4 {
			families[a.Name] = append(families[a.Name], "inet")
		}
		if a.HasIPv6 {
			families[a.Name] = append(families[a.Name], "inet6")
		}
	}
	for i, p := range ports {
		in := JunosInterface{Name: p.Name, MTU: p.MTU, Family: "inet", IP: p.IP, Routed: p.Routed}
		if p.Description != "" {
			in.Description = strconv.Quote(p.Description)
		}
		if p.LinkPause {
			rej.Add(view.Unsupported(d, "link_pause on "+p.Name, "fabricgen renders no Junos 802.3x flow-control; turn link_pause off", d.Ports[i].QoS.LinkPause.Src))
		}
		if p.IPFamily == "ipv6" {
			in.Family = "inet6"
		}
		// QFX binds one filter per direction and family ("filter (Layer 2
		// and Layer 3 Interfaces)", QFX Series: input and output only;
		// input-list is not supported under family inet/inet6 on EX).
		for _, dir := range []struct {
			names []string
			word  string
			out   *string
			fams  *[]string
		}{{p.ACLIn, "input", &in.FilterIn, &in.FilterInFamilies}, {p.ACLOut, "output", &in.FilterOut, &in.FilterOutFamilies}} {
			switch len(dir.names) {
			case 0:
			case 1:
				*dir.out = dir.names[0]
				*dir.fams = families[dir.names[0]]
			default:
				pdir := "in"
				if dir.word == "output" {
					pdir = "out"
				}
				rej.Add(view.Unsupported(d, fmt.Sprintf("%d ACLs bound %s on %s (%s)", len(dir.names), pdir, p.Name, strings.Join(dir.names, ", ")),
					"a QFX interface takes one firewall filter per direction and family (filter "+dir.word+" NAME); merge the ACLs", view.PortACLSrc(d, p.Name, pdir)))
			}
		}
		if hasQoS {
			in.SchedulerMap = viewJunosObject
			if p.Lossless != 0 {
				in.CNP = viewJunosObject
			}
			if trust != schema.TrustPCP {
				in.DSCPClassifier = viewJunosObject
			}
			if trust == schema.TrustPCP || trust == schema.TrustBoth {
				in.PCPClassifier = viewJunosObject
			}
		}
		key := viewJunosIfKey{in.Description != "", in.IP != "", in.MTU, in.Family, in.Routed, in.FilterIn, in.FilterOut,
			strings.Join(in.FilterInFamilies, " "), strings.Join(in.FilterOutFamilies, " "),
			in.SchedulerMap, in.CNP, in.DSCPClassifier, in.PCPClassifier}
		text, err := view.RenderStanza(st, "interface", key, &in, viewJunosMarked, in.Name, in.Description, in.IP)
		if err != nil {
			return nil, fmt.Errorf("device %s interface %s: %w", d.Name, p.Name, err)
		}
		in.Text = strings.TrimPrefix(text, "\n")
		ifs = append(ifs, in)
	}
	return ifs, rej.Err()
}

// viewJunosMarked is in with its identity values replaced by marks.
func viewJunosMarked(in JunosInterface) JunosInterface {
	in.Name, in.Description, in.IP = view.Mark(0, in.Name), view.Mark(1, in.Description), view.Mark(2, in.IP)
	return in
}

// viewJunosACLText renders each filter through the "filter" template.
func viewJunosACLText(st *view.StanzaSet, d *schema.Device, filters []JunosFilter) error {
	for i := range filters {
		text, err := st.Execute("filter", &filters[i])
		if err != nil {
			return fmt.Errorf("device %s filter %s: %w", d.Name, filters[i].Name, err)
		}
		filters[i].Text = strings.TrimPrefix(text, "\n")
	}
	return nil
}

// viewJunosFilters builds one ACL's firewall filters, one per family. Terms
// are named after the rule's sequence number; Junos discards what no term
// accepts.
func viewJunosFilters(f *schema.Fabric, d *schema.Device, a view.ACLView, names [8]string, q view.QoSView, family schema.HardwareFamily) ([]JunosFilter, error) {
	var out []JunosFilter
	var rej view.Collector
	for _, fam := range []struct {
		on       bool
		name, fm string
	}{{a.HasIPv4, "inet", "ipv4"}, {a.HasIPv6, "inet6", "ipv6"}} {
		if !fam.on {
			continue
		}
		fl := JunosFilter{Family: fam.name, Name: a.Name}
		for _, r := range a.Rules {
			if !view.RuleInFamily(r, fam.fm) {
				continue
			}
			t := JunosTerm{Family: fam.name, Filter: a.Name, Seq: r.Seq, Src: r.Src, Dst: r.Dst,
				SrcPorts: r.SrcPorts, DstPorts: r.DstPorts, DSCP: r.DSCP, SetDSCP: -1}
			switch {
			case r.Protocol == "ip":
			case r.Protocol == "icmp" && fam.name == "inet6":
				t.Protocol = "icmp6"
			default:
				t.Protocol = r.Protocol
			}
			if r.Action == string(schema.ActionDeny) {
				t.Discard = true
			} else if r.SetDSCP >= 0 {
				switch {
				case IsQFX(family):
					rej.Add(view.Unsupported(d, fmt.Sprintf("acl %s rule %d set_dscp %d", a.Name, r.Seq, r.SetDSCP),
						"the firewall filter action \"then dscp\" is documented for MX and EX, not QFX; re-mark on the host or on another hop, or set model to the MX/EX the device is", view.RuleSrc(f, a.Name, r.Seq)))
				case fam.name == "inet6":
					rej.Add(view.Unsupported(d, fmt.Sprintf("acl %s rule %d set_dscp on IPv6", a.Name, r.Seq), "fabricgen renders Junos DSCP re-marking for family inet only", view.RuleSrc(f, a.Name, r.Seq)))
				default:
					t.SetDSCP, t.ForwardingClass = r.SetDSCP, names[q.DSCP[r.SetDSCP]]
				}
			}
			fl.Terms = append(fl.Terms, t)
		}
		out = append(out, fl)
	}
	return out, rej.Err()
}

// viewJunosStrictCap is the statement that caps a strict-high queue: a shaping
// rate on QFX5000, EX and MX ("shaping-rate": apply one to strict-high
// queues so they cannot starve the others), a transmit rate on QFX10000,
// where it limits the traffic treated as strict-high ("transmit-rate",
// QFX10000 Switches). The rate is the queue's shaper, else
// viewJunosStrictCapPercent.
func viewJunosStrictCap(fam schema.HardwareFamily, shaperBps int64) string {
	kw := "shaping-rate"
	if fam == FamilyQFX10000 {
		kw = "transmit-rate"
	}
	if shaperBps > 0 {
		return kw + " " + viewJunosRate(shaperBps)
	}
	return fmt.Sprintf("%s percent %d", kw, viewJunosStrictCapPercent)
}

// viewJunosRate writes bit/s with Junos's k, m and g suffixes (exact values only).
func viewJunosRate(v int64) string {
	switch {
	case v%1_000_000_000 == 0:
		return strconv.FormatInt(v/1_000_000_000, 10) + "g"
	case v%1_000_000 == 0:
		return strconv.FormatInt(v/1_000_000, 10) + "m"
	case v%1_000 == 0:
		return strconv.FormatInt(v/1_000, 10) + "k"
	}
	return strconv.FormatInt(v, 10)
}

// viewEcnProfileSrc is the ecn_profile block's range (the block to add fill
// levels to), else fallback.
func viewEcnProfileSrc(f *schema.Fabric, name string, fallback schema.Range) schema.Range {
	for _, e := range f.ECNProfiles {
		if e.Name == name && !e.Range.IsZero() {
			return e.Range
		}
	}
	return fallback
}

// viewReleaseNote is what a Junos header's release line adds: the
// hardware family (and model) the render is for.
func viewReleaseNote(d *schema.Device) string {
	if d.Family == "" {
		return ""
	}
	line := ", hardware family " + string(d.Family)
	if d.Model.V != "" {
		line += " (model " + view.OneLine(d.Model.V) + ")"
	}
	return line
}
