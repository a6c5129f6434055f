package juniperjunos

import (
	"regexp"
	"strings"

	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
)

// dialect is the push dialect of Juniper Junos (QFX) in set form: the
// running config is read as `show configuration | display set`, one
// statement per line, and changed with set/delete statements. Volatile: "##
// Last commit" and the version statement (as scrapli_cfg strips them).
// fabricgen owns the class-of-service hierarchy; firewall filters and
// interface mtu/filter statements only where the rendered config names them.
// Commands per the Junos OS CLI User Guide ("configure exclusive", "Commit a
// Configuration: commit confirmed", "Roll Back Configuration Changes").
func dialect() *pushdialect.Dialect {
	return &pushdialect.Dialect{
		Platform:    name,
		Driver:      pushdialect.DriverNetwork,
		Scrapli:     "juniper_junos",
		ShowRunning: "show configuration | display set | no-more",
		Volatile: []*regexp.Regexp{
			pushdialect.Re(`^#`),
			pushdialect.Re(`^set version `),
			pushdialect.Re(`^version `),
		},
		Indent:     4,
		OwnedNames: pushdialect.OwnedNames(),
		Sections: []pushdialect.Section{
			{Name: "class-of-service", Match: pushdialect.Re(`^set class-of-service `)},
			{Name: "firewall filter", Match: pushdialect.Re(`^set firewall family \S+ filter (\S+) `), Named: true},
			{Name: "interface mtu", Match: pushdialect.Re(`^set interfaces (\S+) mtu \d+$`), Named: true},
			{Name: "interface filter", Match: pushdialect.Re(`^set interfaces (\S+) unit \d+ family \S+ filter `), Named: true},
		},
		Negate: func(line string) string {
			return "delete " + strings.TrimPrefix(strings.TrimSpace(line), "set ")
		},
		Transaction: pushdialect.TxnCommitConfirmed,
		// The Junos CLI answers ? with help and reads | as a pipe to
		// an output command (Junos OS CLI User Guide).
		Lines: pushdialect.LinesCLI, Unsafe: "?|", UnsafeWhy: "the Junos CLI answers ? with help and reads | as a pipe",
	}
}
