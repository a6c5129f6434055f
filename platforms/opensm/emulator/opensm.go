package emulator

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/platforms/opensm/osmconf"
)

// logLine appends one line to /var/log/opensm.log in OpenSM's format
// ("Dec 06 15:36:11 827412 [4C76C0] 0x02 -> text"); past maxLog the older
// half of the log is dropped.
func (s *sm) logLine(level int, text string) {
	now := s.env.Now()
	line := fmt.Sprintf("%s %06d [4C76C0] 0x%02x -> %s\n", now.Format("Jan 02 15:04:05"), now.Nanosecond()/1000, level, text)
	old, _ := s.fs.read(logFile)
	if len(old)+len(line) > maxLog {
		old = old[len(old)/2:]
		if i := strings.IndexByte(old, '\n'); i >= 0 {
			old = old[i+1:]
		}
	}
	if e := s.fs.write(logFile, old+line, false); e != "" {
		// The file system is full: the log keeps only this line, as
		// OpenSM's log would lose what it cannot write.
		_ = s.fs.write(logFile, line, false)
	}
}

// defaults returns OpenSM's default options in dump order.
func defaults() [][2]string {
	var out [][2]string
	for _, l := range strings.Split(strings.TrimSpace(defaultsTable), "\n") {
		k, v, _ := strings.Cut(l, " ")
		out = append(out, [2]string{k, v})
	}
	return out
}

// effective returns the value of every option the file sets: the last
// line of a key with a value (a key alone sets nothing, as OpenSM skips
// it).
func effective(o *osmconf.Options) map[string]string {
	m := map[string]string{}
	for _, l := range o.Lines {
		if l.Value != "" {
			m[l.Key] = l.Value
		}
	}
	return m
}

// options reads opensm.conf as the daemon does: at start a missing or
// unreadable file is the defaults; on a later sweep the options read last
// stay (osm_subn_rescan_conf_files returns without touching them when the
// file is gone).
func (s *sm) options() *osmconf.Options {
	text, e := s.fs.read(confFile)
	if e != "" {
		if s.opts == nil {
			s.opts = &osmconf.Options{}
		}
		return s.opts
	}
	o, err := osmconf.ParseOptions(text)
	if err != nil {
		o = &osmconf.Options{}
	}
	s.opts = o
	return o
}

// option returns the effective value of key: the file's, else the default.
func option(o *osmconf.Options, key string) string {
	if v, ok := effective(o)[key]; ok {
		return v
	}
	for _, kv := range defaults() {
		if kv[0] == key {
			return kv[1]
		}
	}
	return ""
}

// opensm is `opensm -F CONF -c DUMP`: it prints OpenSM's banner with a
// line per option it loads and per unknown key, writes every option
// (the file's value or the default) to DUMP and exits 0, even for a
// missing CONF, as OpenSM 3.3.23 does.
func (s *sm) opensm(args []string) (string, string, int) {
	conf, dump := "", ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (string, bool) {
			if i+1 >= len(args) {
				return "", false
			}
			i++
			return args[i], true
		}
		var ok bool
		switch a {
		case "-F", "--config":
			conf, ok = next()
		case "-c", "--create-config":
			dump, ok = next()
		default:
			return "", "opensm: the lab's opensm runs only as `opensm -F CONF -c DUMP` (the daemon is already running; signal it with pkill -HUP -x opensm)\n", 1
		}
		if !ok {
			return "", "opensm: option requires an argument -- '" + strings.TrimLeft(a, "-")[:1] + "'\n", 1
		}
	}
	if dump == "" {
		return "", "opensm: the lab's opensm runs only as `opensm -F CONF -c DUMP` (the daemon is already running; signal it with pkill -HUP -x opensm)\n", 1
	}
	var b strings.Builder
	b.WriteString("-------------------------------------------------\nOpenSM 3.3.23\n")
	opts := &osmconf.Options{}
	if conf != "" {
		b.WriteString("Config file is `" + conf + "`:\n")
		if text, e := s.fs.read(conf); e == "" {
			if o, err := osmconf.ParseOptions(text); err == nil {
				opts = o
			}
			b.WriteString(" Reading Cached Option File: " + conf + "\n")
		}
	}
	// Each option is parsed as its type; "Loading Cached Option" is
	// printed when the value changes the option (opts_parse_* compare it
	// with the value they hold).
	set := map[string]string{}
	for _, kv := range defaults() {
		set[kv[0]] = kv[1]
	}
	lines := append(append([]osmconf.Option(nil), opts.Lines...), opts.Unknown...)
	sortByLine(lines)
	for _, l := range lines {
		cur, known := set[l.Key]
		switch {
		case !osmconf.Known(l.Key):
			b.WriteString(" Unrecognized token: \"" + l.Key + "\"\n")
		case l.Value == "" || !known:
		default:
			v, ok := typed(l.Value, defaultOf(l.Key))
			if !ok {
				b.WriteString("-E- Parsing error in field " + l.Key + ", expected numeric input received: " + l.Value + "\n")
				continue
			}
			if v != cur {
				b.WriteString(" Loading Cached Option:" + l.Key + " = " + v + "\n")
				set[l.Key] = v
			}
		}
	}
	b.WriteString("Command Line Arguments:\n Creating config file template '" + dump + "'.\n Log File: " + logFile + "\n-------------------------------------------------\n")
	var d strings.Builder
	for _, kv := range defaults() {
		d.WriteString(kv[0] + " " + set[kv[0]] + "\n\n")
	}
	if e := s.fs.write(dump, d.String(), false); e != "" {
		b.WriteString("cannot open file '" + dump + "' for writing: " + e + "\n\nosm_subn_write_conf_file failed!\n")
		return b.String(), "", 255
	}
	return b.String(), "", 0
}

// defaultOf returns an option's default value.
func defaultOf(key string) string {
	for _, kv := range defaults() {
		if kv[0] == key {
			return kv[1]
		}
	}
	return ""
}

// typed parses v as the type of an option whose default is dflt and
// returns it as `opensm -c` writes it: a boolean is TRUE only for "TRUE";
// a number (strtoul, any base) in decimal, or in hex of the default's
// width when the default is hex; anything else as written. ok is false
// for a number that does not parse.
func typed(v, dflt string) (string, bool) {
	switch {
	case dflt == "TRUE" || dflt == "FALSE":
		if v == "TRUE" {
			return "TRUE", true
		}
		return "FALSE", true
	case isHex(dflt):
		n, err := strconv.ParseUint(v, 0, 64)
		if err != nil {
			return "", false
		}
		return fmt.Sprintf("0x%0*x", len(dflt)-2, n), true
	case isDecimal(dflt):
		n, err := strconv.ParseInt(v, 0, 64)
		if err != nil {
			return "", false
		}
		return strconv.FormatInt(n, 10), true
	}
	return v, true
}

func isHex(s string) bool {
	h, ok := strings.CutPrefix(s, "0x")
	if !ok || h == "" {
		return false
	}
	for _, c := range h {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// sortByLine sorts options by line (insertion sort: the two lists are
// each in order already).
func sortByLine(ls []osmconf.Option) {
	for i := 1; i < len(ls); i++ {
		for j := i; j > 0 && ls[j].Line < ls[j-1].Line; j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
}

// signals pkill takes, by name and number.
var signals = map[string]string{
	"HUP": "HUP", "SIGHUP": "HUP", "1": "HUP",
	"TERM": "TERM", "SIGTERM": "TERM", "15": "TERM",
	"KILL": "KILL", "SIGKILL": "KILL", "9": "KILL",
	"INT": "TERM", "SIGINT": "TERM", "2": "TERM",
	"0": "0",
}

// pkill signals the processes whose name matches (-x: exactly): only
// opensm is a process of this host the flow may signal. SIGHUP makes the
// daemon sweep again with its files re-read; TERM, INT and KILL stop it.
// No process matched: status 1, no output.
func (s *sm) pkill(args []string) (string, string, int) {
	sig, exact := "TERM", false
	var pattern []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-x" || a == "--exact":
			exact = true
		case a == "--signal" && i+1 < len(args):
			i++
			v, ok := signals[strings.ToUpper(args[i])]
			if !ok {
				return "", "pkill: Unknown signal \"" + args[i] + "\"\n", 2
			}
			sig = v
		case strings.HasPrefix(a, "-") && len(a) > 1:
			v, ok := signals[strings.ToUpper(a[1:])]
			if !ok {
				return "", "pkill: invalid option -- '" + a[1:2] + "'\n\nUsage:\n pkill [options] <pattern>\n", 2
			}
			sig = v
		default:
			pattern = append(pattern, a)
		}
	}
	if len(pattern) != 1 {
		if len(pattern) == 0 {
			return "", "pkill: no matching criteria specified\nTry `pkill --help' for more information.\n", 2
		}
		return "", "pkill: only one pattern can be provided\nTry `pkill --help' for more information.\n", 2
	}
	match := pattern[0] == "opensm" || !exact && pattern[0] != "" && strings.Contains("opensm", pattern[0])
	if !match || !s.running {
		return "", "", 1
	}
	switch sig {
	case "HUP":
		s.sweep()
	case "TERM", "KILL":
		s.running = false
		s.logLine(0x80, "Exiting SM")
	}
	return "", "", 0
}

// pidof prints the daemon's pid.
func (s *sm) pidof(args []string) (string, string, int) {
	for _, a := range args {
		if a == "opensm" && s.running {
			return strconv.Itoa(s.pid) + "\n", "", 0
		}
	}
	return "", "", 1
}

// routingEngine is the first engine of routing_engine, as OpenSM names it
// in its "tables configured" line.
func routingEngine(o *osmconf.Options) string {
	v := option(o, "routing_engine")
	first, _, _ := strings.Cut(v, ",")
	first = strings.TrimSpace(first)
	if first == "" || first == "(null)" {
		return "minhop"
	}
	return first
}

// sweep is a heavy sweep after (re)reading the files: the partitions
// (the CA port's P_Keys), routing, the QoS policy (parsed and validated;
// a rejected policy logs OpenSM's errors and is not applied, which does
// not change the tables) and, with qos TRUE, the SL-to-VL and VL
// arbitration tables from opensm.conf's qos_* options.
func (s *sm) sweep() {
	o := s.options()
	s.partitions(option(o, "partition_config_file"))
	s.logLine(0x02, "osm_ucast_mgr_process: "+routingEngine(o)+" tables configured on all switches")
	if o.QoSEnabled() {
		s.policy(option(o, "qos_policy_file"))
		s.program(o)
	}
	s.logLine(0x02, "SUBNET UP")
}

// defaultPolicy is OSM_DEFAULT_QOS_POLICY_FILE: its absence is no error.
const defaultPolicy = "/etc/opensm/qos-policy.conf"

// policy loads the QoS policy file and logs what OpenSM logs for it
// (opensm/osm_qos_parser_y.y osm_qos_parse_policy_file): a missing file is
// ERR AC01 unless it is the default path (then only a verbose line, not
// in the log at the default level), "Loading QoS policy file" the first
// time a file opens, then the parse and validation errors.
func (s *sm) policy(path string) {
	text, e := s.fs.read(path)
	if e != "" {
		if path != defaultPolicy {
			s.logLine(0x01, "osm_qos_parse_policy_file: ERR AC01: Failed opening QoS policy file "+path+" - "+e)
		}
		return
	}
	if !s.policyLoaded {
		s.policyLoaded = true
		s.logLine(0x02, "osm_qos_parse_policy_file: Loading QoS policy file ("+path+")")
	}
	p, err := osmconf.ParsePolicy(text)
	if err != nil {
		var pe *osmconf.PolicyError
		if errors.As(err, &pe) {
			s.logLine(0x01, fmt.Sprintf("yyerror: ERR AC05: Syntax error (line %d:%d): %s", pe.Line, pe.Col, pe.Msg))
		} else {
			s.logLine(0x01, "yyerror: ERR AC05: Syntax error: "+err.Error())
		}
		s.logLine(0x01, "osm_qos_parse_policy_file: ERR AC03: Failed parsing QoS policy file ("+path+")")
		return
	}
	// The qos-ulps IPoIB rules are checked against the partitions while
	// the file is parsed: the first one OpenSM refuses fails the parse.
	if bad := p.CheckPartitions(s.parts); len(bad) > 0 {
		line, col, msg := ulpError(text, bad[0])
		s.logLine(0x01, fmt.Sprintf("yyerror: ERR AC05: Syntax error (line %d:%d): %s", line, col, msg))
		s.logLine(0x01, "osm_qos_parse_policy_file: ERR AC03: Failed parsing QoS policy file ("+path+")")
		return
	}
	problems := p.Problems()
	for _, pr := range problems {
		// Problems add our explanation after " — "; the log has
		// OpenSM's own words.
		own, _, _ := strings.Cut(pr, " — ")
		s.logLine(0x01, "osm_qos_policy_validate: "+own)
	}
	if len(problems) > 0 {
		s.logLine(0x01, "osm_qos_parse_policy_file: ERR AC04: Error(s) in QoS policy file ("+path+")")
	}
}

// ulpError splits one of CheckPartitions' findings ("line N: MSG (OpenSM
// ...)") into the line, the column OpenSM's lexer reports (just after the
// rule's ':', measured: line 54:23 for "  ipoib, pkey 0x8001 : 3") and
// OpenSM's message.
func ulpError(text, finding string) (int, int, string) {
	rest, _ := strings.CutPrefix(finding, "line ")
	num, msg, _ := strings.Cut(rest, ": ")
	msg, _, _ = strings.Cut(msg, " (OpenSM")
	line, err := strconv.Atoi(num)
	if err != nil {
		return 0, 0, msg
	}
	col := 0
	if lines := strings.Split(text, "\n"); line >= 1 && line <= len(lines) {
		col = strings.LastIndexByte(lines[line-1], ':') + 2
	}
	return line, col, msg
}

// partitions programs the CA port's P_Key table from the partitions file:
// the default partition (0xffff: the SM's port is a full member) at index
// 0, then each partition, in file order, with a member naming this port
// (SELF, ALL, ALL_CAS or its GUID), bit 15 set for a full member. A
// missing file is the default partition alone; a file OpenSM cannot
// parse is logged and the default configuration used.
func (s *sm) partitions(path string) {
	keys := []uint16{0xffff}
	s.parts = nil
	text, e := s.fs.read(path)
	if e == "" {
		parts, err := osmconf.ParsePartitions(text)
		if err != nil {
			s.logLine(0x01, "parse_part_conf: PARSE ERROR: "+err.Error())
			s.logLine(0x01, "osm_prtn_make_partitions: Partition configuration in error; retrying with default config")
			parts = nil
		}
		s.parts = parts
		index := map[uint16]int{0x7fff: 0}
		for _, p := range parts {
			full, member := false, false
			for _, m := range p.Members {
				switch {
				case m.Name == "SELF" || m.Name == "ALL" || m.Name == "ALL_CAS" || m.GUID != 0 && m.GUID == s.guid:
					member = true
					full = full || m.Full || m.Both
				}
			}
			if !member {
				continue
			}
			k := p.PKey & 0x7fff
			i, seen := index[k]
			if !seen {
				i = len(keys)
				index[k] = i
				keys = append(keys, k)
			}
			if full {
				keys[i] |= 0x8000
			}
			if len(keys) == pkeyCap {
				break
			}
		}
	}
	s.pkeys = keys
}

// pkeyCap is the CA port's P_Key table size.
const pkeyCap = 64

// opVLMask is the mask OpenSM applies to a VL for a port's operational
// VLs (max_op_vls 1: VL0, 2: VL0-1, 3: VL0-3, 4: VL0-7, 5: VL0-14).
func opVLMask(op int) int {
	switch op {
	case 1:
		return 0
	case 2:
		return 1
	case 3:
		return 3
	case 4:
		return 7
	}
	return 15
}

// program sets the tables from opensm.conf's qos_ca_* (the CA port) and
// qos_swe_* (every switch port; the base switch port 0 has no VL tables
// to set) sets. Measured under ibsim on this host's topology (every leaf
// port cabled to an HCA, TestSameAsRealOpenSM): every port runs
// min(max_op_vls, 4) operational VLs (VLCap 8); a VL above them is masked
// (VL15 in SL-to-VL stays VL15, VL15 in a VL arbitration table becomes
// VL0), weights wrap at 256 and entries beyond the tables' 8 are dropped.
// A set that osmconf refuses leaves its tables as they were.
func (s *sm) program(o *osmconf.Options) {
	v, _ := typed(option(o, "max_op_vls"), "5")
	maxOp, err := strconv.Atoi(v)
	if err != nil || maxOp < 1 || maxOp > 5 {
		maxOp = 5
	}
	mask := opVLMask(min(maxOp, 4))
	if ca, err := o.QoS("ca"); err == nil {
		s.ca = tablesOf(ca, mask)
	}
	if swe, err := o.QoS("swe"); err == nil {
		t := tablesOf(swe, mask)
		for p := 1; p <= switchPorts; p++ {
			s.sw[p] = t
		}
	}
}

// tablesOf programs one QoS set on a port with VL mask mask.
func tablesOf(q osmconf.QoSSet, mask int) portTables {
	var t portTables
	for i, vl := range q.SL2VL {
		if vl != 15 {
			vl &= mask
		}
		t.sl2vl[i] = vl
	}
	arb := func(es []osmconf.VLArbEntry) [8]arbEntry {
		var out [8]arbEntry
		for i, e := range es {
			if i == len(out) {
				break
			}
			out[i] = arbEntry{vl: (e.VL % 15) & mask, weight: e.Weight & 0xff}
		}
		return out
	}
	t.low, t.high = arb(q.Low), arb(q.High)
	return t
}
