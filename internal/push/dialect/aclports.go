package dialect

import (
	"strconv"
	"strings"
)

// aclPortNumber is the number of a well-known L4 port name as EOS and
// NX-OS print it in an ACL entry, or false. Both show some ports by name
// whatever was typed (a Nexus 9000v "show access-lists": "10 permit tcp any
// any eq www" beside "eq 22" and "eq 443"; EOS's default control-plane ACL
// "permit udp any any eq bfd ttl eq 255"; AVD's intended EOS configs write
// "eq bgp" and "eq isakmp non500-isakmp" so that they match the device).
// The names are the IANA service names; no name has two numbers, so the
// protocol (tcp or udp) is not needed.
func aclPortNumber(name string) (int, bool) {
	for _, p := range aclPortNames {
		if p.name == name {
			return p.port, true
		}
	}
	return 0, false
}

// aclPortNames is aclPortNumber's table, read only.
var aclPortNames = [...]struct {
	name string
	port int
}{
	{"echo", 7},
	{"discard", 9},
	{"daytime", 13},
	{"chargen", 19},
	{"ftp-data", 20},
	{"ftp", 21},
	{"ssh", 22},
	{"telnet", 23},
	{"smtp", 25},
	{"time", 37},
	{"nameserver", 42},
	{"whois", 43},
	{"tacacs", 49},
	{"domain", 53},
	{"bootps", 67},
	{"bootpc", 68},
	{"tftp", 69},
	{"gopher", 70},
	{"finger", 79},
	{"www", 80},
	{"http", 80},
	{"hostname", 101},
	{"pop2", 109},
	{"pop3", 110},
	{"sunrpc", 111},
	{"ident", 113},
	{"nntp", 119},
	{"ntp", 123},
	{"netbios-ns", 137},
	{"netbios-dgm", 138},
	{"netbios-ss", 139},
	{"snmp", 161},
	{"snmptrap", 162},
	{"xdmcp", 177},
	{"bgp", 179},
	{"irc", 194},
	{"dnsix", 195},
	{"mobile-ip", 434},
	{"https", 443},
	{"pim-auto-rp", 496},
	{"isakmp", 500},
	{"exec", 512},
	{"biff", 512},
	{"login", 513},
	{"who", 513},
	{"cmd", 514},
	{"syslog", 514},
	{"lpd", 515},
	{"talk", 517},
	{"rip", 520},
	{"uucp", 540},
	{"klogin", 543},
	{"kshell", 544},
	{"msdp", 639},
	{"ldp", 646},
	{"netconf-ssh", 830},
	{"bfd", 3784},
	{"bfd-echo", 3785},
	{"drip", 3949},
	{"non500-isakmp", 4500},
}

// CanonicalACLPorts rewrites the port names of a tcp or udp ACL entry
// ("20 permit tcp any any eq bgp") to numbers ("… eq 179"), the form
// fabricgen renders, so that a device printing a port by name is not a
// difference; every other line is returned as it is.
func CanonicalACLPorts(line string) string {
	if !strings.Contains(line, "permit") && !strings.Contains(line, "deny") {
		return line // no ACL entry: most lines of a configuration
	}
	f := strings.Fields(line)
	i := 0
	if len(f) > 0 && isDigits(f[0]) {
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
		for k := j + 1; k < len(f); k++ {
			if isDigits(f[k]) {
				continue
			}
			n, ok := aclPortNumber(f[k])
			if !ok {
				break
			}
			f[k], changed = strconv.Itoa(n), true
		}
	}
	if !changed {
		return line
	}
	return strings.Join(f, " ")
}

func isDigits(s string) bool {
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
