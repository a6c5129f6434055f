package cli

import (
	"strconv"
	"strings"
)

// PortNamer returns a Canonical rewrite for ACL entries that prints the L4
// ports name knows by their names, as EOS and NX-OS store "20 permit tcp
// any any eq 179" as "… eq bgp". Only the port numbers of a tcp or udp
// entry (after eq, neq, gt, lt or range) are rewritten. It walks the
// entry on its own rather than sharing push's canonical form
// (internal/push/dialect), which turns names back into numbers: the lab is
// what push is tested against, so a mistake in one must not be copied into
// the other.
func PortNamer(name func(port int) (string, bool)) func(string) string {
	return func(line string) string {
		f := strings.Fields(line)
		i := 0
		if len(f) > 0 && allDigits(f[0]) {
			i = 1
		}
		if len(f) < i+3 || (f[i] != "permit" && f[i] != "deny") || (f[i+1] != "tcp" && f[i+1] != "udp") {
			return line
		}
		changed := false
		for j := i + 2; j < len(f); j++ {
			switch f[j] {
			case "eq", "neq", "gt", "lt", "range":
			default:
				continue
			}
			for k := j + 1; k < len(f) && allDigits(f[k]); k++ {
				n, err := strconv.Atoi(f[k])
				if err != nil {
					break
				}
				if s, ok := name(n); ok {
					f[k], changed = s, true
				}
			}
		}
		if !changed {
			return line
		}
		return strings.Join(f, " ")
	}
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
