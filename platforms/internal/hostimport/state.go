package hostimport

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
)

// The state form is what fabricgen's host collectors fetch: "$ command"
// lines, each followed by the command's output (push/config HostState,
// platforms/internal/hostcheck). Each command is read by what it shows.

// stateBlock is one command and its output lines.
type stateBlock struct {
	cmd   string
	line  int
	lines []stateLine
}

type stateLine struct {
	n    int
	text string
}

// readState reads collected host state.
func (r *reader) readState(ctx context.Context) error {
	var cur *stateBlock
	n := 0
	start := 0
	for start <= len(r.src) {
		end := indexFrom(r.src, start, '\n')
		n++
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		ln := strings.TrimRight(string(r.src[start:end]), "\r")
		start = end + 1
		if c, ok := strings.CutPrefix(ln, "$ "); ok {
			if cur != nil {
				if err := r.stateBlock(cur); err != nil {
					return err
				}
			}
			cur = &stateBlock{cmd: c, line: n}
			continue
		}
		if cur == nil {
			if t := strings.TrimSpace(ln); t != "" && !strings.HasPrefix(t, "#") {
				return importer.Errorf(r.name, n, "host state has output before its first \"$ command\" line")
			}
			continue
		}
		if strings.TrimSpace(ln) != "" {
			cur.lines = append(cur.lines, stateLine{n: n, text: ln})
		}
	}
	if cur != nil {
		return r.stateBlock(cur)
	}
	return nil
}

// stateBlock reads one command's output.
func (r *reader) stateBlock(b *stateBlock) error {
	lx := newLexer(r.name, []byte(b.cmd))
	var ws []word
	for {
		t, err := lx.next()
		if err != nil {
			return importer.Errorf(r.name, b.line, "the command %q cannot be split into words", importer.Clean(clip(b.cmd)))
		}
		if t.kind == tEOF || t.kind == tOp || t.kind == tComment || t.kind == tNewline {
			break
		}
		ws = append(ws, t.w)
	}
	args, ok := literal(ws)
	if !ok || len(args) == 0 || len(b.lines) == 0 {
		return nil
	}
	out := make([]string, len(b.lines))
	for i, l := range b.lines {
		out[i] = l.text
	}
	first := b.lines[0].n
	switch name := args[0]; {
	case name == "mlnx_qos" && len(args) == 3 && (args[1] == "-i" || args[1] == "--interface"):
		r.mlnxShow(args[2], b.lines)
	case name == "dcb":
		return r.dcbShow(args[1:], b)
	case name == "ip":
		r.ipShow(b.lines)
	case name == "ethtool":
		r.ethtoolShow(args, b.lines)
	case name == "cat":
		files := args[1:]
		for i, l := range b.lines {
			if i < len(files) {
				r.sysfsWrite(l.n, "echo "+strings.TrimSpace(l.text)+" > "+files[i], files[i], strings.TrimSpace(l.text), true, false)
			}
		}
	case name == "cma_roce_tos" || name == "cma_roce_mode":
		r.cmaShow(args, first, out)
	case name == "hostname" && len(args) == 1:
		r.dev.Name = strings.TrimSpace(out[0])
	}
	return nil
}

// ethtoolShow reads ethtool -a (pause), --get-tunable
// pfc-prevention-tout and --show-priv-flags output.
func (r *reader) ethtoolShow(args []string, lines []stateLine) {
	first := lines[0].n
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.text
	}
	switch {
	case len(args) == 2 && !strings.HasPrefix(args[1], "-"):
		// ethtool IF: "Speed: 100000Mb/s" (the check collector reads it).
		for _, l := range lines {
			if m := reSpeed.FindStringSubmatch(l.text); m != nil {
				if v, ok := atoiRange(m[1], 1, 10_000_000); ok {
					r.port(args[1], l.n).speed = int64(v) * 1_000_000
				}
			}
		}
	case len(args) == 3 && (args[1] == "-a" || args[1] == "--show-pause"):
		vals := map[string]string{}
		for _, l := range lines {
			k, v, ok := strings.Cut(l.text, ":")
			if ok {
				vals[strings.TrimSpace(k)] = strings.Fields(v + " x")[0]
			}
		}
		rx, tx := vals["RX"], vals["TX"]
		switch {
		case rx == tx && (rx == "on" || rx == "off"):
			p := r.port(args[2], first)
			on := rx == "on"
			p.pause = &on
			p.qos(first)
		case rx != "" || tx != "":
			r.unmapped(first, "pause rx "+rx+" tx "+tx, "asymmetric 802.3x pause: fabricgen's link_pause sets rx and tx alike")
		}
	case len(args) == 4 && args[1] == "--get-tunable" && args[3] == "pfc-prevention-tout":
		if v, ok := lastInt(strings.Join(out, " ")); ok && v > 0 {
			p := r.port(args[2], first)
			p.tout = int64(v)
			p.qos(first)
		}
	case len(args) == 3 && args[1] == "--show-priv-flags":
		for _, l := range lines {
			k, v, ok := strings.Cut(l.text, ":")
			if ok && strings.TrimSpace(k) == "fw-lldp-agent" && strings.TrimSpace(v) == "off" {
				r.port(args[2], l.n).lldpOff = true
				r.driverHint = "ice"
			}
		}
	}
}

// cmaShow reads cma_roce_tos and cma_roce_mode output (no -t, -m: a read).
func (r *reader) cmaShow(args []string, first int, out []string) {
	switch {
	case args[0] == "cma_roce_tos" && !containsStr(args, "-t"):
		if v, ok := lastInt(strings.Join(out, " ")); ok && v >= 0 && v <= 255 {
			r.setRDMAInt("tos", &r.rdma.ToS, v, first, out[0])
		}
	case args[0] == "cma_roce_mode" && !containsStr(args, "-m"):
		s := strings.ToLower(strings.Join(out, " "))
		switch {
		case strings.HasSuffix(s, "v2") || strings.TrimSpace(s) == "2":
			r.setTransport("roce_v2", first, out[0])
		case strings.HasSuffix(s, "v1") || strings.TrimSpace(s) == "1":
			r.setTransport("roce_v1", first, out[0])
		}
	}
}

func containsStr(a []string, s string) bool {
	for _, x := range a {
		if x == s {
			return true
		}
	}
	return false
}

var reInt = regexp.MustCompile(`\d+`)

func lastInt(s string) (int, bool) {
	all := reInt.FindAllString(s, -1)
	if len(all) == 0 {
		return 0, false
	}
	return atoiRange(all[len(all)-1], 0, 1<<30)
}

var (
	reMlnxTrust = regexp.MustCompile(`^\s*Priority trust state:\s*(\S+)`)
	reMlnxDSCP  = regexp.MustCompile(`^\s*prio:\s*(\d+)\s+dscp:\s*([\d,\s]*)$`)
	reMlnxPFC   = regexp.MustCompile(`^\s*enabled\s+([\d\s]+)$`)
	reMlnxTC    = regexp.MustCompile(`^\s*tc:\s*(\d+)\s+ratelimit:\s*([^,]+),\s*tsa:\s*(\w+)(?:,\s*bw:\s*(\d+)%)?`)
	reMlnxPrio  = regexp.MustCompile(`^\s*priority:\s*([\d\s,]+)$`)
	reMlnxCable = regexp.MustCompile(`^\s*Cable len:\s*(\d+)`)
	reMlnxBuf   = regexp.MustCompile(`^\s*Receive buffer size`)
	reSpeed     = regexp.MustCompile(`^\s*Speed:\s*(\d+)Mb/s`)
	reIPLink    = regexp.MustCompile(`^\d+:\s+([^:@\s]+)(?:@[^:\s]*)?:\s.*\bmtu (\d+)\b`)
)

// mlnxShow reads the output of mlnx_qos -i IF.
func (r *reader) mlnxShow(dev string, lines []stateLine) {
	p := r.port(dev, lines[0].n)
	r.port(dev, lines[len(lines)-1].n)
	tc := -1
	vendor := false
	var prioTC []int
	for _, l := range lines {
		t := l.text
		switch {
		case reMlnxTrust.MatchString(t):
			v := reMlnxTrust.FindStringSubmatch(t)[1]
			switch {
			case v == "dscp":
				p.trust = "dscp"
			case v == "pcp" && r.fl.MLNX:
				p.trust = "pcp"
			default:
				r.unmapped(l.n, t, "trust "+v+": the platform's render cannot take it back")
				continue
			}
			p.qos(l.n)
		case reMlnxDSCP.MatchString(t):
			m := reMlnxDSCP.FindStringSubmatch(t)
			pr, _ := atoiRange(m[1], 0, 7)
			for _, d := range strings.FieldsFunc(m[2], func(c rune) bool { return c == ',' || c == ' ' || c == '\t' }) {
				d = strings.TrimLeft(d, "0")
				if d == "" {
					d = "0"
				}
				if n, ok := atoiRange(d, 0, 63); ok {
					if p.dscp == nil {
						p.dscp, p.dscpLine = map[int]int{}, l.n
					}
					p.dscp[n] = pr
				}
			}
			p.qos(l.n)
		case reMlnxPFC.MatchString(t):
			f := strings.Fields(reMlnxPFC.FindStringSubmatch(t)[1])
			if len(f) == 8 {
				p.pfc, p.pfcSet = nil, true
				for i, v := range f {
					if v == "1" {
						p.pfc = append(p.pfc, i)
					}
				}
				p.qos(l.n)
			}
		case reMlnxTC.MatchString(t):
			m := reMlnxTC.FindStringSubmatch(t)
			tc, _ = atoiRange(m[1], 0, 7)
			switch m[3] {
			case "strict":
				p.tsa[tc] = "strict"
			case "ets":
				p.tsa[tc] = "ets"
				bw, _ := atoiRange(m[4], 0, 100)
				p.bw[tc], p.bwSet = bw, true
			default:
				if !vendor {
					vendor = true
					r.unmapped(l.n, t, "tsa "+m[3]+": fabricgen schedules a traffic class as strict or ETS only (the vendor TSA is the NIC's own)")
				}
			}
			if rl := strings.TrimSpace(m[2]); rl != "unlimited" {
				if bps, ok := parseGbps(rl); ok {
					p.shaper[tc] = bps
				} else {
					r.unmapped(l.n, t, "ratelimit "+rl+": a rate fabricgen cannot read")
				}
			}
			p.qos(l.n)
		case reMlnxPrio.MatchString(t) && tc >= 0:
			if prioTC == nil {
				prioTC = make([]int, 8)
			}
			for _, s := range strings.FieldsFunc(reMlnxPrio.FindStringSubmatch(t)[1], func(c rune) bool { return c == ',' || c == ' ' }) {
				if pr, ok := atoiRange(s, 0, 7); ok {
					prioTC[pr] = tc
				}
			}
		case reMlnxCable.MatchString(t):
			r.unmapped(l.n, t, "the NIC's cable length (mlnx_qos --cable_len) sizes its PFC headroom; fabricgen renders no NIC buffer setting")
		case reMlnxBuf.MatchString(t):
			r.unmapped(l.n, t, "NIC receive buffer sizes (mlnx_qos --buffer_size); fabricgen renders no NIC buffers")
		}
	}
	if prioTC != nil {
		p.prioTC = prioTC
	}
}

// parseGbps reads mlnx_qos's ratelimit ("25 Gbps", "25.0 Gbps", "25").
func parseGbps(s string) (int64, bool) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, false
	}
	g, err := strconv.ParseFloat(f[0], 64)
	if err != nil || g < 0 || g > 1e6 {
		return 0, false
	}
	unit := 1e9
	if len(f) > 1 && strings.EqualFold(f[1], "mbps") {
		unit = 1e6
	}
	return int64(g * unit), true
}

// ipShow reads ip link show output: each interface's MTU.
func (r *reader) ipShow(lines []stateLine) {
	for _, l := range lines {
		if m := reIPLink.FindStringSubmatch(l.text); m != nil {
			if v, ok := atoiRange(m[2], 68, 65535); ok {
				r.port(m[1], l.n).mtu = v
			}
		}
	}
}

// dcbShow reads dcb [-j] [-N] OBJ show dev IF [SEL] output.
func (r *reader) dcbShow(args []string, b *stateBlock) error {
	jsonOut := false
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if args[i] == "-j" || args[i] == "--json" {
			jsonOut = true
		}
		i++
	}
	if len(args)-i < 4 || args[i+1] != "show" || args[i+2] != "dev" {
		return nil
	}
	obj, dev := args[i], args[i+3]
	first := b.lines[0].n
	var text strings.Builder
	for _, l := range b.lines {
		text.WriteString(l.text)
		text.WriteByte('\n')
	}
	if !jsonOut && !strings.HasPrefix(strings.TrimSpace(b.lines[0].text), "{") {
		r.dcbSettings(first, strings.TrimSpace(b.lines[0].text), obj, "show", dev, strings.Fields(text.String()), true)
		return nil
	}
	if err := jsonDepth(text.String(), r.name, first); err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text.String()), &m); err != nil {
		return importer.Errorf(r.name, first, "dcb -j output is not a JSON object: %s", importer.Clean(clip(err.Error())))
	}
	var toks []string
	add := func(key string, pairs []string) {
		if len(pairs) > 0 {
			toks = append(append(toks, key), pairs...)
		}
	}
	for _, k := range []string{"dscp_prio", "pcp_prio", "default_prio", "prio_pfc", "prio_tc", "tc_tsa", "tc_bw", "tc_maxrate", "order"} {
		raw, ok := m[k]
		if !ok {
			continue
		}
		key := strings.ReplaceAll(k, "_", "-")
		switch k {
		case "dscp_prio", "pcp_prio":
			var pairs [][]any
			if json.Unmarshal(raw, &pairs) != nil {
				r.unmapped(first, k, "dcb -j "+k+" in a shape import cannot read")
				continue
			}
			var ps []string
			for _, pr := range pairs {
				if len(pr) == 2 {
					ps = append(ps, fmt.Sprint(pr[0])+":"+fmt.Sprint(pr[1]))
				}
			}
			add(key, ps)
		case "default_prio", "order":
			var vs []any
			if json.Unmarshal(raw, &vs) != nil {
				continue
			}
			var ps []string
			for _, v := range vs {
				ps = append(ps, fmt.Sprint(v))
			}
			add(key, ps)
		default:
			vs, ok := jsonVector(raw)
			if !ok {
				r.unmapped(first, k, "dcb -j "+k+" in a shape import cannot read")
				continue
			}
			add(key, vs)
		}
	}
	r.dcbSettings(first, strings.TrimSpace(b.lines[0].text), obj, "show", dev, toks, true)
	return nil
}

// jsonVector reads a per-index JSON array or object into "i:v" words
// (booleans as on/off).
func jsonVector(raw json.RawMessage) ([]string, bool) {
	word := func(v any) string {
		switch x := v.(type) {
		case bool:
			if x {
				return "on"
			}
			return "off"
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
		return fmt.Sprint(v)
	}
	var arr []any
	if json.Unmarshal(raw, &arr) == nil {
		out := make([]string, len(arr))
		for i, v := range arr {
			out[i] = strconv.Itoa(i) + ":" + word(v)
		}
		return out, true
	}
	var obj map[string]any
	if json.Unmarshal(raw, &obj) == nil {
		out := make([]string, 0, len(obj))
		for i := 0; i < 8; i++ {
			if v, ok := obj[strconv.Itoa(i)]; ok {
				out = append(out, strconv.Itoa(i)+":"+word(v))
			}
		}
		return out, true
	}
	return nil, false
}

// jsonDepth refuses JSON nested deeper than importer.MaxDepth, at the
// line where it gets too deep.
func jsonDepth(s, file string, line int) error {
	depth, inStr := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '\n':
			line++
		case c == '{' || c == '[':
			depth++
			if depth > importer.MaxDepth {
				return importer.Errorf(file, line, "JSON nested more than %d deep; dcb -j output is at most a few levels", importer.MaxDepth)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}
