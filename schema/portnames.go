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

// PortNamingOf returns how platform p names its data ports (its row of
// platformTable). An unknown platform accepts every name (the platform
// itself is reported).
func PortNamingOf(p Platform) PortNaming {
	if s, ok := specOf(p); ok {
		return s.ports
	}
	return PortNaming{func(string) bool { return true }, "any name"}
}

// slashNumbers matches prefix followed by min–max "/"-separated decimal
// numbers.
func slashNumbers(s, prefix string, minGroups, maxGroups int) bool {
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

func junosPortName(s string) bool {
	typ, rest, ok := strings.Cut(s, "-")
	if !ok {
		return false
	}
	switch typ {
	case "et", "xe", "ge", "mge":
	default:
		return false
	}
	if port, channel, ok := strings.Cut(rest, ":"); ok {
		if channel == "" || digitRun(channel) != len(channel) {
			return false
		}
		rest = port
	}
	return slashNumbers(rest, "", 3, 3)
}

func cumulusPortName(s string) bool {
	rest, ok := strings.CutPrefix(s, "swp")
	if !ok {
		return false
	}
	n := digitRun(rest)
	if n == 0 {
		return false
	}
	rest = rest[n:]
	if rest == "" {
		return true
	}
	sub, ok := strings.CutPrefix(rest, "s")
	return ok && sub != "" && digitRun(sub) == len(sub)
}

// linuxIfName follows the kernel's dev_valid_name (at most IFNAMSIZ-1
// bytes, not "." or "..") and narrows it to a plain shell word.
func linuxIfName(s string) bool { return checkHostPortName(s) == nil }
