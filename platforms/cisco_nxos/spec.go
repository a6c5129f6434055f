package cisconxos

import (
	"regexp"

	"github.com/fabricgen/fabricgen/schema"
)

// NX-OS name limits, from the CLI's own help (recorded in Batfish's
// NX-OS grammar, CiscoNxos_common.g4): class-map and policy-map names of
// type qos, queuing and network-qos are 1–40 characters, IP access-list
// names 1–64.
const (
	ClassMapNameLen  = 40
	PolicyMapNameLen = 40
	ACLNameLen       = 64
)

// Prefixes the renderer (view.go) puts before intent names.
const (
	classPrefix     = "FG-DSCP-" // the longest of FG-DSCP- and FG-COS-
	aclPolicyPrefix = "FABRICGEN-IN-"
)

// releaseRe is the NX-OS release syntax: MAJOR.MINOR[(MAINTENANCE)][TRAIN].
// What the release changes: the PFC watchdog restoration renders from
// 9.3(3) (viewNXOSRestores); a device without os_version renders for the
// default, 10.3(2)F, so it gets the restoration ("9.3" without a
// maintenance release counts as before 9.3(3)).
var releaseRe = regexp.MustCompile(`^(\d{1,2})\.(\d{1,2})(?:\((\d{1,3})[a-z]?\))?([A-Z])?$`)

// spec is what the intent language needs of the platform. Port names
// follow the running configuration: "Ethernet1/1", "Ethernet1/49/1".
// A traffic class renders as class-map "FG-DSCP-<class>"; an ACL that
// re-marks DSCP as policy-map "FABRICGEN-IN-<acl>" and class-maps
// "<acl>-<seq>": the name limits check those at load.
func spec() schema.PlatformSpec {
	return schema.PlatformSpec{
		Name: name,
		Ports: schema.PortNaming{
			Check: func(s string) bool { return schema.SlashNumbers(s, "Ethernet", 2, 3) },
			Form:  `EthernetS/P or EthernetS/P/B, written out in full (e.g. "Ethernet1/1", "Ethernet1/49/1")`,
		},
		Text: schema.TextRule{Refuse: schema.CLIRefuse + ";",
			Why: "the interactive CLI treats ? as a help request, | as an output filter and ; as a command separator"},
		Release: &schema.ReleaseForm{Re: releaseRe, Groups: []int{1, 2, 3},
			Form: "MAJOR.MINOR[(MAINTENANCE)][TRAIN]", Example: `"10.3(2)F"`, Default: "10.3(2)F"},
		NameLimits: []schema.NameLimit{
			{Object: schema.NameOfClass, What: "class-map", Prefix: classPrefix, Max: ClassMapNameLen},
			{Object: schema.NameOfACL, What: "access-list", Max: ACLNameLen},
			{Object: schema.NameOfACL, What: "policy-map", Prefix: aclPolicyPrefix, Remarking: true, Max: PolicyMapNameLen},
			{Object: schema.NameOfACL, What: "class-map", SeqSuffix: true, Remarking: true, Max: ClassMapNameLen},
		},
	}
}
