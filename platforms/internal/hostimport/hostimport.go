// Package hostimport reads a host NIC's setup back into fabricgen's
// vendor-neutral importer.Device, for the two host platforms (nvidia_mlnx,
// linux_dcb). It reads two forms: a setup script (what fabricgen renders
// for a host, or one written by hand: mlnx_qos, cma_roce_tos,
// cma_roce_mode, iproute2 dcb, ethtool, ip link, sysfs and configfs
// writes, with comments, continuations and variables) and the host state
// fabricgen's own collectors read ("$ command" lines, each followed by its
// output: mlnx_qos -i IF, dcb [-j] ... show, ip link show, ethtool -a,
// cat FILE). Nothing is ever run or expanded: a value that needs a shell
// variable, a command substitution or a glob to be known is reported as
// unmapped, with its line.
package hostimport

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/platforms/internal/hostspec"
)

// Flavour is the platform reading: its registry name and whether it is
// MLNX_OFED's (nvidia_mlnx) or upstream iproute2's (linux_dcb). Both read
// every command; they differ in what their render can take back.
type Flavour struct {
	Platform string
	MLNX     bool
}

// maxTextBytes bounds the text of one reported line.
const maxTextBytes = 512

// maxReport bounds the lines listed in Unmapped and in Twice: past it, one
// last line counts the rest, so a huge file cannot grow the report without
// bound and nothing is dropped silently.
const maxReport = 10000

// maxPorts bounds the interfaces of one host (a host has tens, a big one
// hundreds).
const maxPorts = 4096

// Import reads one host file (a setup script or collected host state)
// into a Device. It never runs or expands anything; what it cannot read
// at all is an *importer.Error at the line where reading stopped.
func Import(ctx context.Context, fl Flavour, name string, data []byte) (*importer.Device, error) {
	if err := guard(name, data); err != nil {
		return nil, err
	}
	if bytes.Contains(data, []byte("\r\n")) {
		// CRLF line ends (a script saved on Windows): the shell would
		// choke on them; import reads them as LF, keeping line numbers.
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	r := newReader(fl, name, data)
	var err error
	if isState(data) {
		err = r.readState(ctx)
	} else {
		err = r.readScript(ctx)
	}
	if err == nil {
		err = r.err
	}
	if err != nil {
		return nil, err
	}
	return r.device(), nil
}

// guard refuses what is not a text file of bounded size and line length.
func guard(name string, data []byte) error {
	if len(data) > importer.MaxFileBytes {
		return importer.Errorf(name, 0, "the file is %d bytes, more than the %d a configuration may have; split it or trim it", len(data), importer.MaxFileBytes)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return importer.Errorf(name, 1+bytes.Count(data[:i], []byte{'\n'}), "binary data (a NUL byte): a host script or host state is text; give the script or the collected command output")
	}
	line, start := 1, 0
	for start <= len(data) {
		end := indexFrom(data, start, '\n')
		if end-start > importer.MaxLineBytes {
			return importer.Errorf(name, line, "the line is %d bytes, more than the %d a line may have; is this a script?", end-start, importer.MaxLineBytes)
		}
		start = end + 1
		line++
	}
	return nil
}

// isState reports whether data is collected host state: its first line
// that is not blank or a comment starts with "$ ".
func isState(data []byte) bool {
	for len(data) > 0 {
		end := bytes.IndexByte(data, '\n')
		if end < 0 {
			end = len(data)
		}
		ln := bytes.TrimSpace(data[:end])
		if len(ln) > 0 && ln[0] != '#' {
			return bytes.HasPrefix(ln, []byte("$ "))
		}
		if end == len(data) {
			break
		}
		data = data[end+1:]
	}
	return false
}

// portAcc is what the file sets on one interface, in its own terms.
type portAcc struct {
	name        string
	first, last int
	// qosLines are the runs of lines that decided the port's QoS.
	qosLines [][2]int
	mtu      int
	ip       string
	speed    int64
	pause    *bool
	trust    string
	dscp     map[int]int
	dscpLine int
	defPrio  *int
	pfc      []int
	pfcSet   bool
	prioTC   []int
	tsa      [8]string
	bw       [8]int
	bwSet    bool
	shaper   [8]int64
	tout     int64
	lldpOff  bool
	// ecnNP and ecnRP are the MLNX_OFED DCQCN enables written per priority
	// (-1 unset), with their lines.
	ecnNP, ecnRP         [8]int
	ecnNPLine, ecnRPLine [8]int
	ecnText              [8]string
	// seen maps a setting to the line that first set it (for Twice);
	// dscpSeen does for dscp2prio D (0: not yet).
	seen     map[string]int
	dscpSeen [64]int
}

// reader accumulates one file's settings.
type reader struct {
	fl     Flavour
	name   string
	src    []byte
	ports  map[string]*portAcc
	order  []string
	dev    importer.Device
	rdma   importer.RDMA
	rdmaOn bool
	// rdmaLines are the first lines of the device-wide rdma settings.
	rdmaLines map[string]int
	// fabricgen is true once a fabricgen header comment was read: the
	// "not applied on a host NIC" notes after it are fabricgen's own.
	fabricgen bool
	wd        *importer.Watchdog
	buffer    *importer.Buffer
	ecnNotes  map[int]*importer.ECN
	driver    string
	// driverHint is the driver a command implies (ice: fw-lldp-agent).
	driverHint string
	// twiceLine is the last line reported twice (one report a line).
	twiceLine int
	// moreUnmapped and moreTwice count the lines past maxReport.
	moreUnmapped, moreTwice int
	lastLine                int
	// err stops reading (too many interfaces).
	err error
}

func newReader(fl Flavour, name string, src []byte) *reader {
	r := &reader{fl: fl, name: name, src: src, ports: map[string]*portAcc{}, rdmaLines: map[string]int{}, ecnNotes: map[int]*importer.ECN{}}
	r.dev.Platform, r.dev.Kind = fl.Platform, "nic"
	r.dev.Src = importer.Span{File: name}
	return r
}

func (r *reader) port(name string, line int) *portAcc {
	p := r.ports[name]
	if p == nil && len(r.order) >= maxPorts {
		if r.err == nil {
			r.err = importer.Errorf(r.name, line, "more than %d interfaces; a host has far fewer: is this one host's script?", maxPorts)
		}
		p = &portAcc{name: name, seen: map[string]int{}}
		return p
	}
	if p == nil {
		p = &portAcc{name: name, first: line, seen: make(map[string]int, 16)}
		for i := range p.ecnNP {
			p.ecnNP[i], p.ecnRP[i] = -1, -1
		}
		r.ports[name] = p
		r.order = append(r.order, name)
	}
	if line > p.last {
		p.last = line
	}
	if line < p.first {
		p.first = line
	}
	return p
}

// set records that line sets key on port p; a key set before is a Twice
// (the later line wins: the shell runs lines in order).
func (r *reader) set(p *portAcc, key string, line int, text string, qos bool) {
	if first, ok := p.seen[key]; ok && first != line && r.twiceLine != line {
		r.twice(p, key, first, line, text)
	} else if !ok {
		p.seen[key] = line
	}
	if qos {
		p.qos(line)
	}
}

// setDSCP is set for "dscp2prio D", the setting a host script writes most
// (64 a port): kept in an array, not as a key.
func (r *reader) setDSCP(p *portAcc, d, line int, text string) {
	if d < 0 || d > 63 {
		r.set(p, "dscp2prio "+strconv.Itoa(d), line, text, true)
		return
	}
	switch first := p.dscpSeen[d]; {
	case first != 0 && first != line && r.twiceLine != line:
		r.twice(p, "dscp2prio "+strconv.Itoa(d), first, line, text)
	case first == 0:
		p.dscpSeen[d] = line
	}
	p.qos(line)
}

// twice reports that line sets key of p again, first set at first.
func (r *reader) twice(p *portAcc, key string, first, line int, text string) {
	r.twiceLine = line
	r.lastLine = max(r.lastLine, line)
	if len(r.dev.Twice) >= maxReport {
		r.moreTwice++
		return
	}
	r.dev.Twice = append(r.dev.Twice, importer.Line{File: r.name, Line: line, Text: clip(text),
		Why: fmt.Sprintf("sets %s of %s again (first at line %d); the later line holds, as the shell runs the lines in order", key, p.name, first)})
}

// unmapped reports a QoS-relevant line no intent expresses.
func (r *reader) unmapped(line int, text, why string) {
	r.lastLine = max(r.lastLine, line)
	if len(r.dev.Unmapped) >= maxReport {
		r.moreUnmapped++
		return
	}
	r.dev.Unmapped = append(r.dev.Unmapped, importer.Line{File: r.name, Line: line, Text: clip(text), Why: why})
}

// clip bounds a reported line's text (on a rune boundary).
func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= maxTextBytes {
		return s
	}
	cut := maxTextBytes
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// setRDMAInt sets one device-wide rdma integer; a second, different value
// is unmapped (the rdma block has one per host).
func (r *reader) setRDMAInt(key string, dst **int, v, line int, text string) {
	if *dst != nil && **dst != v {
		r.unmapped(line, text, fmt.Sprintf("rdma %s %d differs from %d at line %d; fabricgen's rdma block has one %s per host", key, v, **dst, r.rdmaLines[key], key))
		return
	}
	if *dst == nil {
		r.rdmaLines[key] = line
	}
	x := v
	*dst = &x
	r.rdmaOn = true
	r.rdma.Src = append(r.rdma.Src, importer.Span{File: r.name, From: line, To: line})
}

func (r *reader) setTransport(t string, line int, text string) {
	if r.rdma.Transport != "" && r.rdma.Transport != t {
		r.unmapped(line, text, fmt.Sprintf("RoCE mode %s differs from %s at line %d; fabricgen's rdma block has one transport per host", t, r.rdma.Transport, r.rdmaLines["transport"]))
		return
	}
	if t == "roce_v1" && !r.fl.MLNX {
		r.unmapped(line, text, "RoCE v1: linux_dcb has no vendor-neutral RoCE mode switch (upstream rdma_cm uses v2 where the GID allows); import with --platform nvidia_mlnx to keep it")
		return
	}
	if r.rdma.Transport == "" {
		r.rdmaLines["transport"] = line
	}
	r.rdma.Transport = t
	r.rdmaOn = true
	r.rdma.Src = append(r.rdma.Src, importer.Span{File: r.name, From: line, To: line})
}

// device builds the Device from what was read.
func (r *reader) device() *importer.Device {
	d := &r.dev
	// nvidia_mlnx takes no driver attribute (its NIC is mlx5_core).
	switch {
	case r.fl.MLNX:
	case r.driver != "":
		d.Driver = r.driver
	case !r.fabricgen && r.driverHint != "":
		d.Driver = r.driverHint
	}
	for _, name := range r.order {
		p := r.ports[name]
		port := &importer.Port{Name: p.name, MTU: p.mtu, IP: p.ip, Routed: p.ip != "", Speed: p.speed,
			Src: importer.Span{File: r.name, From: p.first, To: p.last}}
		port.QoS = r.portQoS(p)
		d.Ports = append(d.Ports, port)
	}
	if r.rdmaOn {
		rd := r.rdma
		d.RDMA = &rd
	}
	r.checkECN()
	if r.moreUnmapped > 0 {
		d.Unmapped = append(d.Unmapped, importer.Line{File: r.name, Line: r.lastLine, Why: fmt.Sprintf("and %d more unmapped lines, not listed (the report lists %d)", r.moreUnmapped, maxReport)})
	}
	if r.moreTwice > 0 {
		d.Twice = append(d.Twice, importer.Line{File: r.name, Line: r.lastLine, Why: fmt.Sprintf("and %d more lines setting something again, not listed (the report lists %d)", r.moreTwice, maxReport)})
	}
	sort.SliceStable(d.Unmapped, func(i, j int) bool { return d.Unmapped[i].Line < d.Unmapped[j].Line })
	sort.SliceStable(d.Twice, func(i, j int) bool { return d.Twice[i].Line < d.Twice[j].Line })
	return d
}

// hasQoS reports whether the file sets any QoS of p.
func (p *portAcc) hasQoS() bool { return len(p.qosLines) > 0 }

// qos records that line decides some of p's QoS (runs of consecutive
// lines are kept as one, so a long file keeps few).
func (p *portAcc) qos(line int) {
	if n := len(p.qosLines); n > 0 {
		last := &p.qosLines[n-1]
		if line >= last[0] && line <= last[1]+1 {
			last[1] = max(last[1], line)
			return
		}
	}
	p.qosLines = append(p.qosLines, [2]int{line, line})
}

// mlx5 reports whether the file's NIC is an mlx5 (MLNX_OFED, or linux_dcb
// on its default driver): its factory DSCP map is priority = DSCP / 8.
func (r *reader) mlx5() bool {
	if r.fl.MLNX {
		return true
	}
	drv := r.driver
	if drv == "" && !r.fabricgen {
		drv = r.driverHint
	}
	return drv == "" || drv == hostspec.DefaultDriver
}

// portQoS is p's effective QoS, nil when the file sets none.
func (r *reader) portQoS(p *portAcc) *importer.QoS {
	if !p.hasQoS() {
		return nil
	}
	q := &importer.QoS{Trust: p.trust, LinkPause: p.pause}
	if p.trust == "" && len(p.dscp) > 0 {
		// mlx5, ice and bnxt switch to DSCP trust with their first DSCP
		// app entry (mlx5e_dcbnl_ieee_setapp).
		q.Trust = "dscp"
	}
	if q.Trust != "dscp" && len(p.dscp) > 0 {
		r.unmapped(p.dscpLine, fmt.Sprintf("%d DSCP→priority entries on %s", len(p.dscp), p.name),
			"DSCP→priority entries on a port that trusts "+q.Trust+": the NIC ignores them, and an intent that trusts PCP has no DSCP map")
	}
	if q.Trust == "dscp" {
		q.DSCP = make(map[int]int, 64)
		for d := 0; d < 64; d++ {
			switch v, ok := p.dscp[d]; {
			case ok:
				q.DSCP[d] = v
			case p.defPrio != nil:
				q.DSCP[d] = *p.defPrio
			case r.mlx5():
				q.DSCP[d] = d >> 3
			}
		}
		if p.defPrio != nil {
			dp := *p.defPrio
			q.DefaultPriority = &dp
		}
	}
	if p.pfcSet {
		q.PFC, q.PFCSet = append([]int(nil), p.pfc...), true
	}
	if p.prioTC != nil {
		q.Queue = make(map[int]int, 8)
		for pr, tc := range p.prioTC {
			q.Queue[pr] = tc
		}
	}
	queue := func(tc int) *importer.Queue {
		if q.Queues == nil {
			q.Queues = map[int]*importer.Queue{}
		}
		if q.Queues[tc] == nil {
			q.Queues[tc] = &importer.Queue{}
		}
		return q.Queues[tc]
	}
	for tc := 0; tc < 8; tc++ {
		switch {
		case p.tsa[tc] == "strict":
			queue(tc).Sched = "strict"
		case p.bwSet && p.bw[tc] > 0:
			w := p.bw[tc]
			qq := queue(tc)
			qq.Sched, qq.Weight = "dwrr", &w
		}
		if p.shaper[tc] > 0 {
			queue(tc).ShaperBps = p.shaper[tc]
		}
		if e, ok := r.ecnNotes[tc]; ok {
			// fabricgen's note names the queue's switch-side profile and
			// its curve.
			c := *e
			queue(tc).ECN = &c
		}
	}
	switch {
	case p.tout > 0:
		w := importer.Watchdog{DetectionMS: p.tout}
		if r.wd != nil {
			w = *r.wd
			w.DetectionMS = p.tout
		}
		q.Watchdog = &w
	case r.wd != nil && len(q.PFC) > 0:
		// A driver without pfc-prevention-tout: fabricgen's note keeps
		// the watchdog.
		w := *r.wd
		q.Watchdog = &w
	}
	if r.buffer != nil {
		b := *r.buffer
		q.Buffer = &b
	}
	q.Src = spans(r.name, p.qosLines)
	return q
}

// spans merges runs of lines into sorted, disjoint spans.
func spans(file string, runs [][2]int) []importer.Span {
	if len(runs) == 0 {
		return nil
	}
	rs := append([][2]int(nil), runs...)
	sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
	var out []importer.Span
	cur := importer.Span{File: file, From: rs[0][0], To: rs[0][1]}
	for _, r := range rs[1:] {
		if r[0] <= cur.To+1 {
			cur.To = max(cur.To, r[1])
			continue
		}
		out = append(out, cur)
		cur = importer.Span{File: file, From: r[0], To: r[1]}
	}
	return append(out, cur)
}

// checkECN turns the DCQCN enables into rdma ecn: both points on the RoCE
// priority (the priority of the ToS's DSCP), the same on every port.
func (r *reader) checkECN() {
	var val *bool
	for _, name := range r.order {
		p := r.ports[name]
		roce := -1
		if r.rdma.ToS != nil && r.dev.Ports != nil {
			for _, port := range r.dev.Ports {
				if port.Name == name && port.QoS != nil && port.QoS.DSCP != nil {
					if v, ok := port.QoS.DSCP[*r.rdma.ToS>>2]; ok {
						roce = v
					}
				}
			}
		}
		for prio := 0; prio < 8; prio++ {
			np, rp := p.ecnNP[prio], p.ecnRP[prio]
			if np < 0 && rp < 0 {
				continue
			}
			line := max(p.ecnNPLine[prio], p.ecnRPLine[prio])
			text := p.ecnText[prio]
			switch {
			case prio != roce:
				why := fmt.Sprintf("DCQCN enable on priority %d of %s, which is not the RoCE priority", prio, name)
				if roce < 0 {
					why = fmt.Sprintf("DCQCN enable on priority %d of %s, but the file gives no rdma ToS and DSCP map to tell the RoCE priority", prio, name)
				}
				r.unmapped(line, text, why+"; fabricgen's rdma ecn enables the RoCE priority only")
			case np != rp || np < 0 || rp < 0:
				r.unmapped(line, text, "DCQCN notification and reaction points differ (or only one is set); fabricgen's rdma ecn sets both alike")
			default:
				on := np == 1
				if val != nil && *val != on {
					r.unmapped(line, text, "DCQCN enable differs between ports; fabricgen's rdma ecn is one setting per host")
					continue
				}
				val = &on
			}
		}
	}
	if val != nil {
		if r.dev.RDMA == nil {
			r.dev.RDMA = &importer.RDMA{}
		}
		v := *val
		r.dev.RDMA.ECN = &v
	}
	sortLines(r.dev.Unmapped)
}

func sortLines(ls []importer.Line) {
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].Line < ls[j].Line })
}

// atoiRange parses a decimal integer within [lo, hi].
func atoiRange(s string, lo, hi int) (int, bool) {
	if s == "" || len(s) > 12 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, false
	}
	return n, true
}

// list8 parses eight comma-separated integers within [lo, hi].
func list8(s string, lo, hi int) ([]int, bool) {
	parts := strings.Split(strings.TrimSuffix(s, ","), ",")
	if len(parts) != 8 {
		return nil, false
	}
	out := make([]int, 8)
	for i, p := range parts {
		n, ok := atoiRange(strings.TrimSpace(p), lo, hi)
		if !ok {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}
