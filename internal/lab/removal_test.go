package lab

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// Removal semantics: each platform's negation ("no X" / "default X",
// Junos `delete`, NVUE `nv unset`, a JSON Patch `remove`, the hosts'
// `del`/`flush` forms) typed over SSH must remove exactly the line or the
// value it names, and a changed value must replace the old one. Each case
// starts a device from the platform's setup, types its commands, and
// compares the configuration before and after as a multiset of lines
// qualified by their parents: the lines that went and the lines that came
// must be exactly the ones listed. docs/lab.md ("Removal semantics") gives
// the vendor source of each rule.

// removalCase is one negation (or replacement) and its whole effect.
type removalCase struct {
	name string
	// cmds are typed in configuration mode (EOS, NX-OS: after configure;
	// Junos: in configure, then committed; Cumulus: then nv config
	// apply; SONiC: the JSON Patch; hosts: shell commands).
	cmds []string
	// gone and added are the qualified lines ("parent > child") that
	// must disappear and appear; nothing else may change.
	gone, added []string
	// fails means the device must refuse the commands (and change
	// nothing).
	fails bool
}

// removalPlatform is how one platform is set up, driven and read.
type removalPlatform struct {
	platform schema.Platform
	ports    []string
	prompt   string
	// setup is the configuration each case starts from (on top of the
	// factory one), applied with ConfigureOutOfBand.
	setup []string
	// typeIn types a case's commands over SSH and reports the output of
	// each; errOut tells a refusal.
	typeIn func(t *testing.T, sh *shellClient, cmds []string) []string
	errOut func(out string) bool
	// lines reads the device's configuration as qualified lines.
	lines func(d *Device) []string
	cases []removalCase
}

func TestRemovalSemantics(t *testing.T) {
	for _, p := range removalPlatforms() {
		for _, c := range p.cases {
			t.Run(string(p.platform)+"/"+c.name, func(t *testing.T) {
				l := startLab(t, DeviceSpec{Name: "r1", Platform: p.platform, Ports: p.ports})
				dev := l.Device("r1")
				if len(p.setup) > 0 {
					if err := dev.ConfigureOutOfBand(p.setup); err != nil {
						t.Fatalf("setup: %v", err)
					}
				}
				before := p.lines(dev)
				sh := openShell(t, l, "r1", p.prompt)
				outs := p.typeIn(t, sh, c.cmds)
				refused := false
				for i, o := range outs {
					if p.errOut(o) {
						refused = true
						if !c.fails {
							t.Errorf("command %d refused: %q", i, o)
						}
					}
				}
				if c.fails && !refused {
					t.Errorf("the commands were accepted; want them refused")
				}
				gone, added := lineDelta(before, p.lines(dev))
				if !sameLines(gone, c.gone) || !sameLines(added, c.added) {
					t.Errorf("after %q:\n  gone  %q\n  want  %q\n  added %q\n  want  %q", c.cmds, gone, sorted(c.gone), added, sorted(c.added))
				}
			})
		}
	}
}

// lineDelta returns the lines of before missing from after and the lines
// of after missing from before, counting repeats, sorted.
func lineDelta(before, after []string) (gone, added []string) {
	n := map[string]int{}
	for _, l := range before {
		n[l]++
	}
	for _, l := range after {
		n[l]--
	}
	for l, c := range n {
		for ; c > 0; c-- {
			gone = append(gone, l)
		}
		for ; c < 0; c++ {
			added = append(added, l)
		}
	}
	sort.Strings(gone)
	sort.Strings(added)
	return gone, added
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func sameLines(a, b []string) bool {
	b = sorted(b)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// indentedLines qualifies each line of an indented configuration by the
// lines above it ("interface Ethernet1 > tx-queue 3 > no priority"),
// without comments, separators and the header lines a device prints anew.
func indentedLines(text string) []string {
	type level struct {
		indent int
		text   string
	}
	var stack []level
	var out []string
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "!") || line == "end" || strings.HasPrefix(line, "version ") {
			continue
		}
		indent := len(raw) - len(strings.TrimLeft(raw, " "))
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		var parts []string
		for _, s := range stack {
			parts = append(parts, s.text)
		}
		out = append(out, strings.Join(append(parts, line), " > "))
		stack = append(stack, level{indent, line})
	}
	return out
}

// plainLines are the lines of a flat configuration (set statements,
// NVUE commands, a host's state dump), without comments.
func plainLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "set version ") {
			out = append(out, l)
		}
	}
	return out
}

// dbLines flattens CONFIG_DB JSON into "TABLE|key|field = value" lines,
// and "TABLE|key" for an entry without fields.
func dbLines(text string) []string {
	var db map[string]map[string]map[string]any
	if err := json.Unmarshal([]byte(text), &db); err != nil {
		return []string{"not CONFIG_DB JSON: " + err.Error()}
	}
	var out []string
	for t, keys := range db {
		for k, fields := range keys {
			if len(fields) == 0 {
				out = append(out, t+"|"+k)
			}
			for f, v := range fields {
				out = append(out, fmt.Sprintf("%s|%s|%s = %v", t, k, f, v))
			}
		}
	}
	return out
}

// cliIn types commands between an entry and an exit command.
func cliIn(enter []string, exit ...string) func(t *testing.T, sh *shellClient, cmds []string) []string {
	return func(t *testing.T, sh *shellClient, cmds []string) []string {
		var outs []string
		for _, c := range enter {
			sh.run(c)
		}
		for _, c := range cmds {
			outs = append(outs, sh.run(c))
		}
		for _, c := range exit {
			outs = append(outs, sh.run(c))
		}
		return outs
	}
}

const eosRemovalSetup = `qos map dscp 0 1 2 to traffic-class 0
qos map dscp 26 to traffic-class 3
qos map dscp 48 to traffic-class 6
qos map traffic-class 3 to tx-queue 3
priority-flow-control pause watchdog default timeout 0.2
priority-flow-control pause watchdog default polling-interval 0.1
priority-flow-control pause watchdog action drop
ip access-list FG-ACL
   10 permit udp any any eq 4791
   20 permit ip any any
class-map type qos match-any CM
   match ip access-group FG-ACL
policy-map type quality-of-service PM
   class CM
      set dscp 26
      set traffic-class 3
   class class-default
      set traffic-class 0
qos profile QP
   qos trust dscp
   tx-queue 3
      no priority
      bandwidth percent 40
interface Ethernet1
   mtu 9214
   qos trust dscp
   service-profile QP
   service-policy type qos input PM
   priority-flow-control on
   priority-flow-control priority 3 no-drop
   priority-flow-control priority 4 no-drop
   priority-flow-control pause watchdog
   priority-flow-control pause watchdog port action drop
   ip access-group FG-ACL in
   tx-queue 0
      no priority
      bandwidth percent 50
   tx-queue 3
      no priority
      bandwidth percent 50
      random-detect ecn minimum-threshold 150000 bytes maximum-threshold 1500000 bytes max-mark-probability 100
   tx-queue 6
      priority strict
interface Ethernet2
   qos trust cos
ip routing
no ip routing vrf MGMT`

const nxosRemovalSetup = `priority-flow-control watch-dog-interval on
priority-flow-control watch-dog interval 100
class-map type qos match-any FG-DSCP-roce
  match dscp 26
  match dscp 24
policy-map type qos FABRICGEN-IN
  class FG-DSCP-roce
    set qos-group 3
    set dscp 26
policy-map type queuing FABRICGEN-OUT
  class type queuing c-out-8q-q6
    priority level 1
  class type queuing c-out-8q-q3
    bandwidth remaining percent 50
    random-detect minimum-threshold 150 kbytes maximum-threshold 1500 kbytes drop-probability 100 weight 0 ecn
policy-map type network-qos FABRICGEN-NQ
  class type network-qos c-8q-nq3
    mtu 9216
    pause pfc-cos 3
system qos
  service-policy type network-qos FABRICGEN-NQ
  service-policy type queuing output FABRICGEN-OUT
ip access-list FG-ACL
  10 permit udp any any eq 4791
  20 permit ip any any
interface Ethernet1/1
  mtu 9216
  priority-flow-control mode on
  priority-flow-control watch-dog-interval on
  service-policy type qos input FABRICGEN-IN
  ip port access-group FG-ACL in`

const (
	eosRD    = "random-detect ecn minimum-threshold 150000 bytes maximum-threshold 1500000 bytes max-mark-probability 100"
	eosRD2   = "random-detect ecn minimum-threshold 200000 bytes maximum-threshold 1500000 bytes max-mark-probability 100"
	eosTxq3  = "interface Ethernet1 > tx-queue 3"
	nxosRD   = "random-detect minimum-threshold 150 kbytes maximum-threshold 1500 kbytes drop-probability 100 weight 0 ecn"
	nxosRD2  = "random-detect minimum-threshold 200 kbytes maximum-threshold 1500 kbytes drop-probability 100 weight 0 ecn"
	nxosQ3   = "policy-map type queuing FABRICGEN-OUT > class type queuing c-out-8q-q3"
	nxosNQ3  = "policy-map type network-qos FABRICGEN-NQ > class type network-qos c-8q-nq3"
	nxosEth1 = "interface Ethernet1/1"
)

func removalPlatforms() []removalPlatform {
	ciscoErr := func(o string) bool { return strings.Contains(o, "% ") || strings.Contains(o, "ERROR") }
	eosIf := "interface Ethernet1"
	return []removalPlatform{{
		platform: aristaEOS, prompt: `r1[^\n]*#$`, setup: strings.Split(eosRemovalSetup, "\n"),
		typeIn: cliIn([]string{"configure"}, "end"), errOut: ciscoErr,
		lines: func(d *Device) []string { return indentedLines(d.Export()) },
		cases: []removalCase{
			{name: "no random-detect removes only that line (issue 10)", cmds: []string{eosIf, "tx-queue 3", "no " + eosRD},
				gone: []string{eosTxq3 + " > " + eosRD}},
			{name: "a new random-detect replaces the old one", cmds: []string{eosIf, "tx-queue 3", eosRD2},
				gone: []string{eosTxq3 + " > " + eosRD}, added: []string{eosTxq3 + " > " + eosRD2}},
			{name: "push's order: no old line, then the new one", cmds: []string{eosIf, "tx-queue 3", "no " + eosRD, eosRD2},
				gone: []string{eosTxq3 + " > " + eosRD}, added: []string{eosTxq3 + " > " + eosRD2}},
			{name: "no random-detect of another value names the same line", cmds: []string{eosIf, "tx-queue 3", "no " + eosRD2},
				gone: []string{eosTxq3 + " > " + eosRD}},
			{name: "default priority restores strict priority", cmds: []string{eosIf, "tx-queue 3", "default priority"},
				gone: []string{eosTxq3 + " > no priority"}},
			{name: "priority strict replaces no priority", cmds: []string{eosIf, "tx-queue 3", "priority strict"},
				gone: []string{eosTxq3 + " > no priority"}, added: []string{eosTxq3 + " > priority strict"}},
			{name: "no bandwidth percent (no value) removes the bandwidth only", cmds: []string{eosIf, "tx-queue 3", "no bandwidth percent"},
				gone: []string{eosTxq3 + " > bandwidth percent 50"}},
			{name: "bandwidth percent replaces the old value", cmds: []string{eosIf, "tx-queue 3", "bandwidth percent 60"},
				gone: []string{eosTxq3 + " > bandwidth percent 50"}, added: []string{eosTxq3 + " > bandwidth percent 60"}},
			{name: "no tx-queue removes the queue's lines", cmds: []string{eosIf, "no tx-queue 3"},
				gone: []string{eosTxq3, eosTxq3 + " > no priority", eosTxq3 + " > bandwidth percent 50", eosTxq3 + " > " + eosRD}},
			{name: "no tx-queue 3 leaves tx-queue 30 alone", cmds: []string{eosIf, "tx-queue 30", "no priority", "exit", "no tx-queue 3"},
				gone:  []string{eosTxq3, eosTxq3 + " > no priority", eosTxq3 + " > bandwidth percent 50", eosTxq3 + " > " + eosRD},
				added: []string{eosIf + " > tx-queue 30", eosIf + " > tx-queue 30 > no priority"}},
			{name: "no pfc priority 3 keeps priority 4", cmds: []string{eosIf, "no priority-flow-control priority 3 no-drop"},
				gone: []string{eosIf + " > priority-flow-control priority 3 no-drop"}},
			{name: "no pfc watchdog keeps the port action", cmds: []string{eosIf, "no priority-flow-control pause watchdog"},
				gone: []string{eosIf + " > priority-flow-control pause watchdog"}},
			{name: "no priority-flow-control on", cmds: []string{eosIf, "no priority-flow-control on"},
				gone: []string{eosIf + " > priority-flow-control on"}},
			{name: "no mtu of another value", cmds: []string{eosIf, "no mtu 9000"}, gone: []string{eosIf + " > mtu 9214"}},
			{name: "mtu replaces mtu", cmds: []string{eosIf, "mtu 9000"}, gone: []string{eosIf + " > mtu 9214"}, added: []string{eosIf + " > mtu 9000"}},
			{name: "no qos trust dscp restores the default trust", cmds: []string{eosIf, "no qos trust dscp"}, gone: []string{eosIf + " > qos trust dscp"}},
			{name: "no qos trust is a statement (untrusted)", cmds: []string{eosIf, "no qos trust"},
				gone: []string{eosIf + " > qos trust dscp"}, added: []string{eosIf + " > no qos trust"}},
			{name: "no service-profile", cmds: []string{eosIf, "no service-profile QP"}, gone: []string{eosIf + " > service-profile QP"}},
			{name: "no service-policy", cmds: []string{eosIf, "no service-policy type qos input PM"}, gone: []string{eosIf + " > service-policy type qos input PM"}},
			{name: "no ip access-group", cmds: []string{eosIf, "no ip access-group FG-ACL in"}, gone: []string{eosIf + " > ip access-group FG-ACL in"}},
			{name: "default interface resets a physical port", cmds: []string{"default interface Ethernet2"}, gone: []string{"interface Ethernet2 > qos trust cos"}},
			{name: "no interface resets a physical port", cmds: []string{"no interface Ethernet2"}, gone: []string{"interface Ethernet2 > qos trust cos"}},
			{name: "qos map dscp takes the value from its old class", cmds: []string{"qos map dscp 26 to traffic-class 4"},
				gone: []string{"qos map dscp 26 to traffic-class 3"}, added: []string{"qos map dscp 26 to traffic-class 4"}},
			{name: "qos map dscp takes values from two lines", cmds: []string{"qos map dscp 2 26 to traffic-class 5"},
				gone:  []string{"qos map dscp 0 1 2 to traffic-class 0", "qos map dscp 26 to traffic-class 3"},
				added: []string{"qos map dscp 0 1 to traffic-class 0", "qos map dscp 2 26 to traffic-class 5"}},
			{name: "no qos map dscp unmaps the values it names", cmds: []string{"no qos map dscp 1 to traffic-class 0"},
				gone: []string{"qos map dscp 0 1 2 to traffic-class 0"}, added: []string{"qos map dscp 0 2 to traffic-class 0"}},
			{name: "no qos map dscp of the whole line", cmds: []string{"no qos map dscp 26 to traffic-class 3"},
				gone: []string{"qos map dscp 26 to traffic-class 3"}},
			{name: "no qos map dscp to another class changes nothing", cmds: []string{"no qos map dscp 26 to traffic-class 4"}},
			{name: "no qos map traffic-class to tx-queue", cmds: []string{"no qos map traffic-class 3 to tx-queue 3"},
				gone: []string{"qos map traffic-class 3 to tx-queue 3"}},
			{name: "no watchdog default timeout keeps polling-interval", cmds: []string{"no priority-flow-control pause watchdog default timeout 0.2"},
				gone: []string{"priority-flow-control pause watchdog default timeout 0.2"}},
			{name: "watchdog timeout replaces", cmds: []string{"priority-flow-control pause watchdog default timeout 0.3"},
				gone:  []string{"priority-flow-control pause watchdog default timeout 0.2"},
				added: []string{"priority-flow-control pause watchdog default timeout 0.3"}},
			{name: "ACL no SEQ", cmds: []string{"ip access-list FG-ACL", "no 20"}, gone: []string{"ip access-list FG-ACL > 20 permit ip any any"}},
			{name: "ACL no ENTRY without its sequence number", cmds: []string{"ip access-list FG-ACL", "no permit udp any any eq 4791"},
				gone: []string{"ip access-list FG-ACL > 10 permit udp any any eq 4791"}},
			{name: "ACL no SEQ ENTRY", cmds: []string{"ip access-list FG-ACL", "no 10 permit udp any any eq 4791"},
				gone: []string{"ip access-list FG-ACL > 10 permit udp any any eq 4791"}},
			{name: "no ip access-list", cmds: []string{"no ip access-list FG-ACL"},
				gone: []string{"ip access-list FG-ACL", "ip access-list FG-ACL > 10 permit udp any any eq 4791", "ip access-list FG-ACL > 20 permit ip any any"}},
			{name: "no class in a policy-map", cmds: []string{"policy-map type quality-of-service PM", "no class CM"},
				gone: []string{"policy-map type quality-of-service PM > class CM", "policy-map type quality-of-service PM > class CM > set dscp 26",
					"policy-map type quality-of-service PM > class CM > set traffic-class 3"}},
			{name: "no set dscp in a policy-map class", cmds: []string{"policy-map type quality-of-service PM", "class CM", "no set dscp 26"},
				gone: []string{"policy-map type quality-of-service PM > class CM > set dscp 26"}},
			{name: "no policy-map type qos (typed form)", cmds: []string{"no policy-map type qos PM"},
				gone: []string{"policy-map type quality-of-service PM", "policy-map type quality-of-service PM > class CM",
					"policy-map type quality-of-service PM > class CM > set dscp 26", "policy-map type quality-of-service PM > class CM > set traffic-class 3",
					"policy-map type quality-of-service PM > class class-default", "policy-map type quality-of-service PM > class class-default > set traffic-class 0"}},
			{name: "no class-map", cmds: []string{"no class-map type qos match-any CM"},
				gone: []string{"class-map type qos match-any CM", "class-map type qos match-any CM > match ip access-group FG-ACL"}},
			{name: "no match in a class-map", cmds: []string{"class-map type qos match-any CM", "no match ip access-group FG-ACL"},
				gone: []string{"class-map type qos match-any CM > match ip access-group FG-ACL"}},
			{name: "qos profile tx-queue line", cmds: []string{"qos profile QP", "tx-queue 3", "no bandwidth percent 40"},
				gone: []string{"qos profile QP > tx-queue 3 > bandwidth percent 40"}},
			{name: "no qos profile", cmds: []string{"no qos profile QP"},
				gone: []string{"qos profile QP", "qos profile QP > qos trust dscp", "qos profile QP > tx-queue 3",
					"qos profile QP > tx-queue 3 > no priority", "qos profile QP > tx-queue 3 > bandwidth percent 40"}},
			{name: "ip routing vrf replaces no ip routing vrf", cmds: []string{"ip routing vrf MGMT"},
				gone: []string{"no ip routing vrf MGMT"}, added: []string{"ip routing vrf MGMT"}},
			{name: "an unknown line is refused", cmds: []string{eosIf, "tx-queue 3", "random-detect bogus"}, fails: true},
		},
	}, {
		platform: ciscoNXOS, prompt: `r1[^\n]*# $`, setup: strings.Split(nxosRemovalSetup, "\n"),
		typeIn: cliIn([]string{"configure terminal"}, "end"), errOut: ciscoErr,
		lines: func(d *Device) []string { return indentedLines(d.Export()) },
		cases: []removalCase{
			{name: "no random-detect keeps the bandwidth", cmds: []string{"policy-map type queuing FABRICGEN-OUT", "class type queuing c-out-8q-q3", "no " + nxosRD},
				gone: []string{nxosQ3 + " > " + nxosRD}},
			{name: "a new random-detect replaces the old one", cmds: []string{"policy-map type queuing FABRICGEN-OUT", "class type queuing c-out-8q-q3", nxosRD2},
				gone: []string{nxosQ3 + " > " + nxosRD}, added: []string{nxosQ3 + " > " + nxosRD2}},
			{name: "no bandwidth remaining percent keeps random-detect", cmds: []string{"policy-map type queuing FABRICGEN-OUT", "class type queuing c-out-8q-q3", "no bandwidth remaining percent 50"},
				gone: []string{nxosQ3 + " > bandwidth remaining percent 50"}},
			{name: "no priority level", cmds: []string{"policy-map type queuing FABRICGEN-OUT", "class type queuing c-out-8q-q6", "no priority level 1"},
				gone: []string{"policy-map type queuing FABRICGEN-OUT > class type queuing c-out-8q-q6 > priority level 1"}},
			{name: "no class type queuing", cmds: []string{"policy-map type queuing FABRICGEN-OUT", "no class type queuing c-out-8q-q3"},
				gone: []string{nxosQ3, nxosQ3 + " > bandwidth remaining percent 50", nxosQ3 + " > " + nxosRD}},
			{name: "no pause pfc-cos keeps the mtu", cmds: []string{"policy-map type network-qos FABRICGEN-NQ", "class type network-qos c-8q-nq3", "no pause pfc-cos 3"},
				gone: []string{nxosNQ3 + " > pause pfc-cos 3"}},
			{name: "pause pfc-cos replaces", cmds: []string{"policy-map type network-qos FABRICGEN-NQ", "class type network-qos c-8q-nq3", "pause pfc-cos 4"},
				gone: []string{nxosNQ3 + " > pause pfc-cos 3"}, added: []string{nxosNQ3 + " > pause pfc-cos 4"}},
			{name: "no set dscp keeps set qos-group", cmds: []string{"policy-map type qos FABRICGEN-IN", "class FG-DSCP-roce", "no set dscp 26"},
				gone: []string{"policy-map type qos FABRICGEN-IN > class FG-DSCP-roce > set dscp 26"}},
			{name: "no match dscp keeps the other match", cmds: []string{"class-map type qos match-any FG-DSCP-roce", "no match dscp 24"},
				gone: []string{"class-map type qos match-any FG-DSCP-roce > match dscp 24"}},
			{name: "system qos: no network-qos keeps the queuing policy", cmds: []string{"system qos", "no service-policy type network-qos FABRICGEN-NQ"},
				gone: []string{"system qos > service-policy type network-qos FABRICGEN-NQ"}},
			{name: "system qos: another network-qos policy replaces it", cmds: []string{"system qos", "service-policy type network-qos CUSTOMER-NQ"},
				gone:  []string{"system qos > service-policy type network-qos FABRICGEN-NQ"},
				added: []string{"system qos > service-policy type network-qos CUSTOMER-NQ"}},
			{name: "no watch-dog interval keeps watch-dog-interval on", cmds: []string{"no priority-flow-control watch-dog interval 100"},
				gone: []string{"priority-flow-control watch-dog interval 100"}},
			{name: "interface: no pfc mode keeps the watchdog", cmds: []string{"interface Ethernet1/1", "no priority-flow-control mode on"},
				gone: []string{nxosEth1 + " > priority-flow-control mode on"}},
			{name: "interface: no service-policy", cmds: []string{"interface Ethernet1/1", "no service-policy type qos input FABRICGEN-IN"},
				gone: []string{nxosEth1 + " > service-policy type qos input FABRICGEN-IN"}},
			{name: "interface: mtu replaces", cmds: []string{"interface Ethernet1/1", "mtu 9000"},
				gone: []string{nxosEth1 + " > mtu 9216"}, added: []string{nxosEth1 + " > mtu 9000"}},
			{name: "interface: no ip port access-group", cmds: []string{"interface Ethernet1/1", "no ip port access-group FG-ACL in"},
				gone: []string{nxosEth1 + " > ip port access-group FG-ACL in"}},
			{name: "ACL no SEQ", cmds: []string{"ip access-list FG-ACL", "no 20"}, gone: []string{"ip access-list FG-ACL > 20 permit ip any any"}},
			{name: "no policy-map type queuing", cmds: []string{"no policy-map type queuing FABRICGEN-OUT"},
				gone: []string{"policy-map type queuing FABRICGEN-OUT", "policy-map type queuing FABRICGEN-OUT > class type queuing c-out-8q-q6",
					"policy-map type queuing FABRICGEN-OUT > class type queuing c-out-8q-q6 > priority level 1",
					nxosQ3, nxosQ3 + " > bandwidth remaining percent 50", nxosQ3 + " > " + nxosRD}},
			{name: "default interface resets a physical port", cmds: []string{"default interface Ethernet1/1"},
				gone: []string{nxosEth1 + " > mtu 9216", nxosEth1 + " > priority-flow-control mode on", nxosEth1 + " > priority-flow-control watch-dog-interval on",
					nxosEth1 + " > service-policy type qos input FABRICGEN-IN", nxosEth1 + " > ip port access-group FG-ACL in"}},
		},
	}, {
		platform: juniperJunos, prompt: `admin@r1[>#] $`, setup: strings.Split(junosRemovalSetup, "\n"),
		typeIn: cliIn([]string{"configure"}, "commit and-quit"),
		errOut: func(o string) bool { return strings.Contains(o, "error") || strings.Contains(o, "unknown command") },
		lines:  func(d *Device) []string { return plainLines(d.Export()) },
		cases: []removalCase{
			{name: "delete one value of a leaf-list", cmds: []string{"delete " + junosCP + " 011000"}, gone: []string{"set " + junosCP + " 011000"}},
			{name: "delete a leaf keeps its siblings", cmds: []string{"delete " + junosQ3 + " transmit-rate percent 50"},
				gone: []string{"set " + junosQ3 + " transmit-rate percent 50"}},
			{name: "delete a leaf without its value", cmds: []string{"delete " + junosQ3 + " transmit-rate"},
				gone: []string{"set " + junosQ3 + " transmit-rate percent 50"}},
			{name: "a new value replaces a single-value statement", cmds: []string{"set " + junosQ3 + " transmit-rate percent 40"},
				gone: []string{"set " + junosQ3 + " transmit-rate percent 50"}, added: []string{"set " + junosQ3 + " transmit-rate percent 40"}},
			{name: "delete an object removes what is under it", cmds: []string{"delete " + junosQ3},
				gone: []string{"set " + junosQ3 + " transmit-rate percent 50", "set " + junosQ3 + " explicit-congestion-notification"}},
			{name: "delete queue-num keeps pfc-priority", cmds: []string{"delete " + junosFC3 + " queue-num 3 no-loss"},
				gone: []string{"set " + junosFC3 + " queue-num 3 no-loss"}},
			{name: "queue-num replaces queue-num", cmds: []string{"set " + junosFC3 + " queue-num 4 no-loss"},
				gone: []string{"set " + junosFC3 + " queue-num 3 no-loss"}, added: []string{"set " + junosFC3 + " queue-num 4 no-loss"}},
			{name: "delete the last statement of an object", cmds: []string{"delete class-of-service forwarding-classes class FG-P6 queue-num 6"},
				gone: []string{"set class-of-service forwarding-classes class FG-P6 queue-num 6"}},
			{name: "delete interface mtu keeps the unit", cmds: []string{"delete interfaces et-0/0/1 mtu 9216"}, gone: []string{"set interfaces et-0/0/1 mtu 9216"}},
			{name: "interface mtu replaces", cmds: []string{"set interfaces et-0/0/1 mtu 9000"},
				gone: []string{"set interfaces et-0/0/1 mtu 9216"}, added: []string{"set interfaces et-0/0/1 mtu 9000"}},
			{name: "delete the filter binding keeps the address", cmds: []string{"delete interfaces et-0/0/1 unit 0 family inet filter input roce-mark"},
				gone: []string{"set interfaces et-0/0/1 unit 0 family inet filter input roce-mark"}},
			{name: "delete a filter term", cmds: []string{"delete firewall family inet filter roce-mark term 10"},
				gone: []string{"set firewall family inet filter roce-mark term 10 from protocol udp", "set firewall family inet filter roce-mark term 10 then dscp 26"}},
			{name: "interface scheduler-map replaces", cmds: []string{"set class-of-service interfaces et-0/0/1 scheduler-map OTHER"},
				gone:  []string{"set class-of-service interfaces et-0/0/1 scheduler-map FABRICGEN"},
				added: []string{"set class-of-service interfaces et-0/0/1 scheduler-map OTHER"}},
			{name: "delete of a value that is not there warns and changes nothing", cmds: []string{"delete interfaces et-0/0/1 mtu 9000"}},
		},
	}, {
		platform: nvidiaCumulus, prompt: `admin@r1:mgmt:~\$ $`, setup: strings.Split(nvRemovalSetup, "\n"),
		typeIn: cliIn(nil, "nv config apply -y"),
		errOut: func(o string) bool { return strings.Contains(o, "Error") },
		lines:  func(d *Device) []string { return plainLines(d.Export()) },
		cases: []removalCase{
			{name: "nv unset a leaf with its value", cmds: []string{"nv unset " + nvCC3 + " min-threshold 150000"}, gone: []string{"nv set " + nvCC3 + " min-threshold 150000"}},
			{name: "nv unset a leaf without its value", cmds: []string{"nv unset " + nvCC3 + " min-threshold"}, gone: []string{"nv set " + nvCC3 + " min-threshold 150000"}},
			{name: "nv set replaces a value", cmds: []string{"nv set " + nvCC3 + " min-threshold 200000"},
				gone: []string{"nv set " + nvCC3 + " min-threshold 150000"}, added: []string{"nv set " + nvCC3 + " min-threshold 200000"}},
			{name: "nv unset a map entry", cmds: []string{"nv unset qos mapping default-global dscp 26"},
				gone: []string{"nv set qos mapping default-global dscp 26 switch-priority 3"}},
			{name: "nv unset a map entry's value", cmds: []string{"nv unset qos mapping default-global dscp 26 switch-priority 3"},
				gone: []string{"nv set qos mapping default-global dscp 26 switch-priority 3"}},
			{name: "a dscp moves to another switch-priority", cmds: []string{"nv set qos mapping default-global dscp 26 switch-priority 4"},
				gone:  []string{"nv set qos mapping default-global dscp 26 switch-priority 3"},
				added: []string{"nv set qos mapping default-global dscp 26 switch-priority 4"}},
			{name: "nv unset an ACL rule keeps the ACL", cmds: []string{"nv unset acl roce-mark rule 10"},
				gone: []string{"nv set acl roce-mark rule 10 match ip protocol udp", "nv set acl roce-mark rule 10 action set dscp 26"}},
			{name: "nv unset an ACL", cmds: []string{"nv unset acl roce-mark"},
				gone: []string{"nv set acl roce-mark type ipv4", "nv set acl roce-mark rule 10 match ip protocol udp", "nv set acl roce-mark rule 10 action set dscp 26"}},
			{name: "nv unset an interface's mtu keeps the interface", cmds: []string{"nv unset interface swp1 link mtu 9216"}, gone: []string{"nv set interface swp1 link mtu 9216"}},
			{name: "nv unset an interface's ACL binding", cmds: []string{"nv unset interface swp1 acl roce-mark inbound"}, gone: []string{"nv set interface swp1 acl roce-mark inbound"}},
			{name: "nv unset of another value changes nothing", cmds: []string{"nv unset interface swp1 link mtu 9000"}},
		},
	}, {
		platform: sonicOS, prompt: `admin@r1:~\$ $`, setup: []string{sonicRemovalSetup},
		typeIn: func(t *testing.T, sh *shellClient, cmds []string) []string {
			patch := "[" + strings.Join(cmds, ",") + "]"
			sh.run("printf '%s' '" + patch + "' > /tmp/p.json")
			return []string{sh.run("sudo config apply-patch /tmp/p.json")}
		},
		errOut: func(o string) bool { return strings.Contains(o, "Error") || strings.Contains(o, "Failed") },
		lines:  func(d *Device) []string { return dbLines(d.Export()) },
		cases: []removalCase{
			{name: "remove a field", cmds: []string{`{"op":"remove","path":"/QUEUE/Ethernet0|3/wred_profile"}`},
				gone: []string{"QUEUE|Ethernet0|3|wred_profile = roce"}},
			{name: "remove the last field keeps an empty entry", cmds: []string{`{"op":"remove","path":"/QUEUE/Ethernet0|6/scheduler"}`},
				gone: []string{"QUEUE|Ethernet0|6|scheduler = fabricgen.6"}, added: []string{"QUEUE|Ethernet0|6"}},
			{name: "remove a key", cmds: []string{`{"op":"remove","path":"/QUEUE/Ethernet0|3"}`},
				gone: []string{"QUEUE|Ethernet0|3|scheduler = fabricgen.3", "QUEUE|Ethernet0|3|wred_profile = roce"}},
			{name: "remove one entry of a map", cmds: []string{`{"op":"remove","path":"/DSCP_TO_TC_MAP/FABRICGEN/26"}`},
				gone: []string{"DSCP_TO_TC_MAP|FABRICGEN|26 = 3"}},
			{name: "replace a value", cmds: []string{`{"op":"replace","path":"/PORT_QOS_MAP/Ethernet0/pfc_enable","value":"4"}`},
				gone: []string{"PORT_QOS_MAP|Ethernet0|pfc_enable = 3"}, added: []string{"PORT_QOS_MAP|Ethernet0|pfc_enable = 4"}},
			{name: "add over a value replaces it", cmds: []string{`{"op":"add","path":"/DSCP_TO_TC_MAP/FABRICGEN/26","value":"4"}`},
				gone: []string{"DSCP_TO_TC_MAP|FABRICGEN|26 = 3"}, added: []string{"DSCP_TO_TC_MAP|FABRICGEN|26 = 4"}},
			{name: "remove a referenced profile is refused", cmds: []string{`{"op":"remove","path":"/WRED_PROFILE/roce"}`}, fails: true},
			{name: "remove the reference, then the profile and its table", cmds: []string{`{"op":"remove","path":"/QUEUE/Ethernet0|3/wred_profile"}`, `{"op":"remove","path":"/WRED_PROFILE"}`},
				gone: []string{"QUEUE|Ethernet0|3|wred_profile = roce", "WRED_PROFILE|roce|ecn = ecn_all", "WRED_PROFILE|roce|green_min_threshold = 150000"}},
			{name: "remove the last key of a table is refused (empty table)", cmds: []string{`{"op":"remove","path":"/PORT_QOS_MAP/Ethernet0"}`}, fails: true},
			{name: "remove a path that does not exist is refused", cmds: []string{`{"op":"remove","path":"/QUEUE/Ethernet8|3"}`}, fails: true},
			{name: "a refused patch changes nothing", cmds: []string{`{"op":"remove","path":"/QUEUE/Ethernet0|3"}`, `{"op":"remove","path":"/QUEUE/Ethernet8|3"}`}, fails: true},
		},
	}, {
		platform: nvidiaMLNX, prompt: `\$ $`, ports: []string{"ens1f0np0"}, setup: strings.Split(mlnxRemovalSetup, "\n"),
		typeIn: hostIn, errOut: hostErr, lines: func(d *Device) []string { return indentedLines(d.RunningConfig()) },
		cases: []removalCase{
			{name: "dscp2prio del removes one mapping", cmds: []string{"mlnx_qos -i ens1f0np0 --dscp2prio del,26,3"},
				gone: []string{hostIf + " > dscp-prio 26:3 48:6"}, added: []string{hostIf + " > dscp-prio 48:6"}},
			{name: "dscp2prio del of another priority is refused", cmds: []string{"mlnx_qos -i ens1f0np0 --dscp2prio del,26,4"}, fails: true},
			{name: "deleting the last mapping returns to pcp trust", cmds: []string{"mlnx_qos -i ens1f0np0 --dscp2prio del,26,3", "mlnx_qos -i ens1f0np0 --dscp2prio del,48,6"},
				gone:  []string{hostIf + " > dscp-prio 26:3 48:6", hostIf + " > trust dscp"},
				added: []string{hostIf + " > dscp-prio none", hostIf + " > trust pcp"}},
			{name: "dscp2prio flush", cmds: []string{"mlnx_qos -i ens1f0np0 --dscp2prio flush"},
				gone:  []string{hostIf + " > dscp-prio 26:3 48:6", hostIf + " > trust dscp"},
				added: []string{hostIf + " > dscp-prio none", hostIf + " > trust pcp"}},
			{name: "dscp2prio set moves a code point", cmds: []string{"mlnx_qos -i ens1f0np0 --dscp2prio set,26,4"},
				gone: []string{hostIf + " > dscp-prio 26:3 48:6"}, added: []string{hostIf + " > dscp-prio 26:4 48:6"}},
			{name: "rmdir drops the rdma_cm directory and its ToS", cmds: []string{"rmdir /sys/kernel/config/rdma_cm/mlx5_0"},
				gone: []string{hostIf + " > default_roce_tos 106"}, added: []string{hostIf + " > default_roce_tos 0"}},
		},
	}, {
		platform: linuxDCB, prompt: `\$ $`, ports: []string{"enp65s0f0np0"}, setup: strings.Split(dcbRemovalSetup, "\n"),
		typeIn: hostIn, errOut: hostErr, lines: func(d *Device) []string { return indentedLines(d.RunningConfig()) },
		cases: []removalCase{
			{name: "dcb app del removes one entry", cmds: []string{"dcb app del dev enp65s0f0np0 dscp-prio 26:3"},
				gone: []string{dcbIf + " > dscp-prio 26:3 48:6"}, added: []string{dcbIf + " > dscp-prio 48:6"}},
			{name: "dcb app del of another priority is refused", cmds: []string{"dcb app del dev enp65s0f0np0 dscp-prio 26:4"}, fails: true},
			{name: "dcb app flush returns to pcp trust", cmds: []string{"dcb app flush dev enp65s0f0np0 dscp-prio"},
				gone:  []string{dcbIf + " > dscp-prio 26:3 48:6", dcbIf + " > trust dscp"},
				added: []string{dcbIf + " > dscp-prio none", dcbIf + " > trust pcp"}},
			{name: "dcb app replace moves a code point", cmds: []string{"dcb app replace dev enp65s0f0np0 dscp-prio 26:4"},
				gone: []string{dcbIf + " > dscp-prio 26:3 48:6"}, added: []string{dcbIf + " > dscp-prio 26:4 48:6"}},
			{name: "dcb pfc set changes only the priorities it names", cmds: []string{"dcb pfc set dev enp65s0f0np0 prio-pfc 4:on"},
				gone: []string{dcbIf + " > pfc 0,0,0,1,0,0,0,0"}, added: []string{dcbIf + " > pfc 0,0,0,1,1,0,0,0"}},
		},
	}}
}

const (
	hostIf = "netdev ens1f0np0"
	dcbIf  = "netdev enp65s0f0np0"
)

// hostIn runs each command and reports its exit status after its output.
func hostIn(t *testing.T, sh *shellClient, cmds []string) []string {
	var outs []string
	for _, c := range cmds {
		outs = append(outs, sh.run(c+"; echo rc=$?"))
	}
	return outs
}

func hostErr(o string) bool { return !strings.Contains(o, "rc=0") }

const mlnxRemovalSetup = `mlnx_qos -i ens1f0np0 --trust dscp
mlnx_qos -i ens1f0np0 --dscp2prio set,26,3
mlnx_qos -i ens1f0np0 --dscp2prio set,48,6
mlnx_qos -i ens1f0np0 --pfc 0,0,0,1,0,0,0,0
mkdir -p /sys/kernel/config/rdma_cm/mlx5_0
echo 106 > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos`

const dcbRemovalSetup = `dcb app add dev enp65s0f0np0 dscp-prio 26:3 48:6
dcb pfc set dev enp65s0f0np0 prio-pfc all:off 3:on`

const (
	junosCP  = "class-of-service classifiers dscp FABRICGEN forwarding-class FG-P3 loss-priority low code-points"
	junosQ3  = "class-of-service schedulers FG-Q3"
	junosFC3 = "class-of-service forwarding-classes class FG-P3"
	nvCC3    = "qos congestion-control default-global traffic-class 3"
)

const junosRemovalSetup = `set class-of-service forwarding-classes class FG-P3 queue-num 3 no-loss
set class-of-service forwarding-classes class FG-P3 pfc-priority 3
set class-of-service forwarding-classes class FG-P6 queue-num 6
set class-of-service classifiers dscp FABRICGEN forwarding-class FG-P3 loss-priority low code-points 011010
set class-of-service classifiers dscp FABRICGEN forwarding-class FG-P3 loss-priority low code-points 011000
set class-of-service schedulers FG-Q3 transmit-rate percent 50
set class-of-service schedulers FG-Q3 explicit-congestion-notification
set class-of-service scheduler-maps FABRICGEN forwarding-class FG-P3 scheduler FG-Q3
set class-of-service interfaces et-0/0/1 scheduler-map FABRICGEN
set firewall family inet filter roce-mark term 10 from protocol udp
set firewall family inet filter roce-mark term 10 then dscp 26
set interfaces et-0/0/1 mtu 9216
set interfaces et-0/0/1 unit 0 family inet filter input roce-mark`

const nvRemovalSetup = `nv set qos mapping default-global trust l3
nv set qos mapping default-global dscp 26 switch-priority 3
nv set qos mapping default-global dscp 48 switch-priority 6
nv set qos congestion-control default-global traffic-class 3 min-threshold 150000
nv set qos congestion-control default-global traffic-class 3 max-threshold 1500000
nv set qos congestion-control default-global traffic-class 3 ecn enable
nv set acl roce-mark type ipv4
nv set acl roce-mark rule 10 match ip protocol udp
nv set acl roce-mark rule 10 action set dscp 26
nv set interface swp1 link mtu 9216
nv set interface swp1 acl roce-mark inbound`

const sonicRemovalSetup = `[{"op":"add","path":"/DSCP_TO_TC_MAP","value":{"FABRICGEN":{"0":"0","26":"3","48":"6"}}},
{"op":"add","path":"/SCHEDULER","value":{"fabricgen.3":{"type":"DWRR","weight":"50"},"fabricgen.6":{"type":"STRICT"}}},
{"op":"add","path":"/WRED_PROFILE","value":{"roce":{"ecn":"ecn_all","green_min_threshold":"150000"}}},
{"op":"add","path":"/QUEUE","value":{"Ethernet0|3":{"scheduler":"fabricgen.3","wred_profile":"roce"},"Ethernet0|6":{"scheduler":"fabricgen.6"}}},
{"op":"add","path":"/PORT_QOS_MAP","value":{"Ethernet0":{"dscp_to_tc_map":"FABRICGEN","pfc_enable":"3"}}}]`
