package push

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// The change matrix (issue 10): for every platform, starting from the
// intent applied on top of a brownfield device, each mutation of the
// intent plans the minimal change in the platform's own negation, applies,
// plans empty afterwards, leaves none of the old values on the device and
// every line fabricgen does not manage byte-identical. Every mutation
// starts from the base intent as applied (the device's configuration and
// the last-applied record of that apply).
//
// docs/push.md ("Change matrix") summarises the table below; keep them in
// step.

// matrixExpect is what one platform does with one mutation. Patterns over "state
// lines" match the device's configuration after the change, one line per
// statement qualified by its parents ("interface Ethernet1/1 > mtu 9214"),
// CONFIG_DB as "TABLE|key|field = value", a host's NIC state as "netdev X >
// setting".
type matrixExpect struct {
	// renderErr: the platform cannot express the mutation; the render
	// fails with an error naming the device, the intent's file and these
	// strings.
	renderErr []string
	// unchanged: the mutation does not reach the platform (why); the plan
	// is empty and the device keeps every line.
	unchanged string
	// lines matches every added and removed line of the plan's diff
	// (nothing unrelated to the mutation changes), and max bounds their
	// number.
	lines string
	max   int
	// plus and minus are strings that must appear in an added / a removed
	// diff line: the new value and the old one.
	plus, minus []string
	// cmds must each match a command of the change set: the platform's
	// negation of the old value, the new value. noCmds must match none.
	cmds, noCmds []string
	// gone match state lines before the change and none after (the old
	// values); now match none before and some after (the new ones); kept
	// match before and after (what the change must not take away).
	gone, now, kept []string
	// order: state lines matching these come in this order after apply.
	order []string
	// touched (hosts): the settings the change may alter; every other
	// setting is the same after the change.
	touched []string
}

// platform shorthands for the table.
const (
	mEOS   = aristaEOS
	mNXOS  = ciscoNXOS
	mJunos = juniperJunos
	mNVUE  = nvidiaCumulus
	mSONiC = sonicOS
	mMLNX  = nvidiaMLNX
	mDCB   = linuxDCB
)

// matrixNegation is the form of a command that removes or replaces an old value,
// per platform (hosts set the new value over the old one).
var matrixNegation = map[schema.Platform]*regexp.Regexp{
	mEOS:   regexp.MustCompile(`^(no|default) `),
	mNXOS:  regexp.MustCompile(`^no `),
	mJunos: regexp.MustCompile(`^delete `),
	mNVUE:  regexp.MustCompile(`^nv unset `),
	mSONiC: regexp.MustCompile(`"op":"(remove|replace)"`),
	mMLNX:  regexp.MustCompile(`^(mlnx_qos|ip link set|ethtool|echo|cma_roce)`),
	mDCB:   regexp.MustCompile(`^(dcb|ip link set|ethtool|echo)`),
}

// The rendered interfaces of each switch, for patterns over its state.
const (
	eosMatrixIfs  = `^interface Ethernet(1|2|8|31|32)/1 > `
	nxosMatrixIfs = `^interface Ethernet1/(1|2|8|31|32) > `
)

// matrixMutation is one change of the fixture's intent and what each platform
// does with it.
type matrixMutation struct {
	name  string
	edits []fixtureEdit
	by    map[schema.Platform]matrixExpect
}

// Fixture fragments the edits replace.
const (
	ruleDSCP48     = "seq      = 10\n    action   = \"permit\"\n    protocol = \"udp\"\n    dst_port = 4791\n    dscp     = 48"
	ruleDSCP26     = "seq      = 20\n    action   = \"permit\"\n    protocol = \"udp\"\n    dst_port = 4791\n    dscp     = 26"
	rule30         = "\n  rule {\n    seq      = 30\n    action   = \"deny\"\n    protocol = \"udp\"\n    dst_port = 4791\n  }\n"
	fixtureClasses = "classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp]"
)

var hostsNoACL = "hosts have no ACLs"

var matrixMutations = []matrixMutation{
	{name: "ecn-threshold", edits: []fixtureEdit{
		{"qos.fab.hcl", `min_threshold   = "150KB"`, `min_threshold   = "200KB"`},
		{"qos.fab.hcl", `min_fill_level  = 55`, `min_fill_level  = 60`}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^\s+random-detect ecn minimum-threshold (150000|200000) bytes `, max: 10,
				plus: []string{"minimum-threshold 200000 bytes"}, minus: []string{"minimum-threshold 150000 bytes"},
				cmds: []string{`^no random-detect ecn minimum-threshold 150000 bytes`, `^random-detect ecn minimum-threshold 200000 bytes`},
				gone: []string{eosMatrixIfs + `tx-queue 3 > random-detect ecn minimum-threshold 150000 bytes`},
				now:  []string{eosMatrixIfs + `tx-queue 3 > random-detect ecn minimum-threshold 200000 bytes`},
				kept: []string{eosMatrixIfs + `tx-queue 3 > bandwidth percent 50$`, eosMatrixIfs + `tx-queue 3 > no priority$`}},
			// NX-OS kbytes: bytes/1024 rounded down (150 KB: 146, 200 KB: 195).
			mNXOS: {lines: `^\s+random-detect minimum-threshold (146|195) kbytes `, max: 2,
				plus: []string{"minimum-threshold 195 kbytes"}, minus: []string{"minimum-threshold 146 kbytes"},
				cmds: []string{`^no random-detect minimum-threshold 146 kbytes`, `^random-detect minimum-threshold 195 kbytes`},
				gone: []string{`c-out-8q-q3 > random-detect minimum-threshold 146 kbytes`},
				now:  []string{`c-out-8q-q3 > random-detect minimum-threshold 195 kbytes`}},
			// Junos drop profiles take fill levels, not bytes.
			mJunos: {lines: `drop-profiles FABRICGEN-ECN-roce interpolate fill-level (55|60)$`, max: 2,
				plus: []string{"fill-level 60"}, minus: []string{"fill-level 55"},
				cmds: []string{`^delete class-of-service drop-profiles FABRICGEN-ECN-roce interpolate fill-level 55$`},
				gone: []string{`FABRICGEN-ECN-roce interpolate fill-level 55$`},
				now:  []string{`FABRICGEN-ECN-roce interpolate fill-level 60$`}},
			mNVUE: {lines: `congestion-control default-global traffic-class 3 min-threshold (150000|200000)$`, max: 2,
				plus: []string{"min-threshold 200000"}, minus: []string{"min-threshold 150000"},
				cmds: []string{`^nv unset qos congestion-control default-global traffic-class 3 min-threshold 150000$`},
				gone: []string{`traffic-class 3 min-threshold 150000$`},
				now:  []string{`traffic-class 3 min-threshold 200000$`}},
			mSONiC: {lines: `^WRED_PROFILE\|roce\|(green|yellow|red)_min_threshold = (150000|200000)$`, max: 6,
				plus: []string{"WRED_PROFILE|roce|green_min_threshold = 200000"}, minus: []string{"WRED_PROFILE|roce|green_min_threshold = 150000"},
				cmds: []string{`^\{"op":"replace","path":"/WRED_PROFILE/roce/green_min_threshold","value":"200000"\}$`},
				gone: []string{`^WRED_PROFILE\|roce\|(green|yellow|red)_min_threshold = 150000$`},
				now:  []string{`^WRED_PROFILE\|roce\|green_min_threshold = 200000$`}},
			mMLNX: {unchanged: "an ECN marking curve is switch-side; the NIC only reacts to marks"},
			mDCB:  {unchanged: "an ECN marking curve is switch-side"},
		}},
	{name: "lossless-priority", edits: []fixtureEdit{
		{"qos.fab.hcl", "priority  = 3\n  queue     = 3", "priority  = 4\n  queue     = 4"},
		{"qos.fab.hcl", "pfc_priorities   = [3]", "pfc_priorities   = [4]"}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^qos map dscp 26 to traffic-class [34]$|^\s+priority-flow-control priority [34] no-drop$|^\s+tx-queue [34]$`, max: 22,
				plus:  []string{"qos map dscp 26 to traffic-class 4", "priority-flow-control priority 4 no-drop", "tx-queue 4"},
				minus: []string{"qos map dscp 26 to traffic-class 3", "priority-flow-control priority 3 no-drop", "tx-queue 3"},
				cmds:  []string{`^no qos map dscp 26 to traffic-class 3$`, `^no priority-flow-control priority 3 no-drop$`, `^no tx-queue 3$`},
				gone:  []string{`^qos map dscp 26 to traffic-class 3$`, eosMatrixIfs + `priority-flow-control priority 3 no-drop$`, eosMatrixIfs + `tx-queue 3$`},
				now:   []string{eosMatrixIfs + `tx-queue 4 > random-detect ecn `, eosMatrixIfs + `priority-flow-control priority 4 no-drop$`}},
			mNXOS: {lines: `^\s+(set qos-group [34]|pause pfc-cos [34]|class type queuing c-out-8q-q[34]|bandwidth remaining percent (0|50)|random-detect minimum-threshold .*)$`, max: 8,
				plus: []string{"set qos-group 4", "pause pfc-cos 4"}, minus: []string{"set qos-group 3", "pause pfc-cos 3"},
				cmds: []string{`^no set qos-group 3$`, `^no pause pfc-cos 3$`, `^no random-detect minimum-threshold 146 kbytes`},
				gone: []string{`FG-DSCP-roce > set qos-group 3$`, `FABRICGEN-NQ > class type network-qos c-8q-nq3 > pause pfc-cos 3$`, `FABRICGEN-OUT > class type queuing c-out-8q-q3 > random-detect `},
				now:  []string{`FABRICGEN-NQ > class type network-qos c-8q-nq4 > pause pfc-cos 4$`, `FABRICGEN-OUT > class type queuing c-out-8q-q4 > random-detect `}},
			mJunos: {lines: `forwarding-classes class (roce|prio3|prio4) |flow-control-queue [34]$|FABRICGEN-Q[34]`, max: 16,
				plus:  []string{"class roce queue-num 4 no-loss", "flow-control-queue 4"},
				minus: []string{"class roce queue-num 3 no-loss", "flow-control-queue 3"},
				cmds:  []string{`^delete class-of-service forwarding-classes class roce queue-num 3 no-loss$`, `^delete class-of-service schedulers FABRICGEN-Q3 explicit-congestion-notification$`},
				gone:  []string{`class roce queue-num 3 no-loss$`, `class roce pfc-priority 3$`, `schedulers FABRICGEN-Q3 `, `flow-control-queue 3$`},
				now:   []string{`class roce queue-num 4 no-loss$`, `schedulers FABRICGEN-Q4 explicit-congestion-notification$`}},
			mNVUE: {lines: `default-global traffic-class [34] |dscp 26 switch-priority [34]$|pfc default-global switch-priority [34]$`, max: 18,
				plus: []string{"pfc default-global switch-priority 4"}, minus: []string{"pfc default-global switch-priority 3"},
				cmds: []string{`^nv unset qos pfc default-global switch-priority 3$`, `^nv unset qos congestion-control default-global traffic-class 3 min-threshold 150000$`},
				gone: []string{`pfc default-global switch-priority 3$`, `congestion-control default-global traffic-class 3 `, `egress-scheduler default-global traffic-class 3 `, `dscp 26 switch-priority 3$`},
				now:  []string{`congestion-control default-global traffic-class 4 ecn enable$`}},
			// Issue 10: on SONiC the plan said "no changes" while
			// QUEUE|Ethernet0|3 still bound the old scheduler and WRED profile.
			mSONiC: {lines: `^(DSCP_TO_TC_MAP\|FABRICGEN\|26|PFC_PRIORITY_TO_PRIORITY_GROUP_MAP\|FABRICGEN\|[34]|BUFFER_PG\|\w+\|[34]\|profile|PORT_QOS_MAP\|\w+\|(pfc_enable|pfcwd_sw_enable)|QUEUE\|\w+\|[34]\|\w+|SCHEDULER\|fabricgen\.[34]\|\w+|TC_TO_PRIORITY_GROUP_MAP\|FABRICGEN\|[34]) = `, max: 62,
				plus: []string{"PORT_QOS_MAP|Ethernet0|pfc_enable = 4"}, minus: []string{"QUEUE|Ethernet0|3|wred_profile = roce"},
				cmds: []string{`^\{"op":"remove","path":"/QUEUE/Ethernet0\|3"\}$`, `^\{"op":"remove","path":"/SCHEDULER/fabricgen.3"\}$`},
				gone: []string{`^QUEUE\|Ethernet(0|8|56|240|248)\|3\|`, `^SCHEDULER\|fabricgen\.3\|`, `^PORT_QOS_MAP\|Ethernet0\|pfc_enable = 3$`},
				now:  []string{`^QUEUE\|Ethernet0\|4\|wred_profile = roce$`}},
			// ECN on priority 3 is a setting the intent stops making: it
			// goes back to its value before fabricgen (the brownfield
			// NIC's: off).
			mMLNX: {lines: `^\S+ (dscp2prio 26|pfc|tcbw) = |/ecn/roce_[nr]p/enable/3 value = `, max: 16,
				plus: []string{"dscp2prio 26 = 4"}, minus: []string{"dscp2prio 26 = 3"},
				cmds: []string{`^mlnx_qos -i ens1f0np0 --pfc 0,0,0,0,1,0,0,0$`, `^mlnx_qos -i ens1f0np0 --dscp2prio set,26,4$`, `^echo 0 > /sys/class/net/ens1f0np0/ecn/roce_np/enable/3$`},
				gone: []string{`^netdev ens1f0np0 > pfc 0,0,0,1,0,0,0,0$`, `^netdev ens1f0np0 > dscp-prio .*\b26:3\b`},
				now:  []string{`^netdev ens1f0np0 > pfc 0,0,0,0,1,0,0,0$`}, touched: []string{`> (pfc|dscp-prio|tc-bw) `, `> ecn roce_[nr]p enable `}},
			mDCB: {lines: `^\S+ (app dscp-prio 26|ets tc-bw [34]|pfc prio-pfc [34]) = `, max: 20,
				plus: []string{"pfc prio-pfc 4 = on"}, minus: []string{"pfc prio-pfc 3 = on"},
				cmds: []string{`^dcb pfc set dev enp65s0f0np0 prio-pfc 0:off 1:off 2:off 3:off 4:on `, `^dcb app replace dev enp65s0f0np0 dscp-prio .*\b26:4\b`},
				gone: []string{`^netdev enp65s0f0np0 > pfc 0,0,0,1,0,0,0,0$`, `^netdev enp65s0f0np0 > dscp-prio .*\b26:3\b`},
				now:  []string{`^netdev enp65s0f0np0 > pfc 0,0,0,0,1,0,0,0$`}, touched: []string{`> (pfc|dscp-prio|tc-bw) `}},
		}},
	{name: "class-added", edits: []fixtureEdit{
		{"control.fab.hcl", "", "traffic_class \"control\" {\n  role      = \"control\"\n  dscp      = [16]\n  priority  = 5\n  queue     = 5\n  scheduler = \"strict\"\n}\n"},
		{"qos.fab.hcl", fixtureClasses, "classes          = [traffic_class.default, traffic_class.roce, traffic_class.cnp, traffic_class.control]"}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^qos map dscp |^\s+tx-queue 5$|^\s+priority strict$`, max: 13,
				plus: []string{"qos map dscp 16 to traffic-class 5", "tx-queue 5"}, minus: []string{"qos map dscp 0 1 2 "},
				cmds: []string{`^no qos map dscp 0 1 2 .* 15 16 17 .* to traffic-class 0$`, `^qos map dscp 16 to traffic-class 5$`},
				gone: []string{`^qos map dscp 0 1 2 .* 15 16 17 .* to traffic-class 0$`},
				now:  []string{`^qos map dscp 16 to traffic-class 5$`, eosMatrixIfs + `tx-queue 5 > priority strict$`}},
			// The class goes between FG-DSCP-roce and FG-DSCP-cnp of the
			// ordered FABRICGEN-IN: today push removes and re-adds every
			// class of the policy-map (push/config/changeset.go, diffLevel:
			// keepsOrder treats an insertion as a reordering), and NX-OS
			// applies it line by line in configure terminal, so RoCE is
			// briefly unclassified (qos-group 0, no PFC). Minimal:
			// "class FG-DSCP-control insert-before FG-DSCP-cnp".
			mNXOS: {lines: `^class-map type qos match-any FG-DSCP-control$|^\s+(match dscp .*|class FG-DSCP-control|set qos-group 5|priority level 1|bandwidth remaining percent 0)$`, max: 8,
				plus: []string{"class FG-DSCP-control", "set qos-group 5"}, minus: []string{"match dscp 0-25,27-47,49-63"},
				cmds:   []string{`^no match dscp 0-25,27-47,49-63$`, `^class FG-DSCP-control`, `^no bandwidth remaining percent 0$`},
				noCmds: []string{`^no class FG-DSCP-(default|roce|cnp)$`},
				gone:   []string{`FG-DSCP-default > match dscp 0-25,27-47,49-63$`},
				now:    []string{`^policy-map type qos FABRICGEN-IN > class FG-DSCP-control > set qos-group 5$`, `c-out-8q-q5 > priority level 1$`}},
			mJunos: {lines: `forwarding-class (control|default) loss-priority low code-points 010000$|forwarding-classes class (control|prio5) queue-num 5$|forwarding-class control scheduler FABRICGEN-Q5$|FABRICGEN-Q5 (priority strict-high|shaping-rate percent 5)$`, max: 7,
				plus: []string{"forwarding-class control loss-priority low code-points 010000"}, minus: []string{"forwarding-class default loss-priority low code-points 010000"},
				cmds: []string{`^delete class-of-service classifiers dscp FABRICGEN forwarding-class default loss-priority low code-points 010000$`, `^delete class-of-service forwarding-classes class prio5 queue-num 5$`},
				gone: []string{`forwarding-class default loss-priority low code-points 010000$`, `class prio5 queue-num 5$`},
				now:  []string{`schedulers FABRICGEN-Q5 priority strict-high$`}},
			mNVUE: {lines: `qos mapping default-global dscp |egress-scheduler default-global traffic-class 5 mode strict$`, max: 4,
				plus: []string{"dscp 16 switch-priority 5"}, minus: []string{"qos mapping default-global dscp 0,1,2,"},
				cmds: []string{`^nv unset qos mapping default-global dscp 0,1,2,.*,15,16,17,.* switch-priority 0$`, `^nv set qos mapping default-global dscp 16 switch-priority 5$`},
				gone: []string{`dscp 0,1,2,.*,15,16,17,.* switch-priority 0$`},
				now:  []string{`dscp 16 switch-priority 5$`, `traffic-class 5 mode strict$`}},
			mSONiC: {lines: `^(DSCP_TO_TC_MAP\|FABRICGEN\|16 = [05]|QUEUE\|\w+\|5\|scheduler = fabricgen\.5|SCHEDULER\|fabricgen\.5\|type = STRICT)$`, max: 8,
				plus: []string{"DSCP_TO_TC_MAP|FABRICGEN|16 = 5"}, minus: []string{"DSCP_TO_TC_MAP|FABRICGEN|16 = 0"},
				cmds: []string{`^\{"op":"replace","path":"/DSCP_TO_TC_MAP/FABRICGEN/16","value":"5"\}$`, `^\{"op":"add","path":"/SCHEDULER/fabricgen.5"`},
				gone: []string{`^DSCP_TO_TC_MAP\|FABRICGEN\|16 = 0$`},
				now:  []string{`^QUEUE\|Ethernet0\|5\|scheduler = fabricgen\.5$`}},
			mMLNX: {lines: `^\S+ (dscp2prio 16|tsa) = `, max: 8,
				plus: []string{"dscp2prio 16 = 5"}, minus: []string{"dscp2prio 16 = 0"},
				cmds: []string{`^mlnx_qos -i ens1f0np0 --dscp2prio set,16,5$`, `^mlnx_qos -i ens1f0np0 --tsa ets,ets,ets,ets,ets,strict,strict,ets --tcbw `},
				gone: []string{`^netdev ens1f0np0 > dscp-prio .*\b16:0\b`}, now: []string{`^netdev ens1f0np0 > dscp-prio .*\b16:5\b`},
				touched: []string{`> (dscp-prio|tsa) `}},
			mDCB: {lines: `^\S+ (app dscp-prio 16|ets tc-tsa 5) = `, max: 8,
				plus: []string{"app dscp-prio 16 = 5"}, minus: []string{"app dscp-prio 16 = 0"},
				cmds: []string{`^dcb app replace dev enp65s0f0np0 dscp-prio .*\b16:5\b`, `^dcb ets set dev enp65s0f0np0 .* tc-tsa .*\b5:strict\b`},
				gone: []string{`^netdev enp65s0f0np0 > dscp-prio .*\b16:0\b`}, now: []string{`^netdev enp65s0f0np0 > dscp-prio .*\b16:5\b`},
				touched: []string{`> (dscp-prio|tsa) `}},
		}},
	{name: "class-removed", edits: []fixtureEdit{
		{"qos.fab.hcl", fixtureClasses, "classes          = [traffic_class.default, traffic_class.roce]"}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^qos map dscp |^\s+tx-queue 6$|^\s+priority strict$`, max: 13,
				minus: []string{"qos map dscp 48 to traffic-class 6", "tx-queue 6"},
				cmds:  []string{`^no qos map dscp 48 to traffic-class 6$`, `^no tx-queue 6$`},
				gone:  []string{`^qos map dscp 48 to traffic-class 6$`, eosMatrixIfs + `tx-queue 6$`},
				now:   []string{`^qos map dscp 0 1 2 .* 47 48 49 .* to traffic-class 0$`}},
			mNXOS: {lines: `^class-map type qos match-any FG-DSCP-cnp$|^\s+(match dscp .*|class FG-DSCP-cnp|set qos-group 6|priority level 1|bandwidth remaining percent 0)$`, max: 9,
				minus: []string{"class-map type qos match-any FG-DSCP-cnp", "class FG-DSCP-cnp", "priority level 1"},
				cmds:  []string{`^no class FG-DSCP-cnp$`, `^no class-map type qos match-any FG-DSCP-cnp$`, `^no priority level 1$`},
				gone:  []string{`^class-map type qos match-any FG-DSCP-cnp$`, `FABRICGEN-IN > class FG-DSCP-cnp$`, `c-out-8q-q6 > priority level 1$`},
				now:   []string{`FG-DSCP-default > match dscp 0-25,27-63$`}},
			mJunos: {lines: `forwarding-class (cnp|default) loss-priority low code-points 110000$|forwarding-class cnp scheduler FABRICGEN-Q6$|FABRICGEN-Q6 (priority strict-high|shaping-rate percent 5)$`, max: 5,
				minus: []string{"forwarding-class cnp loss-priority low code-points 110000", "schedulers FABRICGEN-Q6 priority strict-high"},
				cmds:  []string{`^delete class-of-service schedulers FABRICGEN-Q6 priority strict-high$`, `^delete class-of-service scheduler-maps FABRICGEN forwarding-class cnp scheduler FABRICGEN-Q6$`},
				gone:  []string{`forwarding-class cnp loss-priority low code-points 110000$`, `schedulers FABRICGEN-Q6 `, `forwarding-class cnp scheduler`},
				now:   []string{`forwarding-class default loss-priority low code-points 110000$`}},
			mNVUE: {lines: `qos mapping default-global dscp |egress-scheduler default-global traffic-class 6 mode strict$`, max: 4,
				minus: []string{"dscp 48 switch-priority 6", "traffic-class 6 mode strict"},
				cmds:  []string{`^nv unset qos mapping default-global dscp 48 switch-priority 6$`, `^nv unset qos egress-scheduler default-global traffic-class 6 mode strict$`},
				gone:  []string{`dscp 48 switch-priority 6$`, `traffic-class 6 mode strict$`}},
			mSONiC: {lines: `^(DSCP_TO_TC_MAP\|FABRICGEN\|48 = [06]|QUEUE\|\w+\|6\|scheduler = fabricgen\.6|SCHEDULER\|fabricgen\.6\|type = STRICT)$`, max: 8,
				minus: []string{"SCHEDULER|fabricgen.6|type = STRICT", "QUEUE|Ethernet0|6|scheduler = fabricgen.6"},
				cmds:  []string{`^\{"op":"remove","path":"/SCHEDULER/fabricgen.6"\}$`, `^\{"op":"remove","path":"/QUEUE/Ethernet0\|6"\}$`},
				gone:  []string{`^SCHEDULER\|fabricgen\.6\|`, `^QUEUE\|Ethernet0\|6\|`, `^DSCP_TO_TC_MAP\|FABRICGEN\|48 = 6$`}},
			mMLNX: {lines: `^\S+ (dscp2prio 48|tsa) = `, max: 8,
				minus:   []string{"dscp2prio 48 = 6", "tsa = ets,ets,ets,ets,ets,ets,strict,ets"},
				cmds:    []string{`^mlnx_qos -i ens1f0np0 --dscp2prio set,48,0$`, `^mlnx_qos -i ens1f0np0 --tsa ets,ets,ets,ets,ets,ets,ets,ets `},
				gone:    []string{`^netdev ens1f0np0 > tsa ets,ets,ets,ets,ets,ets,strict,ets$`, `^netdev ens1f0np0 > dscp-prio .*\b48:6\b`},
				touched: []string{`> (dscp-prio|tsa) `}},
			mDCB: {lines: `^\S+ (app dscp-prio 48|ets tc-tsa 6) = `, max: 8,
				minus:   []string{"app dscp-prio 48 = 6", "ets tc-tsa 6 = strict"},
				cmds:    []string{`^dcb ets set dev enp65s0f0np0 .* tc-tsa .*\b6:ets\b`},
				gone:    []string{`^netdev enp65s0f0np0 > tsa ets,ets,ets,ets,ets,ets,strict,ets$`, `^netdev enp65s0f0np0 > dscp-prio .*\b48:6\b`},
				touched: []string{`> (dscp-prio|tsa) `}},
		}},
	{name: "dscp-moved", edits: []fixtureEdit{
		{"qos.fab.hcl", "dscp      = [0, 10]", "dscp      = [0]"},
		{"qos.fab.hcl", "dscp      = [26]", "dscp      = [10, 26]"}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^qos map dscp `, max: 4,
				plus: []string{"qos map dscp 10 26 to traffic-class 3"}, minus: []string{"qos map dscp 26 to traffic-class 3"},
				cmds: []string{`^no qos map dscp 26 to traffic-class 3$`, `^qos map dscp 10 26 to traffic-class 3$`},
				gone: []string{`^qos map dscp 26 to traffic-class 3$`, `^qos map dscp 0 1 2 .* 9 10 11 .* to traffic-class 0$`},
				now:  []string{`^qos map dscp 10 26 to traffic-class 3$`}},
			mNXOS: {lines: `^\s+match dscp `, max: 4,
				plus: []string{"match dscp 10,26"}, minus: []string{"match dscp 26"},
				cmds: []string{`^no match dscp 26$`, `^match dscp 10,26$`},
				gone: []string{`FG-DSCP-roce > match dscp 26$`},
				now:  []string{`FG-DSCP-roce > match dscp 10,26$`}},
			mJunos: {lines: `code-points 001010$|code-point 001010 pfc$`, max: 3,
				plus: []string{"forwarding-class roce loss-priority low code-points 001010"}, minus: []string{"forwarding-class default loss-priority low code-points 001010"},
				cmds: []string{`^delete class-of-service classifiers dscp FABRICGEN forwarding-class default loss-priority low code-points 001010$`},
				gone: []string{`forwarding-class default loss-priority low code-points 001010$`},
				now:  []string{`forwarding-class roce loss-priority low code-points 001010$`, `input dscp code-point 001010 pfc$`}},
			mNVUE: {lines: `qos mapping default-global dscp `, max: 4,
				plus: []string{"dscp 10,26 switch-priority 3"}, minus: []string{"dscp 26 switch-priority 3"},
				cmds: []string{`^nv unset qos mapping default-global dscp 26 switch-priority 3$`},
				gone: []string{`dscp 26 switch-priority 3$`},
				now:  []string{`dscp 10,26 switch-priority 3$`}},
			mSONiC: {lines: `^DSCP_TO_TC_MAP\|FABRICGEN\|10 = [03]$`, max: 2,
				plus: []string{"DSCP_TO_TC_MAP|FABRICGEN|10 = 3"}, minus: []string{"DSCP_TO_TC_MAP|FABRICGEN|10 = 0"},
				cmds: []string{`^\{"op":"replace","path":"/DSCP_TO_TC_MAP/FABRICGEN/10","value":"3"\}$`},
				gone: []string{`^DSCP_TO_TC_MAP\|FABRICGEN\|10 = 0$`}},
			mMLNX: {lines: `^\S+ dscp2prio 10 = [03]$`, max: 4,
				plus: []string{"dscp2prio 10 = 3"}, minus: []string{"dscp2prio 10 = 0"},
				cmds: []string{`^mlnx_qos -i ens1f0np0 --dscp2prio set,10,3$`},
				gone: []string{`^netdev ens1f0np0 > dscp-prio .*\b10:0\b`}, touched: []string{`> dscp-prio `}},
			mDCB: {lines: `^\S+ app dscp-prio 10 = [03]$`, max: 4,
				plus: []string{"app dscp-prio 10 = 3"}, minus: []string{"app dscp-prio 10 = 0"},
				cmds: []string{`^dcb app replace dev enp65s0f0np0 dscp-prio .*\b10:3\b`},
				gone: []string{`^netdev enp65s0f0np0 > dscp-prio .*\b10:0\b`}, touched: []string{`> dscp-prio `}},
		}},
	{name: "ets-weights", edits: []fixtureEdit{
		{"qos.fab.hcl", "queue     = 0\n  scheduler = \"dwrr\"\n  weight    = 50", "queue     = 0\n  scheduler = \"dwrr\"\n  weight    = 40"},
		{"qos.fab.hcl", "ecn       = ecn_profile.roce\n  scheduler = \"dwrr\"\n  weight    = 50", "ecn       = ecn_profile.roce\n  scheduler = \"dwrr\"\n  weight    = 60"}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^\s+bandwidth percent (40|50|60)$`, max: 20,
				plus: []string{"bandwidth percent 40", "bandwidth percent 60"}, minus: []string{"bandwidth percent 50"},
				cmds: []string{`^no bandwidth percent 50$`, `^bandwidth percent 60$`},
				gone: []string{eosMatrixIfs + `tx-queue [03] > bandwidth percent 50$`},
				now:  []string{eosMatrixIfs + `tx-queue 3 > bandwidth percent 60$`, eosMatrixIfs + `tx-queue 0 > bandwidth percent 40$`},
				kept: []string{eosMatrixIfs + `tx-queue 3 > random-detect ecn `}},
			mNXOS: {lines: `^\s+bandwidth remaining percent (40|50|60)$`, max: 4,
				plus: []string{"bandwidth remaining percent 60"}, minus: []string{"bandwidth remaining percent 50"},
				cmds: []string{`^no bandwidth remaining percent 50$`, `^bandwidth remaining percent 60$`},
				gone: []string{`c-out-8q-q(3|-default) > bandwidth remaining percent 50$`},
				now:  []string{`c-out-8q-q3 > bandwidth remaining percent 60$`}},
			mJunos: {lines: `schedulers FABRICGEN-Q[03] transmit-rate percent (40|50|60)$`, max: 4,
				plus: []string{"FABRICGEN-Q3 transmit-rate percent 60"}, minus: []string{"FABRICGEN-Q3 transmit-rate percent 50"},
				cmds: []string{`^delete class-of-service schedulers FABRICGEN-Q3 transmit-rate percent 50$`},
				gone: []string{`FABRICGEN-Q[03] transmit-rate percent 50$`}},
			mNVUE: {lines: `egress-scheduler default-global traffic-class [03] bw-percent (40|50|60)$`, max: 4,
				plus: []string{"traffic-class 3 bw-percent 60"}, minus: []string{"traffic-class 3 bw-percent 50"},
				cmds: []string{`^nv unset qos egress-scheduler default-global traffic-class 3 bw-percent 50$`},
				gone: []string{`traffic-class [03] bw-percent 50$`}},
			mSONiC: {lines: `^SCHEDULER\|fabricgen\.[03]\|weight = (40|50|60)$`, max: 4,
				plus: []string{"SCHEDULER|fabricgen.3|weight = 60"}, minus: []string{"SCHEDULER|fabricgen.3|weight = 50"},
				cmds: []string{`^\{"op":"replace","path":"/SCHEDULER/fabricgen.3/weight","value":"60"\}$`},
				gone: []string{`^SCHEDULER\|fabricgen\.[03]\|weight = 50$`}},
			mMLNX: {lines: `^\S+ tcbw = `, max: 4,
				plus: []string{"tcbw = 40,0,0,60,0,0,0,0"}, minus: []string{"tcbw = 50,0,0,50,0,0,0,0"},
				cmds: []string{`^mlnx_qos -i ens1f0np0 --tsa \S+ --tcbw 40,0,0,60,0,0,0,0$`},
				gone: []string{`^netdev ens1f0np0 > tc-bw 50,0,0,50,0,0,0,0$`}, touched: []string{`> tc-bw `}},
			mDCB: {lines: `^\S+ ets tc-bw [03] = (40|50|60)$`, max: 8,
				plus: []string{"ets tc-bw 3 = 60"}, minus: []string{"ets tc-bw 3 = 50"},
				cmds: []string{`^dcb ets set dev enp65s0f0np0 .* tc-bw 0:40 1:0 2:0 3:60 `},
				gone: []string{`^netdev enp65s0f0np0 > tc-bw 50,0,0,50,0,0,0,0$`}, touched: []string{`> tc-bw `}},
		}},
	{name: "mtu", edits: []fixtureEdit{
		{"qos.fab.hcl", "mtu              = 9214", "mtu              = 9100"},
		{"qos.fab.hcl", "mtu = 4200", "mtu = 4300"}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^\s+mtu (9214|9100)$`, max: 10, plus: []string{"mtu 9100"}, minus: []string{"mtu 9214"},
				cmds: []string{`^no mtu 9214$`, `^mtu 9100$`},
				gone: []string{eosMatrixIfs + `mtu 9214$`}, now: []string{eosMatrixIfs + `mtu 9100$`}},
			// NX-OS sets the MTU in the network-qos policy too.
			mNXOS: {lines: `^\s+mtu (9214|9100)$`, max: 26, plus: []string{"mtu 9100"}, minus: []string{"mtu 9214"},
				cmds: []string{`^no mtu 9214$`, `^mtu 9100$`},
				gone: []string{`> mtu 9214$`}, now: []string{nxosMatrixIfs + `mtu 9100$`, `c-8q-nq3 > mtu 9100$`}},
			mJunos: {lines: `^set interfaces et-0/0/\d+ mtu (9214|9100)$`, max: 10, plus: []string{"mtu 9100"}, minus: []string{"mtu 9214"},
				cmds: []string{`^delete interfaces et-0/0/0 mtu 9214$`},
				gone: []string{`^set interfaces et-0/0/\d+ mtu 9214$`}, now: []string{`^set interfaces et-0/0/0 mtu 9100$`}},
			mNVUE: {lines: `^nv set interface swp\d+ link mtu (9214|9100)$`, max: 10, plus: []string{"link mtu 9100"}, minus: []string{"link mtu 9214"},
				cmds: []string{`^nv unset interface swp1 link mtu 9214$`},
				gone: []string{`link mtu 9214$`}, now: []string{`^nv set interface swp1 link mtu 9100$`}},
			mSONiC: {lines: `^PORT\|Ethernet\d+\|mtu = (9214|9100)$`, max: 10, plus: []string{"PORT|Ethernet0|mtu = 9100"}, minus: []string{"PORT|Ethernet0|mtu = 9214"},
				cmds: []string{`^\{"op":"replace","path":"/PORT/Ethernet0/mtu","value":"9100"\}$`},
				gone: []string{`^PORT\|Ethernet\d+\|mtu = 9214$`}, now: []string{`^PORT\|Ethernet0\|mtu = 9100$`}},
			mMLNX: {lines: `^\S+ mtu = (4200|4300)$`, max: 4, plus: []string{"mtu = 4300"}, minus: []string{"mtu = 4200"},
				cmds: []string{`^ip link set dev ens1f0np0 mtu 4300$`},
				gone: []string{`^netdev \S+ > mtu 4200$`}, touched: []string{`> mtu `}},
			mDCB: {lines: `^\S+ mtu = (4200|4300)$`, max: 4, plus: []string{"mtu = 4300"}, minus: []string{"mtu = 4200"},
				cmds: []string{`^ip link set dev enp65s0f0np0 mtu 4300$`},
				gone: []string{`^netdev \S+ > mtu 4200$`}, touched: []string{`> mtu `}},
		}},
	{name: "watchdog-timers", edits: []fixtureEdit{
		{"qos.fab.hcl", `detection     = "200ms"`, `detection     = "600ms"`},
		{"qos.fab.hcl", `poll_interval = "100ms"`, `poll_interval = "200ms"`}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^priority-flow-control pause watchdog default (timeout|polling-interval) `, max: 4,
				plus: []string{"timeout 0.6", "polling-interval 0.2"}, minus: []string{"timeout 0.2", "polling-interval 0.1"},
				cmds: []string{`^no priority-flow-control pause watchdog default timeout 0.2$`, `^priority-flow-control pause watchdog default timeout 0.6$`},
				gone: []string{`^priority-flow-control pause watchdog default (timeout 0.2|polling-interval 0.1)$`},
				now:  []string{`^priority-flow-control pause watchdog default timeout 0.6$`}},
			// NX-OS: no Cisco source confirms the timer commands; the
			// render names the timers in a comment only.
			mNXOS: {unchanged: "NX-OS renders no watchdog timer (no confirmed command)"},
			mJunos: {lines: `pfc-watchdog (detection|poll-interval) `, max: 4,
				plus: []string{"pfc-watchdog poll-interval 200", "pfc-watchdog detection 3"}, minus: []string{"pfc-watchdog poll-interval 100"},
				cmds: []string{`^delete class-of-service congestion-notification-profile FABRICGEN pfc-watchdog poll-interval 100$`},
				gone: []string{`pfc-watchdog (poll-interval 100|detection 2)$`}, now: []string{`pfc-watchdog detection 3$`}},
			mNVUE: {lines: `pfc-watchdog (polling-interval|robustness) `, max: 4,
				plus: []string{"polling-interval 200", "robustness 3"}, minus: []string{"polling-interval 100"},
				cmds: []string{`^nv unset qos pfc-watchdog polling-interval 100$`},
				gone: []string{`pfc-watchdog (polling-interval 100|robustness 2)$`}, now: []string{`pfc-watchdog robustness 3$`}},
			mSONiC: {lines: `^PFC_WD\|\w+\|(detection_time|POLL_INTERVAL) = `, max: 12,
				plus: []string{"PFC_WD|GLOBAL|POLL_INTERVAL = 200", "PFC_WD|Ethernet0|detection_time = 600"}, minus: []string{"PFC_WD|GLOBAL|POLL_INTERVAL = 100"},
				cmds: []string{`^\{"op":"replace","path":"/PFC_WD/GLOBAL/POLL_INTERVAL","value":"200"\}$`},
				gone: []string{`^PFC_WD\|GLOBAL\|POLL_INTERVAL = 100$`, `^PFC_WD\|Ethernet0\|detection_time = 200$`}},
			// The NIC's storm prevention is a timeout: the detection time.
			mMLNX: {lines: `^\S+ tunable pfc-prevention-tout = (200|600)$`, max: 4,
				plus: []string{"pfc-prevention-tout = 600"}, minus: []string{"pfc-prevention-tout = 200"},
				cmds: []string{`^ethtool --set-tunable ens1f0np0 pfc-prevention-tout 600$`},
				gone: []string{`> pfc-prevention-tout 200$`}, touched: []string{`> pfc-prevention-tout `}},
			mDCB: {lines: `^\S+ tunable pfc-prevention-tout = (200|600)$`, max: 4,
				plus: []string{"pfc-prevention-tout = 600"}, minus: []string{"pfc-prevention-tout = 200"},
				cmds: []string{`^ethtool --set-tunable enp65s0f0np0 pfc-prevention-tout 600$`},
				gone: []string{`> pfc-prevention-tout 200$`}, touched: []string{`> pfc-prevention-tout `}},
		}},
	{name: "watchdog-restoration", edits: []fixtureEdit{
		{"qos.fab.hcl", `detection     = "200ms"`, "detection     = \"200ms\"\n  restoration   = \"400ms\""}},
		by: map[schema.Platform]matrixExpect{
			// The 200 ms default was rendered already: the value changes.
			mEOS: {lines: `^priority-flow-control pause watchdog default recovery-time 0.[24]$`, max: 2,
				plus: []string{"recovery-time 0.4"}, minus: []string{"recovery-time 0.2"},
				cmds: []string{`^priority-flow-control pause watchdog default recovery-time 0.4$`},
				gone: []string{`^priority-flow-control pause watchdog default recovery-time 0.2$`},
				now:  []string{`^priority-flow-control pause watchdog default recovery-time 0.4$`}},
			mNXOS: {unchanged: "NX-OS has no confirmed restoration command (the render says so in a comment)"},
			mJunos: {lines: `pfc-watchdog recovery-time [24]00$`, max: 2, plus: []string{"recovery-time 400"}, minus: []string{"recovery-time 200"},
				cmds: []string{`^set class-of-service congestion-notification-profile FABRICGEN pfc-watchdog recovery-time 400$`},
				gone: []string{`pfc-watchdog recovery-time 200$`},
				now:  []string{`pfc-watchdog recovery-time 400$`}},
			mNVUE: {unchanged: "the Cumulus watchdog takes no restoration time (the render says so in a comment)"},
			mSONiC: {lines: `^PFC_WD\|Ethernet\d+\|restoration_time = [24]00$`, max: 10,
				plus: []string{"PFC_WD|Ethernet0|restoration_time = 400"}, minus: []string{"PFC_WD|Ethernet0|restoration_time = 200"},
				cmds: []string{`^\{"op":"replace","path":"/PFC_WD/Ethernet0/restoration_time","value":"400"\}$`},
				gone: []string{`^PFC_WD\|Ethernet0\|restoration_time = 200$`},
				now:  []string{`^PFC_WD\|Ethernet0\|restoration_time = 400$`}},
			mMLNX: {unchanged: "the NIC's storm prevention takes only a timeout (the script says so)"},
			mDCB:  {unchanged: "the NIC's storm prevention takes only a timeout"},
		}},
	{name: "acl-entry-added", edits: []fixtureEdit{
		{"acl.fab.hcl", "  rule {\n    seq      = 100", "  rule {\n    seq      = 40\n    action   = \"deny\"\n    protocol = \"tcp\"\n    dst_port = 23\n  }\n\n  rule {\n    seq      = 100"}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^\s+40 deny tcp any any eq 23$`, max: 1, plus: []string{"40 deny tcp any any eq 23"},
				cmds: []string{`^40 deny tcp any any eq 23$`},
				now:  []string{`^ip access-list roce-mark > 40 deny tcp any any eq 23$`},
				kept: []string{`^ip access-list roce-mark > 30 deny udp any any eq 4791$`}},
			mNXOS: {lines: `^\s+40 deny tcp any any eq 23$`, max: 1, plus: []string{"40 deny tcp any any eq 23"},
				cmds: []string{`^40 deny tcp any any eq 23$`},
				now:  []string{`^ip access-list roce-mark > 40 deny tcp any any eq 23$`}},
			mJunos: {lines: `filter roce-mark term 40 `, max: 3, plus: []string{"term 40 then discard"},
				cmds: []string{`^set firewall family inet filter roce-mark term 40 then discard$`},
				now:  []string{`filter roce-mark term 40 from destination-port 23$`}},
			mNVUE: {lines: `acl roce-mark rule 40 `, max: 3, plus: []string{"rule 40 action deny"},
				cmds: []string{`^nv set acl roce-mark rule 40 action deny$`},
				now:  []string{`acl roce-mark rule 40 match ip tcp dest-port 23$`}},
			mSONiC: {lines: `^ACL_RULE\|ROCE_MARK_IN\|RULE_40\|`, max: 5, plus: []string{"ACL_RULE|ROCE_MARK_IN|RULE_40|L4_DST_PORT = 23"},
				cmds: []string{`^\{"op":"add","path":"/ACL_RULE/ROCE_MARK_IN\|RULE_40"`},
				now:  []string{`^ACL_RULE\|ROCE_MARK_IN\|RULE_40\|PACKET_ACTION = DROP$`}},
			mMLNX: {unchanged: hostsNoACL}, mDCB: {unchanged: hostsNoACL},
		}},
	{name: "acl-entry-removed", edits: []fixtureEdit{
		{"acl.fab.hcl", rule30, ""}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^\s+30 deny udp any any eq 4791$`, max: 1, minus: []string{"30 deny udp any any eq 4791"},
				cmds: []string{`^no 30 deny udp any any eq 4791$`},
				gone: []string{`^ip access-list roce-mark > 30 `}, kept: []string{`^ip access-list roce-mark > 100 permit ip any any$`}},
			mNXOS: {lines: `^\s+30 deny udp any any eq 4791$`, max: 1, minus: []string{"30 deny udp any any eq 4791"},
				cmds: []string{`^no 30 deny udp any any eq 4791$`},
				gone: []string{`^ip access-list roce-mark > 30 `}},
			mJunos: {lines: `filter roce-mark term 30 `, max: 3, minus: []string{"term 30 then discard"},
				cmds: []string{`^delete firewall family inet filter roce-mark term 30 `},
				gone: []string{`filter roce-mark term 30 `}},
			mNVUE: {lines: `acl roce-mark rule 30 `, max: 3, minus: []string{"rule 30 action deny"},
				cmds: []string{`^nv unset acl roce-mark rule 30 `},
				gone: []string{`acl roce-mark rule 30 `}},
			// Issue 10: a dropped ACL rule's ACL_RULE entry stayed.
			mSONiC: {lines: `^ACL_RULE\|ROCE_MARK_IN\|RULE_30\|`, max: 5, minus: []string{"ACL_RULE|ROCE_MARK_IN|RULE_30|PACKET_ACTION = DROP"},
				cmds: []string{`^\{"op":"remove","path":"/ACL_RULE/ROCE_MARK_IN\|RULE_30"\}$`},
				gone: []string{`^ACL_RULE\|ROCE_MARK_IN\|RULE_30\|`}},
			mMLNX: {unchanged: hostsNoACL}, mDCB: {unchanged: hostsNoACL},
		}},
	{name: "acl-entry-reordered", edits: []fixtureEdit{
		{"acl.fab.hcl", ruleDSCP48, strings.Replace(ruleDSCP48, "= 10", "= 20", 1)},
		{"acl.fab.hcl", ruleDSCP26, strings.Replace(ruleDSCP26, "= 20", "= 10", 1)}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^\s+(10|20) permit udp any any eq 4791 dscp (26|48)$`, max: 4,
				plus: []string{"10 permit udp any any eq 4791 dscp 26"}, minus: []string{"10 permit udp any any eq 4791 dscp 48"},
				cmds:  []string{`^no 10 permit udp any any eq 4791 dscp 48$`, `^10 permit udp any any eq 4791 dscp 26$`},
				gone:  []string{`^ip access-list roce-mark > 10 permit udp any any eq 4791 dscp 48$`},
				order: []string{`^ip access-list roce-mark > 10 permit .* dscp 26$`, `^ip access-list roce-mark > 20 permit .* dscp 48$`, `^ip access-list roce-mark > 30 deny `}},
			mNXOS: {lines: `^\s+(10|20) permit udp any any eq 4791 dscp (26|48)$`, max: 4,
				plus: []string{"10 permit udp any any eq 4791 dscp 26"}, minus: []string{"10 permit udp any any eq 4791 dscp 48"},
				cmds:  []string{`^no 10 permit udp any any eq 4791 dscp 48$`, `^10 permit udp any any eq 4791 dscp 26$`},
				gone:  []string{`^ip access-list roce-mark > 10 permit udp any any eq 4791 dscp 48$`},
				order: []string{`^ip access-list roce-mark > 10 permit .* dscp 26$`, `^ip access-list roce-mark > 20 permit .* dscp 48$`, `^ip access-list roce-mark > 30 deny `}},
			// Junos evaluates terms in configuration order: the terms keep
			// their place and swap their matches.
			mJunos: {lines: `filter roce-mark term (10|20) from dscp (26|48)$`, max: 4,
				plus: []string{"term 10 from dscp 26"}, minus: []string{"term 10 from dscp 48"},
				cmds:  []string{`^delete firewall family inet filter roce-mark term 10 from dscp 48$`},
				gone:  []string{`term 10 from dscp 48$`},
				order: []string{`filter roce-mark term 10 from dscp 26$`, `filter roce-mark term 20 from dscp 48$`, `filter roce-mark term 30 `}},
			mNVUE: {lines: `acl roce-mark rule (10|20) match ip dscp (26|48)$`, max: 4,
				plus: []string{"rule 10 match ip dscp 26"}, minus: []string{"rule 10 match ip dscp 48"},
				cmds: []string{`^nv unset acl roce-mark rule 10 match ip dscp 48$`},
				gone: []string{`rule 10 match ip dscp 48$`}, now: []string{`rule 10 match ip dscp 26$`}},
			mSONiC: {lines: `^ACL_RULE\|ROCE_MARK_IN\|RULE_(10|20)\|DSCP = (26|48)$`, max: 4,
				plus: []string{"ACL_RULE|ROCE_MARK_IN|RULE_10|DSCP = 26"}, minus: []string{"ACL_RULE|ROCE_MARK_IN|RULE_10|DSCP = 48"},
				cmds: []string{`^\{"op":"replace","path":"/ACL_RULE/ROCE_MARK_IN\|RULE_10/DSCP","value":"26"\}$`},
				gone: []string{`^ACL_RULE\|ROCE_MARK_IN\|RULE_10\|DSCP = 48$`}, now: []string{`^ACL_RULE\|ROCE_MARK_IN\|RULE_10\|DSCP = 26$`}},
			mMLNX: {unchanged: hostsNoACL}, mDCB: {unchanged: hostsNoACL},
		}},
	// Issue 10: ACLs named by the intent and later dropped were never
	// deleted; the last-applied record makes them fabricgen's.
	{name: "acl-dropped", edits: []fixtureEdit{
		{"guard.fab.hcl", "", ""},
		{"devices.fab.hcl", "      acl_in      = [acl.guard]\n", ""}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^ip access-list guard$|^\s+ip access-group guard in$|^\s+(10 deny udp 10.66.0.0/16 any eq 5000|20 permit ip any any)$`, max: 5,
				minus: []string{"ip access-list guard", "ip access-group guard in"},
				cmds:  []string{`^no ip access-list guard$`, `^no ip access-group guard in$`},
				gone:  []string{`^ip access-list guard$`, `> ip access-group guard in$`},
				kept:  []string{`^ip access-list roce-mark$`, `^interface Ethernet31/1 > ip address `}},
			mNXOS: {lines: `^ip access-list guard$|^\s+ip access-group guard in$|^\s+(10 deny udp 10.66.0.0/16 any eq 5000|20 permit ip any any)$`, max: 5,
				minus: []string{"ip access-list guard", "ip access-group guard in"},
				cmds:  []string{`^no ip access-list guard$`, `^no ip access-group guard in$`},
				gone:  []string{`^ip access-list guard$`, `> ip access-group guard in$`},
				kept:  []string{`^ip access-list roce-mark$`}},
			mJunos: {lines: `filter guard term |filter input guard$`, max: 9,
				minus: []string{"filter guard term 10 then discard", "et-0/0/0 unit 0 family inet filter input guard"},
				cmds:  []string{`^delete firewall family inet filter guard `, `^delete interfaces et-0/0/0 unit 0 family inet filter input guard$`},
				gone:  []string{`filter guard `, `filter input guard$`},
				kept:  []string{`^set interfaces et-0/0/0 unit 0 family inet address `}},
			mNVUE: {lines: `acl guard `, max: 8,
				minus: []string{"nv set acl guard type ipv4", "interface swp31 acl guard inbound"},
				cmds:  []string{`^nv unset acl guard `, `^nv unset interface swp31 acl guard inbound$`},
				gone:  []string{`acl guard `}, kept: []string{`^nv set acl MGMT-IN type ipv4$`}},
			mSONiC: {lines: `^ACL_(TABLE|RULE)\|GUARD_IN\|`, max: 15,
				minus: []string{"ACL_TABLE|GUARD_IN|stage = ingress"},
				cmds:  []string{`^\{"op":"remove","path":"/ACL_TABLE/GUARD_IN"\}$`, `^\{"op":"remove","path":"/ACL_RULE/GUARD_IN\|RULE_10"\}$`},
				gone:  []string{`^ACL_(TABLE|RULE)\|GUARD_IN\|`}},
			mMLNX: {unchanged: hostsNoACL}, mDCB: {unchanged: hostsNoACL},
		}},
	// The spare port (leaf port 8, spine port 8, the NICs' second port)
	// leaves the intent: it loses what fabricgen put on it, the interface
	// and its address stay.
	{name: "port-removed", edits: []fixtureEdit{
		{"devices.fab.hcl", "spare_port = true", "spare_port = false"}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^\s+(mtu 9214|ip access-group roce-mark in|qos trust dscp|priority-flow-control .*|tx-queue [036]|no priority|bandwidth percent 50|priority strict|random-detect ecn .*)$`, max: 16,
				minus: []string{"qos trust dscp", "ip access-group roce-mark in", "tx-queue 3"},
				cmds:  []string{`^(no|default) qos trust dscp$`, `^no tx-queue 3$`, `^no ip access-group roce-mark in$`, `^no priority-flow-control on$`},
				gone:  []string{`^interface Ethernet8/1 > (mtu|qos|priority-flow-control|tx-queue|ip access-group)`},
				kept:  []string{`^interface Ethernet8/1 > ip address 10.0.1.14/31$`, `^interface Ethernet8/1 > description gpu-a08 `}},
			mNXOS: {lines: `^\s+(mtu 9214|priority-flow-control .*|service-policy type qos input FABRICGEN-IN|ip access-group roce-mark in)$`, max: 5,
				minus: []string{"service-policy type qos input FABRICGEN-IN"},
				cmds:  []string{`^no service-policy type qos input FABRICGEN-IN$`, `^no mtu 9214$`},
				gone:  []string{`^interface Ethernet1/8 > (mtu|priority-flow-control|service-policy|ip access-group)`},
				kept:  []string{`^interface Ethernet1/8 > ip address 10.0.2.14/31$`, `^interface Ethernet1/8 > description gpu-b08 `}},
			// roce-mark was bound only on the spine's spare port: it goes too.
			mJunos: {lines: `et-0/0/7 |filter roce-mark `, max: 17,
				minus: []string{"class-of-service interfaces et-0/0/7 scheduler-map FABRICGEN", "interfaces et-0/0/7 mtu 9214"},
				cmds:  []string{`^delete class-of-service interfaces et-0/0/7 scheduler-map FABRICGEN$`, `^delete interfaces et-0/0/7 mtu 9214$`},
				gone:  []string{`et-0/0/7 (mtu|unit 0 family inet filter)`, `class-of-service interfaces et-0/0/7 `, `filter roce-mark `}},
			mNVUE: {lines: `^nv set interface swp8 (link mtu 9214|qos pfc-watchdog|acl roce-mark inbound)$`, max: 3,
				minus: []string{"interface swp8 link mtu 9214"},
				cmds:  []string{`^nv unset interface swp8 link mtu 9214$`, `^nv unset interface swp8 acl roce-mark inbound$`},
				gone:  []string{`interface swp8 (link mtu|qos|acl)`}},
			// The port keeps its speed (mandatory in sonic-port.yang) and lanes.
			mSONiC: {lines: `^(ACL_TABLE\|ROCE_MARK_IN\|ports|PFC_WD\|Ethernet56\|\w+|PORT_QOS_MAP\|Ethernet56\|\w+|PORT\|Ethernet56\|mtu|QUEUE\|Ethernet56\|\d\|\w+|BUFFER_PG\|Ethernet56\|\d\|profile|CABLE_LENGTH\|AZURE\|Ethernet56) = `, max: 20,
				minus:  []string{"PORT_QOS_MAP|Ethernet56|pfc_enable = 3"},
				cmds:   []string{`^\{"op":"remove","path":"/PORT_QOS_MAP/Ethernet56"\}$`, `^\{"op":"replace","path":"/ACL_TABLE/ROCE_MARK_IN/ports"`},
				noCmds: []string{`/PORT/Ethernet56/speed`},
				gone:   []string{`^(PFC_WD|PORT_QOS_MAP|QUEUE)\|Ethernet56\|`, `^PORT\|Ethernet56\|mtu = 9214$`},
				kept:   []string{`^PORT\|Ethernet56\|speed = 400000$`, `^PORT\|Ethernet56\|lanes = `}},
			// A NIC port the intent drops goes back to its settings from
			// before fabricgen (the last-applied record's baseline): its
			// RDMA device's ToS too.
			mMLNX: {lines: `^(ens1f1np1 |mlx5_1 |/sys/class/net/ens1f1np1/|/sys/kernel/config/rdma_cm/mlx5_1/)`, max: 200,
				gone:    []string{`^netdev ens1f1np1 > trust dscp$`, `^netdev ens1f1np1 > pfc 0,0,0,1,0,0,0,0$`},
				touched: []string{`^netdev ens1f1np1 > `}},
			mDCB: {lines: `^(enp65s0f1np1 |mlx5_1 |/sys/class/net/enp65s0f1np1/|/sys/kernel/config/rdma_cm/mlx5_1/)`, max: 200,
				gone:    []string{`^netdev enp65s0f1np1 > trust dscp$`, `^netdev enp65s0f1np1 > pfc 0,0,0,1,0,0,0,0$`},
				touched: []string{`^netdev enp65s0f1np1 > `}},
		}},
	{name: "policy-swapped", edits: []fixtureEdit{
		{"devices.fab.hcl", "qos_policy   = qos_policy.fabric", "qos_policy   = qos_policy.fabric-alt"},
		{"devices.fab.hcl", "qos_policy   = qos_policy.host", "qos_policy   = qos_policy.host-alt"}},
		by: map[schema.Platform]matrixExpect{
			mEOS: {lines: `^\s+(mtu (9214|9000)|bandwidth percent (40|50|60)|random-detect ecn .*)$`, max: 40,
				plus:  []string{"mtu 9000", "minimum-threshold 300000 bytes maximum-threshold 3000000 bytes max-mark-probability 50"},
				minus: []string{"mtu 9214", "minimum-threshold 150000 bytes"},
				cmds:  []string{`^no mtu 9214$`, `^no random-detect ecn minimum-threshold 150000 bytes`, `^no bandwidth percent 50$`},
				gone:  []string{eosMatrixIfs + `mtu 9214$`, eosMatrixIfs + `tx-queue 3 > random-detect ecn minimum-threshold 150000 bytes`},
				now:   []string{eosMatrixIfs + `tx-queue 3 > random-detect ecn minimum-threshold 300000 bytes`}},
			mNXOS: {lines: `^\s+(mtu (9214|9000)|bandwidth remaining percent (40|50|60)|random-detect minimum-threshold .*)$`, max: 32,
				plus: []string{"mtu 9000", "minimum-threshold 292 kbytes"}, minus: []string{"mtu 9214", "minimum-threshold 146 kbytes"},
				cmds: []string{`^no random-detect minimum-threshold 146 kbytes`, `^no mtu 9214$`},
				gone: []string{`c-out-8q-q3 > random-detect minimum-threshold 146 kbytes`, `> mtu 9214$`},
				now:  []string{`c-out-8q-q3 > random-detect minimum-threshold 292 kbytes`}},
			mJunos: {lines: `FABRICGEN-ECN-(roce|deep)|transmit-rate percent (40|50|60)$|mtu (9214|9000)$`, max: 26,
				plus: []string{"drop-profile FABRICGEN-ECN-deep", "mtu 9000"}, minus: []string{"drop-profile FABRICGEN-ECN-roce", "mtu 9214"},
				cmds: []string{`^delete class-of-service drop-profiles FABRICGEN-ECN-roce `, `^delete interfaces et-0/0/0 mtu 9214$`},
				gone: []string{`drop-profiles FABRICGEN-ECN-roce `, `mtu 9214$`},
				now:  []string{`drop-profile-map loss-priority low protocol any drop-profile FABRICGEN-ECN-deep$`}},
			mNVUE: {lines: `congestion-control default-global traffic-class 3 (min-threshold|max-threshold|probability) |bw-percent (40|50|60)$|link mtu (9214|9000)$`, max: 20,
				plus: []string{"min-threshold 300000", "link mtu 9000"}, minus: []string{"min-threshold 150000", "link mtu 9214"},
				cmds: []string{`^nv unset qos congestion-control default-global traffic-class 3 min-threshold 150000$`, `^nv unset interface swp1 link mtu 9214$`},
				gone: []string{`min-threshold 150000$`, `link mtu 9214$`}},
			mSONiC: {lines: `^(PORT\|\w+\|mtu|QUEUE\|\w+\|3\|wred_profile|SCHEDULER\|fabricgen\.[03]\|weight|WRED_PROFILE\|(roce|deep)\|\w+) = `, max: 50,
				plus: []string{"QUEUE|Ethernet0|3|wred_profile = deep"}, minus: []string{"QUEUE|Ethernet0|3|wred_profile = roce"},
				cmds: []string{`^\{"op":"remove","path":"/WRED_PROFILE/roce"\}$`, `^\{"op":"replace","path":"/QUEUE/Ethernet0\|3/wred_profile","value":"deep"\}$`},
				gone: []string{`^WRED_PROFILE\|roce\|`, `^QUEUE\|Ethernet0\|3\|wred_profile = roce$`},
				now:  []string{`^WRED_PROFILE\|deep\|green_min_threshold = 300000$`}},
			mMLNX: {lines: `^\S+ (mtu|tcbw) = `, max: 8,
				plus: []string{"mtu = 4400", "tcbw = 40,0,0,60,0,0,0,0"}, minus: []string{"mtu = 4200"},
				cmds: []string{`^ip link set dev ens1f0np0 mtu 4400$`, `^mlnx_qos -i ens1f0np0 --tsa \S+ --tcbw 40,0,0,60,0,0,0,0$`},
				gone: []string{`^netdev \S+ > mtu 4200$`}, touched: []string{`> (mtu|tc-bw) `}},
			mDCB: {lines: `^\S+ (mtu|ets tc-bw [03]) = `, max: 12,
				plus: []string{"mtu = 4400", "ets tc-bw 3 = 60"}, minus: []string{"mtu = 4200"},
				cmds: []string{`^ip link set dev enp65s0f0np0 mtu 4400$`, `^dcb ets set dev enp65s0f0np0 .* tc-bw 0:40 1:0 2:0 3:60 `},
				gone: []string{`^netdev \S+ > mtu 4200$`}, touched: []string{`> (mtu|tc-bw) `}},
		}},
}

// TestMatrix runs every mutation on every platform (platforms in
// parallel). Per platform the base intent is applied once on top of the
// brownfield device; every mutation then starts from a lab device loaded
// with that applied configuration and the last-applied record of that
// apply, as a fabric's state directory has it.
func TestMatrix(t *testing.T) {
	base := loadMatrixIntent(t, nil)
	mutations := append(append([]matrixMutation(nil), matrixMutations...), matrixCombined(t)...)
	intents := make([]*matrixIntent, len(mutations))
	for i, m := range mutations {
		if len(m.by) != len(matrixDevices) {
			t.Fatalf("mutation %s has expectations for %d platforms, want %d", m.name, len(m.by), len(matrixDevices))
		}
		intents[i] = loadMatrixIntent(t, m.edits)
	}
	for _, md := range matrixDevices {
		t.Run(string(md.platform), func(t *testing.T) {
			t.Parallel()
			r := newMatrixRig(t, md, md.brownfield(t))
			// The first apply takes the brownfield device over.
			before := r.state()
			r.converge(t, base, "the base intent")
			applied, snapshot := r.state(), r.lab.Device(md.name).Export()
			if !platforms.IsHost(md.platform) {
				// The takeover keeps every line the matrix's own
				// patterns call the device's.
				r.checkUnmanagedIndependent(t, before, applied)
			}
			rec, err := r.opts.State.Applied(md.name)
			if err != nil || rec == nil {
				t.Fatalf("no last-applied record after the base apply: %v", err)
			}
			for i, m := range mutations {
				t.Run(m.name, func(t *testing.T) {
					r := newMatrixRig(t, md, snapshot)
					if got := r.state(); stripHeaderTimes(got) != stripHeaderTimes(applied) {
						t.Fatalf("the lab does not load the applied configuration back:\n%s", config.Unified("applied", "loaded", applied, got).Text)
					}
					if err := r.opts.State.WriteApplied(*rec); err != nil {
						t.Fatal(err)
					}
					r.mutate(t, base, intents[i], m.by[md.platform])
				})
			}
		})
	}
}

// mutate plans and applies one mutation and checks it against e.
func (r *matrixRig) mutate(t *testing.T, base, in *matrixIntent, e matrixExpect) {
	name := r.dev.name
	if len(e.renderErr) > 0 {
		err := in.renderErr[name]
		if err == nil {
			t.Fatalf("the render succeeds; want an error naming %q", e.renderErr)
		}
		for _, s := range append([]string{".fab.hcl:"}, e.renderErr...) {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("render error %q does not say %q", err, s)
			}
		}
		return
	}
	before, beforeLines := r.state(), r.stateLines(t)
	p := r.plan(t, in)
	pd := p.Devices[0]
	if e.unchanged != "" {
		if pd.Status != planfile.StatusUnchanged || pd.Diff.Text != "" {
			t.Errorf("plan: %s, want unchanged (%s):\n%s", pd.Status, e.unchanged, pd.Diff.Text)
		}
		if res := r.apply(t, in, p); res.Status != StatusUnchanged {
			t.Errorf("apply: %s (%s), want unchanged", res.Status, res.Reason)
		}
		if after := r.state(); after != before {
			t.Errorf("the device changed:\n%s", config.Unified("before", "after", before, after).Text)
		}
		return
	}
	// (a) the plan shows the minimal change in the platform's negation.
	if pd.Status != planfile.StatusChange {
		t.Errorf("plan: %s, want a change", pd.Status)
	}
	r.checkPlan(t, pd, e)

	// (b) apply converges; (c) the next plan is empty.
	if res := r.apply(t, in, p); res.Status != StatusApplied {
		t.Fatalf("apply: %s: %s", res.Status, res.Reason)
	}
	if d := r.plan(t, in).Devices[0]; d.Status != planfile.StatusUnchanged || d.Diff.Text != "" {
		t.Errorf("second plan: %s:\n%s", d.Status, d.Diff.Text)
	}

	// (d) the old values are gone, the new ones there.
	after, afterLines := r.state(), r.stateLines(t)
	for _, p := range e.gone {
		re := regexp.MustCompile(p)
		if !anyLineMatches(re, beforeLines) {
			t.Errorf("gone %q matches nothing before the change: the check proves nothing", p)
		}
		if l := firstLineMatching(re, afterLines); l != "" {
			t.Errorf("old value still on the device after apply: %q", l)
		}
	}
	for _, p := range e.now {
		re := regexp.MustCompile(p)
		if l := firstLineMatching(re, beforeLines); l != "" {
			t.Errorf("now %q matches %q before the change: the check proves nothing", p, l)
		}
		if !anyLineMatches(re, afterLines) {
			t.Errorf("new value %q not on the device after apply", p)
		}
	}
	for _, p := range e.kept {
		re := regexp.MustCompile(p)
		if !anyLineMatches(re, beforeLines) || !anyLineMatches(re, afterLines) {
			t.Errorf("%q is not on the device both before and after the change", p)
		}
	}
	checkLineOrder(t, e.order, afterLines)

	// (e) what fabricgen does not manage is byte-identical.
	r.checkUnmanaged(t, before, after, base.rendered[name], in.rendered[name], e)
}

// checkPlan checks the plan's diff and change set against e.
func (r *matrixRig) checkPlan(t *testing.T, pd *planfile.Device, e matrixExpect) {
	removed, added := matrixDiffLines(pd.Diff.Text)
	changed := append(append([]string(nil), removed...), added...)
	if len(changed) > e.max {
		t.Errorf("the diff changes %d lines, want at most %d:\n%s", len(changed), e.max, pd.Diff.Text)
	}
	related := regexp.MustCompile(e.lines)
	for _, l := range changed {
		if !related.MatchString(l) {
			t.Errorf("the diff changes %q, which the mutation does not touch", l)
		}
	}
	for _, s := range e.plus {
		if !anyLineContains(added, s) {
			t.Errorf("no added diff line says %q (the new value)", s)
		}
	}
	for _, s := range e.minus {
		if !anyLineContains(removed, s) {
			t.Errorf("no removed diff line says %q (the old value)", s)
		}
	}
	cmds := pd.Changes.Commands()
	for _, p := range e.cmds {
		if !anyLineMatches(regexp.MustCompile(p), cmds) {
			t.Errorf("no command of the change set matches %q", p)
		}
	}
	for _, p := range e.noCmds {
		if l := firstLineMatching(regexp.MustCompile(p), cmds); l != "" {
			t.Errorf("the change set has %q: not the minimal change", l)
		}
	}
	if len(removed) > 0 && !anyLineMatches(matrixNegation[r.dev.platform], cmds) {
		t.Errorf("the diff removes lines but no command uses the %s negation %s", r.dev.platform, matrixNegation[r.dev.platform])
	}
	if t.Failed() {
		t.Logf("change set:\n%s", indentLines(cmds))
	}
}

// checkUnmanaged compares what fabricgen manages neither in the base nor
// in the mutated intent: for switches every line the matrix's own
// patterns (matrixManaged) do not claim, independently of the product's
// filter, and the product's own view (config.Unmanaged with the mutated
// render and the base render as the last-applied scope) too; for hosts
// every setting the mutation does not touch.
func (r *matrixRig) checkUnmanaged(t *testing.T, before, after, baseRendered, rendered string, e matrixExpect) {
	if r.dl.Host {
		touched := compileAll(e.touched...)
		b := untouchedHostSettings(hostSettings(r.dl, before), touched)
		a := untouchedHostSettings(hostSettings(r.dl, after), touched)
		if strings.Join(b, "\n") != strings.Join(a, "\n") {
			t.Errorf("settings the mutation does not touch changed:\n%s",
				config.Unified("before", "after", strings.Join(b, "\n")+"\n", strings.Join(a, "\n")+"\n").Text)
		}
		return
	}
	r.checkUnmanagedIndependent(t, before, after)
	b, err := config.Unmanaged(before, rendered, baseRendered, r.dl)
	if err != nil {
		t.Fatal(err)
	}
	a, err := config.Unmanaged(after, rendered, baseRendered, r.dl)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("lines fabricgen does not manage (by config.Unmanaged) changed:\n%s", config.Unified("before", "after", b, a).Text)
	}
}
