package sonic

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/platforms/sonic/skus"
)

// importConfig reads a SONiC CONFIG_DB (config_db.json, `show
// runningconfiguration all`, `sonic-cfggen -d --print-data`, or
// fabricgen's own render) into a Device. References between tables may
// be written either way SONiC has written them: "[DSCP_TO_TC_MAP|AZURE]"
// (before 202111) or "AZURE".
func importConfig(ctx context.Context, file string, data []byte) (*importer.Device, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sonic import %s: %w", file, err)
	}
	root, err := parseConfigDB(file, data)
	if err != nil {
		return nil, err
	}
	im := &sonicImport{file: file, root: root, dev: &importer.Device{Platform: string(name), Src: importer.Span{File: file}},
		ports: map[string]*sonicPort{}, reported: map[sonicLine]bool{}}
	if err := im.checkShape(); err != nil {
		return nil, err
	}
	im.run()
	return im.dev, nil
}

// sonicImport is one import in progress.
type sonicImport struct {
	file string
	root *jsonNode
	dev  *importer.Device
	// ports by CONFIG_DB name, in the order they were first named.
	ports map[string]*sonicPort
	order []string
	// brackets is true when a reference was written "[TABLE|name]".
	brackets bool
	// reported keeps Unmapped to one entry per line and text (a map row
	// many ports use is reported once).
	reported map[sonicLine]bool
	// buffer is the lossless headroom and pool sizes the configuration
	// sets (nil: none), which every port's QoS carries.
	buffer *importer.Buffer
	// inferredSKU are the SKUs whose lookup rows the lossless profiles
	// hold, when DEVICE_METADATA names no hwsku.
	inferredSKU []skus.SKU
}

// sonicPort is one port and the rows that decide its QoS.
type sonicPort struct {
	p *importer.Port
	// inPORT is true for a port the PORT table names.
	inPORT bool
	qos    *jsonMember // PORT_QOS_MAP row
	queues [8]*jsonMember
	wd     *jsonMember
}

// checkShape refuses a JSON text whose tables import reads are not
// tables of rows (CONFIG_DB is {TABLE: {KEY: {FIELD: VALUE}}}), or that
// has no CONFIG_DB table at all.
func (im *sonicImport) checkShape() error {
	known := false
	for _, t := range im.root.Members {
		_, unmapped := sonicUnmappedTables[t.Key]
		known = known || sonicTables[t.Key] || unmapped
	}
	if !known && len(im.root.Members) > 0 {
		first := im.root.Members[0]
		return importer.Errorf(im.file, first.Line, "none of the file's top-level keys ('%s'…) is a CONFIG_DB table (DEVICE_METADATA, PORT, PORT_QOS_MAP…): import one device's config_db.json, not a file that wraps it", importer.Clean(first.Key))
	}
	for _, t := range im.root.Members {
		if _, unmapped := sonicUnmappedTables[t.Key]; !sonicTables[t.Key] && !unmapped {
			continue // a table import does not read may have any shape
		}
		if t.Val.Kind != jsonObject {
			return importer.Errorf(im.file, t.Line, "CONFIG_DB table '%s' is not an object of rows; CONFIG_DB JSON is {TABLE: {KEY: {FIELD: VALUE}}}", importer.Clean(t.Key))
		}
		for _, r := range t.Val.Members {
			if r.Val.Kind != jsonObject {
				return importer.Errorf(im.file, r.Line, "row '%s' of CONFIG_DB table '%s' is not an object of fields; CONFIG_DB JSON is {TABLE: {KEY: {FIELD: VALUE}}}", importer.Clean(r.Key), importer.Clean(t.Key))
			}
		}
	}
	return nil
}

// table returns the rows of a table (nil when absent).
func (im *sonicImport) table(name string) *jsonNode {
	if m := im.root.member(name); m != nil {
		return m.Val
	}
	return nil
}

// row returns row key of table name (the last, if duplicated).
func (im *sonicImport) row(table, key string) *jsonMember {
	return im.table(table).member(key)
}

// unmapped reports a line no intent expresses; text is its CONFIG_DB
// path ("TABLE|key|field = value").
func (im *sonicImport) unmapped(line int, text, why string) {
	k := sonicLine{line, text}
	if im.reported[k] {
		return
	}
	im.reported[k] = true
	im.dev.Unmapped = append(im.dev.Unmapped, importer.Line{File: im.file, Line: line, Text: text, Why: why})
}

// sonicLine is a reported line: where, and its CONFIG_DB path (a
// minified file has every row on one line).
type sonicLine struct {
	line int
	text string
}

// unmappedRow reports a whole row.
func (im *sonicImport) unmappedRow(table string, r *jsonMember, why string) {
	im.unmapped(r.Line, table+"|"+r.Key, why)
}

// unmappedField reports one field f of row (of table); a nil f (a field
// the row lacks) reports the row at its own line.
func (im *sonicImport) unmappedField(table string, row, f *jsonMember, why string) {
	key := row.Key
	if f == nil {
		im.unmapped(row.Line, table+"|"+key, why)
		return
	}
	v := f.Val.Str
	if f.Val.Kind != jsonScalar {
		v = "[…]"
	}
	im.unmapped(f.Line, table+"|"+key+"|"+f.Key+" = "+v, why)
}

func (im *sonicImport) span(m *jsonMember) importer.Span {
	return importer.Span{File: im.file, From: m.Line, To: max(m.Val.End, m.Line)}
}

// port returns the port named n, adding it in first-named order.
func (im *sonicImport) port(n string, src *jsonMember) *sonicPort {
	if p, ok := im.ports[n]; ok {
		return p
	}
	p := &sonicPort{p: &importer.Port{Name: n, Src: im.span(src)}}
	im.ports[n] = p
	im.order = append(im.order, n)
	return p
}

// ref is the row name a reference field names, in either form SONiC has
// written ("[TABLE|name]" before 202111, "name" since).
func (im *sonicImport) ref(v string) string {
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		if _, n, ok := strings.Cut(v[1:len(v)-1], "|"); ok {
			im.brackets = true
			return n
		}
	}
	return v
}

// sonicTables are the CONFIG_DB tables import reads.
var sonicTables = map[string]bool{
	"DEVICE_METADATA": true, "PORT": true, "INTERFACE": true, "CABLE_LENGTH": true,
	"DSCP_TO_TC_MAP": true, "DOT1P_TO_TC_MAP": true, "TC_TO_QUEUE_MAP": true, "TC_TO_PRIORITY_GROUP_MAP": true,
	"MAP_PFC_PRIORITY_TO_QUEUE": true, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": true, "PORT_QOS_MAP": true,
	"WRED_PROFILE": true, "SCHEDULER": true, "QUEUE": true, "PFC_WD": true, "FLEX_COUNTER_TABLE": true,
	"BUFFER_POOL": true, "BUFFER_PROFILE": true, "BUFFER_PG": true, "BUFFER_QUEUE": true, "ACL_TABLE": true, "ACL_RULE": true,
}

// sonicUnmappedTables are the QoS tables import reads; a table of this list the
// import does not map is reported row by row.
var sonicUnmappedTables = map[string]string{
	"TC_TO_DSCP_MAP":                    "an egress DSCP rewrite (TC to DSCP) map: fabricgen's intent never re-marks on egress",
	"TC_TO_DOT1P_MAP":                   "an egress PCP rewrite (TC to 802.1p) map: fabricgen's intent never re-marks on egress",
	"MPLS_TC_TO_TC_MAP":                 "an MPLS TC (EXP) map: fabricgen's intent classifies by DSCP and PCP only",
	"DSCP_TO_FC_MAP":                    "a DSCP to forwarding-class map: fabricgen's intent has no forwarding classes",
	"EXP_TO_FC_MAP":                     "an MPLS EXP to forwarding-class map: fabricgen's intent has no forwarding classes",
	"POLICER":                           "a policer: fabricgen's intent has no SONiC policers",
	"BUFFER_PORT_INGRESS_PROFILE_LIST":  "a port's ingress buffer profiles: SONiC's own buffers, which fabricgen leaves as they are",
	"BUFFER_PORT_EGRESS_PROFILE_LIST":   "a port's egress buffer profiles: SONiC's own buffers, which fabricgen leaves as they are",
	"DEFAULT_LOSSLESS_BUFFER_PARAMETER": "the dynamic buffer model's default headroom parameters: no intent sets them",
	"SYSTEM_DEFAULTS":                   "a system default (tunnel QoS remap and similar): no intent sets it",
}

// run reads every table into the device.
func (im *sonicImport) run() {
	im.metadata()
	im.portRows()
	im.interfaces()
	im.qos()
	im.acls()
	im.buffers()
	for _, t := range im.root.Members {
		if why, ok := sonicUnmappedTables[t.Key]; ok {
			for _, r := range t.Val.Members {
				im.unmappedRow(t.Key, r, why)
			}
		}
	}
	im.attributes()
	for _, n := range im.order {
		p := im.ports[n].p
		if im.buffer != nil && p.QoS != nil {
			b := *im.buffer
			p.QoS.Buffer = &b
		}
		im.dev.Ports = append(im.dev.Ports, p)
	}
	if im.buffer != nil && im.dev.Default != nil {
		b := *im.buffer
		im.dev.Default.Buffer = &b
	}
	im.tableSpans()
	slices.SortStableFunc(im.dev.Unmapped, func(a, b importer.Line) int { return a.Line - b.Line })
}

// tableSpans adds the header line of every QoS table import read or
// reported row by row to the QoS sources (the device's default, else
// every port's QoS): the table was read, its rows are in the spans or
// the report.
func (im *sonicImport) tableSpans() {
	var spans []importer.Span
	for _, t := range im.root.Members {
		_, unmapped := sonicUnmappedTables[t.Key]
		if (sonicTables[t.Key] || unmapped) && t.Key != "DEVICE_METADATA" && t.Key != "PORT" && t.Key != "INTERFACE" && t.Key != "ACL_TABLE" && t.Key != "ACL_RULE" {
			spans = append(spans, importer.Span{File: im.file, From: t.Line, To: t.Line})
		}
	}
	if len(spans) == 0 {
		return
	}
	if d := im.dev.Default; d != nil {
		d.Src = append(d.Src, spans...)
		return
	}
	for _, p := range im.dev.Ports {
		if p.QoS != nil {
			p.QoS.Src = append(p.QoS.Src, spans...)
		}
	}
}

// metadata reads DEVICE_METADATA|localhost.
func (im *sonicImport) metadata() {
	r := im.row("DEVICE_METADATA", "localhost")
	if r == nil {
		return
	}
	im.dev.Name, _ = r.Val.str("hostname")
}

// portRows reads PORT: description, mtu, speed, fec; a port twice is
// reported (the later row wins, as json.load keeps the last).
func (im *sonicImport) portRows() {
	t := im.table("PORT")
	if t == nil {
		return
	}
	seen := map[string]int{}
	for _, r := range t.Members {
		if first, ok := seen[r.Key]; ok {
			im.dev.Twice = append(im.dev.Twice, importer.Line{File: im.file, Line: r.Line, Text: "PORT|" + r.Key,
				Why: fmt.Sprintf("port %s has a PORT row at line %d too; the later row wins (a JSON reader keeps the last key)", r.Key, first)})
		}
		seen[r.Key] = r.Line
	}
	for _, r := range t.Members {
		if seen[r.Key] != r.Line {
			continue // a later row of the port wins
		}
		sp := im.port(r.Key, r)
		sp.inPORT = true
		p := sp.p
		p.Src = im.span(r)
		p.Description, _ = r.Val.str("description")
		if v, ok := r.Val.str("mtu"); ok {
			if n, err := strconv.Atoi(v); err == nil && n >= 68 && n <= 9216 {
				p.MTU = n
			} else {
				im.unmappedField("PORT", r, r.Val.member("mtu"), "not an MTU SONiC takes (68-9216)")
			}
		}
		if v, ok := r.Val.str("speed"); ok {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 && n <= 10_000_000 {
				p.Speed = n * 1_000_000
			}
		}
		if v, ok := r.Val.str("fec"); ok {
			switch v {
			case "rs", "fc", "none":
				p.FEC = v
			default:
				im.unmappedField("PORT", r, r.Val.member("fec"), "FEC mode "+v+": the intent's fec is rs, fc or none")
			}
		}
		for _, f := range r.Val.Members {
			switch f.Key {
			case "pfc_asym":
				if f.Val.Str != "off" {
					im.unmappedField("PORT", r, f, "asymmetric PFC: the intent's PFC is symmetric")
				}
			case "tx_power", "laser_freq":
			}
		}
	}
}

// interfaces reads INTERFACE: a row per routed port and one per address.
func (im *sonicImport) interfaces() {
	t := im.table("INTERFACE")
	if t == nil {
		return
	}
	for _, r := range t.Members {
		n, ip, _ := strings.Cut(r.Key, "|")
		sp, ok := im.ports[n]
		if !ok {
			continue // a port the PORT table does not name
		}
		sp.p.Routed = true
		if ip != "" && sp.p.IP == "" {
			sp.p.IP = ip
		}
	}
}

// sonicPortList splits a row key naming one port or several
// ("Ethernet0,Ethernet4", the form of older qos_config.j2 renders).
func sonicPortList(key string) []string {
	return strings.Split(key, ",")
}

// sonicRange reads "3" or "3-4" (a queue or priority range) as numbers 0-7.
func sonicRange(s string) ([]int, bool) {
	a, b, isRange := strings.Cut(s, "-")
	from, err1 := strconv.Atoi(a)
	to := from
	var err2 error
	if isRange {
		to, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil || from < 0 || to > 7 || from > to {
		return nil, false
	}
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out, true
}

// sonicInts reads "3,4" (pfc_enable) as priorities 0-7.
func sonicInts(s string) ([]int, bool) {
	var out []int
	if strings.TrimSpace(s) == "" {
		return nil, true
	}
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 || n > 7 {
			return nil, false
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, true
}

// sonicMap is one of the map tables (DSCP_TO_TC_MAP…) read as numbers.
type sonicMap struct {
	row *jsonMember
	m   map[int]int
	// lines are the source lines of the entries.
	lines map[int]int
}

// maps reads the rows of a map table whose keys are 0..keyMax and values 0-7.
func (im *sonicImport) maps(table string, keyMax int) map[string]*sonicMap {
	out := map[string]*sonicMap{}
	t := im.table(table)
	if t == nil {
		return out
	}
	for _, r := range t.Members {
		sm := &sonicMap{row: r, m: map[int]int{}, lines: map[int]int{}}
		for _, f := range r.Val.Members {
			k, err1 := strconv.Atoi(f.Key)
			v, err2 := strconv.Atoi(f.Val.Str)
			if err1 != nil || err2 != nil || k < 0 || k > keyMax || v < 0 || v > 7 || f.Val.Kind != jsonScalar {
				im.unmappedField(table, r, f, "not a map entry fabricgen reads (keys 0-"+strconv.Itoa(keyMax)+", values 0-7)")
				continue
			}
			sm.m[k], sm.lines[k] = v, f.Line
		}
		out[r.Key] = sm
	}
	return out
}

// sonicQoSFields are the PORT_QOS_MAP fields import reads or checks.
var sonicQoSFields = map[string]bool{
	"dscp_to_tc_map": true, "dot1p_to_tc_map": true, "tc_to_queue_map": true, "tc_to_pg_map": true,
	"pfc_to_queue_map": true, "pfc_to_pg_map": true, "pfc_enable": true, "pfcwd_sw_enable": true,
}

// sonicQoSFieldWhy says why a PORT_QOS_MAP field is not read.
var sonicQoSFieldWhy = map[string]string{
	"tc_to_dscp_map":    "an egress DSCP rewrite on the port: fabricgen's intent never re-marks on egress",
	"tc_to_dot1p_map":   "an egress PCP rewrite on the port: fabricgen's intent never re-marks on egress",
	"mpls_tc_to_tc_map": "an MPLS TC (EXP) map on the port: fabricgen's intent classifies by DSCP and PCP only",
	"dscp_to_fc_map":    "a forwarding-class map on the port: fabricgen's intent has no forwarding classes",
	"exp_to_fc_map":     "a forwarding-class map on the port: fabricgen's intent has no forwarding classes",
	"scheduler":         "a port shaper (a port SCHEDULER): fabricgen's intent shapes queues, not ports",
	"pfc_asym":          "asymmetric PFC: the intent's PFC is symmetric",
}

// qos reads PORT_QOS_MAP, QUEUE, SCHEDULER, WRED_PROFILE and PFC_WD into
// the ports' effective QoS and the device's Default.
func (im *sonicImport) qos() {
	dscp := im.maps("DSCP_TO_TC_MAP", 63)
	pcp := im.maps("DOT1P_TO_TC_MAP", 7)
	queue := im.maps("TC_TO_QUEUE_MAP", 7)
	tcPG := im.maps("TC_TO_PRIORITY_GROUP_MAP", 7)
	pfcQ := im.maps("MAP_PFC_PRIORITY_TO_QUEUE", 7)
	pfcPG := im.maps("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", 7)

	// Rows naming ports, each port's last row winning; a port twice in
	// a table (a duplicate key, or a port list and its own row) is Twice.
	pqm := im.table("PORT_QOS_MAP")
	var global *jsonMember
	if pqm != nil {
		seen := map[string]int{}
		for _, r := range pqm.Members {
			if r.Key == "global" {
				global = r
				continue
			}
			for _, n := range sonicPortList(r.Key) {
				if l, ok := seen[n]; ok {
					im.twice("PORT_QOS_MAP", r, n, l)
				}
				seen[n] = r.Line
				im.port(n, r).qos = r
			}
		}
	}
	if t := im.table("QUEUE"); t != nil {
		seen := map[string]int{}
		for _, r := range t.Members {
			if strings.Count(r.Key, "|") > 1 {
				im.unmappedRow("QUEUE", r, "a VOQ chassis system-port queue (HOST|ASIC|PORT|QUEUE): fabricgen renders single-ASIC switches")
				continue
			}
			ps, qs, ok := strings.Cut(r.Key, "|")
			ids, ok2 := sonicRange(qs)
			if !ok || !ok2 {
				im.unmappedRow("QUEUE", r, "not a QUEUE key fabricgen reads (PORT|QUEUE or PORT|FROM-TO, queues 0-7)")
				continue
			}
			for _, n := range sonicPortList(ps) {
				sp := im.port(n, r)
				for _, q := range ids {
					k := n + "|" + strconv.Itoa(q)
					if l, ok := seen[k]; ok {
						im.twice("QUEUE", r, k, l)
					}
					seen[k] = r.Line
					sp.queues[q] = r
				}
			}
		}
	}
	pollMS := int64(0)
	if t := im.table("PFC_WD"); t != nil {
		for _, r := range t.Members {
			if r.Key == "GLOBAL" {
				for _, f := range r.Val.Members {
					switch f.Key {
					case "POLL_INTERVAL":
						pollMS, _ = strconv.ParseInt(f.Val.Str, 10, 64)
					case "BIG_RED_SWITCH":
						if f.Val.Str == "enable" {
							im.unmappedField("PFC_WD", r, f, "the PFC watchdog's big red switch: no intent sets it")
						}
					default:
						im.unmappedField("PFC_WD", r, f, "a PFC watchdog setting no intent expresses")
					}
				}
				continue
			}
			for _, n := range sonicPortList(r.Key) {
				im.port(n, r).wd = r
			}
		}
	}
	if fc := im.row("FLEX_COUNTER_TABLE", "PFCWD"); fc != nil {
		if v, _ := fc.Val.str("FLEX_COUNTER_STATUS"); v == "disable" {
			im.unmappedField("FLEX_COUNTER_TABLE", fc, fc.Val.member("FLEX_COUNTER_STATUS"), "the PFC watchdog's counter polling is off, so the PFC_WD rows detect no storm: the intent cannot say that")
		}
	}

	// The switch-wide map (PORT_QOS_MAP|global, 202111 on) is the Default.
	var def *importer.QoS
	if global != nil {
		def = &importer.QoS{Src: []importer.Span{im.span(global)}}
		for _, f := range global.Val.Members {
			if f.Key != "dscp_to_tc_map" {
				im.unmappedField("PORT_QOS_MAP", global, f, "a switch-wide map fabricgen does not write (its global row has dscp_to_tc_map only)")
				continue
			}
			if m := im.mapOf(dscp, "DSCP_TO_TC_MAP", global, f); m != nil {
				def.Trust, def.DSCP = "dscp", full(m, 64, func(int) int { return 0 })
				def.Src = append(def.Src, im.span(m.row))
			}
		}
	}
	im.dev.Default = def

	ctx := &sonicQoSCtx{dscp: dscp, pcp: pcp, queue: queue, tcPG: tcPG, pfcQ: pfcQ, pfcPG: pfcPG, pollMS: pollMS,
		schedulers: im.table("SCHEDULER"), wred: im.table("WRED_PROFILE")}
	im.dropUnknownPorts()
	qs := make([]*importer.QoS, len(im.order))
	for i, n := range im.order {
		qs[i] = im.portQoS(ctx, n, im.ports[n], def)
	}
	im.uniform(qs, def)
	for i, n := range im.order {
		q := qs[i]
		if q != nil && def != nil && importer.SameQoS(q, def) {
			q = nil
		}
		im.ports[n].p.QoS = q
	}
}

// dropUnknownPorts leaves out the ports only QoS rows name when the
// configuration has a PORT table: the switch has no such port (a QoS
// fragment without PORT keeps them).
func (im *sonicImport) dropUnknownPorts() {
	if im.table("PORT") == nil {
		return
	}
	kept := make([]string, 0, len(im.order))
	for _, n := range im.order {
		sp := im.ports[n]
		if sp.inPORT {
			kept = append(kept, n)
			continue
		}
		im.unmapped(sp.p.Src.From, n, "port "+n+" has QoS rows but no PORT row: the switch has no such port")
		delete(im.ports, n)
	}
	im.order = kept
}

// qosKey is a QoS's facts as text (its sources aside), to compare ports.
func qosKey(q *importer.QoS) string {
	if q == nil {
		return ""
	}
	var b strings.Builder
	b.Grow(256)
	nums := func(m map[int]int, n int) {
		if m == nil {
			b.WriteString("-|")
			return
		}
		for k := range n {
			if v, ok := m[k]; ok {
				b.WriteString(strconv.Itoa(v))
			}
			b.WriteByte(',')
		}
		b.WriteByte('|')
	}
	ptr := func(p *int) string {
		if p == nil {
			return "-"
		}
		return strconv.Itoa(*p)
	}
	fmt.Fprintf(&b, "%s|%s|", q.Trust, ptr(q.DefaultPriority))
	nums(q.DSCP, 64)
	nums(q.PCP, 8)
	nums(q.Queue, 8)
	fmt.Fprintf(&b, "%v%v|%v|%d|", q.PFC, q.PFCSet, q.WatchdogOff, q.MTU)
	if q.Watchdog != nil {
		fmt.Fprintf(&b, "%+v|", *q.Watchdog)
	}
	if q.LinkPause != nil {
		fmt.Fprintf(&b, "lp%v|", *q.LinkPause)
	}
	if q.Buffer != nil {
		x := *q.Buffer
		fmt.Fprintf(&b, "%d,%d,%d,%d,%d,%s|", x.Headroom, x.XOFF, x.XON, x.IngressLosslessPool, x.EgressLossyPool, ptr(x.DynamicThreshold))
	}
	for id := range 8 {
		qu := q.Queues[id]
		if qu == nil {
			continue
		}
		fmt.Fprintf(&b, "q%d:%s,%s,%d,%v", id, qu.Sched, ptr(qu.Weight), qu.ShaperBps, qu.ECNOff)
		if qu.ECN != nil {
			e := qu.ECN
			fmt.Fprintf(&b, ",%q,%d,%d,%d,%v,%s,%s", e.Name, e.MinBytes, e.MaxBytes, e.Probability, e.Mark, ptr(e.MinFill), ptr(e.MaxFill))
		}
		b.WriteByte('|')
	}
	if len(q.Queues) > 0 {
		// Queues outside 0-7 (never read, but keep the key total).
		fmt.Fprintf(&b, "n%d", len(q.Queues))
	}
	return b.String()
}

// uniform gives every port the QoS most ports with QoS rows have:
// fabricgen renders one set of SONiC maps, schedulers and WRED profiles
// per device (view.RequireUniform), so a port that differs cannot be
// kept; its rows are reported, with what differs.
func (im *sonicImport) uniform(qs []*importer.QoS, def *importer.QoS) {
	count := map[string]int{}
	keys := make([]string, len(qs))
	best, bestN := -1, 0
	for i, q := range qs {
		if q == nil {
			continue
		}
		keys[i] = qosKey(q)
		count[keys[i]]++
		if count[keys[i]] > bestN {
			best, bestN = i, count[keys[i]]
		}
	}
	if best < 0 {
		return
	}
	want, wk, dk := qs[best], keys[best], qosKey(def)
	for i, n := range im.order {
		q, k := qs[i], keys[i]
		eff := q
		if eff == nil {
			eff, k = def, dk
		}
		if k == wk {
			continue
		}
		sp := im.ports[n]
		line, text := sp.p.Src.From, "PORT|"+n
		switch {
		case sp.qos != nil:
			line, text = sp.qos.Line, "PORT_QOS_MAP|"+sp.qos.Key
		case sp.wd != nil:
			line, text = sp.wd.Line, "PFC_WD|"+sp.wd.Key
		default:
			for _, r := range sp.queues {
				if r != nil {
					line, text = r.Line, "QUEUE|"+r.Key
					break
				}
			}
		}
		what := "has no QoS rows"
		if eff != nil {
			what = "differs in " + strings.Join(qosDiff(eff, want), ", ")
		}
		im.unmapped(line, text, fmt.Sprintf("%s's QoS %s from %d of the %d ports: fabricgen renders one set of SONiC QoS maps, schedulers and WRED profiles per device, so the intent gives %s theirs", n, what, bestN, len(qs), n))
		c := *want
		if q != nil {
			c.Src = q.Src
		} else {
			c.Src = nil
		}
		qs[i] = &c
	}
}

// qosDiff names the aspects in which two QoS values differ.
func qosDiff(a, b *importer.QoS) []string {
	var out []string
	for _, f := range []struct {
		name string
		x, y any
	}{
		{"trust", a.Trust, b.Trust}, {"DSCP map", a.DSCP, b.DSCP}, {"PCP map", a.PCP, b.PCP}, {"queue map", a.Queue, b.Queue},
		{"PFC priorities", a.PFC, b.PFC}, {"queues", a.Queues, b.Queues}, {"PFC watchdog", []any{a.Watchdog, a.WatchdogOff}, []any{b.Watchdog, b.WatchdogOff}},
	} {
		x, _ := json.Marshal(f.x)
		y, _ := json.Marshal(f.y)
		if string(x) != string(y) {
			out = append(out, f.name)
		}
	}
	if len(out) == 0 {
		out = append(out, "other settings")
	}
	return out
}

// twice reports a port configured by two rows of a table.
func (im *sonicImport) twice(table string, r *jsonMember, what string, first int) {
	im.dev.Twice = append(im.dev.Twice, importer.Line{File: im.file, Line: r.Line, Text: table + "|" + r.Key,
		Why: fmt.Sprintf("%s has a %s row at line %d too; the later row wins (a JSON reader keeps the last key, and SONiC applies rows in the order written)", what, table, first)})
}

// sonicQoSCtx holds the tables a port's QoS is read from.
type sonicQoSCtx struct {
	dscp, pcp, queue, tcPG, pfcQ, pfcPG map[string]*sonicMap
	pollMS                              int64
	schedulers, wred                    *jsonNode
}

// mapOf returns the map a reference field names, reporting a dangling
// reference.
func (im *sonicImport) mapOf(maps map[string]*sonicMap, table string, row, f *jsonMember) *sonicMap {
	n := im.ref(f.Val.Str)
	if m, ok := maps[n]; ok {
		return m
	}
	im.unmappedField("PORT_QOS_MAP", row, f, "names "+table+" "+n+", which the configuration does not define (orchagent waits for it; the port has no such map)")
	return nil
}

// full returns the map with every key 0..n-1, missing keys from def.
func full(m *sonicMap, n int, def func(int) int) map[int]int {
	out := make(map[int]int, n)
	for k := range n {
		v, ok := m.m[k]
		if !ok {
			v = def(k)
		}
		out[k] = v
	}
	return out
}

// portQoS is the effective QoS of one port (nil: no row of its own).
func (im *sonicImport) portQoS(c *sonicQoSCtx, n string, sp *sonicPort, def *importer.QoS) *importer.QoS {
	hasQueue := slices.ContainsFunc(sp.queues[:], func(m *jsonMember) bool { return m != nil })
	if sp.qos == nil && !hasQueue && sp.wd == nil {
		return nil
	}
	q := &importer.QoS{}
	if def != nil {
		q.Trust, q.DSCP = def.Trust, maps.Clone(def.DSCP)
	}
	var tcPG, pfcQ, pfcPG *sonicMap
	var pfcwd *jsonMember
	if r := sp.qos; r != nil {
		q.Src = append(q.Src, im.span(r))
		q.PFCSet = true // SONiC enables PFC by pfc_enable only: a row without it is PFC off
		usesPCP := false
		for _, f := range r.Val.Members {
			if !sonicQoSFields[f.Key] {
				why, ok := sonicQoSFieldWhy[f.Key]
				if !ok {
					why = "a PORT_QOS_MAP field no intent expresses"
				}
				im.unmappedField("PORT_QOS_MAP", r, f, why)
				continue
			}
			switch f.Key {
			case "dscp_to_tc_map":
				if m := im.mapOf(c.dscp, "DSCP_TO_TC_MAP", r, f); m != nil {
					q.DSCP = full(m, 64, func(int) int { return 0 })
					q.Src = append(q.Src, im.span(m.row))
				}
			case "dot1p_to_tc_map":
				if m := im.mapOf(c.pcp, "DOT1P_TO_TC_MAP", r, f); m != nil {
					q.PCP = full(m, 8, func(int) int { return 0 })
					usesPCP = true
					q.Src = append(q.Src, im.span(m.row))
				}
			case "tc_to_queue_map":
				if m := im.mapOf(c.queue, "TC_TO_QUEUE_MAP", r, f); m != nil {
					q.Queue = full(m, 8, func(k int) int { return k })
					q.Src = append(q.Src, im.span(m.row))
				}
			case "tc_to_pg_map":
				tcPG = im.mapOf(c.tcPG, "TC_TO_PRIORITY_GROUP_MAP", r, f)
			case "pfc_to_queue_map":
				pfcQ = im.mapOf(c.pfcQ, "MAP_PFC_PRIORITY_TO_QUEUE", r, f)
			case "pfc_to_pg_map":
				pfcPG = im.mapOf(c.pfcPG, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", r, f)
			case "pfc_enable":
				ps, ok := sonicInts(f.Val.Str)
				if !ok {
					im.unmappedField("PORT_QOS_MAP", r, f, "not a list of priorities 0-7")
				}
				q.PFC = ps
			case "pfcwd_sw_enable":
				pfcwd = f
			}
		}
		switch {
		case q.DSCP != nil && usesPCP:
			q.Trust = "both"
		case usesPCP:
			q.Trust = "pcp"
		case q.DSCP != nil:
			q.Trust = "dscp"
		}
	}
	im.derivedMaps(sp, q, tcPG, pfcQ, pfcPG)
	if pfcwd != nil {
		ps, ok := sonicInts(pfcwd.Val.Str)
		if !ok || !slices.Equal(ps, q.PFC) {
			im.unmappedField("PORT_QOS_MAP", sp.qos, pfcwd, "the PFC watchdog guards other priorities than PFC protects: the intent's watchdog guards every lossless priority")
		}
	}
	for id, r := range sp.queues {
		if r == nil {
			continue
		}
		if qu := im.queue(c, r, id); qu != nil {
			if q.Queues == nil {
				q.Queues = map[int]*importer.Queue{}
			}
			q.Queues[id] = qu
			q.Src = append(q.Src, im.span(r))
		}
	}
	if r := sp.wd; r != nil {
		w := &importer.Watchdog{PollMS: c.pollMS}
		for _, f := range r.Val.Members {
			v := f.Val.Str
			switch f.Key {
			case "action":
				switch v {
				case "drop", "forward", "alert":
					w.Action = v
				default:
					im.unmappedField("PFC_WD", r, f, "a watchdog action the intent has no word for (drop, forward or alert)")
				}
			case "detection_time":
				w.DetectionMS, _ = strconv.ParseInt(v, 10, 64)
			case "restoration_time":
				w.RestorationMS, _ = strconv.ParseInt(v, 10, 64)
			default:
				im.unmappedField("PFC_WD", r, f, "a PFC watchdog setting no intent expresses")
			}
		}
		if why := sonicWatchdogRange(w); why != "" {
			im.unmappedRow("PFC_WD", r, why+": fabricgen renders SONiC's ranges only, so the intent has no watchdog here")
			q.WatchdogOff = len(q.PFC) > 0
		} else {
			q.Watchdog = w
			q.Src = append(q.Src, im.span(r))
		}
	} else if len(q.PFC) > 0 {
		q.WatchdogOff = true
	}
	return q
}

// sonicWatchdogRange says why a watchdog is outside SONiC's ranges (the
// view's: detection 100-5000 ms, restoration 100-60000 ms, poll
// 100-1000 ms and at most the other two), or "".
func sonicWatchdogRange(w *importer.Watchdog) string {
	switch {
	case w.PollMS != 0 && (w.PollMS < 100 || w.PollMS > 1000):
		return fmt.Sprintf("poll interval %d ms is outside 100-1000", w.PollMS)
	case w.DetectionMS != 0 && (w.DetectionMS < 100 || w.DetectionMS > 5000):
		return fmt.Sprintf("detection_time %d ms is outside 100-5000", w.DetectionMS)
	case w.RestorationMS < 100 || w.RestorationMS > 60000:
		return fmt.Sprintf("restoration_time %d ms is outside 100-60000", w.RestorationMS)
	case w.PollMS != 0 && (w.RestorationMS < w.PollMS || w.DetectionMS != 0 && w.DetectionMS < w.PollMS):
		return fmt.Sprintf("a watchdog time is below the poll interval (%d ms)", w.PollMS)
	}
	return ""
}

// derivedMaps checks the maps fabricgen derives from the classes (TC to
// priority group, PFC priority to queue and to priority group) against
// what the render would write, and reports the entries that differ.
func (im *sonicImport) derivedMaps(sp *sonicPort, q *importer.QoS, tcPG, pfcQ, pfcPG *sonicMap) {
	lossless := func(p int) bool { return slices.Contains(q.PFC, p) }
	if tcPG != nil {
		for tc := range 8 {
			want := 0
			if lossless(tc) {
				want = tc
			}
			if v, ok := tcPG.m[tc]; ok && v != want {
				im.unmapped(tcPG.lines[tc], fmt.Sprintf("TC_TO_PRIORITY_GROUP_MAP|%s|%d = %d", tcPG.row.Key, tc, v),
					fmt.Sprintf("TC %d in priority group %d: fabricgen puts a lossless TC in its own group and every other TC in group 0 (%s uses this map)", tc, v, sp.p.Name))
			}
		}
	}
	if pfcQ != nil {
		for p := range 8 {
			want := p
			if q.Queue != nil {
				want = q.Queue[p]
			}
			if v, ok := pfcQ.m[p]; ok && v != want {
				im.unmapped(pfcQ.lines[p], fmt.Sprintf("MAP_PFC_PRIORITY_TO_QUEUE|%s|%d = %d", pfcQ.row.Key, p, v),
					fmt.Sprintf("PFC priority %d pauses queue %d: fabricgen pauses the queue the TC-to-queue map gives priority %d (%s uses this map)", p, v, p, sp.p.Name))
			}
		}
	}
	if pfcPG != nil {
		for p := range 8 {
			if v, ok := pfcPG.m[p]; ok && v != p {
				im.unmapped(pfcPG.lines[p], fmt.Sprintf("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP|%s|%d = %d", pfcPG.row.Key, p, v),
					fmt.Sprintf("PFC priority %d maps to priority group %d: fabricgen maps each lossless priority to its own group (%s uses this map)", p, v, sp.p.Name))
			}
		}
	}
}

// queue reads one QUEUE row: its SCHEDULER and WRED_PROFILE.
func (im *sonicImport) queue(c *sonicQoSCtx, r *jsonMember, id int) *importer.Queue {
	qu := &importer.Queue{}
	set := false
	for _, f := range r.Val.Members {
		switch f.Key {
		case "scheduler":
			n := im.ref(f.Val.Str)
			s := c.schedulers.member(n)
			if s == nil {
				im.unmappedField("QUEUE", r, f, "names SCHEDULER "+n+", which the configuration does not define")
				continue
			}
			if im.scheduler(s, qu) {
				set = true
			}
		case "wred_profile":
			n := im.ref(f.Val.Str)
			w := c.wred.member(n)
			if w == nil {
				im.unmappedField("QUEUE", r, f, "names WRED_PROFILE "+n+", which the configuration does not define")
				continue
			}
			if e := im.wredProfile(w); e != nil {
				qu.ECN = e
				set = true
			}
		default:
			im.unmappedField("QUEUE", r, f, "a queue setting no intent expresses")
		}
	}
	if !set {
		return nil
	}
	return qu
}

// scheduler reads a SCHEDULER row into qu: STRICT, or DWRR (WRR too, which
// the render writes as DWRR) with its weight; a shaper is reported.
func (im *sonicImport) scheduler(s *jsonMember, qu *importer.Queue) bool {
	set := false
	typ, _ := s.Val.str("type")
	for _, f := range s.Val.Members {
		v := f.Val.Str
		switch f.Key {
		case "type":
			switch v {
			case "STRICT":
				qu.Sched, set = "strict", true
			case "DWRR", "WRR":
				qu.Sched, set = "dwrr", true
				if v == "WRR" {
					im.unmappedField("SCHEDULER", s, f, "WRR counts packets; fabricgen's dwrr renders DWRR, which counts bytes")
				}
			default:
				im.unmappedField("SCHEDULER", s, f, "a scheduler type fabricgen does not render (STRICT, DWRR)")
			}
		case "weight":
			if typ == "STRICT" {
				continue // SONiC ignores a strict queue's weight
			}
			if w, err := strconv.Atoi(v); err == nil && w >= 1 && w <= 100 {
				qu.Weight, set = &w, true
			} else {
				im.unmappedField("SCHEDULER", s, f, "a DWRR weight outside 1-100")
			}
		case "pir", "cir", "pbs", "cbs", "meter_type":
			im.unmappedField("SCHEDULER", s, f, "a queue shaper: fabricgen renders no SONiC SCHEDULER rate (a pir needs a cir the intent does not model)")
		default:
			im.unmappedField("SCHEDULER", s, f, "a scheduler setting no intent expresses")
		}
	}
	return set
}

// wredProfile reads a WRED_PROFILE row as the queue's curve (the green
// one; yellow and red differing from it are reported).
func (im *sonicImport) wredProfile(w *jsonMember) *importer.ECN {
	v := func(k string) string { s, _ := w.Val.str(k); return s }
	ecn := v("ecn")
	e := &importer.ECN{Name: w.Key}
	switch ecn {
	case "ecn_all", "ecn_green", "ecn_green_yellow", "ecn_green_red":
		e.Mark = true
	case "ecn_none", "":
		if v("wred_green_enable") != "true" {
			return nil // neither marks nor drops early
		}
	default:
		e.Mark = true
		im.unmappedField("WRED_PROFILE", w, w.Val.member("ecn"), "ECN marks only non-green traffic: the intent's curve applies to all")
	}
	if ecn != "ecn_all" && ecn != "ecn_none" && ecn != "" && e.Mark && ecn != "ecn_yellow" && ecn != "ecn_red" && ecn != "ecn_yellow_red" {
		im.unmappedField("WRED_PROFILE", w, w.Val.member("ecn"), "ECN marks only some colours ("+ecn+"): the intent's curve applies to all")
	}
	num := func(k string) int64 {
		n, _ := strconv.ParseInt(v(k), 10, 64)
		return n
	}
	e.MinBytes, e.MaxBytes = num("green_min_threshold"), num("green_max_threshold")
	e.Probability = int(num("green_drop_probability"))
	for _, c := range []string{"yellow", "red"} {
		if v("wred_"+c+"_enable") != "true" {
			continue
		}
		for _, k := range []string{"min_threshold", "max_threshold", "drop_probability"} {
			if f := w.Val.member(c + "_" + k); f != nil && f.Val.Str != v("green_"+k) {
				im.unmappedField("WRED_PROFILE", w, f, "the "+c+" curve differs from the green one: the intent has one curve for all colours")
			}
		}
	}
	return e
}

// sameQoS compares two QoS values, their sources aside.

// sonicProtocols are the IP_PROTOCOL numbers an intent rule names.
var sonicProtocols = map[string]string{"6": "tcp", "17": "udp", "1": "icmp", "58": "icmp"}

// sonicACLFields are the ACL_RULE fields import reads.
var sonicACLFields = map[string]bool{
	"PRIORITY": true, "PACKET_ACTION": true, "IP_TYPE": true, "IP_PROTOCOL": true, "SRC_IP": true, "DST_IP": true,
	"SRC_IPV6": true, "DST_IPV6": true, "L4_SRC_PORT": true, "L4_DST_PORT": true, "L4_SRC_PORT_RANGE": true,
	"L4_DST_PORT_RANGE": true, "DSCP": true,
}

// sonicACLDesc is the policy_desc fabricgen writes: "fabricgen acl NAME".
var sonicACLDesc = regexp.MustCompile(`^fabricgen acl (\S+)$`)

// acls reads ACL_TABLE and ACL_RULE: an L3 table is an ACL bound to its
// ports; tables fabricgen wrote for one ACL in both directions become
// that one ACL again.
func (im *sonicImport) acls() {
	tables := im.table("ACL_TABLE")
	if tables == nil {
		return
	}
	rules := map[string][]*jsonMember{}
	if t := im.table("ACL_RULE"); t != nil {
		for _, r := range t.Members {
			tn, _, ok := strings.Cut(r.Key, "|")
			if !ok {
				im.unmappedRow("ACL_RULE", r, "not an ACL_RULE key (TABLE|RULE)")
				continue
			}
			rules[tn] = append(rules[tn], r)
		}
	}
	byName := map[string]*importer.ACL{}
	for _, t := range tables.Members {
		typ, _ := t.Val.str("type")
		switch strings.ToUpper(typ) {
		case "L3", "L3V6", "L3V4V6":
		case "CTRLPLANE":
			continue // control-plane ACLs guard the switch's services, not QoS
		default:
			im.unmappedRow("ACL_TABLE", t, "an ACL table of type "+typ+": fabricgen's ACLs are L3, L3V6 or L3V4V6 tables")
			continue
		}
		stage, _ := t.Val.str("stage")
		stage = strings.ToLower(stage)
		if stage == "" {
			stage = "ingress"
		}
		name := t.Key
		if desc, _ := t.Val.str("policy_desc"); sonicACLDesc.MatchString(desc) {
			n := sonicACLDesc.FindStringSubmatch(desc)[1]
			if strings.ToUpper(strings.ReplaceAll(n, "-", "_"))+"_"+strings.ToUpper(stage[:min(2, len(stage))]) == t.Key {
				name = n
			}
		}
		acl := im.aclRules(t, name, strings.ToUpper(typ), rules[t.Key])
		if prev, ok := byName[name]; ok {
			if !sameRules(prev, acl) {
				name = t.Key
				acl.Name = name
			} else {
				acl = prev
			}
		}
		if _, ok := byName[name]; !ok {
			byName[name] = acl
			im.dev.ACLs = append(im.dev.ACLs, acl)
		}
		if f := t.Val.member("ports"); f != nil {
			type bound struct {
				name string
				line int
			}
			var ports []bound
			switch f.Val.Kind {
			case jsonArray:
				for _, it := range f.Val.Items {
					ports = append(ports, bound{it.Str, it.Line})
				}
			case jsonScalar:
				for _, pn := range strings.Split(f.Val.Str, ",") {
					ports = append(ports, bound{pn, f.Line})
				}
			}
			for _, b := range ports {
				pn := b.name
				sp, ok := im.ports[pn]
				if !ok {
					im.unmapped(b.line, "ACL_TABLE|"+t.Key+"|ports = "+pn, "binds the ACL to "+pn+", which is not a port of the PORT table (fabricgen binds ACLs to ports)")
					continue
				}
				if stage == "egress" {
					sp.p.ACLOut = append(sp.p.ACLOut, name)
				} else {
					sp.p.ACLIn = append(sp.p.ACLIn, name)
				}
			}
		}
	}
}

// aclRules reads the rules of one table.
func (im *sonicImport) aclRules(t *jsonMember, name, typ string, rows []*jsonMember) *importer.ACL {
	acl := &importer.ACL{Name: name, Src: im.span(t)}
	type prio struct {
		p int
		r *importer.ACLRule
	}
	var rs, denyAll []prio
	var denyRows []*jsonMember
	for _, r := range rows {
		pr, _ := r.Val.str("PRIORITY")
		p, err := strconv.Atoi(pr)
		if err != nil {
			im.unmappedRow("ACL_RULE", r, "a rule without a numeric PRIORITY")
			continue
		}
		rule, ok := im.aclRule(r, typ)
		if !ok {
			continue
		}
		if rule == nil {
			denyAll = append(denyAll, prio{p, nil})
			denyRows = append(denyRows, r)
			continue
		}
		rs = append(rs, prio{p, rule})
	}
	// A drop-all below every rule is the implicit deny; one above a
	// rule shadows it, which an intent ACL cannot say.
	lowest := 0
	for i, x := range rs {
		if i == 0 || x.p < lowest {
			lowest = x.p
		}
	}
	for i, x := range denyAll {
		if len(rs) > 0 && lowest < x.p {
			im.unmappedRow("ACL_RULE", denyRows[i], "a drop-all above other rules (they never match): an intent ACL denies everything only at its end")
		}
	}
	// SONiC evaluates higher priorities first; the intent lower sequence
	// numbers: seq is 10000-PRIORITY (fabricgen's own mapping) when that
	// fits 1-9998 for every rule, else 10, 20, … in priority order.
	slices.SortStableFunc(rs, func(a, b prio) int { return b.p - a.p })
	fits := true
	for i, x := range rs {
		if x.p < 2 || x.p > 9999 || (i > 0 && rs[i-1].p == x.p) {
			fits = false
		}
	}
	for i, x := range rs {
		x.r.Seq = 10000 - x.p
		if !fits {
			x.r.Seq = 10 * (i + 1)
		}
		acl.Rules = append(acl.Rules, x.r)
	}
	return acl
}

// aclRule reads one ACL_RULE row; nil with true is the table's closing
// drop-all rule (the implicit deny every intent ACL ends with).
func (im *sonicImport) aclRule(r *jsonMember, typ string) (*importer.ACLRule, bool) {
	v := func(k string) string { s, _ := r.Val.str(k); return s }
	rule := &importer.ACLRule{Family: "any", Protocol: "ip", Src: im.span(r)}
	if sonicDropAll(r) {
		return nil, true
	}
	for _, f := range r.Val.Members {
		if !sonicACLFields[f.Key] {
			im.unmappedField("ACL_RULE", r, f, "matches or acts on "+f.Key+", which an intent ACL rule cannot express; the rule is left out")
			return nil, false
		}
	}
	switch v("PACKET_ACTION") {
	case "FORWARD":
		rule.Action = "permit"
	case "DROP":
		rule.Action = "deny"
	default:
		im.unmappedRow("ACL_RULE", r, "PACKET_ACTION "+v("PACKET_ACTION")+": an intent ACL rule permits or denies; the rule is left out")
		return nil, false
	}
	switch v("IP_TYPE") {
	case "IPV4ANY", "IPv4ANY":
		rule.Family = "ipv4"
	case "IPV6ANY", "IPv6ANY":
		rule.Family = "ipv6"
	case "", "IP", "ANY":
	default:
		im.unmappedRow("ACL_RULE", r, "IP_TYPE "+v("IP_TYPE")+": an intent rule matches IPv4, IPv6 or both; the rule is left out")
		return nil, false
	}
	if p := v("IP_PROTOCOL"); p != "" {
		w, ok := sonicProtocols[p]
		if !ok || (p == "58" && rule.Family == "ipv4") || (p == "1" && rule.Family == "ipv6") {
			im.unmappedField("ACL_RULE", r, r.Val.member("IP_PROTOCOL"), "IP protocol "+p+": an intent rule matches tcp, udp, icmp or any; the rule is left out")
			return nil, false
		}
		rule.Protocol = w
		switch {
		case p == "58" && rule.Family == "any":
			rule.Family = "ipv6"
		case p == "1" && rule.Family == "any" && typ == "L3V4V6":
			rule.Family = "ipv4" // IP_PROTOCOL 1 is ICMPv4 only; an L3 table is IPv4 only anyway
		}
	}
	rule.SrcPrefix = v("SRC_IP") + v("SRC_IPV6")
	rule.DstPrefix = v("DST_IP") + v("DST_IPV6")
	for _, k := range []struct {
		field string
		out   *[][2]int
	}{{"L4_SRC_PORT", &rule.SrcPorts}, {"L4_DST_PORT", &rule.DstPorts}, {"L4_SRC_PORT_RANGE", &rule.SrcPorts}, {"L4_DST_PORT_RANGE", &rule.DstPorts}} {
		s := v(k.field)
		if s == "" {
			continue
		}
		a, b, isRange := strings.Cut(s, "-")
		from, err1 := strconv.Atoi(a)
		to := from
		var err2 error
		if isRange {
			to, err2 = strconv.Atoi(b)
		}
		if err1 != nil || err2 != nil || from < 0 || to > 65535 || from > to {
			im.unmappedField("ACL_RULE", r, r.Val.member(k.field), "not a port or port range; the rule is left out")
			return nil, false
		}
		*k.out = append(*k.out, [2]int{from, to})
	}
	if s := v("DSCP"); s != "" {
		d, err := strconv.Atoi(s)
		if err != nil || d < 0 || d > 63 {
			im.unmappedField("ACL_RULE", r, r.Val.member("DSCP"), "not a DSCP value (0-63; a DSCP/mask match has no intent form); the rule is left out")
			return nil, false
		}
		rule.DSCP = []int{d}
	}
	return rule, true
}

// sonicDropAll reports a rule that drops every packet (acl-loader closes
// a table with a drop of every IPv4 or IPv6 packet, ETHER_TYPE 2048 or
// 34525): the implicit deny.
func sonicDropAll(r *jsonMember) bool {
	v := func(k string) string { s, _ := r.Val.str(k); return s }
	if v("PACKET_ACTION") != "DROP" {
		return false
	}
	for _, f := range r.Val.Members {
		if f.Key != "PRIORITY" && f.Key != "PACKET_ACTION" && f.Key != "ETHER_TYPE" && f.Key != "IP_TYPE" {
			return false
		}
	}
	switch v("ETHER_TYPE") {
	case "", "2048", "34525", "0x0800", "0x86DD", "0x86dd":
		return true
	}
	return false
}

// sameRules compares two ACLs' rules, their sources aside.
func sameRules(a, b *importer.ACL) bool {
	if len(a.Rules) != len(b.Rules) {
		return false
	}
	for i := range a.Rules {
		x, y := *a.Rules[i], *b.Rules[i]
		x.Src, y.Src = importer.Span{}, importer.Span{}
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// sonicStockProfiles are the buffer profiles of SONiC's stock buffers
// (buffers_config.j2 and the SKUs' buffers_defaults_t*.j2), which
// fabricgen leaves as they are: rows naming them are not reported.
var sonicStockProfiles = map[string]bool{
	"ingress_lossy_profile": true, "egress_lossy_profile": true, "egress_lossless_profile": true,
	"ingress_lossless_profile": true, "q_lossy_profile": true, "pg_lossless_profile": true,
}

// sonicDerivedProfile is buffermgrd's own lossless profile name.
var sonicDerivedProfile = regexp.MustCompile(`^pg_lossless_([0-9]+)_([0-9]+m)_profile$`)

// buffers reads BUFFER_PROFILE, BUFFER_PG, BUFFER_QUEUE and CABLE_LENGTH:
// what buffermgrd derives (pg_lossless_* profiles with the SKU's values,
// rows naming them, NULL rows of the dynamic model) and the stock rows are
// SONiC's; a profile sized by hand, rows naming other profiles and cable
// lengths are reported.
func (im *sonicImport) buffers() {
	if t := im.table("BUFFER_PROFILE"); t != nil {
		for _, r := range t.Members {
			if sonicStockProfiles[r.Key] {
				continue
			}
			if m := sonicDerivedProfile.FindStringSubmatch(r.Key); m != nil {
				if im.skuProfile(r, m[1], m[2]) {
					continue
				}
				im.handSized(r)
				continue
			}
			im.unmappedRow("BUFFER_PROFILE", r, "a buffer profile SONiC's stock buffers do not have: no intent expresses it")
		}
	}
	for _, table := range []string{"BUFFER_PG", "BUFFER_QUEUE"} {
		t := im.table(table)
		if t == nil {
			continue
		}
		for _, r := range t.Members {
			p, _ := r.Val.str("profile")
			p = im.ref(p)
			if p == "NULL" || sonicStockProfiles[p] || sonicDerivedProfile.MatchString(p) {
				continue
			}
			f := r.Val.member("profile")
			if f == nil {
				im.unmappedRow(table, r, "a row with no buffer profile: buffermgrd and orchagent skip it")
				continue
			}
			im.unmappedField(table, r, f, "names buffer profile "+p+", not one of SONiC's stock or buffermgrd's profiles: no intent expresses it")
		}
	}
	im.pools()
	if r := im.row("CABLE_LENGTH", "AZURE"); r != nil {
		for _, f := range r.Val.Members {
			m, ok := strings.CutSuffix(f.Val.Str, "m")
			n, err := strconv.ParseFloat(m, 64)
			if !ok || err != nil || n <= 0 || n > 100000 {
				im.unmappedField("CABLE_LENGTH", r, f, "not a cable length in metres")
				continue
			}
			if sp, ok := im.ports[f.Key]; ok {
				sp.p.CableM = n
			}
		}
	}
}

// handSized reads a pg_lossless_* profile whose values no SKU row gives:
// the lossless headroom the intent's buffer block sizes (one per device:
// a second one with other values is reported).
func (im *sonicImport) handSized(r *jsonMember) {
	num := func(k string) int64 {
		s, _ := r.Val.str(k)
		n, _ := strconv.ParseInt(s, 10, 64)
		return n
	}
	b := importer.Buffer{Headroom: num("size"), XOFF: num("xoff"), XON: num("xon")}
	if s, ok := r.Val.str("dynamic_th"); ok {
		if n, err := strconv.Atoi(s); err == nil {
			b.DynamicThreshold = &n
		}
	}
	if im.buffer != nil && (im.buffer.Headroom != 0 || im.buffer.XOFF != 0 || im.buffer.XON != 0) {
		if im.buffer.Headroom != b.Headroom || im.buffer.XOFF != b.XOFF || im.buffer.XON != b.XON || fmt.Sprint(im.buffer.DynamicThreshold) != fmt.Sprint(b.DynamicThreshold) {
			im.unmappedRow("BUFFER_PROFILE", r, "a second hand-sized lossless profile with other values: the intent's buffer block sizes one")
		}
		return
	}
	for _, f := range r.Val.Members {
		switch f.Key {
		case "size", "xoff", "xon", "dynamic_th":
		case "pool":
			if im.ref(f.Val.Str) != "ingress_lossless_pool" {
				im.unmappedField("BUFFER_PROFILE", r, f, "a lossless profile on another pool than ingress_lossless_pool")
			}
		default:
			im.unmappedField("BUFFER_PROFILE", r, f, "a lossless profile setting the intent's buffer block has no word for")
		}
	}
	if im.buffer == nil {
		im.buffer = &importer.Buffer{}
	}
	im.buffer.Headroom, im.buffer.XOFF, im.buffer.XON, im.buffer.DynamicThreshold = b.Headroom, b.XOFF, b.XON, b.DynamicThreshold
}

// pools reads BUFFER_POOL: the sizes of ingress_lossless_pool and
// egress_lossy_pool are the intent's buffer block's; other pools and
// fields are reported.
func (im *sonicImport) pools() {
	t := im.table("BUFFER_POOL")
	if t == nil {
		return
	}
	for _, r := range t.Members {
		var dst *int64
		switch r.Key {
		case "ingress_lossless_pool", "egress_lossy_pool":
			if im.buffer == nil {
				im.buffer = &importer.Buffer{}
			}
			dst = &im.buffer.IngressLosslessPool
			if r.Key == "egress_lossy_pool" {
				dst = &im.buffer.EgressLossyPool
			}
		default:
			im.unmappedRow("BUFFER_POOL", r, "a buffer pool the intent does not size (its buffer block sizes ingress_lossless_pool and egress_lossy_pool)")
			continue
		}
		for _, f := range r.Val.Members {
			switch f.Key {
			case "size":
				if n, err := strconv.ParseInt(f.Val.Str, 10, 64); err == nil && n > 0 {
					*dst = n
				} else {
					im.unmappedField("BUFFER_POOL", r, f, "not a size in bytes")
				}
			case "type":
			case "mode":
				if f.Val.Str != "dynamic" {
					im.unmappedField("BUFFER_POOL", r, f, "a pool of mode "+f.Val.Str+": fabricgen sizes dynamic pools")
				}
			default:
				im.unmappedField("BUFFER_POOL", r, f, "a pool setting the intent's buffer block has no word for")
			}
		}
	}
}

// skuProfile reports whether a pg_lossless_<speed>_<cable>_profile holds
// the values of a SKU lookup row for that speed and cable (buffermgrd's
// own profile): the device's hwsku when it names one, else the first SKU
// of the table that has the row (then the import takes that SKU as the
// device's hwsku, which renders the same profile).
func (im *sonicImport) skuProfile(r *jsonMember, speed, cable string) bool {
	t, err := skus.Load()
	if err != nil {
		return false
	}
	v := func(k string) string { s, _ := r.Val.str(k); return s }
	match := func(row skus.Row) bool {
		return row.Xon == v("xon") && row.Xoff == v("xoff") && row.Size == v("size") && row.Threshold == v("dynamic_th") && row.XonOffset == v("xon_offset")
	}
	if hw := im.hwsku(); hw != "" {
		for _, s := range t.Find(hw) {
			if row, ok := s.Row(speed, cable); ok && match(row) {
				return true
			}
		}
		return false
	}
	for _, s := range t.SKUs {
		if row, ok := s.Row(speed, cable); ok && match(row) {
			im.inferredSKU = append(im.inferredSKU, s)
			return true
		}
	}
	return false
}

// meta is DEVICE_METADATA|localhost (nil when absent).
func (im *sonicImport) meta() *jsonNode {
	if r := im.row("DEVICE_METADATA", "localhost"); r != nil {
		return r.Val
	}
	return nil
}

// hwsku is DEVICE_METADATA|localhost|hwsku.
func (im *sonicImport) hwsku() string {
	s, _ := im.meta().str("hwsku")
	return s
}

// sonicASICFamily is the fabricgen asic of a SONiC asic_type or SKU
// platform_asic ("broadcom-dnx" is a broadcom), or "".
func sonicASICFamily(a string) string {
	for _, f := range ASICs {
		if a == f || strings.HasPrefix(a, f+"-") {
			return f
		}
	}
	return ""
}

// attributes sets the device's asic, release and hwsku: from
// DEVICE_METADATA where it says them (asic_type, or the SKU table by
// hwsku or platform), else from what the configuration's own shape shows
// (see templates.md, Import). A fabricgen render has no DEVICE_METADATA
// (its device, release and digest are in the file name and the render
// output, not in the JSON).
func (im *sonicImport) attributes() {
	meta := im.meta()
	hw := im.hwsku()
	asic := im.metaASIC(meta, hw)
	// The shape of the QoS: pfc_to_pg_map is written on mellanox and
	// barefoot only; a NULL lossless priority group is the dynamic model
	// (mellanox's default from 202012); a pg_lossless profile, or a
	// priority group naming one, the traditional model.
	pfcToPG, dynamic, traditional := false, false, false
	if pqm := im.table("PORT_QOS_MAP"); pqm != nil {
		for _, r := range pqm.Members {
			if _, ok := r.Val.str("pfc_to_pg_map"); ok {
				pfcToPG = true
			}
		}
	}
	if pg := im.table("BUFFER_PG"); pg != nil {
		for _, r := range pg.Members {
			p, _ := r.Val.str("profile")
			if p == "NULL" {
				dynamic = true
			} else if sonicDerivedProfile.MatchString(im.ref(p)) {
				traditional = true
			}
		}
	}
	if bp := im.table("BUFFER_PROFILE"); bp != nil {
		for _, r := range bp.Members {
			if sonicDerivedProfile.MatchString(r.Key) {
				traditional = true
			}
		}
	}
	// The release: references in brackets are before 202111; a lossless
	// watchdog port without pfcwd_sw_enable, or a lossless priority
	// group outside 3-4 naming buffermgrd's profile, before 202205.
	rel := ""
	switch {
	case im.brackets:
		rel = "202106"
	case im.before202205():
		rel = "202111"
	}
	if asic == "" {
		asic = "broadcom"
		if pfcToPG || dynamic {
			asic = "mellanox"
		}
	}
	im.dev.ASIC, im.dev.OSVersion = asic, rel
	// The buffer model DEVICE_METADATA says, else the one the buffers
	// show where it is not the default of the asic and release.
	version := spec().DefaultVersion()
	if rel != "" {
		if v, err := spec().ParseVersion(rel); err == nil {
			version = v
		}
	}
	if f := meta.member("buffer_model"); f != nil {
		if slices.Contains(BufferModels, f.Val.Str) {
			im.dev.BufferModel = f.Val.Str
		} else {
			im.unmappedField("DEVICE_METADATA", im.row("DEVICE_METADATA", "localhost"), f, "not a buffer model (traditional or dynamic)")
		}
	} else if def := DefaultBufferModel(asic, version); dynamic != traditional {
		if m := map[bool]string{true: "dynamic", false: "traditional"}[dynamic]; m != def {
			im.dev.BufferModel = m
		}
	}
	if hw != "" {
		if err := checkHWSKU(hw, asic); err == nil {
			im.dev.HWSKU = hw
		} else {
			im.unmappedField("DEVICE_METADATA", im.row("DEVICE_METADATA", "localhost"), meta.member("hwsku"), "fabricgen's SKU table cannot take this hwsku ("+err.Error()+"); the intent leaves hwsku unset")
		}
	} else {
		for _, s := range im.inferredSKU {
			if checkHWSKU(s.HWSKU, asic) == nil {
				im.dev.HWSKU = s.HWSKU
				break
			}
		}
	}

}

// metaASIC is the asic DEVICE_METADATA says: asic_type, or the ASIC of
// the SKU table's entry for its hwsku or platform ("" when none).
func (im *sonicImport) metaASIC(meta *jsonNode, hw string) string {
	t, _ := skus.Load()
	plat, _ := meta.str("platform")
	if a, ok := meta.str("asic_type"); ok && sonicASICFamily(a) != "" {
		return sonicASICFamily(a)
	}
	if t != nil && hw != "" {
		for _, s := range t.Find(hw) {
			if plat == "" || s.Platform == plat {
				if a := sonicASICFamily(s.ASIC); a != "" {
					return a
				}
			}
		}
	}
	if t != nil && plat != "" {
		for _, s := range t.SKUs {
			if s.Platform == plat && sonicASICFamily(s.ASIC) != "" {
				return sonicASICFamily(s.ASIC)
			}
		}
	}
	if strings.Contains(plat, "-mlnx_") || strings.Contains(plat, "-nvidia_") {
		return "mellanox"
	}
	return ""
}

// before202205 reports a configuration only a release before 202205
// writes: a lossless port with a watchdog and no pfcwd_sw_enable, or a
// traditional-model priority group outside 3-4 naming buffermgrd's
// profile.
func (im *sonicImport) before202205() bool {
	for _, n := range im.order {
		sp := im.ports[n]
		if sp.qos == nil || sp.wd == nil {
			continue
		}
		pfc, _ := sp.qos.Val.str("pfc_enable")
		if _, ok := sp.qos.Val.str("pfcwd_sw_enable"); !ok && strings.TrimSpace(pfc) != "" {
			return true
		}
	}
	if pg := im.table("BUFFER_PG"); pg != nil {
		for _, r := range pg.Members {
			p, _ := r.Val.str("profile")
			if sonicDerivedProfile.MatchString(im.ref(p)) && !strings.HasSuffix(r.Key, "|3-4") && !strings.HasSuffix(r.Key, "|3") && !strings.HasSuffix(r.Key, "|4") {
				return true
			}
		}
	}
	return false
}
