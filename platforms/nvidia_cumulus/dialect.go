package dialect

import (
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// TxnNVUE is Cumulus NVUE: nv set / nv unset stage a pending revision, nv
// config diff shows it, nv config apply --confirm T applies it with an
// automatic rollback, nv config apply --confirm-yes confirms; nv config
// detach discards a pending revision, --confirm-no rolls an applied one back.
const TxnNVUE Transaction = "nvue-revision"

// cumulus is NVIDIA Cumulus Linux 5.x with NVUE, driven from its Linux
// shell. The running config is `nv config show -o commands` (one `nv set`
// per line). fabricgen owns the qos tree; ACLs only where the rendered
// config names them; on interfaces only link mtu, qos and acl bindings.
// Commands per the NVUE command reference ("nv config apply", "--confirm",
// "nv config detach", "nv config diff").
func cumulus() *Dialect {
	return &Dialect{
		Platform: schema.NvidiaCumulus,
		Driver:   DriverGeneric,
		// cumulus@leaf4:mgmt:~$
		Prompt:             `(?m)^[\w.\-@:~/\[\]]{1,80}[#$]\s?$`,
		FailedWhenContains: []string{"Error:", "command not found", "Invalid", "Permission denied"},
		ShowRunning:        "nv config show -o commands",
		Volatile:           []*regexp.Regexp{re(`^#`)},
		Indent:             4,
		OwnedNames:         ownedNames(),
		Sections: []Section{
			{Name: "qos", Match: re(`^nv set qos `)},
			{Name: "acl", Match: re(`^nv set acl (\S+) `), Named: true},
			{Name: "interface mtu", Match: re(`^nv set interface (\S+) link mtu \d+$`), Named: true},
			{Name: "interface qos", Match: re(`^nv set interface (\S+) qos `), Named: true},
			{Name: "interface acl", Match: re(`^nv set interface (\S+) acl \S+ (?:inbound|outbound)$`), Named: true},
		},
		Negate: func(line string) string {
			return "nv unset " + strings.TrimPrefix(strings.TrimSpace(line), "nv set ")
		},
		Transaction: TxnNVUE,
		Lines:       LinesShellWords,
	}
}
