package aristaeos

import (
	"regexp"
	"strings"

	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
)

// dialect is the push dialect of Arista EOS. Running-config form:
// "!"-separated stanzas, 3-space indentation, "! Command:" / "! device:" /
// "! boot system" header comments (volatile, as scrapli_cfg strips them),
// "end" last. Session commands follow Arista's configuration-session
// documentation (configure session, show session-config diffs, commit timer
// hh:mm:ss, abort), as napalm's EOS driver uses them.
func dialect() *pushdialect.Dialect {
	ifChildren := []*regexp.Regexp{
		pushdialect.Re(`^mtu \d+$`),
		pushdialect.Re(`^(no )?qos (trust|cos|dscp)\b`),
		pushdialect.Re(`^service-policy type (qos|quality-of-service) input \S+$`),
		pushdialect.Re(`^(no )?priority-flow-control\b`),
		pushdialect.Re(`^(uc-|mc-)?tx-queue \d+$`),
		pushdialect.Re(`^ip(v6)? access-group \S+ (in|out)$`),
		// A qos profile applied to the interface overrides its tx-queue
		// and trust lines: taken over (removed) where fabricgen renders
		// the interface.
		pushdialect.Re(`^service-profile \S+$`),
	}
	form := textForm()
	return &pushdialect.Dialect{
		Platform:    name,
		Driver:      pushdialect.DriverNetwork,
		Scrapli:     "arista_eos",
		ShowRunning: "show running-config",
		Volatile:    form.Volatile,
		Indent:      form.Indent,
		Block:       form.Block,
		Canonical:   form.Canonical,
		OwnedNames:  pushdialect.OwnedNames(),
		Sections: []pushdialect.Section{
			{Name: "qos map", Match: pushdialect.Re(`^qos (map|rewrite|random-detect)\b`)},
			{Name: "pfc watchdog", Match: pushdialect.Re(`^priority-flow-control (pause watchdog|all)\b`)},
			{Name: "ip access-list", Match: pushdialect.Re(`^ip access-list (?:standard )?(\S+)$`), Named: true},
			{Name: "ipv6 access-list", Match: pushdialect.Re(`^ipv6 access-list (\S+)$`), Named: true},
			{Name: "class-map", Match: pushdialect.Re(`^class-map type qos (?:match-any |match-all )?(\S+)$`), Named: true},
			{Name: "policy-map", Match: pushdialect.Re(`^policy-map type (?:quality-of-service|qos) (\S+)$`), Named: true, Ordered: true},
			{Name: "qos profile", Match: pushdialect.Re(`^qos profile (\S+)$`), Named: true},
			{Name: "interface", Match: pushdialect.Re(`^interface (\S+)$`), Shared: true, Children: ifChildren},
		},
		Negate:      negateEOS,
		Transaction: pushdialect.TxnSession,
		// The EOS CLI answers ? with help at once and reads | as an
		// output filter (EOS User Manual, "Command-Line Interface").
		Lines: pushdialect.LinesCLI, Unsafe: "?|", UnsafeWhy: "the EOS CLI answers ? with help and reads | as an output filter",
	}
}

// negateEOS undoes a line as EOS does: "no X" for X, and "default X" for
// a "no X" line ("no priority" is undone by "default priority", which
// restores strict priority; plain "priority" is incomplete).
func negateEOS(line string) string {
	t := strings.TrimSpace(line)
	if rest, ok := strings.CutPrefix(t, "no "); ok {
		return "default " + rest
	}
	return "no " + t
}

// banner spans `banner login|motd` and its text up to the line EOF.
func banner(lines []string, i int) int {
	f := strings.Fields(lines[i])
	if len(f) != 2 || f[0] != "banner" {
		return 0
	}
	for j := i + 1; j < len(lines); j++ {
		if strings.TrimRight(lines[j], " \t\r") == "EOF" {
			return j - i + 1
		}
	}
	return 0
}

// textForm is the running-config text form of Arista EOS, the part of
// the dialect config.Parse reads: "!" separators and header comments,
// "end" last, 3-space indentation, ACL ports by number, banners whole.
// The reader and the lab emulator's load parse with it alone (two
// regexps to compile, the whole dialect about twenty), and dialect takes
// these fields from it: the text is described once.
func textForm() *pushdialect.Dialect {
	return &pushdialect.Dialect{
		Volatile:  []*regexp.Regexp{pushdialect.Re(`^!`), pushdialect.Re(`^end$`)},
		Indent:    3,
		Canonical: pushdialect.CanonicalACLPorts,
		Block:     banner,
	}
}
