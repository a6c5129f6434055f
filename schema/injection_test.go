package schema_test

import (
	"strings"
)

// payload is a hostile name as written inside an HCL string, and what
// it tries.
type payload struct {
	name, hcl string
	// meta is true for shell or CLI metacharacters, which are legal in
	// some free text (a description on EOS may say "a; b"); false for
	// what no text may hold (control and invisible characters, length).
	meta bool
}

// injectionPayloads is the corpus of issue 9.
var injectionPayloads = []payload{
	{"command substitution", "e$(reboot)", true},
	{"backticks", "e`reboot`", true},
	{"semicolon", "e;reboot", true},
	{"pipe", "e|reboot", true},
	{"and-and", "e&&reboot", true},
	{"newline and a config line", `x\nusername evil privilege 15`, false},
	{"ESC sequence", `x\u001b[2J`, false},
	{"NUL", `x\u0000y`, false},
	{"zero-width space", `leaf1\u200b`, false},
	{"bidi override", `x\u202ey`, false},
	{"300 characters", strings.Repeat("a", 300), false},
	{"dot-dot", "..", true},
	{"dot", ".", true},
}

// injectionTarget is one place a name goes: the bad file with %s where
// the payload goes, the line of the error and its summary.
type injectionTarget struct {
	what, src, summary string
	line               int
	// text marks free text: only payloads with meta false (and the
	// platform's own specials, metaRefused) must be refused.
	text        bool
	metaRefused []string
	// path marks a local file path: only control and invisible characters
	// are refused (300 characters is a fine path).
	path bool
}

var injectionTargets = []injectionTarget{
	{what: "device label", src: "device \"%s\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n}\n", summary: "Invalid device name", line: 1},
	{what: "device name", src: "device \"x\" {\n  name     = \"%s\"\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n}\n", summary: "Invalid device name", line: 2},
	{what: "switch port", src: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_a\"\n  port \"%s\" {}\n}\n", summary: "Invalid port name", line: 4},
	{what: "host port", src: "device \"x\" {\n  kind     = \"nic\"\n  platform = \"probe_host\"\n  port \"%s\" {}\n}\n", summary: "Invalid port name", line: 4},
	{what: "host ports list", src: "device \"x\" {\n  kind     = \"nic\"\n  platform = \"probe_host\"\n  ports {\n    names = [\"eth1\", \"%s\"]\n  }\n}\n", summary: "Invalid port name", line: 5},
	{what: "acl name", src: "acl \"%s\" {\n  rule {\n    action = \"permit\"\n  }\n}\n", summary: "Invalid acl name", line: 1},
	{what: "acl remark", src: "acl \"x\" {\n  rule {\n    action      = \"permit\"\n    description = \"%s\"\n  }\n}\n", summary: "Invalid description", line: 4, text: true},
	{what: "acl description", src: "acl \"x\" {\n  description = \"%s\"\n  rule {\n    action = \"permit\"\n  }\n}\n", summary: "Invalid description", line: 2, text: true},
	{what: "traffic_class name", src: "traffic_class \"%s\" {\n  priority = 1\n}\n", summary: "Invalid traffic_class name", line: 1},
	{what: "qos_policy name", src: "qos_policy \"%s\" {\n  trust = \"dscp\"\n}\n", summary: "Invalid qos_policy name", line: 1},
	{what: "ecn_profile name", src: "ecn_profile \"%s\" {\n  min_threshold = \"1KB\"\n  max_threshold = \"2KB\"\n}\n", summary: "Invalid ecn_profile name", line: 1},
	{what: "switch port description", src: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_a\"\n  port \"Ethernet1\" {\n    description = \"%s\"\n  }\n}\n", summary: "Invalid description", line: 5, text: true, metaRefused: []string{"pipe"}},
	{what: "host port description", src: "device \"x\" {\n  kind     = \"nic\"\n  platform = \"probe_host\"\n  port \"eth1\" {\n    description = \"%s\"\n  }\n}\n", summary: "Invalid description", line: 5, text: true, metaRefused: []string{"command substitution", "backticks"}},
	{what: "device description", src: "device \"x\" {\n  kind        = \"nic\"\n  platform    = \"probe_host\"\n  description = \"%s\"\n}\n", summary: "Invalid description", line: 4, text: true, metaRefused: []string{"command substitution", "backticks"}},
	{what: "username", src: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  credentials {\n    username = \"%s\"\n    agent    = true\n  }\n}\n", summary: "Invalid username", line: 5},
	{what: "key file", src: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  credentials {\n    key_file = \"%s\"\n  }\n}\n", summary: "Invalid key file path", line: 5, path: true},
	{what: "management address", src: "device \"x\" {\n  kind         = \"leaf\"\n  platform     = \"probe_b\"\n  mgmt_address = \"%s\"\n}\n", summary: "Invalid management address", line: 4},
	{what: "host name", src: "device \"x\" {\n  kind     = \"nic\"\n  platform = \"probe_host\"\n  host     = \"%s\"\n}\n", summary: "Invalid host name", line: 4},
	{what: "fabric name", src: "", summary: "Invalid fabric name", line: 1},
}

// injectionCases crosses the corpus with every place a name goes.
func injectionCases() []badCase {
	var out []badCase
	for _, tg := range injectionTargets {
		for _, p := range injectionPayloads {
			if tg.path && (p.meta || p.name == "300 characters") {
				continue
			}
			if tg.text && p.meta && !contains(tg.metaRefused, p.name) {
				continue
			}
			c := badCase{name: "injection: " + tg.what + ": " + p.name, summary: tg.summary, line: tg.line}
			if tg.what == "fabric name" {
				c.noBase = true
				c.bad = strings.Replace(badBase, `fabric "lab"`, `fabric "`+p.hcl+`"`, 1)
			} else {
				c.bad = strings.Replace(tg.src, "%s", p.hcl, 1)
			}
			out = append(out, c)
		}
	}
	// Names equal after case folding: the second is refused, naming the first.
	out = append(out,
		badCase{name: "injection: device differing in case", bad: "\n\ndevice \"Leaf1\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n}\n",
			summary: "Duplicate device", detail: `as "leaf1"`, line: 3},
		badCase{name: "injection: acl differing in case", bad: "acl \"Roce-Mark\" {\n  rule {\n    action = \"permit\"\n  }\n}\n",
			summary: "Duplicate acl", detail: `"roce-mark"`, line: 1},
		badCase{name: "injection: class differing in case", bad: "traffic_class \"ROCE\" {\n  priority = 1\n}\n",
			summary: "Duplicate traffic_class", detail: `"roce"`, line: 1},
		badCase{name: "injection: policy differing in case", bad: "qos_policy \"Lossless\" {\n  trust = \"dscp\"\n}\n",
			summary: "Duplicate qos_policy", detail: `"lossless"`, line: 1},
		badCase{name: "injection: host ports differing in case", bad: "device \"x\" {\n  kind     = \"nic\"\n  platform = \"probe_host\"\n  port \"eth0\" {}\n  port \"ETH0\" {}\n}\n",
			summary: "Duplicate port", detail: `"eth0"`, line: 5},
		badCase{name: "injection: devices from for_each differing in case", bad: "device \"x\" {\n  for_each = toset([\"gpu1\", \"GPU1\"])\n  kind     = \"nic\"\n  platform = \"probe_host\"\n}\n",
			summary: "Duplicate device", line: 1},
		badCase{name: "injection: host port starting with a dash", bad: "device \"x\" {\n  kind     = \"nic\"\n  platform = \"probe_host\"\n  port \"-rf\" {}\n}\n",
			summary: "Invalid port name", line: 4},
		badCase{name: "injection: host port of 16 bytes", bad: "device \"x\" {\n  kind     = \"nic\"\n  platform = \"probe_host\"\n  port \"eth0123456789012\" {}\n}\n",
			summary: "Port name does not fit the platform", line: 4},
		badCase{name: "injection: host port with a quote", bad: "device \"x\" {\n  kind     = \"nic\"\n  platform = \"probe_host\"\n  port \"e'x\" {}\n}\n",
			summary: "Invalid port name", line: 4},
		badCase{name: "injection: password_env with a newline", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  credentials {\n    password_env = \"PW\\nX\"\n  }\n}\n",
			summary: "Not an environment variable name", line: 5},
		badCase{name: "injection: name from a variable", bad: "variable \"n\" {\n  default = \"e$(reboot)\"\n}\ndevice \"x\" {\n  kind     = \"nic\"\n  platform = \"probe_host\"\n  ports {\n    names = [var.n]\n  }\n}\n",
			summary: "Invalid port name", line: 8},
		badCase{name: "injection: JSON device label", files: map[string]string{"bad.fab.json": "{\"device\": {\n  \"leaf1\\u001b]0;owned\\u0007\": {\"kind\": \"leaf\", \"platform\": \"probe_b\"}\n}}\n"},
			summary: "Invalid device name", file: "bad.fab.json", line: 2},
	)
	return out
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
