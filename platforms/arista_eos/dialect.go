package dialect

import (
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// eos is Arista EOS. Running-config form: "!"-separated stanzas, 3-space
// indentation, "! Command:" / "! device:" / "! boot system" header comments
// (volatile, as scrapli_cfg strips them), "end" last. Session commands follow
// Arista's configuration-session documentation (configure session, show
// session-config diffs, commit timer hh:mm:ss, abort), as napalm's EOS driver
// uses them.
func eos() *Dialect {
	ifChildren := []*regexp.Regexp{
		re(`^mtu \d+$`),
		re(`^(no )?qos (trust|cos|dscp)\b`),
		re(`^service-policy type (qos|quality-of-service) input \S+$`),
		re(`^(no )?priority-flow-control\b`),
		re(`^(uc-|mc-)?tx-queue \d+$`),
		re(`^ip(v6)? access-group \S+ (in|out)$`),
		// A qos profile applied to the interface overrides its tx-queue
		// and trust lines: taken over (removed) where fabricgen renders
		// the interface.
		re(`^service-profile \S+$`),
	}
	return &Dialect{
		Platform:    schema.AristaEOS,
		Driver:      DriverNetwork,
		Scrapli:     "arista_eos",
		ShowRunning: "show running-config",
		Volatile: []*regexp.Regexp{
			re(`^!`),
			re(`^end$`),
		},
		Indent:     3,
		Canonical:  canonicalACLPorts,
		OwnedNames: ownedNames(),
		Sections: []Section{
			{Name: "qos map", Match: re(`^qos (map|rewrite|random-detect)\b`)},
			{Name: "pfc watchdog", Match: re(`^priority-flow-control (pause watchdog|all)\b`)},
			{Name: "ip access-list", Match: re(`^ip access-list (?:standard )?(\S+)$`), Named: true},
			{Name: "ipv6 access-list", Match: re(`^ipv6 access-list (\S+)$`), Named: true},
			{Name: "class-map", Match: re(`^class-map type qos (?:match-any |match-all )?(\S+)$`), Named: true},
			{Name: "policy-map", Match: re(`^policy-map type (?:quality-of-service|qos) (\S+)$`), Named: true, Ordered: true},
			{Name: "qos profile", Match: re(`^qos profile (\S+)$`), Named: true},
			{Name: "interface", Match: re(`^interface (\S+)$`), Shared: true, Children: ifChildren},
		},
		Negate:      negateEOS,
		Transaction: TxnSession,
		// The EOS CLI answers ? with help at once and reads | as an
		// output filter (EOS User Manual, "Command-Line Interface").
		Lines: LinesCLI, Unsafe: "?|", UnsafeWhy: "the EOS CLI answers ? with help and reads | as an output filter",
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
