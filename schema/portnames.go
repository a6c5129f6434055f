package schema

import (
	"strings"
)

// PortNaming describes the interface names a platform accepts: Check
// reports whether a name is one, Form says in words what they look like
// (for error messages and docs).
type PortNaming struct {
	Check func(name string) bool
	Form  string
}

// SlashNumbers matches prefix followed by min–max "/"-separated decimal
// numbers: the port names of several switch platforms (EOS "Ethernet49/1").
func SlashNumbers(s, prefix string, minGroups, maxGroups int) bool {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return false
	}
	groups := 0
	for {
		n := digitRun(rest)
		if n == 0 {
			return false
		}
		groups++
		rest = rest[n:]
		if rest == "" {
			return groups >= minGroups && groups <= maxGroups
		}
		if rest[0] != '/' {
			return false
		}
		rest = rest[1:]
	}
}

// linuxIfName follows the kernel's dev_valid_name (at most IFNAMSIZ-1
// bytes, not "." or "..") and narrows it to a plain shell word.
func linuxIfName(s string) bool { return checkHostPortName(s) == nil }

// DigitRun returns the length of the run of ASCII digits s starts with.
func DigitRun(s string) int { return digitRun(s) }

// HostPorts is the port-name rule of the platforms that configure a host
// NIC: a Linux interface name.
func HostPorts() PortNaming { return PortNaming{linuxIfName, hostPortForm} }

// Free-text rules shared by several platforms: the characters refused, and why.
const (
	// CLIRefuse are the characters an interactive switch CLI treats
	// specially.
	CLIRefuse = "?|"
	// CLIWhy says why.
	CLIWhy = "the interactive CLI treats ? as a help request and | as an output filter"
	// ShellRefuse are the characters a shell quotes, expands or recalls
	// history with.
	ShellRefuse = "\"$`\\!'"
	// ShellWhy says why a host refuses them.
	ShellWhy = "host scripts run in a shell"
)
