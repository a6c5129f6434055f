package lint_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/lint/format"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// The mutation tables: one-line operator edits of a clean example fabric
// (examples/clos-400g for Ethernet, examples/ib-cluster for InfiniBand),
// each aimed at one rule, loaded through the real loader and linted with
// the default options. Every finding a mutation brings must point at the
// line it changed (primary location), or name it among its related
// places, places, hop-trace sources or folded findings; the targeted rule
// must report on the changed line; and the unmutated example has no
// finding at all. The github, SARIF and Markdown outputs of every mutated
// fabric must put the targeted rule's annotation on the changed line. The
// tables cover every rule of the registry that applies to the example's
// link layer: a rule added without a mutation fails TestMutationCoverage.

// mutation is one operator edit of an example file. Find is the exact
// text of one line of File (it must occur exactly once); Replace is the
// new line, or Insert a line inserted after it, or Delete removes it (one
// of the three). A deleted attribute leaves its block changed: the changed
// lines are then the block that held it, header to closing brace (a
// finding about a missing attribute points at its block). Add, when a rule needs a new
// block (an acl to attach), is text appended to File: its lines count as
// changed too.
type mutation struct {
	// Rule is the rule the edit targets; Name tells apart several edits of one rule.
	Rule, Name string
	File       string
	Find       string
	Replace    string
	Insert     string
	Delete     bool
	Add        string
}

func (m mutation) id() string {
	if m.Name == "" {
		return m.Rule
	}
	return m.Rule + "/" + m.Name
}

// closMutations are the edits of examples/clos-400g, one rule at least each.
func closMutations() []mutation {
	const q, d = "qos.fab.hcl", "devices.fab.hcl"
	return []mutation{
		{Rule: "ACL001", File: d, Find: `      ip    = "${cidrhost(cidrsubnet("10.0.${each.value.n}.0/24", 7, port.value - 1), 0)}/31"`, Insert: `      acl_in = [acl.mgmt-only]`,
			Add: "\nacl \"mgmt-only\" {\n  rule {\n    seq      = 10\n    action   = \"permit\"\n    protocol = \"tcp\"\n    dst_port = 22\n  }\n}\n\nsubnet \"gpu\" {\n  prefix           = \"10.0.0.0/16\"\n  require_roce_acl = true\n}\n"},
		{Rule: "ACL002", File: d, Find: `      ip    = "${cidrhost(cidrsubnet("10.0.${each.value.n}.0/24", 7, port.value - 1), 0)}/31"`, Insert: `      acl_in = [acl.guard]`,
			Add: "\nacl \"guard\" {\n  rule {\n    seq      = 10\n    action   = \"deny\"\n    protocol = \"udp\"\n    dst_port = 4791\n  }\n}\n"},
		{Rule: "BUF001", File: q, Find: `  link_pause       = false`, Insert: `  buffer { headroom = "20KB" }`},
		{Rule: "BUF002", File: d, Find: `  cable_length = local.fabric_cable[each.value.leaf]`, Delete: true},
		{Rule: "BUF005", File: d, Find: `  kind         = "leaf"`, Insert: `  qos_policy   = each.value.platform == "sonic" ? qos_policy.sonic-buffers : null`,
			Add: "\nqos_policy \"sonic-buffers\" {\n  buffer {\n    headroom          = \"300KB\"\n    xoff              = \"100KB\"\n    xon               = \"120KB\"\n    dynamic_threshold = -2\n  }\n}\n"},
		{Rule: "CNP001", Name: "class", File: q, Find: `  scheduler = "strict"`, Replace: `  scheduler = "dwrr"`},
		{Rule: "CNP001", File: q, Find: `  link_pause       = false`, Insert: `  queue "6" { weight = 0 }`},
		{Rule: "CNP002", File: d, Find: `    cnp_dscp     = local.mlnx[each.key] ? 48 : null`, Replace: `    cnp_dscp     = local.mlnx[each.key] ? (each.key == "nic03" ? 46 : 48) : null`},
		{Rule: "CNP002", Name: "class", File: q, Find: `  dscp      = [48]`, Replace: `  dscp      = [46]`},
		{Rule: "CNP003", File: q, Find: `  pfc_priorities   = [3]`, Replace: `  pfc_priorities   = [3, 6]`},
		{Rule: "DLK004", File: d, Find: `  kind         = "spine"`, Replace: `  kind         = "leaf"`},
		{Rule: "ECN001", File: q, Find: `  link_pause       = false`, Insert: `  queue "3" { ecn = "off" }`},
		{Rule: "ECN002", File: q, Find: `  min_threshold   = "150KB"`, Replace: `  min_threshold   = "2000KB"`},
		{Rule: "ECN003", File: q, Find: `  max_threshold   = "1500KB"`, Replace: `  max_threshold   = "3MB"`, Add: "\nrole \"leaf\" {\n  qos_policy = qos_policy.leaf-buffers\n}\n\nqos_policy \"leaf-buffers\" {\n  buffer {\n    ingress_lossless_pool = \"4MB\"\n    dynamic_threshold     = 0\n  }\n}\n"},
		{Rule: "ECN004", File: q, Find: `  ecn       = ecn_profile.roce`, Delete: true},
		{Rule: "ECN005", File: q, Find: `  mode            = "ecn"`, Replace: `  mode            = "drop"`},
		{Rule: "ETS001", File: q, Find: `  weight    = 50`, Replace: `  weight    = 60`},
		{Rule: "ETS002", File: q, Find: `  weight    = 50`, Replace: `  weight    = 0`},
		{Rule: "ETS003", File: q, Find: `  link_pause       = false`, Insert: `  queue "0" { scheduler = "strict" }`},
		{Rule: "LNK001", File: d, Find: `      speed = "400G" # ConnectX-7 and the leaves' host ports run 400GbE`, Replace: `      speed = "200G"`},
		{Rule: "LNK003", File: d, Find: `      fec   = "rs"   # RS(544,514), the FEC 400GBASE-R requires`, Replace: `      fec   = "none"`},
		{Rule: "LNK005", File: d, Find: `  cable_length = "3m"`, Replace: `  cable_length = "10m"`},
		{Rule: "MTU001", File: q, Find: `  mtu = 4200`, Replace: `  mtu = 4150`},
		{Rule: "MTU002", File: q, Find: `  mtu              = 9214`, Replace: `  mtu              = 4000`},
		{Rule: "MTU003", File: d, Find: `      description = "to ${port.value.leaf}"`, Insert: `      mtu         = 9000`},
		{Rule: "NIC001", File: q, Find: `  mtu = 4200`, Insert: `  pfc_priorities = [3, 4]`},
		{Rule: "NIC003", File: d, Find: `    tos          = 106`, Replace: `    tos          = 104`},
		{Rule: "NIC004", File: d, Find: `    ecn          = local.mlnx[each.key] ? true : null`, Replace: `    ecn          = local.mlnx[each.key] ? false : null`},
		{Rule: "NIC006", File: d, Find: `    for_each = range(1, local.nics_per_leaf + 1)`, Replace: `    for_each = range(1, local.nics_per_leaf + 2)`,
			Add: "\ndevice \"gpu33\" {\n  kind     = \"nic\"\n  platform = \"nvidia_mlnx\"\n  rdma {\n    roce_mode    = \"v2\"\n    path_mtu     = 4096\n    tos          = 106\n    cnp_dscp     = 48\n    cnp_priority = 6\n    ecn          = true\n  }\n  port \"ens1f0np0\" {\n    speed        = \"400G\"\n    fec          = \"rs\"\n    ip           = \"10.0.1.17/31\"\n    peer         = \"leaf1:Ethernet9/1\"\n    cable_length = \"3m\"\n    media        = \"dac\"\n  }\n  port \"ens1f1np1\" {\n    speed        = \"400G\"\n    fec          = \"rs\"\n    ip           = \"10.0.2.17/31\"\n    peer         = \"leaf2:Ethernet1/9\"\n    cable_length = \"3m\"\n    media        = \"dac\"\n    mtu          = 9000\n  }\n}\n"},
		{Rule: "NIC007", File: d, Find: `    roce_mode    = "v2"`, Replace: `    roce_mode    = "v1"`},
		{Rule: "PFC001", File: d, Find: `      description = "to ${port.value.leaf}"`, Insert: `      qos_policy  = qos_policy.no-pfc`,
			Add: "\nqos_policy \"no-pfc\" {\n  pfc_priorities = []\n}\n"},
		{Rule: "PFC002", File: q, Find: `  pfc_priorities   = [3]`, Replace: `  pfc_priorities   = [4]`},
		{Rule: "PFC003", File: q, Find: `  pfc_priorities   = [3]`, Replace: `  pfc_priorities   = [2, 3, 4]`},
		{Rule: "PFC005", File: q, Find: `  link_pause       = false`, Replace: `  link_pause       = true`},
		{Rule: "PFC008", File: q, Find: `  pfc_priorities   = [3]`, Replace: `  pfc_priorities   = [3, 5]`},
		{Rule: "QOS001", File: q, Find: `  trust            = "dscp"`, Replace: `  trust            = "none"`},
		{Rule: "QOS002", File: q, Find: `  default_priority = 0`, Insert: `  dscp_map         = { 26 = 1 }`},
		{Rule: "QOS003", Name: "class", File: q, Find: `  queue     = 0`, Replace: `  queue     = 3`},
		{Rule: "QOS003", File: q, Find: `  default_priority = 0`, Insert: `  queue_map        = { 0 = 3 }`},
		{Rule: "QOS004", File: q, Find: `  default_priority = 0`, Insert: `  dscp_map         = { 10 = 3 }`},
		{Rule: "QOS005", File: q, Find: `  default_priority = 0`, Delete: true},
		{Rule: "QOS006", File: d, Find: `    tos          = 106`, Replace: `    tos          = each.key == "nic05" ? 186 : 106`},
		{Rule: "QOS006", Name: "class", File: q, Find: `  dscp      = [26]`, Replace: `  dscp      = [46]`},
		{Rule: "QOS007", File: q, Find: `  trust            = "dscp"`, Replace: `  trust            = "pcp"`},
		{Rule: "QOS008", File: q, Find: `  lossless  = true`, Replace: `  lossless  = false`},
		{Rule: "QOS009", File: q, Find: `  dscp      = [26]`, Replace: `  dscp      = []`},
		{Rule: "SUP001", File: q, Find: `  mode            = "ecn"`, Insert: `  # fabricgen:ignore ECN099 the profile is shared with the storage fabric`},
		{Rule: "VAL001", File: q, Find: `  detection     = "200ms"`, Replace: `  detection     = "200"`},
		{Rule: "WDG001", File: q, Find: `  pfc_watchdog     = pfc_watchdog.standard`, Replace: `  pfc_watchdog     = "off"`},
		{Rule: "WDG002", File: q, Find: `  detection     = "200ms"`, Insert: `  restoration   = "90s"`},
		{Rule: "WDG003", File: d, Find: `  kind         = "spine"`, Insert: `  qos_policy   = qos_policy.spine`,
			Add: "\nqos_policy \"spine\" {\n  pfc_watchdog = pfc_watchdog.alert\n}\n\npfc_watchdog \"alert\" {\n  detection     = \"200ms\"\n  poll_interval = \"100ms\"\n  action        = \"alert\"\n}\n"},
		{Rule: "WDG004", File: q, Find: `  mtu = 4200`, Insert: `  pfc_watchdog = "off"`},
		{Rule: "WDG005", File: q, Find: `  pfc_watchdog     = pfc_watchdog.standard`, Replace: `  pfc_watchdog     = pfc_watchdog.fast`,
			Add: "\npfc_watchdog \"fast\" {\n  detection     = \"100ms\"\n  poll_interval = \"100ms\"\n  action        = \"drop\"\n}\n"},
		{Rule: "XS001", File: d, Find: `      ip    = "${cidrhost(cidrsubnet("10.0.${each.value.n}.0/24", 7, port.value - 1), 0)}/31"`, Insert: `      acl_in = [acl.zero]`,
			Add: "\nacl \"zero\" {\n  rule {\n    seq      = 10\n    action   = \"permit\"\n    protocol = \"udp\"\n    dst_port = 4791\n    set_dscp = 0\n  }\n}\n"},
		// Platform limits: one edit each platform's view refuses.
		{Rule: "PLT001", Name: "arista_eos", File: q, Find: `  trust            = "dscp"`, Replace: `  trust            = "both"`},
		{Rule: "PLT002", Name: "cisco_nxos", File: q, Find: `  detection     = "200ms"`, Insert: `  restoration   = "250ms"`},
		{Rule: "PLT003", Name: "juniper_junos", File: q, Find: `  detection     = "200ms"`, Insert: `  restoration   = "1500ms"`},
		{Rule: "PLT004", Name: "nvidia_cumulus", File: q, Find: `  link_pause       = false`, Insert: `  buffer { dynamic_threshold = -2 }`},
		{Rule: "PLT002", Name: "cisco_nxos-action", File: q, Find: `  action        = "drop"`, Replace: `  action        = "forward"`},
		{Rule: "PLT004", Name: "nvidia_cumulus-detection", File: q, Find: `  detection     = "200ms"`, Replace: `  detection     = "250ms"`},
		{Rule: "PLT005", Name: "sonic", File: q, Find: `  poll_interval = "100ms"`, Replace: `  poll_interval = "50ms"`},
		{Rule: "PLT006", Name: "nvidia_mlnx", File: q, Find: `  mtu = 4200`, Insert: `  trust = "both"`},
		{Rule: "PLT007", Name: "linux_dcb", File: d, Find: `    ecn          = local.mlnx[each.key] ? true : null`, Replace: `    ecn          = true`},
	}
}

// ibMutations are the edits of examples/ib-cluster, one IBQ rule at least each.
func ibMutations() []mutation {
	const q, d = "qos.fab.hcl", "devices.fab.hcl"
	return []mutation{
		{Rule: "IBQ001", File: q, Find: `  sl     = 3`, Insert: `  vl     = 9`},
		{Rule: "IBQ002", File: q, Find: `  weight = 30`, Replace: `  weight = 0`},
		{Rule: "IBQ003", File: q, Find: `  classes = [traffic_class.compute, traffic_class.storage, traffic_class.default, traffic_class.mgmt]`,
			Replace: `  classes = [traffic_class.checkpoint, traffic_class.compute, traffic_class.storage, traffic_class.default, traffic_class.mgmt]`, Add: "\ntraffic_class \"checkpoint\" {\n  sl     = 4\n  vl     = 3\n  weight = 50\n}\n"},
		{Rule: "IBQ004", File: q, Find: `  weight = 60`, Replace: `  weight = 55`,
			Add: "\npartition \"bulk\" {\n  pkey    = \"0x8003\"\n  members = local.gpus\n  mtu     = 4096\n}\n"},
		{Rule: "IBQ005", File: d, Find: `    max_op_vls = 4`, Insert: `    high_limit = 255`},
		{Rule: "IBQ006", File: q, Find: `  classes = [traffic_class.compute, traffic_class.storage, traffic_class.default, traffic_class.mgmt]`,
			Replace: `  classes = [traffic_class.bulk, traffic_class.compute, traffic_class.storage, traffic_class.default, traffic_class.mgmt]`, Add: "\ntraffic_class \"bulk\" {\n  sl     = 3\n  vl     = 5\n  weight = 10\n}\n"},
		{Rule: "IBQ007", File: q, Find: `  sl      = 3`, Replace: `  sl      = 2`},
		{Rule: "IBQ008", File: q, Find: `  role   = "default"`, Replace: `  role   = "bulk"`},
		{Rule: "IBQ009", File: d, Find: `    routing_engine = ["ftree"]`, Replace: `    routing_engine = ["dfsssp"]`},
		{Rule: "IBQ010", File: d, Find: `    routing_engine = ["ftree"]`, Insert: `    allow_fallback = true`},
		{Rule: "IBQ011", File: d, Find: `    sl = each.value.kind == "gpu" ? 3 : 2`, Replace: `    sl = each.value.kind == "gpu" ? 5 : 2`},
		{Rule: "IBQ012", File: q, Find: `  pkey    = "0x8001"`, Insert: `  membership = "limited"`},
		{Rule: "IBQ013", File: q, Find: `  pkey         = "0x8002"`, Replace: `  pkey         = "0x0001"`},
		{Rule: "IBQ014", File: q, Find: `  mtu          = 2048`, Replace: `  mtu          = 1024`},
		{Rule: "IBQ015", File: d, Find: `    max_op_vls = 4`, Replace: `    max_op_vls = each.key == "sm02" ? 5 : 4`},
	}
}

// exampleDir is the example fabric's directory, from lint.
func exampleDir(name string) string { return filepath.Join("..", "examples", name) }

// copyExample copies the example's *.fab.hcl files into a temporary
// directory, with file replaced by src when src is not nil.
func copyExample(t *testing.T, example, file string, src []byte) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(exampleDir(example), "*.fab.hcl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no *.fab.hcl files (%v)", example, err)
	}
	dir := t.TempDir()
	for _, fn := range files {
		b := src
		if filepath.Base(fn) != file || src == nil {
			if b, err = os.ReadFile(fn); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(fn)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// apply returns the mutated text of src and the changed lines (1-based).
func (m mutation) apply(src string) (string, []int, error) {
	if kinds := btoi(m.Replace != "") + btoi(m.Insert != "") + btoi(m.Delete); kinds != 1 {
		return "", nil, fmt.Errorf("a mutation has one of Replace, Insert and Delete (it has %d)", kinds)
	}
	if strings.Contains(m.Replace+m.Insert, "\n") {
		return "", nil, fmt.Errorf("Replace and Insert are one line")
	}
	lines := strings.Split(src, "\n")
	at := -1
	for i, l := range lines {
		if l != m.Find {
			continue
		}
		if at >= 0 {
			return "", nil, fmt.Errorf("%q occurs on lines %d and %d: make Find unique", m.Find, at+1, i+1)
		}
		at = i
	}
	if at < 0 {
		return "", nil, fmt.Errorf("no line is %q", m.Find)
	}
	var changed []int
	switch {
	case m.Delete:
		from, to := enclosingBlock(lines, at)
		if from < 0 {
			return "", nil, fmt.Errorf("%q is in no block", m.Find)
		}
		lines = slices.Delete(lines, at, at+1)
		for l := from; l < to; l++ { // to shifts up by the deleted line
			changed = append(changed, l+1)
		}
	case m.Replace != "":
		if m.Replace == m.Find {
			return "", nil, fmt.Errorf("Replace equals Find: no change")
		}
		lines[at] = m.Replace
		changed = append(changed, at+1)
	default:
		lines = slices.Insert(lines, at+1, m.Insert)
		changed = append(changed, at+2)
	}
	out := strings.Join(lines, "\n")
	if m.Add != "" {
		if !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		first := strings.Count(out, "\n") + 1
		add := strings.TrimRight(m.Add, "\n") + "\n"
		for i := range strings.Count(add, "\n") {
			changed = append(changed, first+i)
		}
		out += add
	}
	return out, changed, nil
}

// enclosingBlock is the indexes of the header line and the closing brace
// of the block holding lines[at] in canonically formatted HCL (fabricgen
// fmt), or -1, -1.
func enclosingBlock(lines []string, at int) (int, int) {
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	for i := at - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "#") || indent(lines[i]) >= indent(lines[at]) || !strings.HasSuffix(l, "{") {
			continue
		}
		for j := at + 1; j < len(lines); j++ {
			if indent(lines[j]) == indent(lines[i]) && strings.TrimSpace(lines[j]) == "}" {
				return i, j
			}
		}
		break
	}
	return -1, -1
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lintDir loads and lints dir as the CLI does with default options.
func lintDir(t *testing.T, dir string) (diag.Diagnostics, []lint.Finding) {
	t.Helper()
	f, diags := schema.Load(dir, schema.Options{Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		return diags, nil
	}
	fs, err := lint.Run(context.Background(), f, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return diags, fs
}

// where is a finding's primary location as file:line, "" without one.
func where(r *diag.Range) string {
	if r == nil || r.IsZero() {
		return "<no source>"
	}
	return fmt.Sprintf("%s:%d", filepath.Base(r.Filename), r.Start.Line)
}

// describe is one finding for a failure message.
func describe(d *diag.Diagnostic) string {
	rule := d.Rule
	if rule == "" {
		rule = lint.ValidationRule
	}
	s := fmt.Sprintf("%s %s[%s] %s", where(d.Subject), d.Severity, rule, d.Summary)
	for _, r := range d.Related {
		s += fmt.Sprintf("\n\t\tsee %s: %s", where(&r.Range), r.Message)
	}
	for _, im := range d.Implied {
		s += fmt.Sprintf("\n\t\t+%s at %s", im.Rule, where(&im.Range))
	}
	return s
}

// changedSet is file → changed lines.
type changedSet map[string]map[int]bool

func (c changedSet) has(r diag.Range) bool {
	return !r.IsZero() && c[filepath.Base(r.Filename)][int(r.Start.Line)]
}

// touches reports whether d points at a changed line anywhere: its
// subject, related places, places, hop-trace sources or folded findings.
func (c changedSet) touches(d *diag.Diagnostic) bool {
	if d.Subject != nil && c.has(*d.Subject) {
		return true
	}
	for _, r := range d.Related {
		if c.has(r.Range) {
			return true
		}
	}
	for _, r := range d.Places {
		if c.has(r.Range) {
			return true
		}
	}
	for _, s := range d.Trace {
		if c.has(s.Src) {
			return true
		}
	}
	for _, im := range d.Implied {
		if c.has(im.Range) {
			return true
		}
	}
	return false
}

// baseKey identifies a finding of the unmutated fabric across line shifts.
func baseKey(d *diag.Diagnostic) string { return d.Rule + "\x00" + d.Summary }

// mutationBase is one example and its mutation table.
type mutationBase struct {
	example   string
	linkLayer schema.LinkLayer
	table     func() []mutation
}

func mutationBases() []mutationBase {
	return []mutationBase{
		{"clos-400g", schema.LinkEthernet, closMutations},
		{"ib-cluster", schema.LinkInfiniBand, ibMutations},
	}
}

// TestMutationBasesClean: the examples the mutations start from have no
// finding and no load diagnostic, so every finding of a mutation is the
// mutation's.
func TestMutationBasesClean(t *testing.T) {
	for _, b := range mutationBases() {
		t.Run(b.example, func(t *testing.T) {
			diags, fs := lintDir(t, copyExample(t, b.example, "", nil))
			for _, d := range diags {
				t.Errorf("load diagnostic: %s", describe(d))
			}
			for i := range fs {
				t.Errorf("finding on the unmutated fabric: %s", describe(&fs[i]))
			}
		})
	}
}

// TestMutations applies every mutation and checks where its findings land,
// in lint's findings and in the github, SARIF and Markdown outputs.
func TestMutations(t *testing.T) {
	for _, b := range mutationBases() {
		t.Run(b.example, func(t *testing.T) {
			_, baseFs := lintDir(t, copyExample(t, b.example, "", nil))
			inBase := map[string]bool{}
			for i := range baseFs {
				inBase[baseKey(&baseFs[i])] = true
			}
			seen := map[string]bool{}
			for _, m := range b.table() {
				if seen[m.id()] {
					t.Errorf("%s: two mutations named %s: give one a Name", b.example, m.id())
				}
				seen[m.id()] = true
				t.Run(m.id(), func(t *testing.T) {
					for _, p := range runMutation(t, b.example, m, inBase) {
						t.Error(p)
					}
				})
			}
		})
	}
}

// runMutation applies m to a copy of the example, lints it and returns
// what is wrong with where the findings land (nothing: all is well).
func runMutation(t *testing.T, example string, m mutation, inBase map[string]bool) []string {
	src, err := os.ReadFile(filepath.Join(exampleDir(example), m.File))
	if err != nil {
		t.Fatal(err)
	}
	out, lines, err := m.apply(string(src))
	if err != nil {
		t.Fatalf("%s: %v", m.File, err)
	}
	changed := changedSet{m.File: {}}
	for _, l := range lines {
		changed[m.File][l] = true
	}
	dir := copyExample(t, example, m.File, []byte(out))
	diags, fs := lintDir(t, dir)
	all := diags
	if !diags.HasErrors() {
		all = append(all, lint.Diagnostics(fs)...)
	}
	var dump []string
	for _, d := range all {
		dump = append(dump, "\t"+describe(d))
	}
	report := fmt.Sprintf("changed %s:%v; diagnostics:\n%s", m.File, lines, strings.Join(dump, "\n"))
	var problems []string

	// The targeted rule reports on a changed line (a folded finding counts),
	// and hosts is the rule of the finding it is reported in.
	hosts := map[string]bool{}
	for _, d := range all {
		rule := d.Rule
		if rule == "" {
			rule = lint.ValidationRule
		}
		if rule == m.Rule && d.Subject != nil && changed.has(*d.Subject) {
			hosts[rule] = true
		}
		for _, im := range d.Implied {
			if im.Rule == m.Rule && changed.has(im.Range) {
				hosts[rule] = true
			}
		}
	}
	if len(hosts) == 0 {
		problems = append(problems, fmt.Sprintf("no %s finding on the changed line", m.Rule))
	}
	// Every new warning or error points at a changed line.
	for _, d := range all {
		if d.Severity < diag.Warning || (d.Rule != "" && inBase[baseKey(d)]) {
			continue
		}
		if !changed.touches(d) {
			problems = append(problems, "finding away from the changed lines: "+describe(d))
		}
	}
	if len(hosts) > 0 {
		problems = append(problems, checkFormats(t, dir, m, lines, all, !diags.HasErrors(), hosts)...)
	}
	if len(problems) > 0 {
		problems = append(problems, report)
	}
	return problems
}

// checkFormats renders ds as github annotations, SARIF and Markdown, and
// returns what is wrong: each must have a result of one of the rules in
// hosts that names m's file and a changed line.
func checkFormats(t *testing.T, dir string, m mutation, lines []int, ds diag.Diagnostics, valid bool, hosts map[string]bool) []string {
	t.Helper()
	res := &format.Result{Diagnostics: ds, Valid: valid, Rules: lint.Rules(), BasePath: dir, Sources: map[string][]byte{}, Version: "test"}
	render := func(name string) string {
		f, err := format.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := f.Write(&b, res); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return b.String()
	}
	onLine := func(l int) bool { return slices.Contains(lines, l) }
	var rules []string
	for r := range hosts {
		rules = append(rules, r)
	}
	sort.Strings(rules)

	var problems []string
	gh := render("github")
	ghLine := regexp.MustCompile(`^::(?:error|warning|notice) file=([^,]*),line=(\d+),.*title=([A-Z0-9]+)::`)
	found := false
	for _, l := range strings.Split(gh, "\n") {
		if mm := ghLine.FindStringSubmatch(l); mm != nil && hosts[mm[3]] && mm[1] == m.File && onLine(atoi(mm[2])) {
			found = true
		}
	}
	if !found {
		problems = append(problems, fmt.Sprintf("github: no annotation of %v at %s:%v:\n%s", rules, m.File, lines, gh))
	}

	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	sr := render("sarif")
	if err := json.Unmarshal([]byte(sr), &sarif); err != nil || len(sarif.Runs) != 1 {
		t.Fatalf("sarif: %v (%d runs)", err, len(sarif.Runs))
	}
	found = false
	for _, r := range sarif.Runs[0].Results {
		if !hosts[r.RuleID] || len(r.Locations) == 0 {
			continue
		}
		pl := r.Locations[0].PhysicalLocation
		if pl.ArtifactLocation.URI == m.File && onLine(pl.Region.StartLine) {
			found = true
		}
	}
	if !found {
		problems = append(problems, fmt.Sprintf("sarif: no result of %v at %s:%v:\n%s", rules, m.File, lines, sr))
	}

	md := render("markdown")
	found = false
	for _, l := range strings.Split(md, "\n") {
		cells := strings.Split(l, " | ")
		if len(cells) < 3 {
			continue
		}
		rule := regexp.MustCompile(`^\[?([A-Z0-9]+)\]?`).FindStringSubmatch(cells[1])
		if rule == nil || !hosts[rule[1]] {
			continue
		}
		for _, ln := range lines {
			if cells[2] == fmt.Sprintf("`%s:%d`", m.File, ln) {
				found = true
			}
		}
	}
	if !found {
		problems = append(problems, fmt.Sprintf("markdown: no row of %v at %s:%v:\n%s", rules, m.File, lines, md))
	}
	return problems
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestMutationCoverage: every rule that applies to a base's link layer has
// a mutation in its table (IBQ rules in the InfiniBand table; the rules of
// both link layers, SUP001 and VAL001, in the Ethernet one).
func TestMutationCoverage(t *testing.T) {
	for _, b := range mutationBases() {
		has := map[string]bool{}
		for _, m := range b.table() {
			if lint.Lookup(m.Rule) == nil {
				t.Errorf("%s: mutation %s targets no rule of the registry", b.example, m.id())
			}
			has[m.Rule] = true
		}
		var missing []string
		for _, r := range lint.Rules() {
			if !r.AppliesTo(b.linkLayer) || has[r.ID] {
				continue
			}
			if b.linkLayer == schema.LinkInfiniBand && r.AppliesTo(schema.LinkEthernet) {
				continue // a rule of both link layers: the Ethernet table has it
			}
			missing = append(missing, r.ID)
		}
		if len(missing) > 0 {
			t.Errorf("%s: no mutation for %s", b.example, strings.Join(missing, ", "))
		}
	}
}

// TestMutationApply: the edit itself is checked before any lint runs — a
// Find that is missing or not unique, an edit that changes nothing or is
// two kinds at once, a deleted line outside a block all fail — and the
// changed lines are where the edit put them.
func TestMutationApply(t *testing.T) {
	src := "a {\n  x = 1\n  y = 2\n}\n\nb {\n  x = 1\n}\n"
	cases := []struct {
		name    string
		m       mutation
		want    []int
		wantErr string
	}{
		{"replace", mutation{Find: "  y = 2", Replace: "  y = 3"}, []int{3}, ""},
		{"insert", mutation{Find: "  y = 2", Insert: "  z = 3"}, []int{4}, ""},
		{"delete", mutation{Find: "  y = 2", Delete: true}, []int{1, 2, 3}, ""},
		{"add", mutation{Find: "  y = 2", Replace: "  y = c.v", Add: "\nc {\n  v = 1\n}"}, []int{3, 9, 10, 11, 12}, ""},
		{"not unique", mutation{Find: "  x = 1", Replace: "  x = 2"}, nil, "lines 2 and 7"},
		{"missing", mutation{Find: "  w = 1", Replace: "  w = 2"}, nil, "no line is"},
		{"trailing space", mutation{Find: "  y = 2 ", Replace: "  y = 3"}, nil, "no line is"},
		{"no change", mutation{Find: "  y = 2", Replace: "  y = 2"}, nil, "no change"},
		{"two kinds", mutation{Find: "  y = 2", Replace: "  y = 3", Insert: "  z = 3"}, nil, "it has 2"},
		{"no kind", mutation{Find: "  y = 2"}, nil, "it has 0"},
		{"two lines", mutation{Find: "  y = 2", Insert: "  z = 3\n  w = 4"}, nil, "one line"},
		{"delete outside a block", mutation{Find: "b {", Delete: true}, nil, "in no block"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, got, err := c.m.apply(src)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("changed lines %v, want %v\n%s", got, c.want, out)
			}
			if c.m.Delete && strings.Contains(out, c.m.Find) {
				t.Errorf("the deleted line is still there:\n%s", out)
			}
		})
	}
}
