package juniperjunos

import (
	"fmt"
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
	// Sections are the class-of-service groups of set commands (forwarding
	// classes, classifiers, PFC, drop profiles, schedulers) with a comment
	// title each, in order.
	Sections []JunosSection
	// Filters are the firewall filters, one per ACL and family (inet
	// first), by ACL name; each is printed by the "filter" template.
	Filters []JunosFilter
	// Interfaces are the per-port stanzas, in port order, each printed by
	// the "interface" template.
	Interfaces []JunosInterface
}

// JunosSection is a titled group of class-of-service statements: each
// of Statements is printed after "set class-of-service ".
type JunosSection struct {
	Title      string
	Statements []string
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

// viewJunosStrictCapPercent caps a strict-high queue whose intent sets no
// shaper: Juniper recommends a rate on every strict-high queue ("Defining
// CoS Queue Scheduling Priority", Traffic Management for QFX) so it cannot
// starve the others; congestion notifications need a small fraction.
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
		fam = schema.JunosQFX5000
	}
	v := &JunosView{Base: b, Family: string(fam)}
	v.Sections = append(v.Sections, JunosSection{"forwarding classes", viewJunosForwardingClasses(q, names)})
	trust := schema.Trust(q.Trust)
	if trust == schema.TrustNone {
		rej.Add(view.Unsupported(d, "trust none", "a Junos interface always has a classifier (default or explicit); fabricgen binds DSCP and/or 802.1p classifiers", qq.Trust.Src))
	}
	v.Sections = append(v.Sections, JunosSection{"classifiers", viewJunosClassifiers(q, trust, names)})
	if q.Lossless != 0 {
		cnp, err := viewJunosPFC(d, q, qq, trust)
		if !rej.Add(err) {
			return nil, err
		}
		v.Sections = append(v.Sections, JunosSection{"priority-based flow control", cnp})
	}
	drops, sch, err := viewJunosSchedulers(f, d, q, names, fam)
	if !rej.Add(err) {
		return nil, err
	}
	if len(drops) > 0 {
		v.Sections = append(v.Sections, JunosSection{"drop profiles (ECN)", drops})
	}
	v.Sections = append(v.Sections, JunosSection{"schedulers", sch})
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

// viewJunosForwardingClasses renders one forwarding class per priority, lossless
// ones with no-loss and their PFC priority.
func viewJunosForwardingClasses(q view.QoSView, names [8]string) []string {
	var fc []string
	for pr := 0; pr < 8; pr++ {
		line := fmt.Sprintf("forwarding-classes class %s queue-num %d", names[pr], q.QueueOf[pr])
		if q.Lossless.Has(pr) {
			line += " no-loss"
		}
		fc = append(fc, line)
		if q.Lossless.Has(pr) {
			fc = append(fc, fmt.Sprintf("forwarding-classes class %s pfc-priority %d", names[pr], pr))
		}
	}
	return fc
}

// viewJunosClassifiers renders the DSCP and/or 802.1p classifiers trust asks for.
func viewJunosClassifiers(q view.QoSView, trust schema.Trust, names [8]string) []string {
	var cl []string
	if trust != schema.TrustPCP {
		for _, g := range q.DSCPByPriority {
			for _, c := range g.Values {
				cl = append(cl, fmt.Sprintf("classifiers dscp FABRICGEN forwarding-class %s loss-priority low code-points %06b", names[g.Priority], c))
			}
		}
	}
	if trust == schema.TrustPCP || trust == schema.TrustBoth {
		for _, g := range q.PCPByPriority {
			for _, c := range g.Values {
				cl = append(cl, fmt.Sprintf("classifiers ieee-802.1 FABRICGEN forwarding-class %s loss-priority low code-points %03b", names[g.Priority], c))
			}
		}
	}
	return cl
}

// viewJunosPFC renders the congestion notification profile: DSCP-based (or
// 802.1p) PFC input, 802.1p output, and the PFC watchdog.
func viewJunosPFC(d *schema.Device, q view.QoSView, qq *schema.PortQoS, trust schema.Trust) ([]string, error) {
	lossless := q.Lossless
	var cnp []string
	if trust == schema.TrustPCP {
		for p := range lossless.All() {
			cnp = append(cnp, fmt.Sprintf("congestion-notification-profile FABRICGEN input ieee-802.1 code-point %03b pfc", p))
		}
	} else {
		for dscp := 0; dscp < 64; dscp++ {
			if lossless.Has(q.DSCP[dscp]) {
				cnp = append(cnp, fmt.Sprintf("congestion-notification-profile FABRICGEN input dscp code-point %06b pfc", dscp))
			}
		}
	}
	for p := range lossless.All() {
		cnp = append(cnp, fmt.Sprintf("congestion-notification-profile FABRICGEN output ieee-802.1 code-point %03b flow-control-queue %d", p, q.QueueOf[p]))
	}
	var rej view.Collector
	if w := q.Watchdog; w != nil {
		src := qq.Watchdog.Src
		if w.Action != "" && w.Action != string(schema.WatchdogDrop) {
			rej.Add(view.Unsupported(d, "pfc_watchdog "+w.Name+" action "+w.Action,
				"the Junos PFC watchdog disables (drops) a stormed queue for the recovery time; use action drop", src))
		}
		wd := "congestion-notification-profile FABRICGEN pfc-watchdog"
		// The bare statement enables the watchdog with its defaults;
		// with sub-statements Junos shows (display set) only those, so
		// the bare line is added only when nothing follows it.
		bare := len(cnp)
		cnp = append(cnp, wd)
		poll := int64(viewJunosWDPollMS)
		if w.PollSet {
			poll = w.PollMS
			cnp = append(cnp, fmt.Sprintf("%s poll-interval %d", wd, poll))
		}
		if w.DetectionSet {
			if poll <= 0 || w.DetectionMS%poll != 0 || w.DetectionMS/poll < 1 {
				rej.Add(view.Unsupported(d, fmt.Sprintf("pfc_watchdog %s detection %d ms", w.Name, w.DetectionMS),
					"Junos detects a storm after a whole number of poll intervals (detection); make detection a multiple of poll_interval", src))
			} else {
				cnp = append(cnp, fmt.Sprintf("%s detection %d", wd, w.DetectionMS/poll))
			}
		}
		// Always explicit: the intent's restoration or fabricgen's default.
		cnp = append(cnp, fmt.Sprintf("%s recovery-time %d", wd, w.RestorationMS))
		if len(cnp) > bare+1 {
			cnp = append(cnp[:bare], cnp[bare+1:]...)
		}
	}
	return cnp, rej.Err()
}

// viewJunosSchedulers renders the ECN drop profiles, and the schedulers
// followed by the scheduler map.
func viewJunosSchedulers(f *schema.Fabric, d *schema.Device, q view.QoSView, names [8]string, fam schema.JunosFamily) (drops, sched []string, err error) {
	var sch, smap []string
	dropSeen := map[string]bool{}
	var rej view.Collector
	for _, qu := range q.Queues {
		if qu.ShaperBps > 0 && !qu.Strict {
			rej.Add(view.Unsupported(d, fmt.Sprintf("queue %d shaper %s", qu.ID, view.Bps(qu.ShaperBps)), "fabricgen renders no Junos shaping-rate; remove the shaper", view.QueueSrc(d, qu.ID, view.QShaper)))
		}
		name := "FABRICGEN-Q" + strconv.Itoa(qu.ID)
		// ECN: an interpolated drop profile (fill level in percent of the
		// queue buffer → probability) mapped into the scheduler, plus
		// explicit-congestion-notification to mark instead of drop
		// ("Example: Configuring WRED Drop Profiles", "CoS Explicit
		// Congestion Notification", Traffic Management for QFX).
		var ecn []string
		if e := qu.ECN; e != nil {
			if !e.HasFill {
				rej.Add(view.Unsupported(d, fmt.Sprintf("ecn_profile %s on queue %d (%d–%d bytes)", e.Name, qu.ID, e.MinBytes, e.MaxBytes),
					"Junos drop profiles take thresholds as fill levels in percent of the queue buffer, not bytes; give the ecn_profile min_fill_level and max_fill_level", viewEcnProfileSrc(f, e.Name, view.QueueSrc(d, qu.ID, view.QECN))))
			}
			dp := "FABRICGEN-ECN-" + e.Name
			if !dropSeen[dp] {
				dropSeen[dp] = true
				drops = append(drops,
					fmt.Sprintf("drop-profiles %s interpolate fill-level %d", dp, e.MinFill),
					fmt.Sprintf("drop-profiles %s interpolate fill-level %d", dp, e.MaxFill),
					fmt.Sprintf("drop-profiles %s interpolate drop-probability 0", dp),
					fmt.Sprintf("drop-profiles %s interpolate drop-probability %d", dp, e.Probability))
			}
			ecn = append(ecn, fmt.Sprintf("schedulers %s drop-profile-map loss-priority low protocol any drop-profile %s", name, dp))
			if e.Mark {
				ecn = append(ecn, fmt.Sprintf("schedulers %s explicit-congestion-notification", name))
			}
		}
		switch {
		case qu.Strict:
			sch = append(sch, "schedulers "+name+" priority strict-high")
			sch = append(sch, "schedulers "+name+" "+viewJunosStrictCap(fam, qu.ShaperBps))
		case qu.Sched == string(schema.SchedDWRR) || qu.Weight > 0:
			sch = append(sch, fmt.Sprintf("schedulers %s transmit-rate percent %d", name, qu.Weight))
		case len(ecn) == 0:
			continue
		}
		sch = append(sch, ecn...)
		for _, pr := range qu.Priorities {
			smap = append(smap, fmt.Sprintf("scheduler-maps FABRICGEN forwarding-class %s scheduler %s", names[pr], name))
		}
	}
	if err := rej.Err(); err != nil {
		return nil, nil, err
	}
	return drops, append(sch, smap...), nil
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
func viewJunosFilters(f *schema.Fabric, d *schema.Device, a view.ACLView, names [8]string, q view.QoSView, family schema.JunosFamily) ([]JunosFilter, error) {
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
				case family.IsQFX():
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
func viewJunosStrictCap(fam schema.JunosFamily, shaperBps int64) string {
	kw := "shaping-rate"
	if fam == schema.JunosQFX10000 {
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
