package cisconxos

import (
	"regexp"
	"strings"

	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
)

// dialect is the push dialect of Cisco NX-OS (Nexus 9000). Running-config
// form: 2-space indentation, "!Command:", "!Running configuration last done
// at", "!Time:" header comments (volatile, per scrapli_cfg's NX-OS
// patterns), "version" line. Checkpoint commands follow Cisco's NX-OS System
// Management guide ("Configuring Rollback": checkpoint NAME, rollback
// running-config checkpoint NAME, no checkpoint NAME).
func dialect() *pushdialect.Dialect {
	ifChildren := []*regexp.Regexp{
		pushdialect.Re(`^mtu \d+$`),
		pushdialect.Re(`^(no )?priority-flow-control\b`),
		pushdialect.Re(`^service-policy type (qos|queuing|network-qos) (input|output) \S+$`),
		pushdialect.Re(`^ip (port )?access-group \S+ (in|out)$`),
		pushdialect.Re(`^ipv6 traffic-filter \S+ (in|out)$`),
	}
	form := textForm()
	return &pushdialect.Dialect{
		Platform: name,
		Driver:   pushdialect.DriverNetwork,
		Scrapli:  "cisco_nxos",
		// scrapligo's cisco_nxos definition refuses every configuration
		// prompt containing "config-s" (meant for a configuration
		// session, (config-s)#), which also refuses system qos's
		// (config-sys-qos)#: the driver then cannot find its privilege
		// level there, and a rollback from that mode fails. Only the
		// session prompts are excluded here.
		PromptNotContains: map[string][]string{"configuration": {"config-tcl", "(config-s)", "(config-s-"}},
		ShowRunning:       "show running-config",
		Volatile:          form.Volatile,
		Indent:            form.Indent,
		Block:             form.Block,
		Canonical:         form.Canonical,
		OwnedNames:        pushdialect.OwnedNames(),
		Sections: []pushdialect.Section{
			{Name: "pfc watchdog", Match: pushdialect.Re(`^priority-flow-control (watch-dog|fixed-restore|auto-restore|recover)\b`)},
			{Name: "ip access-list", Match: pushdialect.Re(`^ip access-list (\S+)$`), Named: true},
			{Name: "ipv6 access-list", Match: pushdialect.Re(`^ipv6 access-list (\S+)$`), Named: true},
			{Name: "class-map", Match: pushdialect.Re(`^class-map type (?:qos|network-qos|queuing) (?:match-any |match-all )?(\S+)$`), Named: true},
			{Name: "policy-map", Match: pushdialect.Re(`^policy-map type (?:qos|network-qos|queuing) (\S+)$`), Named: true, Ordered: true},
			{Name: "system qos", Match: pushdialect.Re(`^system qos$`)},
			{Name: "interface", Match: pushdialect.Re(`^interface (\S+)$`), Shared: true, Children: ifChildren},
		},
		Negate:       pushdialect.NegateNo,
		InsertBefore: dialectInsertBefore,
		Transaction:  pushdialect.TxnCheckpoint,
		// The NX-OS CLI answers ? with help, reads | as an output
		// filter and runs the commands of a line separated by ";" one
		// after the other (NX-OS takes "conf t ; interface Ethernet1/1
		// ; description x" as three commands, as its on-box Python
		// cli() and NX-API examples use it).
		Lines: pushdialect.LinesCLI, Unsafe: "?|;", UnsafeWhy: "the NX-OS CLI answers ? with help, reads | as an output filter and ; as a command separator",
	}
}

// dialectInsertBefore places a type qos policy-map class in front of
// another: "class NAME insert-before OTHER" (Cisco Nexus 9000 NX-OS
// Quality of Service Configuration Guide, "Configuring Type QoS
// Policies": class [type qos] {class-map-name | class-default}
// [insert-before before-class-name]). Queuing and network-qos classes
// are system classes in a fixed order: no insertion there.
func dialectInsertBefore(line, before string) string {
	f, b := strings.Fields(line), strings.Fields(before)
	if len(f) != 2 || len(b) != 2 || f[0] != "class" || b[0] != "class" || b[1] == "class-default" {
		return ""
	}
	return line + " insert-before " + b[1]
}

// banner spans `banner motd|exec C text C`, where C is any delimiter
// character and the text may run over several lines.
func banner(lines []string, i int) int {
	line := strings.TrimSpace(lines[i])
	f := strings.Fields(line)
	if len(f) < 3 || f[0] != "banner" {
		return 0
	}
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(line, "banner"), " "+f[1]))
	delim := rest[:1]
	if strings.Contains(rest[1:], delim) {
		return 1
	}
	for j := i + 1; j < len(lines); j++ {
		if strings.Contains(lines[j], delim) {
			return j - i + 1
		}
	}
	return 0
}

// textForm is the running-config text form of Cisco NX-OS, the part of
// the dialect config.Parse reads: "!" header comments, the "version"
// line (the device's own, printed anew), 2-space indentation, ACL ports
// by number, banners whole. The reader and the lab emulator's load parse
// with it alone (three regexps to compile, the whole dialect about
// twenty), and dialect takes these fields from it: the text is described
// once.
func textForm() *pushdialect.Dialect {
	return &pushdialect.Dialect{
		Volatile:  []*regexp.Regexp{pushdialect.Re(`^!`), pushdialect.Re(`^version \S+`), pushdialect.Re(`^end$`)},
		Indent:    2,
		Canonical: pushdialect.CanonicalACLPorts,
		Block:     banner,
	}
}
