package nvidiacumulus

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/platform"
)

// lldpCommand lists every interface's LLDP neighbour as a table
// (NVUE command reference, Show Commands, LLDP: "nv show interface lldp",
// Cumulus Linux 5.0.0 and later):
//
//	Interface  Speed  Type  Remote Host      Remote Port
//	---------  -----  ----  ---------------  -----------------
//	swp51      1G     swp   spine01          swp1
const lldpCommand = "nv show interface lldp"

// lldp is the platform's LLDP reader for fabricgen import --inventory.
func lldp() platform.LLDP {
	return platform.LLDP{Command: lldpCommand, Parse: parseLLDP}
}

// parseLLDP reads the table of "nv show interface lldp": its columns are
// where the dashes under the header are (a remote host may hold spaces).
// Only switch ports are kept (eth0 goes to the management network).
func parseLLDP(out string) ([]importer.Neighbor, error) {
	lines := strings.Split(strings.ReplaceAll(out, "\r", ""), "\n")
	head := -1
	for i := 0; i+1 < len(lines); i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "Interface") && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "---") {
			head = i
			break
		}
	}
	if head < 0 {
		if s := strings.TrimSpace(out); s == "" || s == "No Data" {
			return nil, nil
		}
		return nil, errors.New("not the table of nv show interface lldp (no Interface header over a line of dashes)")
	}
	cols := lldpColumns(lines[head+1])
	name := func(c [2]int) string { return lldpCell(lines[head], c) }
	local, host, port := -1, -1, -1
	for i, c := range cols {
		switch name(c) {
		case "Interface":
			local = i
		case "Remote Host":
			host = i
		case "Remote Port":
			port = i
		}
	}
	if local < 0 || host < 0 || port < 0 {
		return nil, errors.New("the nv show interface lldp table has no Interface, Remote Host and Remote Port columns")
	}
	var ns []importer.Neighbor
	for _, l := range lines[head+2:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := importer.Neighbor{LocalPort: lldpCell(l, cols[local]), RemoteSystem: lldpCell(l, cols[host]), RemotePort: lldpCell(l, cols[port])}
		if portName(n.LocalPort) && n.RemoteSystem != "" && n.RemotePort != "" {
			ns = append(ns, n)
		}
	}
	return ns, nil
}

// lldpColumns are the columns of a dash line: each from the start of its
// run of dashes to the start of the next (the last to the end of the line).
func lldpColumns(dash string) [][2]int {
	var cols [][2]int
	for i := 0; i < len(dash); {
		if dash[i] == ' ' {
			i++
			continue
		}
		if n := len(cols); n > 0 {
			cols[n-1][1] = i
		}
		cols = append(cols, [2]int{i, -1})
		for i < len(dash) && dash[i] != ' ' {
			i++
		}
	}
	return cols
}

// lldpCell is the trimmed text of line l in column c ("" where the line
// is shorter, or the cut falls inside a character).
func lldpCell(l string, c [2]int) string {
	if c[0] >= len(l) {
		return ""
	}
	end := len(l)
	if c[1] >= 0 && c[1] < end {
		end = c[1]
	}
	s := l[c[0]:end]
	if !utf8.ValidString(s) {
		return ""
	}
	return strings.TrimSpace(s)
}
