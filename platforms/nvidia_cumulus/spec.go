package nvidiacumulus

import (
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// releaseRe is the Cumulus Linux release syntax: MAJOR.MINOR[.PATCH].
var releaseRe = regexp.MustCompile(`^(\d{1,2})\.(\d{1,2})(?:\.(\d{1,2}))?$`)

// spec is what the intent language needs of the platform. Port names
// follow the running configuration: "swp1", "swp49s0" for a breakout.
func spec() schema.PlatformSpec {
	return schema.PlatformSpec{
		Name:  name,
		Ports: schema.PortNaming{Check: portName, Form: `swpN or swpNsM for a breakout (e.g. "swp1", "swp49s0")`},
		Text: schema.TextRule{Refuse: schema.ShellRefuse,
			Why: "NVUE commands run in a shell, where these characters quote, expand or recall history"},
		Release: &schema.ReleaseForm{Re: releaseRe, Groups: []int{1, 2, 3},
			Form: "MAJOR.MINOR[.PATCH]", Example: `"5.15"`, Default: "5.14"},
	}
}

// portName reports whether s is a Cumulus switch port name.
func portName(s string) bool {
	rest, ok := strings.CutPrefix(s, "swp")
	if !ok {
		return false
	}
	n := schema.DigitRun(rest)
	if n == 0 {
		return false
	}
	rest = rest[n:]
	if rest == "" {
		return true
	}
	sub, ok := strings.CutPrefix(rest, "s")
	return ok && sub != "" && schema.DigitRun(sub) == len(sub)
}
