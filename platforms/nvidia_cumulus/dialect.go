package nvidiacumulus

import (
	"regexp"
	"strings"

	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
)

// dialect is the push dialect of NVIDIA Cumulus Linux 5.x with NVUE, driven
// from its Linux shell. The running config is `nv config show -o commands`
// (one `nv set` per line). fabricgen owns the qos tree; ACLs only where the
// rendered config names them; on interfaces only link mtu, qos and acl
// bindings. Commands per the NVUE command reference ("nv config apply",
// "--confirm", "nv config detach", "nv config diff").
func dialect() *pushdialect.Dialect {
	return &pushdialect.Dialect{
		Platform: name,
		Driver:   pushdialect.DriverGeneric,
		// cumulus@leaf4:mgmt:~$
		Prompt:             `(?m)^[\w.\-@:~/\[\]]{1,80}[#$]\s?$`,
		FailedWhenContains: []string{"Error:", "command not found", "Invalid", "Permission denied"},
		ShowRunning:        "nv config show -o commands",
		Volatile:           []*regexp.Regexp{pushdialect.Re(`^#`)},
		Indent:             4,
		OwnedNames:         pushdialect.OwnedNames(),
		Sections: []pushdialect.Section{
			{Name: "qos", Match: pushdialect.Re(`^nv set qos `)},
			{Name: "acl", Match: pushdialect.Re(`^nv set acl (\S+) `), Named: true},
			{Name: "interface mtu", Match: pushdialect.Re(`^nv set interface (\S+) link mtu \d+$`), Named: true},
			{Name: "interface qos", Match: pushdialect.Re(`^nv set interface (\S+) qos `), Named: true},
			{Name: "interface acl", Match: pushdialect.Re(`^nv set interface (\S+) acl \S+ (?:inbound|outbound)$`), Named: true},
		},
		Negate: func(line string) string {
			return "nv unset " + strings.TrimPrefix(strings.TrimSpace(line), "nv set ")
		},
		Transaction: pushdialect.TxnNVUE,
		Lines:       pushdialect.LinesShellWords,
		Commands:    []string{"nv set", "nv unset"},
		// NVUE answers a ? typed after a command with help, at once
		// (Cumulus Linux user guide, NVUE CLI, "Command Question Mark").
		Unsafe: "?", UnsafeWhy: "the NVUE CLI answers it with help as it is typed",
	}
}
