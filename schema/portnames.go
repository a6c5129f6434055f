package schema

import (
	"strings"
)

// PortNaming describes the interface names a platform accepts: Check
// reports whether a name is one, Form says in words what they look like
// (for error messages and docs).
type PortNaming struct {
	Check func(name string) bool
	Form  string
}

// portNamings is the port-name rule of every platform, following each
// vendor's running configuration: EOS "Ethernet1", "Ethernet49/1"; NX-OS
// "Ethernet1/1", "Ethernet1/49/1"; Junos "et-0/0/0", "xe-0/0/1:2"; Cumulus
// "swp1", "swp1s0"; SONiC "Ethernet0"; hosts any Linux interface name. A
// new platform adds its line here. The table is never written.
var portNamings = map[Platform]PortNaming{
	AristaEOS: {func(s string) bool { return slashNumbers(s, "Ethernet", 1, 3) },
		`EthernetN, EthernetN/M or EthernetN/M/K (e.g. "Ethernet1", "Ethernet49/1")`},
	CiscoNXOS: {func(s string) bool { return slashNumbers(s, "Ethernet", 2, 3) },
		`EthernetS/P or EthernetS/P/B, written out in full (e.g. "Ethernet1/1", "Ethernet1/49/1")`},
	JuniperJunos: {junosPortName,
		`TYPE-FPC/PIC/PORT with TYPE et, xe, ge or mge, optionally :CHANNEL (e.g. "et-0/0/0", "xe-0/0/1:2")`},
	NvidiaCumulus: {cumulusPortName, `swpN or swpNsM for a breakout (e.g. "swp1", "swp49s0")`},
	SONiC: {func(s string) bool { return slashNumbers(s, "Ethernet", 1, 1) },
		`EthernetN, the CONFIG_DB PORT key (e.g. "Ethernet0", "Ethernet8")`},
	NvidiaMLNX: {linuxIfName, hostPortForm},
	LinuxDCB:   {linuxIfName, hostPortForm},
}

// PortNamingOf returns how platform p names its data ports (see
// portNamings). An unknown platform accepts every name (the platform
// itself is reported).
func PortNamingOf(p Platform) PortNaming {
	if n, ok := portNamings[p]; ok {
		return n
	}
	return PortNaming{func(string) bool { return true }, "any name"}
}

// slashNumbers matches prefix followed by min–max "/"-separated decimal
// numbers.
func slashNumbers(s, prefix string, minGroups, maxGroups int) bool {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return false
	}
	groups := 0
	for {
		n := digitRun(rest)
		if n == 0 {
			return false
		}
		groups++
		rest = rest[n:]
		if rest == "" {
			return groups >= minGroups && groups <= maxGroups
		}
		if rest[0] != '/' {
			return false
		}
		rest = rest[1:]
	}
}

func junosPortName(s string) bool {
	typ, rest, ok := strings.Cut(s, "-")
	if !ok {
		return false
	}
	switch typ {
	case "et", "xe", "ge", "mge":
	default:
		return false
	}
	if port, channel, ok := strings.Cut(rest, ":"); ok {
		if channel == "" || digitRun(channel) != len(channel) {
			return false
		}
		rest = port
	}
	return slashNumbers(rest, "", 3, 3)
}

func cumulusPortName(s string) bool {
	rest, ok := strings.CutPrefix(s, "swp")
	if !ok {
		return false
	}
	n := digitRun(rest)
	if n == 0 {
		return false
	}
	rest = rest[n:]
	if rest == "" {
		return true
	}
	sub, ok := strings.CutPrefix(rest, "s")
	return ok && sub != "" && digitRun(sub) == len(sub)
}

// linuxIfName follows the kernel's dev_valid_name (at most IFNAMSIZ-1
// bytes, not "." or "..") and narrows it to a plain shell word.
func linuxIfName(s string) bool { return checkHostPortName(s) == nil }
