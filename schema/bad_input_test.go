package schema_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// baseFile holds badBase; it sorts before bad.fab.hcl, so the loader reads
// the base first and reports conflicts (duplicates, a port used twice) in
// the bad file.
const baseFile = "a-base.fab.hcl"

// badBase is a small valid fabric. Most bad inputs are a second file,
// bad.fab.hcl, loaded next to it, so line numbers in the table are lines of
// that file alone.
const badBase = `fabric "lab" {
  qos_policy = qos_policy.lossless
}

ecn_profile "roce" {
  min_threshold = "150KB"
  max_threshold = "1500KB"
}

pfc_watchdog "standard" {
  detection   = "200ms"
  restoration = "200ms"
}

traffic_class "roce" {
  role     = "roce"
  dscp     = [26]
  priority = 3
  lossless = true
  ecn      = ecn_profile.roce
  weight   = 50
}

traffic_class "cnp" {
  role      = "cnp"
  dscp      = [48]
  priority  = 6
  scheduler = "strict"
}

qos_policy "lossless" {
  trust        = "dscp"
  classes      = [traffic_class.roce, traffic_class.cnp]
  pfc_watchdog = pfc_watchdog.standard
  mtu          = 9216
}

acl "roce-mark" {
  rule {
    action   = "permit"
    protocol = "udp"
    dst_port = 4791
    set_dscp = 26
  }
}

device "leaf1" {
  kind     = "leaf"
  platform = "probe_a"
  port "Ethernet1" { speed = "100G" }
  port "Ethernet2" { speed = "100G" }
}

device "nic1" {
  kind     = "nic"
  platform = "probe_host"
  port "eth0" { speed = "100G" }
}

link "host1" {
  a = "nic1:eth0"
  b = "leaf1:Ethernet1"
}
`

// loadCatalog is the catalog the bad inputs load with: the registry's
// platforms and schema's probe platforms (probe_a, probe_b, probe_asic,
// probe_host), which the table names; what each folder's platform
// refuses is tested in its spec_test.go and on the registry
// (registry_test.go).
func loadCatalog() []schema.PlatformSpec {
	return append(platforms.Catalog(), schema.ProbeCatalog()...)
}

// badCase is one broken input and the diagnostic it must produce.
type badCase struct {
	name string
	// bad is the content of bad.fab.hcl, loaded next to badBase.
	bad string
	// noBase loads bad (if any) without badBase.
	noBase bool
	// files are extra files (name → content) written into the directory.
	files map[string]string
	// setup writes inputs that are too large or too odd for a literal.
	setup func(t *testing.T, dir string)
	// dir replaces the fabric directory (relative to the temp dir).
	dir  string
	vars map[string]string
	env  map[string]string
	// varFiles are -var-file paths, relative to the case's directory.
	varFiles []string
	// summary is a substring of the expected error's summary, detail an
	// optional substring of its detail.
	summary, detail string
	// file and line locate the diagnostic's subject; file "" means bad.fab.hcl,
	// line 0 with noSubject means the diagnostic has no source range.
	file      string
	line      int
	noSubject bool
	// isolate runs the case in a child process, so that a loader crash the
	// runtime cannot recover from (a stack overflow) fails this case only.
	isolate bool
}

func badCases() []badCase {
	return append([]badCase{
		// Syntax.
		{name: "unclosed block", bad: "device \"x\" {\n  kind = \"leaf\"\n",
			summary: "Unclosed configuration block", line: 1},
		{name: "attribute without equals", bad: "traffic_class \"x\" {\n  priority 3\n}\n",
			summary: "Argument or block definition required", line: 2},
		{name: "unterminated string", bad: "fabric \"x\" {\n  description = \"abc\n}\n", noBase: true,
			summary: "Unterminated template string", line: 2},
		{name: "invalid character", bad: "traffic_class \"x\" {\n  priority = 3 @\n}\n",
			summary: "Invalid character", line: 2},
		{name: "missing value", bad: "traffic_class \"x\" {\n  priority =\n}\n",
			summary: "Invalid expression", line: 2},
		{name: "json syntax error", files: map[string]string{"extra.fab.json": "{\n  \"traffic_class\": {\n    \"x\": {\"priority\": 3,}\n  }\n}\n"},
			summary: "Trailing comma in object", file: "extra.fab.json", line: 3},
		{name: "json wrong type", files: map[string]string{"extra.fab.json": "{\"traffic_class\": {\n  \"x\": {\"priority\": \"high\"}\n}}\n"},
			summary: "Incorrect attribute type", file: "extra.fab.json", line: 2},
		{name: "json unknown attribute", files: map[string]string{"extra.fab.json": "{\"traffic_class\": {\"x\": {\n  \"priority\": 1,\n  \"colour\": \"red\"\n}}}\n"},
			summary: "Extraneous JSON object property", detail: "colour", file: "extra.fab.json", line: 3},
		{name: "unknown block type", bad: "widget \"x\" {\n}\n",
			summary: "Unsupported block type", line: 1},
		{name: "unknown attribute", bad: "traffic_class \"x\" {\n  priority = 1\n  colour   = \"red\"\n}\n",
			summary: "Unsupported argument", line: 3},
		{name: "missing required attribute", bad: "\ntraffic_class \"x\" {\n  dscp = [10]\n}\n",
			summary: "Missing required argument", line: 2},

		// ECN curves: bytes, fill levels, or both; never half of one.
		{name: "ecn profile without a curve", bad: "\necn_profile \"x\" {\n  max_probability = 50\n}\n",
			summary: "ECN profile without a curve", detail: "min_threshold and max_threshold", line: 2},
		{name: "ecn profile with one threshold", bad: "\necn_profile \"x\" {\n  min_threshold  = \"150KB\"\n  min_fill_level = 10\n  max_fill_level = 50\n}\n",
			summary: "Incomplete thresholds", line: 2},

		// Release, ASIC, model and driver (issue 13), on the probe
		// platforms; each folder's own forms are in its spec_test.go.
		{name: "asic missing", bad: "\n\ndevice \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_asic\"\n}\n",
			summary: "Missing asic", detail: `asic = "mellanox" | "broadcom"`, line: 3},
		{name: "asic null", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_asic\"\n  asic     = null\n}\n",
			summary: "Missing asic", line: 1},
		{name: "asic misspelt", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_asic\"\n  asic     = \"melanox\"\n}\n",
			summary: "Invalid value for \"asic\"", detail: "mellanox", line: 4},
		{name: "asic on a platform that does not read it", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  asic     = \"broadcom\"\n}\n",
			summary: "Attribute not used by this platform", detail: "probe_asic", line: 4},
		{name: "os_version garbage", bad: "device \"x\" {\n  kind       = \"leaf\"\n  platform   = \"probe_a\"\n  os_version = \"latest\"\n}\n",
			summary: "Invalid os_version", detail: "5.15", line: 4},
		{name: "os_version with letters", bad: "device \"x\" {\n  kind       = \"leaf\"\n  platform   = \"probe_a\"\n  os_version = \"5.15a\"\n}\n",
			summary: "Invalid os_version", detail: "MAJOR.MINOR", line: 4},
		{name: "os_version month 13", bad: "device \"x\" {\n  kind       = \"leaf\"\n  platform   = \"probe_asic\"\n  asic       = \"broadcom\"\n  os_version = \"202313\"\n}\n",
			summary: "Invalid os_version", detail: "YYYYMM", line: 5},
		{name: "os_version number", bad: "device \"x\" {\n  kind       = \"spine\"\n  platform   = \"probe_a\"\n  os_version = 23.4\n}\n",
			summary: "Incorrect attribute type", detail: "os_version", line: 4},
		{name: "os_version on a host", bad: "device \"x\" {\n  kind       = \"nic\"\n  platform   = \"probe_host\"\n  os_version = \"6.1\"\n}\n",
			summary: "Invalid os_version", detail: "takes no os_version", line: 4},
		{name: "model unknown", bad: "device \"x\" {\n  kind     = \"spine\"\n  platform = \"probe_a\"\n  model    = \"ptx10008\"\n}\n",
			summary: "Invalid model", detail: "big-N", line: 4},
		{name: "model on a platform that does not read it", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  model    = \"sn5600\"\n}\n",
			summary: "Attribute not used by this platform", detail: "probe_a", line: 4},
		{name: "driver unknown", bad: "device \"x\" {\n  kind     = \"nic\"\n  platform = \"probe_host\"\n  driver   = \"i40e\"\n}\n",
			summary: "Invalid value for \"driver\"", detail: "mlx5_core", line: 4},
		{name: "driver on a platform that does not read it", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  driver   = \"ice\"\n}\n",
			summary: "Attribute not used by this platform", detail: "probe_host", line: 4},

		{name: "unknown acl in a port", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"Ethernet0\" {\n    acl_in = [acl.roce-mrk]\n  }\n}\n",
			summary: "Reference to undeclared acl", detail: `Did you mean "roce-mark"?`, line: 5},
		// Names that the platform renders longer than it accepts.
		{name: "class name too long for the platform", bad: "traffic_class \"" + strings.Repeat("c", 33) + "\" {\n  priority = 1\n  dscp     = [10]\n}\ndevice \"p\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n}\n",
			summary: "Name too long for the platform", detail: "class-map \"FG-DSCP-" + strings.Repeat("c", 33) + "\", 41 characters", line: 1},
		{name: "re-marking acl name too long for the platform", bad: "acl \"" + strings.Repeat("a", 28) + "\" {\n  rule {\n    action   = \"permit\"\n    set_dscp = 26\n  }\n}\ndevice \"p\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"Ethernet1/1\" {\n    speed  = \"100G\"\n    acl_in = acl." + strings.Repeat("a", 28) + "\n  }\n}\n",
			summary: "Name too long for the platform", detail: "policy-map \"FABRICGEN-IN-", line: 1},
		// Null in a list is no element: dropping it would drop what it
		// stood for (a class from a policy), and a typed null crashed.
		{name: "null class in a list", bad: "qos_policy \"x\" {\n  classes = [traffic_class.roce, null, traffic_class.cnp]\n}\n",
			summary: "Null reference", detail: "null", line: 2},
		{name: "null class through a variable", bad: "variable \"c\" {\n  default = null\n}\nqos_policy \"x\" {\n  classes = [traffic_class.roce, var.c]\n}\n",
			summary: "Null reference", line: 5},
		{name: "null class in a typed list", bad: "qos_policy \"x\" {\n  classes = tolist([\"traffic_class.roce\", null])\n}\n",
			summary: "Null reference", line: 2},
		{name: "null dscp in a list", bad: "traffic_class \"x\" {\n  priority = 1\n  dscp     = [10, null]\n}\n",
			summary: "Null value", line: 3},
		{name: "null port in a typed list", bad: "acl \"x\" {\n  rule {\n    action   = \"permit\"\n    dst_port = tolist([4791, null])\n  }\n}\n",
			summary: "Null value", line: 4},
		{name: "null in a typed map", bad: "qos_policy \"x\" {\n  dscp_map = tomap({\"26\" = 3, \"27\" = null})\n}\n",
			summary: "Null value", line: 2},
		{name: "unknown class as a string", bad: "qos_policy \"x\" {\n  classes = [\"roce\", \"cnpp\"]\n}\n",
			summary: "Reference to undeclared traffic_class", detail: `Did you mean "cnp"?`, line: 2},
		{name: "unknown gateway", bad: "subnet \"x\" {\n  prefix  = \"10.0.0.0/24\"\n  gateway = \"leaf2\"\n}\n",
			summary: "Unknown gateway", detail: `Did you mean "leaf1"?`, line: 3},
		{name: "undeclared variable", bad: "traffic_class \"x\" {\n  priority = var.prio\n}\n",
			summary: "Unsupported attribute", line: 2},
		{name: "undeclared local", bad: "locals {\n  a = 1\n  b = local.c\n}\n",
			summary: "Reference to undeclared local value", line: 3},
		{name: "cycle in locals", bad: "locals {\n  a = local.b + 1\n  b = local.a + 1\n}\n",
			summary: "Cycle in local values", line: 2},
		{name: "each outside for_each", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = each.value\n}\n",
			summary: "Unknown variable", line: 3},

		// Duplicates.
		{name: "duplicate traffic class", bad: "traffic_class \"roce\" {\n  priority = 3\n}\n",
			summary: "Duplicate traffic_class", line: 1},
		{name: "duplicate device", bad: "\ndevice \"leaf1\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n}\n",
			summary: "Duplicate device", line: 2},
		{name: "duplicate device from for_each", bad: "device \"x\" {\n  for_each = toset([\"a\", \"b\"])\n  name     = \"same\"\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n}\n",
			summary: "Duplicate device", line: 3},
		{name: "duplicate port", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"Ethernet0\" {}\n  port \"Ethernet0\" {}\n}\n",
			summary: "Duplicate port", line: 5},
		{name: "duplicate variable", bad: "variable \"n\" {\n  default = 1\n}\nvariable \"n\" {\n  default = 2\n}\n",
			summary: "Duplicate variable", line: 4},
		{name: "duplicate fabric block", bad: "\n\nfabric \"again\" {\n}\n",
			summary: "Duplicate fabric block", line: 3},
		{name: "duplicate acl sequence", bad: "acl \"x\" {\n  rule {\n    seq    = 10\n    action = \"permit\"\n  }\n  rule {\n    seq    = 10\n    action = \"deny\"\n  }\n}\n",
			summary: "Duplicate sequence number", line: 6},
		{name: "dscp in two classes", bad: "traffic_class \"x\" {\n  priority = 1\n  dscp     = [26]\n}\nqos_policy \"p\" {\n  classes = [traffic_class.roce, traffic_class.x]\n}\n",
			summary: "DSCP in two classes", line: 6},
		{name: "missing fabric block", noBase: true, bad: "ecn_profile \"x\" {\n  min_threshold = \"1KB\"\n  max_threshold = \"2KB\"\n}\n",
			summary: "Missing fabric block", line: 1},

		// Links.
		{name: "port used by two links", bad: "link \"again\" {\n  a = \"leaf1:Ethernet2\"\n  b = \"nic1:eth0\"\n}\n",
			summary: "Port used by two links", detail: "host1", line: 3},
		{name: "link to unknown port", bad: "link \"x\" {\n  a = \"leaf1:Ethernet3\"\n  b = \"nic1:eth0\"\n}\n",
			summary: "Link to unknown port", detail: `Did you mean "Ethernet1"?`, line: 2},
		{name: "link to unknown device", bad: "link \"x\" {\n  a = \"leaf1:Ethernet2\"\n  b = \"leaf2:Ethernet1\"\n}\n",
			summary: "Link to unknown device", detail: `Did you mean "leaf1"?`, line: 3},
		{name: "link endpoint without port", bad: "link \"x\" {\n  a = \"leaf1\"\n  b = \"nic1:eth0\"\n}\n",
			summary: "Invalid link endpoint", line: 2},
		{name: "link to itself", bad: "link \"x\" {\n  a = \"leaf1:Ethernet2\"\n  b = \"leaf1:Ethernet2\"\n}\n",
			summary: "Link to itself", line: 3},

		// ACLs, addresses and credentials.
		{name: "port match without protocol", bad: "acl \"x\" {\n  rule {\n    action   = \"permit\"\n    dst_port = 4791\n  }\n}\n",
			summary: "Port match without protocol", line: 2},
		{name: "inverted port range", bad: "acl \"x\" {\n  rule {\n    action   = \"permit\"\n    protocol = \"udp\"\n    dst_port = \"5000-4000\"\n  }\n}\n",
			summary: "Invalid port range", line: 5},
		{name: "set_dscp on deny", bad: "acl \"x\" {\n  rule {\n    action   = \"deny\"\n    set_dscp = 46\n  }\n}\n",
			summary: "set_dscp on a deny rule", line: 4},
		{name: "empty acl", bad: "acl \"x\" {\n}\n",
			summary: "Empty acl", line: 1},
		{name: "subnet prefix with host bits", bad: "subnet \"x\" {\n  prefix = \"10.0.1.1/24\"\n}\n",
			summary: "Invalid prefix", detail: "10.0.1.0/24", line: 2},
		{name: "port ip without length", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"Ethernet0\" {\n    ip = \"10.0.0.1\"\n  }\n}\n",
			summary: "Invalid prefix", line: 5},
		{name: "literal password", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  credentials {\n    username = \"admin\"\n    password = \"hunter2\"\n  }\n}\n",
			summary: "Literal secret", detail: "password_env", line: 6},
		{name: "password_env holding a secret", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  credentials {\n    password_env = \"hunter2!\"\n  }\n}\n",
			summary: "Not an environment variable name", line: 5},
		{name: "rdma on a switch", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  rdma {\n    tos = 106\n  }\n}\n",
			summary: "rdma on a switch", line: 4},

		{name: "device name with a colon", bad: "device \"leaf:1\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n}\n",
			summary: "Invalid device name", line: 1},
		{name: "empty port name", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"\" {}\n}\n",
			summary: "Invalid port name", line: 4},
		{name: "host NIC name longer than IFNAMSIZ", bad: "device \"x\" {\n  kind     = \"nic\"\n  platform = \"probe_host\"\n  port \"enp65s0f0np0verylong\" {}\n}\n",
			summary: "Port name does not fit the platform", line: 4},
		{name: "management port out of range", bad: "device \"x\" {\n  kind         = \"leaf\"\n  platform     = \"probe_b\"\n  mgmt_address = \"192.0.2.1:99999\"\n}\n",
			summary: "Invalid management address", line: 4},
		{name: "zero speed", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"Ethernet0\" {\n    speed = \"0G\"\n  }\n}\n",
			summary: `Invalid value for "speed"`, line: 5},

		{name: "mesh size mismatch", bad: "mesh \"m\" {\n  lower       = [\"leaf1\"]\n  lower_ports = [\"Ethernet2\", \"Ethernet3\"]\n  upper       = [\"nic1\"]\n  upper_ports = [\"eth0\"]\n}\n",
			summary: "Mesh sizes do not match", line: 3},
		{name: "mesh to an unknown device", bad: "mesh \"m\" {\n  lower       = [\"leaf1\"]\n  lower_ports = [\"Ethernet2\"]\n  upper       = [\"spine1\"]\n  upper_ports = [\"Ethernet1\"]\n}\n",
			summary: "Link to unknown device", line: 5},
		{name: "peer to an unknown port", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"Ethernet0\" {\n    peer = \"leaf1:Ethernet7\"\n  }\n}\n",
			summary: "Link to unknown port", line: 5},
		{name: "two peers on one port", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"Ethernet0\" {\n    peer = \"leaf1:Ethernet2\"\n  }\n}\ndevice \"y\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"Ethernet0\" {\n    peer = \"leaf1:Ethernet2\"\n  }\n}\n",
			summary: "Port used by two links", detail: "x:Ethernet0", line: 12},
		{name: "media without peer", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"Ethernet0\" {\n    media = \"dac\"\n  }\n}\n",
			summary: "Link attribute without peer", line: 5},
		{name: "ports names not a list", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  ports {\n    names = \"Ethernet0\"\n  }\n}\n",
			summary: "Incorrect attribute type", line: 5},
		{name: "ports repeating a port", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"Ethernet0\" {}\n  ports {\n    names = [\"Ethernet4\", \"Ethernet0\"]\n  }\n}\n",
			summary: "Duplicate port", line: 6},
		{name: "device name with a slash", bad: "device \"x\" {\n  name     = \"rack1/leaf1\"\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n}\n",
			summary: "Invalid device name", line: 2},
		{name: "management address with a space", bad: "device \"x\" {\n  kind         = \"leaf\"\n  platform     = \"probe_b\"\n  mgmt_address = \"192.0.2.1 22\"\n}\n",
			summary: "Invalid management address", line: 4},

		// Expansion.
		{name: "for_each over a number", bad: "device \"x\" {\n  for_each = 3\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n}\n",
			summary: "Invalid for_each", line: 2},
		{name: "negative count", bad: "link \"x\" {\n  count = -1\n  a     = \"leaf1:Ethernet2\"\n  b     = \"nic1:eth0\"\n}\n",
			summary: "Value out of range", line: 2},
		{name: "for_each and count", bad: "device \"x\" {\n  for_each = toset([\"a\"])\n  count    = 1\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n}\n",
			summary: "Both for_each and count", line: 3},
		{name: "count without name", bad: "device \"x\" {\n  count    = 2\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n}\n",
			summary: "Missing device name", line: 1},
		{name: "function error", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"Ethernet0\" {\n    ip = cidrsubnet(\"10.0.0.0/30\", 4, 1)\n  }\n}\n",
			summary: "Invalid function argument", detail: "cannot add 4 bits", line: 5},

		// Variables.
		{name: "-var for an undeclared variable", vars: map[string]string{"spinez": "4"},
			bad:     "variable \"spines\" {\n  type    = number\n  default = 2\n}\n",
			summary: "Undeclared variable", detail: `Did you mean "spines"?`, file: "-var spinez"},
		// A value from outside the files has no position: the detail
		// names its source and the declaration, and says what is needed.
		{name: "-var of the wrong type", vars: map[string]string{"spines": "many"},
			bad:     "variable \"spines\" {\n  type    = number\n  default = 2\n}\n",
			summary: "Invalid value for variable", noSubject: true,
			detail: `-var spines: "many" is not a number (variable "spines" has type number, declared at `},
		{name: "-var of the wrong list", vars: map[string]string{"spines": `["a", 2]`},
			bad:     "variable \"spines\" {\n  type    = list(number)\n  default = [2]\n}\n",
			summary: "Invalid value for variable", noSubject: true,
			detail: `-var spines: "[\"a\", 2]" is not of type list(number): element 0: a number is required (variable "spines" has type list(number), declared at `},
		{name: "env var of the wrong type", env: map[string]string{"FABRICGEN_VAR_spines": "[1"},
			bad:     "variable \"spines\" {\n  type    = number\n  default = 2\n}\n",
			summary: "Invalid value for variable", noSubject: true,
			detail: `environment variable FABRICGEN_VAR_spines: "[1" is not a number: it does not parse: `},
		{name: "required variable unset", bad: "variable \"spines\" {\n  type = number\n}\n",
			summary: "No value for required variable", line: 1},
		{name: "default of the wrong type", bad: "variable \"spines\" {\n  type    = number\n  default = \"two\"\n}\n",
			summary: "Invalid default value for variable", line: 3},

		// Files and directories.
		{name: "empty directory", noBase: true,
			summary: "No fabric files", noSubject: true},
		{name: "no .fab.hcl files", noBase: true,
			files:   map[string]string{"README.md": "# notes\n", "fabric.hcl": "fabric \"x\" {}\n", "main.tf": "resource \"x\" \"y\" {}\n"},
			summary: "No fabric files", noSubject: true},
		{name: "missing directory", noBase: true, dir: "does-not-exist",
			summary: "Cannot read fabric directory", noSubject: true},
		{name: "binary file", files: map[string]string{"bad.fab.hcl": "fabric \"x\" {\n}\n\x00\x01\x02ELF"},
			summary: "Binary file", line: 3},
		{name: "non-UTF-8 file", files: map[string]string{"bad.fab.hcl": "# caf\xe9\ntraffic_class \"x\" {\n  priority = 1\n}\n"},
			summary: "Invalid UTF-8", line: 1},
		{name: "50 MB file", setup: writeHugeFile,
			summary: "File too large", line: 1},
		{name: "deeply nested parentheses", setup: writeDeepFile("(", ")"), isolate: true,
			summary: "Nested too deeply", line: 2},
		{name: "deeply nested lists", setup: writeDeepFile("[", "]"), isolate: true,
			summary: "Nested too deeply", line: 2},
		{name: "deeply nested objects", setup: writeDeepFile("{a=", "}"), isolate: true,
			summary: "Nested too deeply", line: 2},
		{name: "long chain of unary minus", setup: writeDeepFile("-", ""), isolate: true,
			summary: "Nested too deeply", line: 2},
		{name: "long chain of conditionals", setup: writeConditionalChain, isolate: true,
			summary: "Nested too deeply", line: 2},
		{name: "deeply nested JSON", setup: writeDeepJSON, isolate: true,
			summary: "Nested too deeply", file: "bad.fab.json", line: 3},
		// Issue 21: no path may block (a named pipe) or crash the
		// parser (100,000 nested brackets), whatever reads it.
		{name: "intent file is a named pipe", setup: mkfifoAt("bad.fab.hcl"),
			summary: "Not a regular file", detail: "named pipe", line: 1},
		{name: "variable file is a named pipe", setup: mkfifoAt("vars.hcl"), varFiles: []string{"vars.hcl"},
			summary: "Cannot read variable file", detail: "vars.hcl is a named pipe", file: "vars.hcl", line: 1},
		{name: "variable file nested 100,000 deep", isolate: true, bad: "variable \"v\" {\n}\n", varFiles: []string{"vars.hcl"},
			files:   map[string]string{"vars.hcl": "\nv = " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n"},
			summary: "Nested too deeply", file: "vars.hcl", line: 2},
		{name: "JSON variable file nested 100,000 deep", isolate: true, bad: "variable \"v\" {\n}\n", varFiles: []string{"vars.json"},
			files:   map[string]string{"vars.json": "{\"v\":\n" + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "}\n"},
			summary: "Nested too deeply", file: "vars.json", line: 2},
		{name: "fabric directory is a named pipe", noBase: true, setup: mkfifoAt("pipe"), dir: "pipe",
			summary: "Cannot read fabric directory", detail: "named pipe, not a directory", noSubject: true},
		{name: "moderately nested list", bad: "traffic_class \"x\" {\n  priority = " + strings.Repeat("[", 50) + "1" + strings.Repeat("]", 50) + "\n}\n",
			summary: "Incorrect attribute type", line: 2},
	}, injectionCases()...)
}

// mkfifoAt makes a named pipe nobody writes at name in the case's directory.
func mkfifoAt(name string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// writeHugeFile writes a 50 MB intent file: a valid fabric padded with
// comments, so only its size is wrong.
func writeHugeFile(t *testing.T, dir string) {
	var b bytes.Buffer
	b.Grow(50 << 20)
	line := "# " + strings.Repeat("x", 97) + "\n"
	for b.Len() < 50<<20 {
		b.WriteString(line)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.fab.hcl"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// deepLevels nests far enough to exhaust a 1 GB goroutine stack in HCL's
// recursive-descent parsers (they die near 100,000 levels) while the file
// stays far below the size limit.
const deepLevels = 300_000

// writeDeepFile writes an expression nested deepLevels deep on line 2.
func writeDeepFile(open, close string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		src := "traffic_class \"x\" {\n  priority = " + strings.Repeat(open, deepLevels) + "1" + strings.Repeat(close, deepLevels) + "\n}\n"
		writeFile(t, dir, "bad.fab.hcl", src)
	}
}

// writeConditionalChain writes "true ? 1 : true ? 1 : … 2" on line 2: each
// conditional nests its else branch. 1.2 million of them (13 MB) overflow
// HCL's parser stack, but lexing that much takes a minute under -race, so
// the case uses 20,000: 200 times the nesting limit.
func writeConditionalChain(t *testing.T, dir string) {
	src := "traffic_class \"x\" {\n  priority = " + strings.Repeat("true ? 1 : ", 20_000) + "2\n}\n"
	writeFile(t, dir, "bad.fab.hcl", src)
}

// writeDeepJSON writes a JSON intent file with an array nested deepLevels deep on line 3.
func writeDeepJSON(t *testing.T, dir string) {
	src := "{\n  \"traffic_class\": {\"x\": {\n    \"priority\": " + strings.Repeat("[", deepLevels) + "1" + strings.Repeat("]", deepLevels) + "\n  }}\n}\n"
	writeFile(t, dir, "bad.fab.json", src)
}

// TestBadBaseIsValid makes sure the table's diagnostics come from the broken
// part, not from the base fabric.
func TestBadBaseIsValid(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, baseFile, badBase)
	f, diags := schema.Load(dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: loadCatalog()})
	for _, d := range diags {
		t.Errorf("%s: %s", d.Severity, d.Error())
	}
	if f == nil || len(f.Devices) != 2 || len(f.Links) != 1 {
		t.Fatalf("base fabric did not load as 2 devices and 1 link: %+v", f)
	}
}

// TestBadInput loads each broken input and checks the loader reports the
// expected error at the expected line, without panicking.
func TestBadInput(t *testing.T) {
	cases := badCases()
	if len(cases) < 40 {
		t.Fatalf("only %d bad inputs; the table needs at least 40", len(cases))
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Fatalf("duplicate case name %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			if c.isolate && os.Getenv(childCaseEnv) == "" {
				runIsolated(t, c.name)
				return
			}
			dir := t.TempDir()
			if !c.noBase {
				writeFile(t, dir, baseFile, badBase)
			}
			if c.bad != "" {
				writeFile(t, dir, "bad.fab.hcl", c.bad)
			}
			for name, content := range c.files {
				writeFile(t, dir, name, content)
			}
			if c.setup != nil {
				c.setup(t, dir)
			}
			var varFiles []string
			for _, v := range c.varFiles {
				varFiles = append(varFiles, filepath.Join(dir, v))
			}
			if c.dir != "" {
				dir = filepath.Join(dir, c.dir)
			}
			diags := loadNoPanic(t, dir, schema.Options{Vars: c.vars, VarFiles: varFiles, Getenv: func(k string) string { return c.env[k] }, Platforms: loadCatalog()})
			if !diags.HasErrors() {
				t.Fatalf("no error; want %q", c.summary)
			}
			if d := findDiag(diags, c); d == nil {
				t.Errorf("want an error with summary containing %q%s at %s; got:\n%s",
					c.summary, detailNote(c.detail), wantPos(c), listDiags(diags))
			}
		})
	}
}

// childCaseEnv names the bad case a child test process runs.
const childCaseEnv = "FABRICGEN_TEST_BAD_CASE"

// runIsolated re-runs this test binary for one case and fails on a non-zero
// exit, showing the child's output (a crash shows as "fatal error: ...").
func runIsolated(t *testing.T, name string) {
	t.Helper()
	pattern := "^TestBadInput$/^" + regexp.QuoteMeta(strings.ReplaceAll(name, " ", "_")) + "$"
	cmd := exec.Command(os.Args[0], "-test.run="+pattern, "-test.v")
	cmd.Env = append(os.Environ(), childCaseEnv+"="+name)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if len(out) > 4000 {
			out = append(out[:4000], "…"...)
		}
		t.Fatalf("case failed in a child process (%v):\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("--- PASS: TestBadInput/"+strings.ReplaceAll(name, " ", "_"))) {
		t.Fatalf("child process did not run the case:\n%s", out)
	}
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// loadNoPanic calls Load and turns a panic into a test failure.
func loadNoPanic(t *testing.T, dir string, opts schema.Options) (diags schema.Diagnostics) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Load panicked: %v", r)
		}
	}()
	_, diags = schema.Load(dir, opts)
	return diags
}

// findDiag returns the first error matching the case's summary, detail and position.
func findDiag(diags schema.Diagnostics, c badCase) *schema.Diagnostic {
	file := c.file
	if file == "" {
		file = "bad.fab.hcl"
	}
	for _, d := range diags {
		if d.Severity != schema.SevError || !strings.Contains(d.Summary, c.summary) || !strings.Contains(d.Detail, c.detail) {
			continue
		}
		if c.noSubject {
			if d.Subject == nil {
				return d
			}
			continue
		}
		if d.Subject != nil && filepath.Base(d.Subject.Filename) == file && int(d.Subject.Start.Line) == c.line {
			return d
		}
	}
	return nil
}

func detailNote(detail string) string {
	if detail == "" {
		return ""
	}
	return fmt.Sprintf(" and detail containing %q", detail)
}

func wantPos(c badCase) string {
	switch {
	case c.noSubject:
		return "no source range"
	case c.file != "":
		return fmt.Sprintf("%s:%d", c.file, c.line)
	}
	return fmt.Sprintf("bad.fab.hcl:%d", c.line)
}

func listDiags(diags schema.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		pos := "<no source>"
		if d.Subject != nil {
			pos = fmt.Sprintf("%s:%d", filepath.Base(d.Subject.Filename), d.Subject.Start.Line)
		}
		detail := d.Detail
		if len(detail) > 200 {
			detail = detail[:200] + "…"
		}
		fmt.Fprintf(&b, "  %s %s: %s; %s\n", d.Severity, pos, d.Summary, detail)
	}
	return b.String()
}

// TestBusyButValid loads inputs that look like the pathological ones above
// but are fine: the guards against deep nesting must not refuse them.
func TestBusyButValid(t *testing.T) {
	manyConds := "locals {\n"
	for i := range 150 {
		manyConds += fmt.Sprintf("  c%d = var.on ? %d : 0\n", i, i)
	}
	manyConds += "}\nvariable \"on\" {\n  default = true\n}\n"
	manyMapConds := ""
	for i := range 150 {
		manyMapConds += fmt.Sprintf("    k%d = %d > 1 ? \"a\" : \"b\"\n", i, i)
	}
	cases := []struct{ name, src string }{
		{"150 conditionals in one block", manyConds},
		{"150 negative numbers in a list", "locals {\n  xs = [" + strings.Repeat("-1, ", 150) + "-1]\n}\n"},
		{"nesting 90 levels", "locals {\n  x = " + strings.Repeat("[", 90) + "1" + strings.Repeat("]", 90) + "\n}\n"},
		{"a sum of 2,000 terms", "locals {\n  x = " + strings.Repeat("1 + ", 2000) + "1\n}\n"},
		{"150 conditionals in a multi-line map", "locals {\n  m = {\n" + manyMapConds + "  }\n}\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, baseFile, badBase)
			writeFile(t, dir, "busy.fab.hcl", c.src)
			for _, d := range loadNoPanic(t, dir, schema.Options{Getenv: func(string) string { return "" }, Platforms: loadCatalog()}) {
				t.Errorf("%s: %s", d.Severity, d.Error())
			}
		})
	}
}
