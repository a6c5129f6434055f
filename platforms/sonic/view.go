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
	// ASIC is the device's ASIC family (asic); BufferModel is
	// "traditional", the buffer model fabricgen renders for.
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

// SONiCBufferModel is the buffer model fabricgen renders: traditional, in
// which buffermgrd takes the lossless profiles CONFIG_DB defines (the
// dynamic model computes headroom from per-ASIC parameters only Mellanox
// platforms ship).
const SONiCBufferModel = "traditional"

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
	"BUFFER_POOL", "BUFFER_PROFILE", "BUFFER_PG",
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
	sh := viewSONiCShared(s, q, useDSCP, usePCP, pfcToPG, schedulers, wred)
	bufs := viewNewSONiCBuffers(s, d, q, qq)
	for i, p := range b.Ports {
		if err := viewSONiCPort(s, d, d.Ports[i], p, sh, bufs); !rej.Add(err) {
			return nil, err
		}
	}
	if err := bufs.finish(); !rej.Add(err) {
		return nil, err
	}
	if q.Lossless != 0 && rel.AtLeast(202012) {
		s.set("DEVICE_METADATA", "localhost", "buffer_model", SONiCBufferModel)
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
	v := &SONiCView{Base: b, ASIC: d.ASIC.V, BufferModel: SONiCBufferModel}
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
		rej.Add(view.Unsupported(d, "pfc_watchdog action "+w.Action, "SONiC PFC_WD action is drop, forward or alert", qq.Watchdog.Src))
	}
	if w.PollSet {
		if w.PollMS < 100 || w.PollMS > 1000 {
			rej.Add(view.Unsupported(d, fmt.Sprintf("pfc_watchdog %s poll_interval %d ms", w.Name, w.PollMS), "SONiC PFC_WD POLL_INTERVAL is 100–1000 ms", view.WatchdogSrc(qq, func(w *schema.Watchdog) schema.Range { return w.PollInterval.Src })))
		}
		s.set("PFC_WD", "GLOBAL", "POLL_INTERVAL", strconv.FormatInt(w.PollMS, 10))
	}
	if w.DetectionSet && (w.DetectionMS < 100 || w.DetectionMS > 5000) {
		rej.Add(view.Unsupported(d, fmt.Sprintf("pfc_watchdog %s detection %d ms", w.Name, w.DetectionMS), "SONiC PFC_WD detection_time is 100–5000 ms", view.WatchdogSrc(qq, func(w *schema.Watchdog) schema.Range { return w.Detection.Src })))
	}
	if w.RestorationMS < 100 || w.RestorationMS > 60000 {
		rej.Add(view.Unsupported(d, fmt.Sprintf("pfc_watchdog %s restoration %d ms", w.Name, w.RestorationMS), "SONiC PFC_WD restoration_time is 100–60000 ms", view.WatchdogSrc(qq, func(w *schema.Watchdog) schema.Range { return w.Restoration.Src })))
	}
	if w.PollSet {
		for _, t := range []struct {
			name string
			ms   int64
			src  func(w *schema.Watchdog) schema.Range
		}{{"detection", w.DetectionMS, func(w *schema.Watchdog) schema.Range { return w.Detection.Src }},
			{"restoration", w.RestorationMS, func(w *schema.Watchdog) schema.Range { return w.Restoration.Src }}} {
			if w.DetectionSet || t.name == "restoration" {
				if t.ms < w.PollMS {
					rej.Add(view.Unsupported(d, fmt.Sprintf("pfc_watchdog %s %s %d ms", w.Name, t.name, t.ms), fmt.Sprintf("SONiC PFC_WD %s_time must be at least the poll interval (%d ms)", t.name, w.PollMS), view.WatchdogSrc(qq, t.src)))
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
func viewSONiCShared(s *viewSONiCBuilder, q view.QoSView, useDSCP, usePCP, pfcToPG bool, sched, wred [8]string) *viewSONiCRows {
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
		qosWD:  viewFieldList(append(on, "pfcwd_sw_enable", pfcList)...),
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
				rej.Add(view.Unsupported(d, fmt.Sprintf("queue %d DWRR weight %d", qu.ID, qu.Weight), "a SONiC DWRR weight is 1–100", view.QueueSrc(d, qu.ID, view.QWeight)))
			}
			s.set("SCHEDULER", sched[qu.ID], "type", "DWRR", "weight", strconv.Itoa(qu.Weight))
		}
		if e := qu.ECN; e != nil {
			name := e.Name
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

// viewSONiCBuffers sizes SONiC's traditional buffer model: per lossless port a
// CABLE_LENGTH row rounded up to a pg_profile_lookup.ini row, and a
// BUFFER_PG per lossless priority group naming the profile buffermgrd
// itself would name, pg_lossless_<speed>_<cable>_profile, defined here with
// the headroom the SONiC formula gives for that row (or the intent's
// buffer values), in the ingress_lossless_pool this render also defines.
type viewSONiCBuffers struct {
	s  *viewSONiCBuilder
	d  *schema.Device
	q  view.QoSView
	qq *schema.PortQoS
	// profiles lists the profiles ports use, in first-use order.
	profiles []string
	seen     map[string]bool
}

// viewSONiCLosslessPool is the ingress pool lossless PG profiles draw on.
const viewSONiCLosslessPool = "ingress_lossless_pool"

func viewNewSONiCBuffers(s *viewSONiCBuilder, d *schema.Device, q view.QoSView, qq *schema.PortQoS) *viewSONiCBuffers {
	return &viewSONiCBuffers{s: s, d: d, q: q, qq: qq, seen: map[string]bool{}}
}

// port writes a lossless port's CABLE_LENGTH, BUFFER_PG rows and profile.
func (b *viewSONiCBuffers) port(sp *schema.Port, p view.PortView) error {
	d := b.d
	if p.SpeedMbps <= 0 {
		return view.Unsupported(d, "lossless port "+p.Name+" without a speed", "SONiC's traditional buffer model picks the lossless PG profile by port speed and cable length; set speed on the port or its link", sp.Range)
	}
	cable, src := p.CableMeters, sp.Range
	if sp.Link != nil && sp.Link.CableLength.Set {
		src = sp.Link.CableLength.Src
	}
	if cable <= 0 {
		cable = viewDefaultCable(sp)
	}
	// With the SKU known, CABLE_LENGTH names its row and the profile
	// takes the row's values, as buffermgrd itself would; else the row is
	// SONiC's common 5/40/300 m and the values SONiC's headroom formula.
	var skuRow *skus.Row
	var cableKey string
	var rowM float64
	if d.HWSKU.Set {
		r, key, err := viewSONiCSKURow(d, p, cable, src)
		if err != nil {
			return err
		}
		skuRow, cableKey = &r, key
		rowM, _ = skus.Meters(key)
	} else {
		row, ok := headroom.LookupRow(cable)
		if !ok {
			return view.Unsupported(d, fmt.Sprintf("cable length %gm on lossless port %s", cable, p.Name),
				fmt.Sprintf("SONiC's pg_profile_lookup.ini has rows up to %dm; a longer lossless link needs a headroom profile fabricgen does not render", headroom.LookupRows[len(headroom.LookupRows)-1]), src)
		}
		cableKey, rowM = strconv.Itoa(row)+"m", float64(row)
	}
	b.s.set("CABLE_LENGTH", "AZURE", p.Name, cableKey)
	name := "pg_lossless_" + strconv.FormatInt(p.SpeedMbps, 10) + "_" + cableKey + "_profile"
	if !b.seen[name] {
		b.seen[name] = true
		b.profiles = append(b.profiles, name)
		b.profile(name, p.SpeedBps, rowM, p.MTU, skuRow)
	}
	for pr := range p.Lossless.All() {
		b.s.set("BUFFER_PG", p.Name+"|"+strconv.Itoa(pr), "profile", b.s.ref("BUFFER_PROFILE", name))
	}
	return nil
}

// profile defines one lossless PG profile: the SKU's lookup row when it is
// known (sku), else the SONiC headroom formula for the lookup row's cable
// length, with the intent's buffer values on top.
func (b *viewSONiCBuffers) profile(name string, speedBps int64, cableM float64, mtu int, sku *skus.Row) {
	bv := b.q.Buffer
	if sku != nil && bv.HeadroomBytes == 0 && bv.XOFFBytes == 0 && bv.XONBytes == 0 && !bv.DynamicThresholdSet {
		fields := []string{"pool", b.s.ref("BUFFER_POOL", viewSONiCLosslessPool), "xon", sku.Xon}
		if sku.XonOffset != "" {
			fields = append(fields, "xon_offset", sku.XonOffset)
		}
		fields = append(fields, "xoff", sku.Xoff, "size", sku.Size, "dynamic_th", sku.Threshold)
		b.s.set("BUFFER_PROFILE", name, fields...)
		return
	}
	h := headroom.Required(speedBps, cableM, mtu)
	// The size is XON + XOFF, as in the headroom model, after the overrides.
	xon, xoff := h.XON, h.XOFF
	if bv.XONBytes > 0 {
		xon = bv.XONBytes
	}
	if bv.XOFFBytes > 0 {
		xoff = bv.XOFFBytes
	}
	size := xon + xoff
	if bv.HeadroomBytes > 0 {
		size = bv.HeadroomBytes
		if bv.XOFFBytes == 0 {
			xoff = max(size-xon, 0)
		}
	}
	fields := []string{"pool", b.s.ref("BUFFER_POOL", viewSONiCLosslessPool), "size", strconv.FormatInt(size, 10),
		"xon", strconv.FormatInt(xon, 10), "xoff", strconv.FormatInt(xoff, 10)}
	th := 0
	if bv.DynamicThresholdSet {
		th = bv.DynamicThreshold
	}
	fields = append(fields, "dynamic_th", strconv.Itoa(th))
	b.s.set("BUFFER_PROFILE", name, fields...)
}

// finish writes the pools the profiles reference and refuses buffer
// values that no lossless port uses.
func (b *viewSONiCBuffers) finish() error {
	bv := b.q.Buffer
	if len(b.profiles) == 0 {
		if bv.HeadroomBytes != 0 || bv.XOFFBytes != 0 || bv.XONBytes != 0 || bv.DynamicThresholdSet {
			return view.Unsupported(b.d, "buffer headroom, xoff, xon or dynamic_threshold without a lossless port",
				"SONiC sizes lossless priority groups only; enable PFC on a port or remove the buffer values", view.BufferSrc(b.qq))
		}
	}
	if len(b.profiles) > 0 || bv.IngressLosslessPoolBytes > 0 {
		fields := []string{"type", "ingress", "mode", "dynamic"}
		if bv.IngressLosslessPoolBytes > 0 {
			fields = append(fields, "size", strconv.FormatInt(bv.IngressLosslessPoolBytes, 10))
		}
		b.s.set("BUFFER_POOL", viewSONiCLosslessPool, fields...)
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
