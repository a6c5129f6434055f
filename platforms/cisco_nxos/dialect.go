package dialect

import (
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// nxos is Cisco NX-OS (Nexus 9000). Running-config form: 2-space
// indentation, "!Command:", "!Running configuration last done at", "!Time:"
// header comments (volatile, per scrapli_cfg's NX-OS patterns), "version"
// line. Checkpoint commands follow Cisco's NX-OS System Management guide
// ("Configuring Rollback": checkpoint NAME, rollback running-config
// checkpoint NAME, no checkpoint NAME).
func nxos() *Dialect {
	ifChildren := []*regexp.Regexp{
		re(`^mtu \d+$`),
		re(`^(no )?priority-flow-control\b`),
		re(`^service-policy type (qos|queuing|network-qos) (input|output) \S+$`),
		re(`^ip (port )?access-group \S+ (in|out)$`),
		re(`^ipv6 traffic-filter \S+ (in|out)$`),
	}
	return &Dialect{
		Platform: schema.CiscoNXOS,
		Driver:   DriverNetwork,
		Scrapli:  "cisco_nxos",
		// scrapligo's cisco_nxos definition refuses every configuration
		// prompt containing "config-s" (meant for a configuration
		// session, (config-s)#), which also refuses system qos's
		// (config-sys-qos)#: the driver then cannot find its privilege
		// level there, and a rollback from that mode fails. Only the
		// session prompts are excluded here.
		PromptNotContains: map[string][]string{"configuration": {"config-tcl", "(config-s)", "(config-s-"}},
		ShowRunning:       "show running-config",
		Volatile: []*regexp.Regexp{
			re(`^!`),
			re(`^version \S+`),
			re(`^end$`),
		},
		Indent:     2,
		Canonical:  canonicalACLPorts,
		OwnedNames: ownedNames(),
		Sections: []Section{
			{Name: "pfc watchdog", Match: re(`^priority-flow-control (watch-dog|fixed-restore|auto-restore|recover)\b`)},
			{Name: "ip access-list", Match: re(`^ip access-list (\S+)$`), Named: true},
			{Name: "ipv6 access-list", Match: re(`^ipv6 access-list (\S+)$`), Named: true},
			{Name: "class-map", Match: re(`^class-map type (?:qos|network-qos|queuing) (?:match-any |match-all )?(\S+)$`), Named: true},
			{Name: "policy-map", Match: re(`^policy-map type (?:qos|network-qos|queuing) (\S+)$`), Named: true, Ordered: true},
			{Name: "system qos", Match: re(`^system qos$`)},
			{Name: "interface", Match: re(`^interface (\S+)$`), Shared: true, Children: ifChildren},
		},
		Negate:       negateNo,
		InsertBefore: nxosInsertBefore,
		Transaction:  TxnCheckpoint,
		// The NX-OS CLI answers ? with help, reads | as an output
		// filter and runs the commands of a line separated by ";" one
		// after the other (NX-OS takes "conf t ; interface Ethernet1/1
		// ; description x" as three commands, as its on-box Python
		// cli() and NX-API examples use it).
		Lines: LinesCLI, Unsafe: "?|;", UnsafeWhy: "the NX-OS CLI answers ? with help, reads | as an output filter and ; as a command separator",
	}
}

// nxosInsertBefore places a type qos policy-map class in front of
// another: "class NAME insert-before OTHER" (Cisco Nexus 9000 NX-OS
// Quality of Service Configuration Guide, "Configuring Type QoS
// Policies": class [type qos] {class-map-name | class-default}
// [insert-before before-class-name]). Queuing and network-qos classes
// are system classes in a fixed order: no insertion there.
func nxosInsertBefore(line, before string) string {
	f, b := strings.Fields(line), strings.Fields(before)
	if len(f) != 2 || len(b) != 2 || f[0] != "class" || b[0] != "class" || b[1] == "class-default" {
		return ""
	}
	return line + " insert-before " + b[1]
}
