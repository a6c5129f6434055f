package schema

// platformSpec is everything the intent language knows about one
// platform: whether it configures a host NIC, the port names it accepts
// and what it refuses in free text.
type platformSpec struct {
	platform Platform
	// host is true for a platform that configures a host NIC rather than
	// a switch.
	host bool
	// ports is the platform's port-name rule, following the vendor's
	// running configuration.
	ports PortNaming
	// text is what the platform refuses in a description beyond the
	// common rule (checkText), and why; a platform that refuses nothing
	// more says why not.
	text textRule
}

// Free-text rules shared by several platforms: the characters refused, and why.
const (
	cliRefuse   = "?|"
	cliWhy      = "the interactive CLI treats ? as a help request and | as an output filter"
	shellRefuse = "\"$`\\!'"
	shellWhy    = "host scripts run in a shell"
)

// platformTable is schema's one table of platforms, in the stable order
// Platforms returns. A new platform adds its constant (model.go) and its
// row here; TestPlatformTableComplete names a row with an empty field.
// Port names follow each vendor's running configuration: EOS "Ethernet1",
// "Ethernet49/1"; NX-OS "Ethernet1/1", "Ethernet1/49/1"; Junos "et-0/0/0",
// "xe-0/0/1:2"; Cumulus "swp1", "swp1s0"; SONiC "Ethernet0"; hosts any
// Linux interface name. The table is built on each call, so nothing can
// change it. It is an iterator, so that the rows live on the caller's
// stack: a lookup costs no allocation (the loader makes one per device and
// port).
func platformTable(yield func(platformSpec) bool) {
	rows := [...]platformSpec{
		{AristaEOS, false,
			PortNaming{func(s string) bool { return slashNumbers(s, "Ethernet", 1, 3) },
				`EthernetN, EthernetN/M or EthernetN/M/K (e.g. "Ethernet1", "Ethernet49/1")`},
			textRule{cliRefuse, cliWhy}},
		{CiscoNXOS, false,
			PortNaming{func(s string) bool { return slashNumbers(s, "Ethernet", 2, 3) },
				`EthernetS/P or EthernetS/P/B, written out in full (e.g. "Ethernet1/1", "Ethernet1/49/1")`},
			textRule{cliRefuse + ";", "the interactive CLI treats ? as a help request, | as an output filter and ; as a command separator"}},
		{JuniperJunos, false,
			PortNaming{junosPortName,
				`TYPE-FPC/PIC/PORT with TYPE et, xe, ge or mge, optionally :CHANNEL (e.g. "et-0/0/0", "xe-0/0/1:2")`},
			textRule{"\"\\", "Junos set commands quote the text in double quotes"}},
		{NvidiaCumulus, false,
			PortNaming{cumulusPortName, `swpN or swpNsM for a breakout (e.g. "swp1", "swp49s0")`},
			textRule{shellRefuse, "NVUE commands run in a shell, where these characters quote, expand or recall history"}},
		{SONiC, false,
			PortNaming{func(s string) bool { return slashNumbers(s, "Ethernet", 1, 1) },
				`EthernetN, the CONFIG_DB PORT key (e.g. "Ethernet0", "Ethernet8")`},
			// No character beyond the common rule: the text is a JSON
			// string value in CONFIG_DB, which the renderer escapes.
			textRule{"", "CONFIG_DB holds it as a JSON string, which the renderer escapes"}},
		{NvidiaMLNX, true, PortNaming{linuxIfName, hostPortForm}, textRule{shellRefuse, shellWhy}},
		{LinuxDCB, true, PortNaming{linuxIfName, hostPortForm}, textRule{shellRefuse, shellWhy}},
	}
	for _, r := range rows {
		if !yield(r) {
			return
		}
	}
}

// specOf returns platform p's row of platformTable, and false for a
// platform schema does not know.
func specOf(p Platform) (platformSpec, bool) {
	for s := range platformTable {
		if s.platform == p {
			return s, true
		}
	}
	return platformSpec{}, false
}

// platformMap returns platformTable keyed by platform, for callers that
// look up many times.
func platformMap() map[Platform]platformSpec {
	m := map[Platform]platformSpec{}
	for s := range platformTable {
		m[s.platform] = s
	}
	return m
}
