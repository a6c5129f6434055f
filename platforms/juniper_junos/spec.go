package juniperjunos

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// releaseRe is the Junos release syntax: YY.QRN[-SN].
var releaseRe = regexp.MustCompile(`^(\d{2})\.(\d)(?:R(\d{1,2})(?:[-.][A-Za-z0-9]+){0,3})?(?:-EVO)?$`)

// spec is what the intent language needs of the platform. Port names
// follow the running configuration: "et-0/0/0", "xe-0/0/1:2". A device
// may give its model, which selects the family's statements.
func spec() schema.PlatformSpec {
	return schema.PlatformSpec{
		Name: name,
		Ports: schema.PortNaming{Check: portName,
			Form: `TYPE-FPC/PIC/PORT with TYPE et, xe, ge or mge, optionally :CHANNEL (e.g. "et-0/0/0", "xe-0/0/1:2")`},
		Text: schema.TextRule{Refuse: "\"\\", Why: "Junos set commands quote the text in double quotes"},
		Release: &schema.ReleaseForm{Re: releaseRe, Groups: []int{1, 2, 3},
			Form: "YY.QRN[-SN]", Example: `"23.4R1"`, Default: "23.4R1"},
		Attrs: schema.DeviceAttrs{Family: FamilyOf},
	}
}

// portName reports whether s is a Junos interface name.
func portName(s string) bool {
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
		if channel == "" || schema.DigitRun(channel) != len(channel) {
			return false
		}
		rest = port
	}
	return schema.SlashNumbers(rest, "", 3, 3)
}

// FamilyOf returns the family of a juniper_junos model name ("" for the
// default family), matched on its prefix without letter case.
func FamilyOf(model string) (schema.HardwareFamily, error) {
	m := strings.ToLower(model)
	switch {
	case m == "":
		return FamilyQFX5000, nil
	case strings.HasPrefix(m, "qfx10"):
		return FamilyQFX10000, nil
	case strings.HasPrefix(m, "qfx5"), strings.HasPrefix(m, "ex46"):
		return FamilyQFX5000, nil
	case strings.HasPrefix(m, "ex"):
		return FamilyEX, nil
	case strings.HasPrefix(m, "mx"):
		return FamilyMX, nil
	}
	return "", fmt.Errorf("%q is not a model fabricgen renders Junos for: use a QFX5000 (qfx5120-48y, qfx5240-64od, ex4650-48y), QFX10000 (qfx10002-36q), EX (ex4400-48mp) or MX (mx304) model name", model)
}
