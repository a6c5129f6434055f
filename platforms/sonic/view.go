package sonic

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/headroom"
	"github.com/fabricgen/fabricgen/platforms/sonic/skus"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// SONiCView is the sonic template data: CONFIG_DB tables in a stable order.
type SONiCView struct {
	view.Base
	// ASIC is the device's ASIC family (asic); BufferModel is the
	// buffer model the render is for (buffer_model, "traditional" or
	// "dynamic"), which plan checks against the switch's.
	ASIC, BufferModel string
	// Tables lists the CONFIG_DB tables, each with its rows sorted by key.
	Tables []SONiCTable
	// Body is Tables as an indented JSON object (what the embedded template prints).
	Body string
}

// SONiCTable is one CONFIG_DB table.
type SONiCTable struct {
	Name string
	Rows []SONiCRow
}

// SONiCRow is one CONFIG_DB key and its fields in a stable order.
type SONiCRow struct {
	Key    string
	Fields []SONiCField
}

// SONiCField is one field; JSON is its value already encoded as JSON (a
// string, or a list of strings for leaf-lists such as ACL_TABLE ports).
type SONiCField struct {
	Name string
	JSON string
}

// SONiCInterface is one port's PORT row and, for a routed port, its
// INTERFACE row: the "interface" template prints the PORT fields, the
// "routed_interface" template the INTERFACE fields, each as FIELD VALUE
// lines that Go encodes as the row's JSON fields (sonicFieldLines).
type SONiCInterface struct {
	// Name is the port's CONFIG_DB key (EthernetN); Description the
	// port's description, or "".
	Name, Description string
	// MTU is the port MTU (0: not set); Speed the speed in Mb/s (0: not
	// set); FEC "rs", "fc", "none" or "".
	MTU   int
	Speed int64
	FEC   string
	// IP is the address with prefix length, or ""; Routed is true for an
	// L3 port (an INTERFACE row), which without IP runs on its IPv6
	// link-local address.
	IP     string
	Routed bool
}

// viewSONiCIfKey is a SONiCInterface without its name: the key of its cached
// stanzas.
type viewSONiCIfKey struct {
	desc   bool
	mtu    int
	speed  int64
	fec    string
	ip     bool
	routed bool
}

// SONiCACLRule is one ACL_RULE row, which the "acl_rule" template (the
// table's closing DROP row: "acl_default_rule") prints as FIELD VALUE lines.
type SONiCACLRule struct {
	// Table is the ACL_TABLE name; Seq the rule's sequence number and
	// Priority 10000-Seq (SONiC evaluates higher priorities first, the
	// intent lower sequence numbers; the default rule has priority 1).
	Table         string
	Seq, Priority int
	// Action is "permit" or "deny"; Family "ipv4", "ipv6" or "any".
	Action, Family string
	// Protocol is "ip", "udp", "tcp" or "icmp", and ProtoNum its IP
	// protocol number (0 for ip: any; icmp is 1, or 58 in an IPv6 rule).
	Protocol string
	ProtoNum int
	// Src and Dst are prefixes, or "".
	Src, Dst string
	// SrcPort and DstPort are the one L4 port or range matched, or nil.
	SrcPort, DstPort *view.PortRangeView
	// DSCP is the one code point matched, or -1.
	DSCP int
}

// SONiCMapName is the name of every map fabricgen writes; it is ours, never
// SONiC's stock AZURE map (which sends DSCP 26 to a lossy TC).
const SONiCMapName = "FABRICGEN"

var viewSONiCName = regexp.MustCompile(`^[a-zA-Z0-9][-a-zA-Z0-9_]{0,31}$`)

// viewSONiCGlobalMapSince is the first release with the switch-level
// PORT_QOS_MAP|global row.
var viewSONiCGlobalMapSince = []int{202111}

// viewSONiCPFCToPGASICs are the ASIC families whose SONiC QoS template writes
// PFC_PRIORITY_TO_PRIORITY_GROUP_MAP and PORT_QOS_MAP pfc_to_pg_map
// (sonic-buildimage files/build_templates/qos_config.j2,
// pfc_to_pg_map_supported_asics).
var viewSONiCPFCToPGASICs = map[string]bool{"mellanox": true, "barefoot": true}

type viewSONiCBuilder struct {
	d      *schema.Device
	tables map[string]*viewSONiCTable
	// stanzas runs the sub-templates; parsed holds, per stanza text, the
	// fields sonicFieldLines made of it (ports mostly share one).
	stanzas *view.StanzaSet
	parsed  map[string][]SONiCField
	// bracketRefs writes references between tables as "[TABLE|name]", the
	// form SONiC took before release 202111 (sonic-swss "QOS fieldvalue
	// reference ABNF format to string changes", 2021); later releases
	// refuse it ("Must not be surrounded by [ ]").
	bracketRefs bool
}

// ref is the value of a field that references row name of table.
func (s *viewSONiCBuilder) ref(table, name string) string {
	if s.bracketRefs {
		return "[" + table + "|" + name + "]"
	}
	return name
}

// viewSONiCTable keeps rows in insertion order with an index by key: the port
// loops insert most rows already in natural key order, so emitting a table
// rarely needs a sort.
type viewSONiCTable struct {
	index map[string]int
	rows  []SONiCRow
}

// row returns the row for key, appending an empty one if there is none.
func (s *viewSONiCBuilder) row(table, key string) *SONiCRow {
	t := s.tables[table]
	if t == nil {
		t = &viewSONiCTable{index: map[string]int{}}
		s.tables[table] = t
	}
	i, ok := t.index[key]
	if !ok {
		i = len(t.rows)
		t.index[key] = i
		t.rows = append(t.rows, SONiCRow{Key: key})
	}
	return &t.rows[i]
}

// has reports whether table has a row for key.
func (s *viewSONiCBuilder) has(table, key string) bool {
	t := s.tables[table]
	if t == nil {
		return false
	}
	_, ok := t.index[key]
	return ok
}

func (s *viewSONiCBuilder) set(table, key string, fields ...string) {
	r := s.row(table, key)
	if r.Fields == nil {
		r.Fields = make([]SONiCField, 0, len(fields)/2)
	}
	for i := 0; i+1 < len(fields); i += 2 {
		r.Fields = append(r.Fields, SONiCField{Name: fields[i], JSON: view.JSONString(fields[i+1])})
	}
}

func (s *viewSONiCBuilder) setList(table, key, field string, vals []string) {
	b, _ := json.Marshal(vals)
	r := s.row(table, key)
	r.Fields = append(r.Fields, SONiCField{Name: field, JSON: string(b)})
}

// share sets a row to a shared, read-only field list.
func (s *viewSONiCBuilder) share(table, key string, fields []SONiCField) {
	s.row(table, key).Fields = fields
}

// viewSONiCTableOrder is the order tables appear in the output.
var viewSONiCTableOrder = []string{
	"DEVICE_METADATA", "PORT", "INTERFACE", "CABLE_LENGTH",
	"DSCP_TO_TC_MAP", "DOT1P_TO_TC_MAP", "TC_TO_QUEUE_MAP", "TC_TO_PRIORITY_GROUP_MAP",
	"MAP_PFC_PRIORITY_TO_QUEUE", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "PORT_QOS_MAP",
	"WRED_PROFILE", "SCHEDULER", "QUEUE", "PFC_WD",
	"BUFFER_POOL", "BUFFER_PROFILE", "BUFFER_PG", "BUFFER_QUEUE",
	"ACL_TABLE", "ACL_RULE",
}

func viewBuildSONiC(f *schema.Fabric, d *schema.Device, b view.Base) (any, error) {
	const global = "fabricgen writes one set of SONiC QoS maps, schedulers and WRED profiles per device; attach the same policy to every port"
	var rej view.Collector // every refusal of the device, not only the first
	rej.Add(view.RequireUniform(d, global, view.AspTrust, view.AspDSCP, view.AspPCP, view.AspQueueMap, view.AspQueues, view.AspPFCSet, view.AspWatchdog, view.AspBuffer))
	if d.ASIC.V == "" {
		return nil, view.Unsupported(d, "a device without asic", "SONiC's QoS tables differ by ASIC family; set asic = "+strings.Join(viewQuoted(ASICs), " | "), d.Range)
	}
	rel := d.OSVersion.V
	if len(rel.Parts) == 0 {
		rel = spec().DefaultVersion()
	}
	if !rel.AtLeast(201811) {
		return nil, view.Unsupported(d, "os_version "+rel.String(), "fabricgen renders SONiC 201811 and later", d.OSVersion.Src)
	}
	s := &viewSONiCBuilder{d: d, tables: map[string]*viewSONiCTable{}, bracketRefs: !rel.AtLeast(202111), stanzas: b.Stanzas, parsed: map[string][]SONiCField{}}
	q := b.QoS
	qq := view.FirstQoS(d)
	if q.Trust == string(schema.TrustNone) {
		rej.Add(view.Unsupported(d, "trust none", "a SONiC port classifies by its DSCP_TO_TC_MAP or DOT1P_TO_TC_MAP; it cannot ignore both", qq.Trust.Src))
	}
	useDSCP := q.Trust != string(schema.TrustPCP)
	usePCP := q.Trust == string(schema.TrustPCP) || q.Trust == string(schema.TrustBoth)
	pfcToPG := viewSONiCPFCToPGASICs[d.ASIC.V]
	viewSONiCMaps(s, q, useDSCP, usePCP, pfcToPG)
	schedulers, wred, err := viewSONiCQueues(s, d, q)
	if !rej.Add(err) {
		return nil, err
	}
	if q.Watchdog != nil && q.Lossless != 0 {
		if err := viewSONiCWatchdog(s, d, q, qq); !rej.Add(err) {
			return nil, err
		}
	}
	sh := viewSONiCShared(s, q, useDSCP, usePCP, pfcToPG, rel.AtLeast(viewSONiCPGFromPFCSince), schedulers, wred)
	bufs := viewNewSONiCBuffers(s, d, q, qq, rel)
	for i, p := range b.Ports {
		if err := viewSONiCPort(s, d, d.Ports[i], p, sh, bufs); !rej.Add(err) {
			return nil, err
		}
	}
	if err := bufs.finish(); !rej.Add(err) {
		return nil, err
	}
	// The switch-level map (PORT_QOS_MAP|global) arrived in 202111
	// (sonic-swss #2023, "Support for setting switch level DSCP to TC QoS
	// map"); an earlier orchagent logs an error and drops the row, and
	// the per-port dscp_to_tc_map is what classifies.
	if useDSCP && rel.AtLeast(viewSONiCGlobalMapSince...) {
		s.set("PORT_QOS_MAP", "global", "dscp_to_tc_map", s.ref("DSCP_TO_TC_MAP", SONiCMapName))
	}
	if err := viewSONiCACLs(f, s, d, b); !rej.Add(err) {
		return nil, err
	}
	if err := rej.Err(); err != nil {
		return nil, err
	}
	b.Rounded = append(b.Rounded, bufs.rounded...)
	v := &SONiCView{Base: b, ASIC: d.ASIC.V, BufferModel: d.BufferModel.V}
	for _, name := range viewSONiCTableOrder {
		t := s.tables[name]
		if t == nil {
			continue
		}
		viewSortSONiCRows(t.rows)
		v.Tables = append(v.Tables, SONiCTable{Name: name, Rows: t.rows})
	}
	v.Body = viewSONiCBody(v.Tables)
	return v, nil
}

func viewQuoted(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.Quote(x)
	}
	return out
}

// viewSONiCMaps fills the DSCP/PCP → TC, TC → queue and priority-group maps.
func viewSONiCMaps(s *viewSONiCBuilder, q view.QoSView, useDSCP, usePCP, pfcToPG bool) {
	if useDSCP {
		for dscp := 0; dscp < 64; dscp++ {
			s.set("DSCP_TO_TC_MAP", SONiCMapName, strconv.Itoa(dscp), strconv.Itoa(q.DSCP[dscp]))
		}
	}
	if usePCP {
		for pcp := 0; pcp < 8; pcp++ {
			s.set("DOT1P_TO_TC_MAP", SONiCMapName, strconv.Itoa(pcp), strconv.Itoa(q.PCP[pcp]))
		}
	}
	for tc := 0; tc < 8; tc++ {
		s.set("TC_TO_QUEUE_MAP", SONiCMapName, strconv.Itoa(tc), strconv.Itoa(q.QueueOf[tc]))
		pg := 0
		if q.Lossless.Has(tc) {
			pg = tc
		}
		s.set("TC_TO_PRIORITY_GROUP_MAP", SONiCMapName, strconv.Itoa(tc), strconv.Itoa(pg))
		s.set("MAP_PFC_PRIORITY_TO_QUEUE", SONiCMapName, strconv.Itoa(tc), strconv.Itoa(q.QueueOf[tc]))
	}
	if !pfcToPG {
		return
	}
	for p := range q.Lossless.All() {
		s.set("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", SONiCMapName, strconv.Itoa(p), strconv.Itoa(p))
	}
}

// viewSONiCWatchdog checks the PFC watchdog against SONiC's ranges and sets
// its global poll interval.
func viewSONiCWatchdog(s *viewSONiCBuilder, d *schema.Device, q view.QoSView, qq *schema.PortQoS) error {
	w := q.Watchdog
	var rej view.Collector
	if w.Action != "" && w.Action != "drop" && w.Action != "forward" && w.Action != "alert" {
		rej.Add(view.WatchdogRefusal(d, qq, "pfc_watchdog action "+w.Action, "SONiC PFC_WD action is drop, forward or alert", view.WDAction))
	}
	if w.PollSet {
		if w.PollMS < 100 || w.PollMS > 1000 {
			rej.Add(view.WatchdogRefusal(d, qq, fmt.Sprintf("pfc_watchdog %s poll_interval %d ms", w.Name, w.PollMS), "SONiC PFC_WD POLL_INTERVAL is 100–1000 ms", view.WDPoll))
		}
		s.set("PFC_WD", "GLOBAL", "POLL_INTERVAL", strconv.FormatInt(w.PollMS, 10))
	}
	if w.DetectionSet && (w.DetectionMS < 100 || w.DetectionMS > 5000) {
		rej.Add(view.WatchdogRefusal(d, qq, fmt.Sprintf("pfc_watchdog %s detection %d ms", w.Name, w.DetectionMS), "SONiC PFC_WD detection_time is 100–5000 ms", view.WDDetection))
	}
	if w.RestorationMS < 100 || w.RestorationMS > 60000 {
		rej.Add(view.WatchdogRefusal(d, qq, fmt.Sprintf("pfc_watchdog %s restoration %d ms", w.Name, w.RestorationMS), "SONiC PFC_WD restoration_time is 100–60000 ms", view.WDRestoration))
	}
	if w.PollSet {
		for _, t := range []struct {
			name string
			ms   int64
			src  func(w *schema.Watchdog) schema.Range
		}{{"detection", w.DetectionMS, view.WDDetection},
			{"restoration", w.RestorationMS, view.WDRestoration}} {
			if w.DetectionSet || t.name == "restoration" {
				if t.ms < w.PollMS {
					rej.Add(view.WatchdogRefusal(d, qq, fmt.Sprintf("pfc_watchdog %s %s %d ms", w.Name, t.name, t.ms), fmt.Sprintf("SONiC PFC_WD %s_time must be at least the poll interval (%d ms)", t.name, w.PollMS), t.src, view.WDPoll))
				}
			}
		}
	}
	return rej.Err()
}

// viewSONiCPort fills one port's PORT, INTERFACE, PORT_QOS_MAP, PFC_WD and
// QUEUE rows and hands a lossless port to bufs; sh holds the rows ports share.
func viewSONiCPort(s *viewSONiCBuilder, d *schema.Device, sp *schema.Port, p view.PortView, sh *viewSONiCRows, bufs *viewSONiCBuffers) error {
	var rej view.Collector
	in := SONiCInterface{Name: p.Name, Description: p.Description, MTU: p.MTU, Speed: p.SpeedMbps, IP: p.IP, Routed: sp.IsRouted()}
	if p.MTU != 0 && (p.MTU < 68 || p.MTU > 9216) {
		rej.Add(view.Unsupported(d, fmt.Sprintf("mtu %d on %s", p.MTU, p.Name), "SONiC PORT mtu is 68–9216", view.PortQoSOf(d, p.Name).MTU.Src))
	}
	switch p.FEC {
	case "rs", "fc", "none":
		in.FEC = p.FEC
	}
	if p.LinkPause {
		rej.Add(view.Unsupported(d, "link_pause on "+p.Name, "SONiC CONFIG_DB has no 802.3x pause setting; turn link_pause off", view.PortQoSOf(d, p.Name).LinkPause.Src))
	}
	key := viewSONiCIfKey{in.Description != "", in.MTU, in.Speed, in.FEC, in.IP != "", in.Routed}
	fields, err := s.stanzaFields("interface", key, &in)
	if err != nil {
		return err
	}
	s.share("PORT", p.Name, fields)
	// Routed ports: the INTERFACE row makes the port an L3 interface;
	// "Ethernet0|10.0.0.0/31" adds its address (sonic-interface.yang:
	// INTERFACE_LIST and INTERFACE_IPPREFIX_LIST). A routed port without
	// an address (BGP unnumbered) runs on its IPv6 link-local address.
	if in.Routed {
		fields, err := s.stanzaFields("routed_interface", key, &in)
		if err != nil {
			return err
		}
		s.share("INTERFACE", p.Name, fields)
		if in.IP != "" {
			s.set("INTERFACE", p.Name+"|"+in.IP)
		}
	}
	switch {
	case p.Lossless == 0:
		s.share("PORT_QOS_MAP", p.Name, sh.qosOff)
	case p.Watchdog:
		s.share("PORT_QOS_MAP", p.Name, sh.qosWD)
		s.share("PFC_WD", p.Name, sh.wd)
	default:
		s.share("PORT_QOS_MAP", p.Name, sh.qosOn)
	}
	for qid := 0; qid < 8; qid++ {
		if sh.queue[qid] != nil {
			s.share("QUEUE", p.Name+"|"+strconv.Itoa(qid), sh.queue[qid])
		}
	}
	if p.Lossless != 0 {
		if err := bufs.port(sp, p); !rej.Add(err) {
			return err
		}
	}
	return rej.Err()
}

// stanzaFields renders sub-template name for port view in (cached per
// key: the embedded stanzas do not print the name) and returns its FIELD
// VALUE lines as row fields. The result is shared: treat it as read-only.
func (s *viewSONiCBuilder) stanzaFields(name string, key viewSONiCIfKey, in *SONiCInterface) ([]SONiCField, error) {
	text, err := view.RenderStanza(s.stanzas, name, key, in, viewSONiCMarked, in.Name, in.IP, in.Description)
	if err != nil {
		return nil, fmt.Errorf("device %s interface %s: %w", s.d.Name, in.Name, err)
	}
	return s.fieldsOf(name, text)
}

// fieldsOf parses a stanza's text once per device and text.
func (s *viewSONiCBuilder) fieldsOf(name, text string) ([]SONiCField, error) {
	if f, ok := s.parsed[text]; ok {
		return f, nil
	}
	f, err := viewSONiCFieldLines(text)
	if err != nil {
		return nil, fmt.Errorf("device %s: the %q template: %w", s.d.Name, name, err)
	}
	s.parsed[text] = f
	return f, nil
}

// viewSONiCFieldLines reads a SONiC stanza: one field per line, its name up to
// the first blank and its value the rest ("mtu 9100", "policy_desc
// fabricgen acl roce"; a name alone is an empty value). Blank lines are
// skipped and blanks around a line dropped. The JSON encoding stays here,
// so no template can print a key, a quote or a brace into the file: every
// value becomes one JSON string. A field printed twice is an error.
func viewSONiCFieldLines(text string) ([]SONiCField, error) {
	var out []SONiCField
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		line = strings.Trim(line, " \t")
		if line == "" {
			continue
		}
		name, value := line, ""
		if i := strings.IndexAny(line, " \t"); i >= 0 {
			name, value = line[:i], strings.TrimLeft(line[i:], " \t")
		}
		for _, f := range out {
			if f.Name == name {
				return nil, fmt.Errorf("field %s printed twice", name)
			}
		}
		out = append(out, SONiCField{Name: name, JSON: view.JSONString(value)})
	}
	return slices.Clip(out), nil
}

// viewSONiCMarked is in with its identity values replaced by marks.
func viewSONiCMarked(in SONiCInterface) SONiCInterface {
	in.Name, in.IP, in.Description = view.Mark(0, in.Name), view.Mark(1, in.IP), view.Mark(2, in.Description)
	return in
}

// viewSONiCBody writes the tables as a JSON object with 4-space indentation,
// tables, keys and fields in view order.
func viewSONiCBody(tables []SONiCTable) string {
	size := 4
	for _, t := range tables {
		size += len(t.Name) + 16
		for _, r := range t.Rows {
			size += len(r.Key) + 24
			for _, f := range r.Fields {
				size += len(f.Name) + len(f.JSON) + 20
			}
		}
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString("{")
	for ti, t := range tables {
		if ti > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		view.WriteJSONString(&b, t.Name)
		b.WriteString(": {")
		for ri, r := range t.Rows {
			if ri > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n        ")
			view.WriteJSONString(&b, r.Key)
			b.WriteString(": {")
			for fi, f := range r.Fields {
				if fi > 0 {
					b.WriteByte(',')
				}
				b.WriteString("\n            ")
				view.WriteJSONString(&b, f.Name)
				b.WriteString(": ")
				b.WriteString(f.JSON)
			}
			if len(r.Fields) > 0 {
				b.WriteString("\n        ")
			}
			b.WriteByte('}')
		}
		b.WriteString("\n    }")
	}
	b.WriteString("\n}")
	return b.String()
}

// viewSONiCRows holds field lists shared by every port row of one kind; they
// are built once per device and never modified.
type viewSONiCRows struct {
	qosOff, qosOn, qosWD, wd []SONiCField
	queue                    [8][]SONiCField
}

func viewFieldList(kv ...string) []SONiCField {
	out := make([]SONiCField, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, SONiCField{Name: kv[i], JSON: view.JSONString(kv[i+1])})
	}
	return out
}

// viewSONiCShared builds the PORT_QOS_MAP, PFC_WD and QUEUE field lists ports share.
//
// pfcwd_sw_enable (the priorities the watchdog guards, apart from
// pfc_enable) arrived with sonic-swss #2171 and sonic-port-qos-map.yang
// #10444 (2022-04, release 202205); before it the watchdog guards the
// pfc_enable priorities and the field is not in the YANG model.
func viewSONiCShared(s *viewSONiCBuilder, q view.QoSView, useDSCP, usePCP, pfcToPG, swEnable bool, sched, wred [8]string) *viewSONiCRows {
	pfcList := q.Lossless.Join(",")
	var base []string
	if useDSCP {
		base = append(base, "dscp_to_tc_map", s.ref("DSCP_TO_TC_MAP", SONiCMapName))
	}
	if usePCP {
		base = append(base, "dot1p_to_tc_map", s.ref("DOT1P_TO_TC_MAP", SONiCMapName))
	}
	base = append(base, "tc_to_queue_map", s.ref("TC_TO_QUEUE_MAP", SONiCMapName), "tc_to_pg_map", s.ref("TC_TO_PRIORITY_GROUP_MAP", SONiCMapName),
		"pfc_to_queue_map", s.ref("MAP_PFC_PRIORITY_TO_QUEUE", SONiCMapName))
	on := append([]string(nil), base...)
	if pfcToPG {
		on = append(on, "pfc_to_pg_map", s.ref("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", SONiCMapName))
	}
	on = append(on, "pfc_enable", pfcList)
	sh := &viewSONiCRows{
		qosOff: viewFieldList(append(append([]string(nil), base...), "pfc_enable", "")...),
		qosOn:  viewFieldList(on...),
		qosWD:  viewFieldList(on...),
	}
	if swEnable {
		sh.qosWD = viewFieldList(append(on, "pfcwd_sw_enable", pfcList)...)
	}
	if w := q.Watchdog; w != nil {
		wf := []string{"action", viewOrDefault(w.Action, "drop")}
		if w.DetectionSet {
			wf = append(wf, "detection_time", strconv.FormatInt(w.DetectionMS, 10))
		}
		// Always explicit: sonic-swss stores an unset restoration time as
		// "" and pfc_restore.lua then never restores the stormed queue.
		wf = append(wf, "restoration_time", strconv.FormatInt(w.RestorationMS, 10))
		sh.wd = viewFieldList(wf...)
	}
	for qid := 0; qid < 8; qid++ {
		var qf []string
		if n := sched[qid]; n != "" {
			qf = append(qf, "scheduler", s.ref("SCHEDULER", n))
		}
		if n := wred[qid]; n != "" {
			qf = append(qf, "wred_profile", s.ref("WRED_PROFILE", n))
		}
		if len(qf) > 0 {
			sh.queue[qid] = viewFieldList(qf...)
		}
	}
	return sh
}

// viewSortSONiCRows orders rows by key naturally: "Ethernet2|3" before
// "Ethernet10|0" (keys are unique, so the order is total).
func viewSortSONiCRows(rows []SONiCRow) {
	byKey := func(a, b SONiCRow) int { return schema.NaturalCompare(a.Key, b.Key) }
	if !slices.IsSortedFunc(rows, byKey) {
		slices.SortFunc(rows, byKey)
	}
}

func viewOrDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// viewSONiCQueues writes SCHEDULER and WRED_PROFILE objects and returns their
// names per queue.
func viewSONiCQueues(s *viewSONiCBuilder, d *schema.Device, q view.QoSView) ([8]string, [8]string, error) {
	var sched, wred [8]string
	var rej view.Collector
	for _, qu := range q.Queues {
		if qu.ShaperBps > 0 {
			rej.Add(view.Unsupported(d, fmt.Sprintf("queue %d shaper %s", qu.ID, view.Bps(qu.ShaperBps)),
				"a SONiC SCHEDULER pir needs a guaranteed rate (cir) the intent does not model", view.QueueSrc(d, qu.ID, view.QShaper)))
		}
		switch {
		case qu.Strict:
			sched[qu.ID] = fmt.Sprintf("fabricgen.%d", qu.ID)
			s.set("SCHEDULER", sched[qu.ID], "type", "STRICT")
		case qu.Sched == string(schema.SchedDWRR) || qu.Weight > 0:
			sched[qu.ID] = fmt.Sprintf("fabricgen.%d", qu.ID)
			if qu.Weight < 1 || qu.Weight > 100 {
				rej.Add(view.Unsupported(d, fmt.Sprintf("queue %d DWRR weight %d", qu.ID, qu.Weight), "a SONiC DWRR weight is 1–100", view.QueueWeightSrc(d, qu.ID)))
			}
			s.set("SCHEDULER", sched[qu.ID], "type", "DWRR", "weight", strconv.Itoa(qu.Weight))
		}
		if e := qu.ECN; e != nil {
			name := e.Name
			if err := view.RequireBytes(d, qu.ID, e); err != nil {
				rej.Add(err)
				continue
			}
			if !viewSONiCName.MatchString(name) {
				rej.Add(view.Unsupported(d, "ecn_profile name "+name, "SONiC object names match [a-zA-Z0-9][-a-zA-Z0-9_]{0,31}; rename the profile", view.QueueSrc(d, qu.ID, view.QECN)))
				continue
			}
			wred[qu.ID] = name
			if s.has("WRED_PROFILE", name) {
				continue
			}
			mode := "ecn_all"
			if !e.Mark {
				mode = "ecn_none"
			}
			mn, mx, p := strconv.FormatInt(e.MinBytes, 10), strconv.FormatInt(e.MaxBytes, 10), strconv.Itoa(e.Probability)
			s.set("WRED_PROFILE", name,
				"ecn", mode,
				"wred_green_enable", "true", "wred_yellow_enable", "true", "wred_red_enable", "true",
				"green_min_threshold", mn, "green_max_threshold", mx, "green_drop_probability", p,
				"yellow_min_threshold", mn, "yellow_max_threshold", mx, "yellow_drop_probability", p,
				"red_min_threshold", mn, "red_max_threshold", mx, "red_drop_probability", p)
		}
	}
	return sched, wred, rej.Err()
}

// viewSONiCBuffers writes what makes a lossless class lossless on a SONiC
// switch and no more: SONiC owns its buffers. buffermgrd sizes the
// lossless headroom itself, from what the render writes (CABLE_LENGTH, the
// port's speed, PORT_QOS_MAP pfc_enable): in the traditional model it looks
// the profile up in the SKU's pg_profile_lookup.ini
// (pg_lossless_<speed>_<cable>_profile), in the dynamic model it computes
// it. What the render adds is only what differs from the SKU's stock
// buffers, whose lossless priority groups and egress queues are 3-4
// (sonic-buildimage files/build_templates/buffers_config.j2):
//   - BUFFER_QUEUE <port>|<q> egress_lossless_profile, for a lossless
//     queue outside 3-4;
//   - BUFFER_PG <port>|<p>, for a lossless priority outside 3-4 where
//     buffermgrd does not make it lossless itself: "NULL" (headroom
//     computed) in the dynamic model, buffermgrd's own profile (with the
//     SKU's row) in the traditional model before 202205 (sonic-swss #2171
//     derives the lossless PGs from pfc_enable from 202205 on);
//   - BUFFER_PROFILE pg_lossless_<speed>_<cable>_profile with the intent's
//     buffer values, in the traditional model, when the intent sets them
//     (buffermgrd reuses a profile of that name it finds).
type viewSONiCBuffers struct {
	s   *viewSONiCBuilder
	d   *schema.Device
	q   view.QoSView
	qq  *schema.PortQoS
	rel schema.Version
	// lossless counts the lossless ports.
	lossless int
	seen     map[string]bool
	// rounded lists the cable lengths written as a longer lookup row.
	rounded []view.Rounding
}

// viewSONiCStockLossless are the priority groups and egress queues a SKU's
// stock buffers make lossless (buffers_config.j2: BUFFER_QUEUE <port>|3-4
// egress_lossless_profile; buffermgrd before 202205: BUFFER_PG <port>|3-4).
const viewSONiCStockLossless = 1<<3 | 1<<4

// viewSONiCPGFromPFCSince is the release whose buffermgrd derives the
// lossless priority groups from PORT_QOS_MAP pfc_enable (sonic-swss #2171,
// 2022-04, in 202205); before it they are 3-4 whatever pfc_enable says.
// The same change brought PORT_QOS_MAP pfcwd_sw_enable.
var viewSONiCPGFromPFCSince = 202205

func viewNewSONiCBuffers(s *viewSONiCBuilder, d *schema.Device, q view.QoSView, qq *schema.PortQoS, rel schema.Version) *viewSONiCBuffers {
	return &viewSONiCBuffers{s: s, d: d, q: q, qq: qq, rel: rel, seen: map[string]bool{}}
}

// dynamic reports whether the device runs SONiC's dynamic buffer model.
func (b *viewSONiCBuffers) dynamic() bool { return b.d.BufferModel.V == "dynamic" }

// overrides reports whether the intent sets lossless headroom values.
func (b *viewSONiCBuffers) overrides() bool {
	bv := b.q.Buffer
	return bv.HeadroomBytes != 0 || bv.XOFFBytes != 0 || bv.XONBytes != 0 || bv.DynamicThresholdSet
}

// port writes a lossless port's CABLE_LENGTH and what its lossless
// priorities and queues need beyond the SKU's stock buffers.
func (b *viewSONiCBuffers) port(sp *schema.Port, p view.PortView) error {
	d := b.d
	b.lossless++
	if p.SpeedMbps <= 0 {
		return view.Unsupported(d, "lossless port "+p.Name+" without a speed", "SONiC's buffermgrd sizes a lossless priority group by the port's speed and cable length; set speed on the port or its link", sp.Range)
	}
	cable, src := p.CableMeters, sp.Range
	if c := sp.Cable(); c.Set {
		src = c.Src
	}
	if cable <= 0 {
		cable = viewDefaultCable(sp)
	}
	// With the SKU known, CABLE_LENGTH names a row of its lookup file (or
	// the port is refused: no row, no lossless PG); else it is SONiC's
	// common 5/40/300 m row, which plan checks against the device's own
	// file.
	var skuRow *skus.Row
	var cableKey string
	if d.HWSKU.Set {
		r, key, err := viewSONiCSKURow(d, p, cable, src)
		if err != nil {
			return err
		}
		skuRow, cableKey = &r, key
	} else {
		row, ok := headroom.LookupRow(cable)
		if !ok {
			return view.Unsupported(d, fmt.Sprintf("cable length %gm on lossless port %s", cable, p.Name),
				fmt.Sprintf("SONiC's common pg_profile_lookup.ini rows go up to %dm; set hwsku so fabricgen knows the SKU's own rows", headroom.LookupRows[len(headroom.LookupRows)-1]), src)
		}
		cableKey = strconv.Itoa(row) + "m"
	}
	if c := sp.Cable(); c.Set {
		if row, err := strconv.ParseFloat(strings.TrimSuffix(cableKey, "m"), 64); err == nil && row != cable {
			why := "buffermgrd finds a lossless profile only for a cable length that is a row of pg_profile_lookup.ini (5m, 40m, 300m), so CABLE_LENGTH names the next longer row and headroom is sized for it"
			if skuRow != nil {
				why = "buffermgrd finds a lossless profile only for a cable length that is a row of hwsku " + d.HWSKU.V + "'s pg_profile_lookup.ini, so CABLE_LENGTH names the next longer row and headroom is sized for it"
			}
			b.rounded = append(b.rounded, view.Rounding{Device: d.Name, Port: p.Name, What: "cable_length",
				From: strconv.FormatFloat(cable, 'f', -1, 64) + "m", To: cableKey, Why: why, Src: src})
		}
	}
	b.s.set("CABLE_LENGTH", "AZURE", p.Name, cableKey)
	name := "pg_lossless_" + strconv.FormatInt(p.SpeedMbps, 10) + "_" + cableKey + "_profile"
	oldPGs := !b.dynamic() && !b.rel.AtLeast(viewSONiCPGFromPFCSince)
	var extra []int // lossless priorities outside the stock 3-4
	for pr := range p.Lossless.All() {
		if viewSONiCStockLossless&(1<<pr) == 0 {
			extra = append(extra, pr)
		}
	}
	switch {
	case b.overrides() && b.dynamic():
		return view.Unsupported(d, "buffer headroom, xoff, xon or dynamic_threshold on the dynamic buffer model",
			"in SONiC's dynamic buffer model buffermgrd computes the lossless headroom of every port; remove the buffer values, or set buffer_model = \"traditional\" if the switch runs that model", view.BufferSrc(b.qq))
	case b.overrides():
		if err := b.profile(name, skuRow); err != nil {
			return err
		}
	case oldPGs && len(extra) > 0:
		if skuRow == nil {
			return view.Unsupported(d, fmt.Sprintf("lossless priority %d on port %s of SONiC %s without hwsku", extra[0], p.Name, b.rel),
				"before 202205 buffermgrd makes priority groups 3-4 lossless whatever pfc_enable says; fabricgen adds the PG with buffermgrd's own profile, whose values come from the SKU's pg_profile_lookup.ini: set hwsku, or move the class to priority 3 or 4", sp.Range)
		}
		b.skuProfile(name, *skuRow)
	}
	for _, pr := range extra {
		switch {
		case b.dynamic():
			b.s.set("BUFFER_PG", p.Name+"|"+strconv.Itoa(pr), "profile", "NULL")
		case oldPGs:
			b.s.set("BUFFER_PG", p.Name+"|"+strconv.Itoa(pr), "profile", b.s.ref("BUFFER_PROFILE", name))
		}
	}
	queues := map[int]bool{}
	for pr := range p.Lossless.All() {
		if qu := b.q.QueueOf[pr]; viewSONiCStockLossless&(1<<qu) == 0 && !queues[qu] {
			queues[qu] = true
			b.s.set("BUFFER_QUEUE", p.Name+"|"+strconv.Itoa(qu), "profile", b.s.ref("BUFFER_PROFILE", viewSONiCEgressLossless))
		}
	}
	return nil
}

// viewSONiCEgressLossless is the stock egress profile of lossless queues
// (buffers_defaults_t*.j2 of every SKU: egress_lossless_profile).
const viewSONiCEgressLossless = "egress_lossless_profile"

// skuProfile writes buffermgrd's own profile for a lookup row, field for
// field as buffermgr.cpp doSpeedUpdateTask creates it, so a BUFFER_PG
// naming it is valid in the same change; buffermgrd reuses it.
func (b *viewSONiCBuffers) skuProfile(name string, r skus.Row) {
	if b.seen[name] {
		return
	}
	b.seen[name] = true
	fields := []string{"pool", b.s.ref("BUFFER_POOL", viewSONiCLosslessPool), "xon", r.Xon}
	if r.XonOffset != "" {
		fields = append(fields, "xon_offset", r.XonOffset)
	}
	fields = append(fields, "xoff", r.Xoff, "size", r.Size, "dynamic_th", r.Threshold)
	b.s.set("BUFFER_PROFILE", name, fields...)
}

// profile writes the lossless profile with the intent's buffer values,
// the rest from the SKU's lookup row; without a SKU every value must come
// from the intent (fabricgen invents no headroom).
func (b *viewSONiCBuffers) profile(name string, sku *skus.Row) error {
	if b.seen[name] {
		return nil
	}
	b.seen[name] = true
	bv := b.q.Buffer
	var xon, xoff, size, th string
	if sku != nil {
		xon, xoff, size, th = sku.Xon, sku.Xoff, sku.Size, sku.Threshold
	}
	if bv.XONBytes > 0 {
		xon = strconv.FormatInt(bv.XONBytes, 10)
	}
	if bv.XOFFBytes > 0 {
		xoff = strconv.FormatInt(bv.XOFFBytes, 10)
	}
	if bv.HeadroomBytes > 0 {
		size = strconv.FormatInt(bv.HeadroomBytes, 10)
	}
	if bv.DynamicThresholdSet {
		th = strconv.Itoa(bv.DynamicThreshold)
	}
	var missing []string
	for _, m := range []struct{ v, attr string }{{xon, "xon"}, {xoff, "xoff"}, {size, "headroom"}, {th, "dynamic_threshold"}} {
		if m.v == "" {
			missing = append(missing, m.attr)
		}
	}
	if len(missing) > 0 {
		return view.Unsupported(b.d, "buffer values without "+strings.Join(missing, ", "),
			"a SONiC lossless profile the intent sizes replaces buffermgrd's whole profile (xon, xoff, size, dynamic_th); set "+strings.Join(missing, ", ")+" too, or set hwsku so the SKU's pg_profile_lookup.ini row gives the values the intent leaves out", view.BufferSrc(b.qq))
	}
	fields := []string{"pool", b.s.ref("BUFFER_POOL", viewSONiCLosslessPool), "xon", xon}
	if sku != nil && sku.XonOffset != "" && bv.XONBytes == 0 {
		fields = append(fields, "xon_offset", sku.XonOffset)
	}
	fields = append(fields, "xoff", xoff, "size", size, "dynamic_th", th)
	b.s.set("BUFFER_PROFILE", name, fields...)
	return nil
}

// viewSONiCLosslessPool is the ingress pool lossless PG profiles draw on.
const viewSONiCLosslessPool = "ingress_lossless_pool"

// finish writes the pool sizes the intent sets and refuses buffer values
// that no lossless port uses.
func (b *viewSONiCBuffers) finish() error {
	bv := b.q.Buffer
	if b.lossless == 0 && b.overrides() {
		return view.Unsupported(b.d, "buffer headroom, xoff, xon or dynamic_threshold without a lossless port",
			"SONiC sizes lossless priority groups only; enable PFC on a port or remove the buffer values", view.BufferSrc(b.qq))
	}
	if bv.IngressLosslessPoolBytes > 0 {
		b.s.set("BUFFER_POOL", viewSONiCLosslessPool, "type", "ingress", "mode", "dynamic", "size", strconv.FormatInt(bv.IngressLosslessPoolBytes, 10))
	}
	if bv.EgressLossyPoolBytes > 0 {
		b.s.set("BUFFER_POOL", "egress_lossy_pool", "type", "egress", "mode", "dynamic", "size", strconv.FormatInt(bv.EgressLossyPoolBytes, 10))
	}
	return nil
}

// viewDefaultCable is the cable length SONiC assumes for a port whose link has
// none: by the tiers of the two ends, or, for a port without a peer, the
// link one tier down (a leaf's host port: 5 m).
func viewDefaultCable(p *schema.Port) float64 {
	t := p.Device.Kind.V.Tier()
	if p.Peer != nil {
		return headroom.DefaultCable(t, p.Peer.Device.Kind.V.Tier())
	}
	return headroom.DefaultCable(max(t-1, 0), t)
}

// viewSONiCACLs writes one ACL_TABLE per ACL and direction, with a rule per
// ACL rule and a closing drop rule (the implicit deny every ACL ends with).
func viewSONiCACLs(f *schema.Fabric, s *viewSONiCBuilder, d *schema.Device, b view.Base) error {
	var rej view.Collector
	for _, a := range b.ACLs {
		for _, m := range a.Marks {
			if m.SetDSCP >= 0 {
				rej.Add(view.Unsupported(d, fmt.Sprintf("acl %s rule %d set_dscp %d", a.Name, m.Rule.Seq, m.SetDSCP),
					"SONiC ACL rules cannot re-mark DSCP; mark on the host (rdma tos) and classify with the DSCP map", view.RuleSrc(f, a.Name, m.Rule.Seq)))
			}
		}
		for _, dir := range []string{"ingress", "egress"} {
			var ports []string
			for _, p := range b.Ports {
				names := p.ACLIn
				if dir == "egress" {
					names = p.ACLOut
				}
				for _, n := range names {
					if n == a.Name {
						ports = append(ports, p.Name)
					}
				}
			}
			if len(ports) == 0 {
				continue
			}
			table := strings.ToUpper(strings.ReplaceAll(a.Name, "-", "_")) + "_" + strings.ToUpper(dir[:2])
			typ := "L3"
			switch {
			case a.HasIPv4 && a.HasIPv6:
				typ = "L3V4V6"
			case a.HasIPv6:
				typ = "L3V6"
			}
			s.set("ACL_TABLE", table, "policy_desc", "fabricgen acl "+a.Name, "type", typ, "stage", dir)
			s.setList("ACL_TABLE", table, "ports", ports)
			for _, r := range a.Rules {
				rule, err := viewSONiCRule(f, d, a.Name, table, typ, r)
				if !rej.Add(err) {
					return err
				}
				if err != nil {
					continue
				}
				if err := s.aclRow("acl_rule", fmt.Sprintf("%s|RULE_%d", table, r.Seq), &rule); err != nil {
					return err
				}
			}
			def := SONiCACLRule{Table: table, Priority: 1, Action: string(schema.ActionDeny), Protocol: "ip", DSCP: -1}
			if err := s.aclRow("acl_default_rule", table+"|DEFAULT_RULE", &def); err != nil {
				return err
			}
		}
	}
	return rej.Err()
}

// aclRow renders one ACL_RULE row through sub-template name.
func (s *viewSONiCBuilder) aclRow(name, key string, rule *SONiCACLRule) error {
	text, err := s.stanzas.Execute(name, rule)
	if err != nil {
		return fmt.Errorf("device %s acl rule %s: %w", s.d.Name, key, err)
	}
	fields, err := s.fieldsOf(name, text)
	if err != nil {
		return err
	}
	s.share("ACL_RULE", key, fields)
	return nil
}

// viewSONiCRule checks that one rule fits an ACL_RULE row of a table of type
// typ (L3, L3V6 or L3V4V6) and builds it.
func viewSONiCRule(f *schema.Fabric, d *schema.Device, acl, table, typ string, r view.RuleView) (SONiCACLRule, error) {
	src := view.RuleSrc(f, acl, r.Seq)
	rule := SONiCACLRule{Table: table, Seq: r.Seq, Priority: 10000 - r.Seq, Action: r.Action, Family: r.Family,
		Protocol: r.Protocol, ProtoNum: r.ProtoNum, Src: r.Src, Dst: r.Dst, DSCP: -1}
	if r.Seq < 1 || r.Seq > 9998 {
		return rule, view.Unsupported(d, fmt.Sprintf("acl %s rule seq %d", acl, r.Seq), "fabricgen maps seq to SONiC PRIORITY 10000-seq; use seq 1–9998", src)
	}
	// ICMP is IP_PROTOCOL 1 over IPv4 and 58 (ICMPv6) over IPv6, the
	// numbers SONiC's acl-loader writes for IPv4 and IPv6 tables; a rule of
	// both families in an L3V4V6 table would need both in one row.
	if r.Protocol == "icmp" && r.Family == "any" && typ == "L3V4V6" {
		return rule, view.Unsupported(d, fmt.Sprintf("acl %s rule %d protocol icmp for both IPv4 and IPv6", acl, r.Seq),
			"a SONiC ACL_RULE has one IP_PROTOCOL: 1 matches ICMPv4 only, 58 ICMPv6 only; set family = \"ipv4\" or \"ipv6\" on the rule, or split it into one rule per family", src)
	}
	for _, pr := range []struct {
		rs   []view.PortRangeView
		what string
		out  **view.PortRangeView
	}{{r.SrcPorts, "source", &rule.SrcPort}, {r.DstPorts, "destination", &rule.DstPort}} {
		p, has, ok := view.SinglePort(pr.rs)
		if !ok {
			return rule, view.Unsupported(d, fmt.Sprintf("acl %s rule %d with %d %s port ranges", acl, r.Seq, len(pr.rs), pr.what),
				"a SONiC ACL_RULE matches one port or one range; split the rule", src)
		}
		if has {
			*pr.out = &p
		}
	}
	switch len(r.DSCP) {
	case 0:
	case 1:
		rule.DSCP = r.DSCP[0]
	default:
		return rule, view.Unsupported(d, fmt.Sprintf("acl %s rule %d matching %d DSCP values", acl, r.Seq, len(r.DSCP)),
			"a SONiC ACL_RULE matches one DSCP value; split the rule", src)
	}
	return rule, nil
}

// viewSONiCSKURow refuses a lossless port whose speed and cable length
// have no row in the device's SKU's pg_profile_lookup.ini: buffermgrd
// (sonic-swss cfgmgr/buffermgr.cpp, traditional model) then logs "No PG
// profile configured for speed … and cable length …" and creates no
// lossless priority group, so the class is lossy on that port. A SKU
// name several platforms share must have the row on every one of them.
func viewSONiCSKURow(d *schema.Device, p view.PortView, cable float64, src schema.Range) (skus.Row, string, error) {
	t, err := skus.Load()
	if err != nil {
		return skus.Row{}, "", err
	}
	speed := strconv.FormatInt(p.SpeedMbps, 10)
	var row skus.Row
	key := ""
	for i, s := range t.Find(d.HWSKU.V) {
		if c, ok := s.CableFor(speed, cable); ok {
			if i == 0 {
				key = c
				row, _ = s.Row(speed, c)
			}
			continue
		}
		have := "none"
		if cs := s.Cables(speed); len(cs) > 0 {
			have = strings.Join(cs, ", ")
		}
		return skus.Row{}, "", view.Unsupported(d, fmt.Sprintf("cable length %gm at speed %s on lossless port %s", cable, speed, p.Name),
			fmt.Sprintf("hwsku %s (%s) has no pg_profile_lookup.ini row for speed %s with a cable of %gm or more (its cable lengths at that speed: %s), so buffermgrd creates no lossless priority group and the class is lossy on this port; use a cable length the SKU has a row for, or another speed",
				d.HWSKU.V, s.Platform, speed, cable, have), src)
	}
	if key == "" {
		return skus.Row{}, "", fmt.Errorf("device %s: hwsku %s is not in the SKU table", d.Name, d.HWSKU.V)
	}
	return row, key, nil
}
