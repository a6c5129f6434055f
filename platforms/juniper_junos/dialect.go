package dialect

import (
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// TxnCommitConfirmed is Junos: an exclusive candidate (configure exclusive),
// set/delete statements in configure exclusive, show | compare, commit confirmed N, verify, then
// commit to confirm; rollback 1 and commit undo a confirmed-pending commit.
const TxnCommitConfirmed Transaction = "commit-confirmed"

// junos is Juniper Junos (QFX) in set form: the running config is read as
// `show configuration | display set`, one statement per line, and changed
// with set/delete statements. Volatile: "## Last commit" and the version
// statement (as scrapli_cfg strips them). fabricgen owns the
// class-of-service hierarchy; firewall filters and interface mtu/filter
// statements only where the rendered config names them. Commands per the
// Junos OS CLI User Guide ("configure exclusive", "Commit a Configuration:
// commit confirmed", "Roll Back Configuration Changes").
func junos() *Dialect {
	return &Dialect{
		Platform:    schema.JuniperJunos,
		Driver:      DriverNetwork,
		Scrapli:     "juniper_junos",
		ShowRunning: "show configuration | display set | no-more",
		Volatile: []*regexp.Regexp{
			re(`^#`),
			re(`^set version `),
			re(`^version `),
		},
		Indent:     4,
		OwnedNames: ownedNames(),
		Sections: []Section{
			{Name: "class-of-service", Match: re(`^set class-of-service `)},
			{Name: "firewall filter", Match: re(`^set firewall family \S+ filter (\S+) `), Named: true},
			{Name: "interface mtu", Match: re(`^set interfaces (\S+) mtu \d+$`), Named: true},
			{Name: "interface filter", Match: re(`^set interfaces (\S+) unit \d+ family \S+ filter `), Named: true},
		},
		Negate: func(line string) string {
			return "delete " + strings.TrimPrefix(strings.TrimSpace(line), "set ")
		},
		Transaction: TxnCommitConfirmed,
		// The Junos CLI answers ? with help and reads | as a pipe to
		// an output command (Junos OS CLI User Guide).
		Lines: LinesCLI, Unsafe: "?|", UnsafeWhy: "the Junos CLI answers ? with help and reads | as a pipe",
	}
}
