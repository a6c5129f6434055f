package templates

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// SONiCView is the sonic template data: CONFIG_DB tables in a stable order.
type SONiCView struct {
	Base
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

// SONiCMapName is the name of every map fabricgen writes; it is ours, never
// SONiC's stock AZURE map (which sends DSCP 26 to a lossy TC).
const SONiCMapName = "FABRICGEN"

var sonicName = regexp.MustCompile(`^[a-zA-Z0-9][-a-zA-Z0-9_]{0,31}$`)

type sonicBuilder struct {
	d      *schema.Device
	tables map[string]*sonicTable
}

// sonicTable keeps rows in insertion order with an index by key: the port
// loops insert most rows already in natural key order, so emitting a table
// rarely needs a sort.
type sonicTable struct {
	index map[string]int
	rows  []SONiCRow
}

// row returns the row for key, appending an empty one if there is none.
func (s *sonicBuilder) row(table, key string) *SONiCRow {
	t := s.tables[table]
	if t == nil {
		t = &sonicTable{index: map[string]int{}}
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
func (s *sonicBuilder) has(table, key string) bool {
	t := s.tables[table]
	if t == nil {
		return false
	}
	_, ok := t.index[key]
	return ok
}

func (s *sonicBuilder) set(table, key string, fields ...string) {
	r := s.row(table, key)
	if r.Fields == nil {
		r.Fields = make([]SONiCField, 0, len(fields)/2)
	}
	for i := 0; i+1 < len(fields); i += 2 {
		r.Fields = append(r.Fields, SONiCField{Name: fields[i], JSON: jsonString(fields[i+1])})
	}
}

func (s *sonicBuilder) setList(table, key, field string, vals []string) {
	b, _ := json.Marshal(vals)
	r := s.row(table, key)
	r.Fields = append(r.Fields, SONiCField{Name: field, JSON: string(b)})
}

// share sets a row to a shared, read-only field list.
func (s *sonicBuilder) share(table, key string, fields []SONiCField) {
	s.row(table, key).Fields = fields
}

// jsonString encodes s as a JSON string literal.
func jsonString(s string) string {
	if plainJSON(s) {
		return `"` + s + `"`
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// writeJSONString writes s as a JSON string literal without building it
// first.
func writeJSONString(b *strings.Builder, s string) {
	if !plainJSON(s) {
		b.WriteString(jsonString(s))
		return
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

// plainJSON reports whether s needs no escaping (encoding/json also
// escapes <, > and &).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// sonicTableOrder is the order tables appear in the output.
var sonicTableOrder = []string{
	"PORT", "CABLE_LENGTH",
	"DSCP_TO_TC_MAP", "DOT1P_TO_TC_MAP", "TC_TO_QUEUE_MAP", "TC_TO_PRIORITY_GROUP_MAP",
	"MAP_PFC_PRIORITY_TO_QUEUE", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "PORT_QOS_MAP",
	"WRED_PROFILE", "SCHEDULER", "QUEUE", "PFC_WD",
	"BUFFER_POOL", "BUFFER_PROFILE", "BUFFER_PG",
	"ACL_TABLE", "ACL_RULE",
}

func buildSONiC(f *schema.Fabric, d *schema.Device, b Base) (any, error) {
	const global = "fabricgen writes one set of SONiC QoS maps, schedulers and WRED profiles per device; attach the same policy to every port"
	if err := requireUniform(d, global, aspTrust, aspDSCP, aspPCP, aspQueueMap, aspQueues, aspPFCSet, aspWatchdog, aspBuffer); err != nil {
		return nil, err
	}
	s := &sonicBuilder{d: d, tables: map[string]*sonicTable{}}
	q := b.QoS
	qq := firstQoS(d)
	if q.Trust == string(schema.TrustNone) {
		return nil, unsupported(d, "trust none", "a SONiC port classifies by its DSCP_TO_TC_MAP or DOT1P_TO_TC_MAP; it cannot ignore both", qq.Trust.Src)
	}
	useDSCP := q.Trust != string(schema.TrustPCP)
	usePCP := q.Trust == string(schema.TrustPCP) || q.Trust == string(schema.TrustBoth)
	sonicMaps(s, q, useDSCP, usePCP)
	schedulers, wred, err := sonicQueues(s, d, q)
	if err != nil {
		return nil, err
	}
	buffers, err := sonicBuffers(s, d, q)
	if err != nil {
		return nil, err
	}
	if q.Watchdog != nil && len(q.PFC) > 0 {
		if err := sonicWatchdog(s, d, q, qq); err != nil {
			return nil, err
		}
	}
	sh := sonicShared(q, useDSCP, usePCP, schedulers, wred)
	for _, p := range b.Ports {
		if err := sonicPort(s, d, p, sh, buffers); err != nil {
			return nil, err
		}
	}
	if useDSCP {
		s.set("PORT_QOS_MAP", "global", "dscp_to_tc_map", SONiCMapName)
	}
	if err := sonicACLs(f, s, d, b); err != nil {
		return nil, err
	}
	v := &SONiCView{Base: b}
	for _, name := range sonicTableOrder {
		t := s.tables[name]
		if t == nil {
			continue
		}
		sortSONiCRows(t.rows)
		v.Tables = append(v.Tables, SONiCTable{Name: name, Rows: t.rows})
	}
	v.Body = sonicBody(v.Tables)
	return v, nil
}

// sonicMaps fills the DSCP/PCP → TC, TC → queue and priority-group maps.
func sonicMaps(s *sonicBuilder, q QoSView, useDSCP, usePCP bool) {
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
	for _, p := range q.PFC {
		s.set("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", SONiCMapName, strconv.Itoa(p), strconv.Itoa(p))
	}
}

// sonicWatchdog checks the PFC watchdog against SONiC's ranges and sets
// its global poll interval.
func sonicWatchdog(s *sonicBuilder, d *schema.Device, q QoSView, qq *schema.PortQoS) error {
	w := q.Watchdog
	if w.Action != "" && w.Action != "drop" && w.Action != "forward" && w.Action != "alert" {
		return unsupported(d, "pfc_watchdog action "+w.Action, "SONiC PFC_WD action is drop, forward or alert", qq.Watchdog.Src)
	}
	if w.PollSet {
		if w.PollMS < 100 || w.PollMS > 1000 {
			return unsupported(d, fmt.Sprintf("pfc_watchdog %s poll_interval %d ms", w.Name, w.PollMS), "SONiC PFC_WD POLL_INTERVAL is 100–1000 ms", wdgSrc(qq, func(w *schema.Watchdog) schema.Range { return w.PollInterval.Src }))
		}
		s.set("PFC_WD", "GLOBAL", "POLL_INTERVAL", strconv.FormatInt(w.PollMS, 10))
	}
	if w.DetectionSet && (w.DetectionMS < 100 || w.DetectionMS > 5000) {
		return unsupported(d, fmt.Sprintf("pfc_watchdog %s detection %d ms", w.Name, w.DetectionMS), "SONiC PFC_WD detection_time is 100–5000 ms", wdgSrc(qq, func(w *schema.Watchdog) schema.Range { return w.Detection.Src }))
	}
	if w.RestorationSet && (w.RestorationMS < 100 || w.RestorationMS > 60000) {
		return unsupported(d, fmt.Sprintf("pfc_watchdog %s restoration %d ms", w.Name, w.RestorationMS), "SONiC PFC_WD restoration_time is 100–60000 ms", wdgSrc(qq, func(w *schema.Watchdog) schema.Range { return w.Restoration.Src }))
	}
	return nil
}

// sonicPort fills one port's PORT, CABLE_LENGTH, PORT_QOS_MAP, PFC_WD,
// QUEUE and BUFFER_PG rows; sh holds the rows ports share and buffers the
// lossless buffer profile ("" when none).
func sonicPort(s *sonicBuilder, d *schema.Device, p PortView, sh *sonicRows, buffers string) error {
	s.set("PORT", p.Name)
	if p.Description != "" {
		// sonic-port.yang: PORT description, a string of up to 255.
		s.set("PORT", p.Name, "description", p.Description)
	}
	if p.MTU != 0 {
		if p.MTU < 68 || p.MTU > 9216 {
			return unsupported(d, fmt.Sprintf("mtu %d on %s", p.MTU, p.Name), "SONiC PORT mtu is 68–9216", portQoS(d, p.Name).MTU.Src)
		}
		s.set("PORT", p.Name, "mtu", strconv.Itoa(p.MTU))
	}
	if p.SpeedMbps > 0 {
		s.set("PORT", p.Name, "speed", strconv.FormatInt(p.SpeedMbps, 10))
	}
	switch p.FEC {
	case "rs", "fc", "none":
		s.set("PORT", p.Name, "fec", p.FEC)
	}
	if p.LinkPause {
		return unsupported(d, "link_pause on "+p.Name, "SONiC CONFIG_DB has no 802.3x pause setting; turn link_pause off", portQoS(d, p.Name).LinkPause.Src)
	}
	if p.CableMeters > 0 {
		s.set("CABLE_LENGTH", "AZURE", p.Name, strconv.FormatFloat(math.Ceil(p.CableMeters), 'f', 0, 64)+"m")
	}
	switch {
	case len(p.PFC) == 0:
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
	if buffers != "" && len(p.PFC) > 0 {
		for _, pr := range p.PFC {
			s.set("BUFFER_PG", p.Name+"|"+strconv.Itoa(pr), "profile", buffers)
		}
	}
	return nil
}

// sonicBody writes the tables as a JSON object with 4-space indentation,
// tables, keys and fields in view order.
func sonicBody(tables []SONiCTable) string {
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
		writeJSONString(&b, t.Name)
		b.WriteString(": {")
		for ri, r := range t.Rows {
			if ri > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n        ")
			writeJSONString(&b, r.Key)
			b.WriteString(": {")
			for fi, f := range r.Fields {
				if fi > 0 {
					b.WriteByte(',')
				}
				b.WriteString("\n            ")
				writeJSONString(&b, f.Name)
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

// sonicRows holds field lists shared by every port row of one kind; they
// are built once per device and never modified.
type sonicRows struct {
	qosOff, qosOn, qosWD, wd []SONiCField
	queue                    [8][]SONiCField
}

func fieldList(kv ...string) []SONiCField {
	out := make([]SONiCField, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, SONiCField{Name: kv[i], JSON: jsonString(kv[i+1])})
	}
	return out
}

// sonicShared builds the PORT_QOS_MAP, PFC_WD and QUEUE field lists ports share.
func sonicShared(q QoSView, useDSCP, usePCP bool, sched, wred [8]string) *sonicRows {
	pfcList := joinInts(q.PFC, ",")
	var base []string
	if useDSCP {
		base = append(base, "dscp_to_tc_map", SONiCMapName)
	}
	if usePCP {
		base = append(base, "dot1p_to_tc_map", SONiCMapName)
	}
	base = append(base, "tc_to_queue_map", SONiCMapName, "tc_to_pg_map", SONiCMapName, "pfc_to_queue_map", SONiCMapName)
	on := append(append([]string(nil), base...), "pfc_to_pg_map", SONiCMapName, "pfc_enable", pfcList)
	sh := &sonicRows{
		qosOff: fieldList(append(append([]string(nil), base...), "pfc_enable", "")...),
		qosOn:  fieldList(on...),
		qosWD:  fieldList(append(on, "pfcwd_sw_enable", pfcList)...),
	}
	if w := q.Watchdog; w != nil {
		wf := []string{"action", orDefault(w.Action, "drop")}
		if w.DetectionSet {
			wf = append(wf, "detection_time", strconv.FormatInt(w.DetectionMS, 10))
		}
		if w.RestorationSet {
			wf = append(wf, "restoration_time", strconv.FormatInt(w.RestorationMS, 10))
		}
		sh.wd = fieldList(wf...)
	}
	for qid := 0; qid < 8; qid++ {
		var qf []string
		if n := sched[qid]; n != "" {
			qf = append(qf, "scheduler", n)
		}
		if n := wred[qid]; n != "" {
			qf = append(qf, "wred_profile", n)
		}
		if len(qf) > 0 {
			sh.queue[qid] = fieldList(qf...)
		}
	}
	return sh
}

// sortSONiCRows orders rows by key naturally: "Ethernet2|3" before
// "Ethernet10|0" (keys are unique, so the order is total).
func sortSONiCRows(rows []SONiCRow) {
	byKey := func(a, b SONiCRow) int { return schema.NaturalCompare(a.Key, b.Key) }
	if !slices.IsSortedFunc(rows, byKey) {
		slices.SortFunc(rows, byKey)
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// sonicQueues writes SCHEDULER and WRED_PROFILE objects and returns their
// names per queue.
func sonicQueues(s *sonicBuilder, d *schema.Device, q QoSView) ([8]string, [8]string, error) {
	var sched, wred [8]string
	for _, qu := range q.Queues {
		if qu.ShaperBps > 0 {
			return sched, wred, unsupported(d, fmt.Sprintf("queue %d shaper %s", qu.ID, bps(qu.ShaperBps)),
				"a SONiC SCHEDULER pir needs a guaranteed rate (cir) the intent does not model", queueSrc(d, qu.ID))
		}
		switch {
		case qu.Strict:
			sched[qu.ID] = fmt.Sprintf("fabricgen.%d", qu.ID)
			s.set("SCHEDULER", sched[qu.ID], "type", "STRICT")
		case qu.Sched == string(schema.SchedDWRR) || qu.Weight > 0:
			sched[qu.ID] = fmt.Sprintf("fabricgen.%d", qu.ID)
			if qu.Weight < 1 || qu.Weight > 100 {
				return sched, wred, unsupported(d, fmt.Sprintf("queue %d DWRR weight %d", qu.ID, qu.Weight), "a SONiC DWRR weight is 1–100", queueSrc(d, qu.ID))
			}
			s.set("SCHEDULER", sched[qu.ID], "type", "DWRR", "weight", strconv.Itoa(qu.Weight))
		}
		if e := qu.ECN; e != nil {
			name := e.Name
			if !sonicName.MatchString(name) {
				return sched, wred, unsupported(d, "ecn_profile name "+name, "SONiC object names match [a-zA-Z0-9][-a-zA-Z0-9_]{0,31}; rename the profile", queueSrc(d, qu.ID))
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
	return sched, wred, nil
}

// sonicBuffers writes the lossless pool and profile when the intent sets
// buffer values, and returns the profile name for BUFFER_PG ("" if none).
func sonicBuffers(s *sonicBuilder, d *schema.Device, q QoSView) (string, error) {
	bv := q.Buffer
	if bv.IngressLosslessPoolBytes > 0 || bv.HeadroomBytes > 0 {
		fields := []string{"type", "ingress", "mode", "dynamic"}
		if bv.IngressLosslessPoolBytes > 0 {
			fields = append(fields, "size", strconv.FormatInt(bv.IngressLosslessPoolBytes, 10))
		}
		s.set("BUFFER_POOL", "ingress_lossless_pool", fields...)
	}
	if bv.EgressLossyPoolBytes > 0 {
		s.set("BUFFER_POOL", "egress_lossy_pool", "type", "egress", "mode", "dynamic", "size", strconv.FormatInt(bv.EgressLossyPoolBytes, 10))
	}
	if bv.HeadroomBytes == 0 {
		if bv.XOFFBytes != 0 || bv.XONBytes != 0 || bv.DynamicThresholdSet {
			return "", unsupported(d, "buffer xoff/xon/dynamic_threshold without headroom",
				"a SONiC BUFFER_PROFILE needs a size; set buffer.headroom too", bufferSrc(firstQoS(d)))
		}
		return "", nil
	}
	name := "fabricgen_lossless_profile"
	fields := []string{"pool", "ingress_lossless_pool", "size", strconv.FormatInt(bv.HeadroomBytes, 10)}
	if bv.XOFFBytes > 0 {
		fields = append(fields, "xoff", strconv.FormatInt(bv.XOFFBytes, 10))
	}
	if bv.XONBytes > 0 {
		fields = append(fields, "xon", strconv.FormatInt(bv.XONBytes, 10))
	}
	if bv.DynamicThresholdSet {
		fields = append(fields, "dynamic_th", strconv.Itoa(bv.DynamicThreshold))
	}
	s.set("BUFFER_PROFILE", name, fields...)
	return name, nil
}

// sonicACLs writes one ACL_TABLE per ACL and direction, with a rule per
// ACL rule and a closing drop rule (the implicit deny every ACL ends with).
func sonicACLs(f *schema.Fabric, s *sonicBuilder, d *schema.Device, b Base) error {
	for _, a := range b.ACLs {
		for _, m := range a.Marks {
			if m.SetDSCP >= 0 {
				return unsupported(d, fmt.Sprintf("acl %s rule %d set_dscp %d", a.Name, m.Rule.Seq, m.SetDSCP),
					"SONiC ACL rules cannot re-mark DSCP; mark on the host (rdma tos) and classify with the DSCP map", ruleSrc(f, a.Name, m.Rule.Seq))
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
				fields, err := sonicRule(f, d, a.Name, r)
				if err != nil {
					return err
				}
				s.set("ACL_RULE", fmt.Sprintf("%s|RULE_%d", table, r.Seq), fields...)
			}
			s.set("ACL_RULE", table+"|DEFAULT_RULE", "PRIORITY", "1", "PACKET_ACTION", "DROP")
		}
	}
	return nil
}

// sonicRule renders one rule's fields. PRIORITY is 10000 - seq: SONiC
// evaluates higher priorities first, the intent lower sequence numbers.
func sonicRule(f *schema.Fabric, d *schema.Device, acl string, r RuleView) ([]string, error) {
	src := ruleSrc(f, acl, r.Seq)
	if r.Seq < 1 || r.Seq > 9998 {
		return nil, unsupported(d, fmt.Sprintf("acl %s rule seq %d", acl, r.Seq), "fabricgen maps seq to SONiC PRIORITY 10000-seq; use seq 1–9998", src)
	}
	action := "FORWARD"
	if r.Action == string(schema.ActionDeny) {
		action = "DROP"
	}
	fields := []string{"PRIORITY", strconv.Itoa(10000 - r.Seq), "PACKET_ACTION", action}
	switch r.Family {
	case "ipv6":
		fields = append(fields, "IP_TYPE", "IPV6ANY")
	case "ipv4":
		fields = append(fields, "IP_TYPE", "IPV4ANY")
	default:
		fields = append(fields, "IP_TYPE", "IP")
	}
	if r.ProtoNum != 0 {
		fields = append(fields, "IP_PROTOCOL", strconv.Itoa(r.ProtoNum))
	}
	v6 := r.Family == "ipv6"
	if r.Src != "" {
		fields = append(fields, pick(v6, "SRC_IPV6", "SRC_IP"), r.Src)
	}
	if r.Dst != "" {
		fields = append(fields, pick(v6, "DST_IPV6", "DST_IP"), r.Dst)
	}
	for _, pr := range []struct {
		rs       []PortRangeView
		one, rng string
		what     string
	}{{r.SrcPorts, "L4_SRC_PORT", "L4_SRC_PORT_RANGE", "source"}, {r.DstPorts, "L4_DST_PORT", "L4_DST_PORT_RANGE", "destination"}} {
		p, has, ok := singlePort(pr.rs)
		if !ok {
			return nil, unsupported(d, fmt.Sprintf("acl %s rule %d with %d %s port ranges", acl, r.Seq, len(pr.rs), pr.what),
				"a SONiC ACL_RULE matches one port or one range; split the rule", src)
		}
		if has && p.Single {
			fields = append(fields, pr.one, strconv.Itoa(p.From))
		} else if has {
			fields = append(fields, pr.rng, fmt.Sprintf("%d-%d", p.From, p.To))
		}
	}
	switch len(r.DSCP) {
	case 0:
	case 1:
		fields = append(fields, "DSCP", strconv.Itoa(r.DSCP[0]))
	default:
		return nil, unsupported(d, fmt.Sprintf("acl %s rule %d matching %d DSCP values", acl, r.Seq, len(r.DSCP)),
			"a SONiC ACL_RULE matches one DSCP value; split the rule", src)
	}
	return fields, nil
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// wdgSrc is where the watchdog's field was set, else where the watchdog was attached.
func wdgSrc(q *schema.PortQoS, field func(*schema.Watchdog) schema.Range) schema.Range {
	if w := q.Watchdog.V; w != nil {
		if r := field(w); !r.IsZero() {
			return r
		}
	}
	return q.Watchdog.Src
}
