package emulator

import (
	"fmt"
	"strconv"
	"strings"
)

// smpquery answers `smpquery -D OP PATH [PORT]` for the two nodes the SM
// port reaches: directed route "0" (its own CA port) and "0,1" (the leaf
// switch on its port 1), in infiniband-diags 3.3.23's shapes.
func (s *sm) smpquery(args []string) (string, string, int) {
	directed := false
	var ops []string
	for _, a := range args {
		switch {
		case a == "-D" || a == "--Direct":
			directed = true
		case strings.HasPrefix(a, "-"):
			return "", "smpquery: the lab's smpquery takes -D only\n", 255
		default:
			ops = append(ops, a)
		}
	}
	if !directed {
		return "", "smpquery: the lab's smpquery answers directed routes only (-D)\n", 255
	}
	if len(ops) < 2 || len(ops) > 3 {
		return "", "smpquery: iberror: failed: missing operation or destination\n", 255
	}
	op, dr := ops[0], ops[1]
	port, hasPort := 0, len(ops) == 3
	if hasPort {
		p, err := strconv.Atoi(ops[2])
		if err != nil || p < 0 || p > 254 {
			return "", "smpquery: iberror: failed: operation " + op + ": invalid port number\n", 255
		}
		port = p
	}
	switch op {
	case "sl2vl", "vlarb", "pkeys":
	default:
		return "", "smpquery: iberror: operation '" + op + "' not supported\n", 255
	}
	var switchNode bool
	switch dr {
	case "0":
	case "0,1":
		switchNode = true
	default:
		return "", fmt.Sprintf("ibwarn: [%d] mad_rpc: _do_madrpc failed; dport (DR path slid 65535; dlid 65535; %s)\nsmpquery: iberror: failed: operation %s: node info query failed\n", s.pid+1000, dr, op), 255
	}
	if switchNode && port > switchPorts || !switchNode && port > 1 {
		return "", "smpquery: iberror: failed: operation " + op + ": invalid port number\n", 255
	}
	head := "DR path slid 65535; dlid 65535; " + dr
	switch op {
	case "sl2vl":
		var b strings.Builder
		b.WriteString("# SL2VL table: " + head + "\n#                 SL: |")
		for i := range 16 {
			fmt.Fprintf(&b, "%2d|", i)
		}
		b.WriteString("\n")
		if !switchNode {
			sl2vlRow(&b, 0, 0, s.ca.sl2vl)
			return b.String(), "", 0
		}
		for in := 0; in <= switchPorts; in++ {
			sl2vlRow(&b, in, port, s.sw[port].sl2vl)
		}
		return b.String(), "", 0
	case "vlarb":
		if switchNode && port == 0 {
			return "# No VLArbitration tables (BSP0): " + head + " port 0\n", "", 0
		}
		t := s.ca
		if switchNode {
			t = s.sw[port]
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# VLArbitration tables: %s port %d LowCap 8 HighCap 8\n", head, port)
		b.WriteString("# Low priority VL Arbitration Table:\n")
		arbRows(&b, t.low)
		b.WriteString("# High priority VL Arbitration Table:\n")
		arbRows(&b, t.high)
		return b.String(), "", 0
	}
	keys := s.pkeys
	if switchNode {
		// The switch's ports enforce nothing: the default partition.
		keys = []uint16{0xffff}
	}
	var b strings.Builder
	for row := 0; row < pkeyCap; row += 8 {
		fmt.Fprintf(&b, "%4d:", row)
		for i := row; i < row+8; i++ {
			var k uint16
			if i < len(keys) {
				k = keys[i]
			}
			fmt.Fprintf(&b, " 0x%04x", k)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%d pkeys capacity for this port\n", pkeyCap)
	return b.String(), "", 0
}

func sl2vlRow(b *strings.Builder, in, out int, vls [16]int) {
	fmt.Fprintf(b, "ports: in %2d, out %2d: |", in, out)
	for _, v := range vls {
		fmt.Fprintf(b, "%2d|", v)
	}
	b.WriteString("\n")
}

func arbRows(b *strings.Builder, es [8]arbEntry) {
	b.WriteString("VL    : |")
	for _, e := range es {
		fmt.Fprintf(b, "%-4s|", fmt.Sprintf("0x%X", e.vl))
	}
	b.WriteString("\nWEIGHT: |")
	for _, e := range es {
		fmt.Fprintf(b, "%-4s|", fmt.Sprintf("0x%X", e.weight))
	}
	b.WriteString("\n")
}
