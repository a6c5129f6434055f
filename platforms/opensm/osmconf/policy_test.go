package osmconf

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// minimalPolicy wraps levels text into a policy with a DEFAULT level.
const defaultLevel = "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n end-qos-level\nend-qos-levels\n"

func TestParsePolicy(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		check    func(t *testing.T, p *Policy)
		wantLine int
		wantErr  string
	}{
		{name: "empty", text: "", check: func(t *testing.T, p *Policy) {
			if len(p.Groups)+len(p.Levels)+len(p.Rules)+len(p.ULPs) != 0 {
				t.Errorf("%+v", p)
			}
		}},
		{name: "comments only", text: "# a\n   # b\n\n"},
		{
			name: "names concatenate, lose white space; quotes keep it; keywords are case-sensitive",
			text: "port-groups\n port-group\n  name: a b-1:2\n  use: x, y: port-group 3\n  port-guid: 0x10, 0x20-0x11, 7\n  port-name: \"node one/P1\", n2/p2\n  partition: P1, P2\n  node-type: ca, SWITCH,Router, all, self\n  pkey: 0x8001, 2-1\n end-port-group\nend-port-groups\n",
			check: func(t *testing.T, p *Policy) {
				want := PortGroup{Name: "ab-1:2", Line: 2, Use: "x, y: port-group 3", GUIDs: []uint64{0x10, 7}, GUIDRanges: [][2]uint64{{0x11, 0x20}},
					PortNames: []string{"node one/P1", "n2/p2"}, Partitions: []string{"P1", "P2"}, NodeTypes: []string{"CA", "SWITCH", "ROUTER", "ALL", "SELF"},
					PKeys: []uint16{0x8001}, PKeyRanges: [][2]uint16{{1, 2}}}
				if !reflect.DeepEqual(p.Groups, []PortGroup{want}) {
					t.Errorf("got  %+v\nwant %+v", p.Groups, want)
				}
			},
		},
		{
			name: "levels and rules",
			text: defaultLevel + "qos-levels\n qos-level\n  name: fast\n  sl: 3\n  mtu-limit: 5\n  rate-limit: 0x10\n  packet-life: 12\n  path-bits: 2,4-8\n  pkey: 0x8001\n end-qos-level\nend-qos-levels\n" +
				"qos-match-rules\n qos-match-rule\n  use: r\n  qos-class: 7-9,11\n  source: a, b\n  destination: c\n  service-id: 22\n  pkey: 0x8001-0x8003\n  qos-level-name: fast\n end-qos-match-rule\nend-qos-match-rules\n",
			check: func(t *testing.T, p *Policy) {
				l := Level{Name: "fast", Line: 8, SL: 3, SLSet: true, MTU: 5, Rate: 16, PacketLife: 12, PKeys: []uint16{0x8001}, PathBits: []string{"2", "4-8"}}
				if len(p.Levels) != 2 || !reflect.DeepEqual(p.Levels[1], l) {
					t.Errorf("levels %+v", p.Levels)
				}
				r := MatchRule{Line: 19, Use: "r", QoSClasses: []string{"7-9", "11"}, Source: []string{"a", "b"}, Destination: []string{"c"}, ServiceIDs: []string{"22"}, PKeyRanges: [][2]uint16{{0x8001, 0x8003}}, Level: "fast"}
				if !reflect.DeepEqual(p.Rules, []MatchRule{r}) {
					t.Errorf("rules %+v", p.Rules)
				}
			},
		},
		{
			name: "ulps",
			text: "qos-ulps\n default : 0\n sdp, port-num 30000 : 1\n SRP, target-port-guid 0x1234 : 2\n ipoib, pkey 0x8001-0x8002 : 3\n ipoib : 4\n any, service-id 0x6234:5\n iser: 6\nend-qos-ulps\n",
			check: func(t *testing.T, p *Policy) {
				want := []ULP{
					{Line: 2, Text: "default"}, {Line: 3, Text: "sdp, port-num 30000", Level: 1}, {Line: 4, Text: "SRP, target-port-guid 0x1234", Level: 2},
					{Line: 5, Text: "ipoib, pkey 0x8001-0x8002", Level: 3, PKeys: []uint16{1, 2}, IPoIB: true},
					{Line: 6, Text: "ipoib", Level: 4, PKeys: []uint16{0x7fff}, IPoIB: true}, {Line: 7, Text: "any, service-id 0x6234", Level: 5}, {Line: 8, Text: "iser", Level: 6},
				}
				if !reflect.DeepEqual(p.ULPs, want) {
					t.Errorf("got  %+v\nwant %+v", p.ULPs, want)
				}
			},
		},
		{
			name: "qos-setup is parsed",
			text: "qos-setup\n vlarb-tables\n  vlarb-scope\n   group: a\n   vlarb-high: 0:255,1:127\n   vl-high-limit: 10\n  end-vlarb-scope\n end-vlarb-tables\n sl2vl-tables\n  sl2vl-scope\n   across: a\n   from: *\n   to: 1-4\n   sl2vl-table: 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7\n  end-sl2vl-scope\n end-sl2vl-tables\nend-qos-setup\n",
			check: func(t *testing.T, p *Policy) {
				if !slices.Equal(p.SetupLines, []int{1}) {
					t.Errorf("SetupLines %v", p.SetupLines)
				}
			},
		},
		{name: "unknown keyword", text: "qos-levels\n qos-level\n    bogus-key: x\n", wantLine: 3, wantErr: `syntax error at "b"`},
		{name: "keyword inside a name", text: "port-groups\n port-group\n  name: my-port-group\n", wantLine: 3, wantErr: `syntax error at "port-group"`},
		{name: "comma in a name", text: "qos-levels\n qos-level\n  name: a,b\n", wantLine: 3, wantErr: "syntax error"},
		{name: "missing end", text: defaultLevel + "qos-levels\n qos-level\n  name: x\n  sl: 1\n", wantLine: 11, wantErr: "end of file"},
		{name: "empty port-groups", text: "port-groups\nend-port-groups\n", wantLine: 2, wantErr: "syntax error"},
		{name: "empty qos-ulps", text: "qos-ulps\nend-qos-ulps\n", wantLine: 2, wantErr: "syntax error"},
		{name: "comment at end of file without newline", text: defaultLevel + "# bye", wantLine: 7, wantErr: `syntax error at "#"`},
		{name: "sl not a number", text: "qos-levels\n qos-level\n  name: x\n  sl: high\n", wantLine: 4, wantErr: "syntax error"},
		{name: "two sl tags", text: "qos-levels\n qos-level\n  name: x\n  sl: 1\n  sl: 2\n", wantLine: 5, wantErr: "multiple 'sl' tags"},
		{name: "two names", text: "port-groups\n port-group\n  name: x\n  name: y\n", wantLine: 5, wantErr: "multiple 'name' tags"},
		{name: "level without sl", text: "qos-levels\n qos-level\n  name: x\n end-qos-level\n", wantLine: 4, wantErr: "no 'sl' specified"},
		{name: "level without name", text: "qos-levels\n qos-level\n  sl: 1\n end-qos-level\n", wantLine: 4, wantErr: "no 'name' specified"},
		{name: "group without name", text: "port-groups\n port-group\n end-port-group\n", wantLine: 3, wantErr: "no port group name"},
		{name: "rule without level", text: "qos-match-rules\n qos-match-rule\n  source: a\n end-qos-match-rule\n", wantLine: 4, wantErr: "no 'qos-level-name'"},
		{name: "mtu-limit 6", text: "qos-levels\n qos-level\n  name: x\n  mtu-limit: 6\n", wantLine: 4, wantErr: "mtu limit is out of range, value: 6"},
		{name: "rate-limit 1", text: "qos-levels\n qos-level\n  name: x\n  rate-limit: 1\n", wantLine: 4, wantErr: "rate limit is out of range"},
		{name: "ulp sl 16", text: "qos-ulps\n default : 16\nend-qos-ulps\n", wantLine: 2, wantErr: "illegal SL value"},
		{name: "ulp without sl", text: "qos-ulps\n ipoib, pkey 0x8001\nend-qos-ulps\n", wantLine: 3, wantErr: "syntax error"},
		{name: "bad port-name", text: "port-groups\n port-group\n  name: x\n  port-name: host/1\n", wantLine: 5, wantErr: "illegal port name"},
		{name: "sl2vl-table of 15", text: "qos-setup\n sl2vl-tables\n  sl2vl-scope\n   group: a\n   sl2vl-table: 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14\n", wantLine: 6, wantErr: "should be 16"},
		{name: "NUL", text: "qos-levels\n\x00", wantLine: 2, wantErr: "NUL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePolicy(tc.text)
			if tc.wantErr != "" {
				var pe *PolicyError
				if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.wantErr) || pe.Line != tc.wantLine {
					t.Fatalf("err = %v, want line %d %q", err, tc.wantLine, tc.wantErr)
				}
				if !strings.HasPrefix(err.Error(), "line ") {
					t.Errorf("error does not start with the line: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.check != nil {
				tc.check(t, p)
			}
		})
	}
}

func TestPolicyProblems(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{name: "fine", text: defaultLevel},
		{name: "default from qos-ulps", text: "qos-ulps\n default : 1\nend-qos-ulps\n"},
		{name: "default case-insensitive", text: "qos-levels\n qos-level\n  name: Default\n  sl: 0\n end-qos-level\nend-qos-levels\n"},
		{name: "no default", text: "qos-levels\n qos-level\n  name: x\n  sl: 0\n end-qos-level\nend-qos-levels\n", want: []string{"ERR AC10: Default qos-level (default) not defined."}},
		{name: "empty policy", text: "", want: []string{"ERR AC10"}},
		{
			name: "undefined level and groups",
			text: defaultLevel + "port-groups\n port-group\n  name: A\n end-port-group\nend-port-groups\nqos-match-rules\n qos-match-rule\n  source: a, b\n  destination: c\n  qos-level-name: nope\n end-qos-match-rule\n qos-match-rule\n  qos-level-name: default\n end-qos-match-rule\nend-qos-match-rules\n",
			want: []string{"ERR AC11: qos-match-rule num 1: qos-level 'nope' not found", "ERR AC12: qos-match-rule num 1: source port-group 'b' not found", "ERR AC13: qos-match-rule num 1: destination port-group 'c' not found"},
		},
		{
			name: "sl above 15",
			text: "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 16\n end-qos-level\nend-qos-levels\n",
			want: []string{"qos-level 'DEFAULT' (line 2): sl 16 above 15"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePolicy(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			got := p.Problems()
			if len(got) != len(tc.want) {
				t.Fatalf("Problems = %q, want %q", got, tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("problem %d = %q, want prefix %q", i, got[i], tc.want[i])
				}
			}
		})
	}
	var nilPolicy *Policy
	if nilPolicy.Problems() != nil || nilPolicy.CheckPartitions(nil) != nil {
		t.Error("nil policy has problems")
	}
}

func TestCheckPartitions(t *testing.T) {
	p, err := ParsePolicy("qos-ulps\n default: 0\n ipoib: 1\n ipoib, pkey 0x8001,0x8002,0x8003 : 2\n any, pkey 0x9 : 1\nend-qos-ulps\n")
	if err != nil {
		t.Fatal(err)
	}
	parts, err := ParsePartitions("a=0x8001: ALL=full;\nb=0x0002: 0x1=full, 0x2;\n")
	if err != nil {
		t.Fatal(err)
	}
	got := p.CheckPartitions(parts)
	want := []string{
		"line 3: IPoIB partition, pkey 0x7FFF - partition has less than two full members",
		"line 4: IPoIB partition, pkey 0x0002 - partition has less than two full members",
		"line 4: IPoIB partition, pkey 0x0003 - partition doesn't exist",
	}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("got %q, want %q", got[i], want[i])
		}
	}
	parts = append(parts, Partition{PKey: 0x7fff, Members: []Member{{Name: "SELF", Full: true}, {Name: "0x5", GUID: 5, Both: true}}})
	if got := p.CheckPartitions(parts); len(got) != 2 {
		t.Errorf("with a full Default: %q", got)
	}
}

// TestRenderedPolicies: every rendered qos-policy.conf parses, has no
// problem, and holds the rendered groups, levels, rules and ULPs.
func TestRenderedPolicies(t *testing.T) {
	for _, rd := range renderDirs {
		p, err := ParsePolicy(readRender(t, rd.dir, rd.prefix+"qos-policy.conf"))
		if err != nil {
			t.Fatalf("%s: %v", rd.dir, err)
		}
		if pr := p.Problems(); len(pr) != 0 {
			t.Errorf("%s: problems %q", rd.dir, pr)
		}
		parts, err := ParsePartitions(readRender(t, rd.dir, rd.prefix+"partitions.conf"))
		if err != nil {
			t.Fatal(err)
		}
		if pr := p.CheckPartitions(parts); len(pr) != 0 {
			t.Errorf("%s: partition problems %q", rd.dir, pr)
		}
		names := func(levels []Level) map[string]int {
			m := map[string]int{}
			for _, l := range levels {
				m[l.Name] = l.SL
			}
			return m
		}
		if got := names(p.Levels); got["DEFAULT"] != 0 || got["compute"] != 3 || got["storage"] != 2 || got["mgmt"] != 1 {
			t.Errorf("%s: levels %v", rd.dir, got)
		}
		if len(p.Rules) != 2 || p.Rules[0].Level != "compute" || !slices.Equal(p.Rules[0].PKeys, []uint16{0x8001}) || !slices.Equal(p.Rules[1].Source, []string{"storage"}) {
			t.Errorf("%s: rules %+v", rd.dir, p.Rules)
		}
		if len(p.ULPs) < 3 || p.ULPs[0].Text != "default" || p.ULPs[1].Text != "ipoib, pkey 0x8001" || p.ULPs[1].Level != 3 {
			t.Errorf("%s: ulps %+v", rd.dir, p.ULPs)
		}
	}
	p, err := ParsePolicy(readRender(t, "../testdata/render", "qos-policy.conf"))
	if err != nil {
		t.Fatal(err)
	}
	want := PortGroup{Name: "storage", Line: 8, Use: "partition storage members", GUIDs: []uint64{0x0002c90300a00301, 0x0002c90300a00401, 0x0002c90300a00501, 0x0002c90300a00601, 0x0002c90300a00701}}
	if len(p.Groups) != 2 || !reflect.DeepEqual(p.Groups[1], want) {
		t.Errorf("storage group %+v", p.Groups)
	}
}

// TestParsePolicyHostile: 100,000 repeated constructs, long values and
// deep-looking input finish and do not blow the stack.
func TestParsePolicyHostile(t *testing.T) {
	for name, text := range map[string]string{
		"many levels":      "qos-levels\n" + strings.Repeat(" qos-level\n  name: x\n  sl: 1\n end-qos-level\n", 100000) + "end-qos-levels\n",
		"many sections":    strings.Repeat("qos-levels\nend-qos-levels\n", 100000),
		"unclosed nesting": strings.Repeat("qos-levels\n qos-level\n", 100000),
		"long name":        "qos-levels\n qos-level\n  name: " + strings.Repeat("x", 20000) + "\n",
		"many guids":       "port-groups\n port-group\n  name: a\n  port-guid: " + strings.Repeat("0x1,", 100000) + "0x2\n end-port-group\nend-port-groups\n",
		"huge pkey range":  "qos-ulps\n" + strings.Repeat(" any, pkey 0-0xffffffffffffffff : 1\n", 100) + "end-qos-ulps\n",
		"many dashes":      strings.Repeat("-", 100000),
		"quotes":           strings.Repeat("\"", 100001),
		"over the limit":   strings.Repeat("#\n", MaxTextSize),
	} {
		p, err := ParsePolicy(text)
		if err == nil {
			_ = p.Problems()
		}
		_ = name
	}
	if _, err := ParsePolicy("qos-levels\n qos-level\n  name: " + strings.Repeat("x", maxPolicyString) + "\n"); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("long name: %v", err)
	}
}

func FuzzParsePolicy(f *testing.F) {
	fuzzParse(f, "qos-policy.conf", []string{
		"qos-setup\n sl2vl-tables\n  sl2vl-scope\n   group: a\n   from: *\n   sl2vl-table: 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7\n  end-sl2vl-scope\n end-sl2vl-tables\nend-qos-setup\n",
		"qos-ulps\n default : 0\n ipoib, pkey 0x8001 : 3\n sdp, port-num 1-2 : 1\nend-qos-ulps\n# x",
	}, ParsePolicy, func(t *testing.T, text string, err error) {
		var pe *PolicyError
		if len(text) <= MaxTextSize && (!errors.As(err, &pe) || pe.Line < 1 || pe.Line > strings.Count(text, "\n")+1) {
			t.Fatalf("bad error %v", err)
		}
	}, func(t *testing.T, p *Policy) {
		_ = p.Problems()
		for _, l := range p.Levels {
			if !l.SLSet || l.Line < 1 {
				t.Fatalf("level %+v", l)
			}
		}
		for _, r := range p.Rules {
			if r.Level == "" && r.Line < 1 {
				t.Fatalf("rule %+v", r)
			}
		}
		for _, u := range p.ULPs {
			if u.Level > 15 || u.Text == "" {
				t.Fatalf("ulp %+v", u)
			}
		}
	})
}

// TestParsePolicyLinear: texts that would make a naive lexer look ahead to
// the end at every byte finish quickly.
func TestParsePolicyLinear(t *testing.T) {
	for _, text := range []string{
		strings.Repeat("#", 4<<20),
		strings.Repeat("\"#", 2<<20),
		"port-groups\n port-group\n  name: " + strings.Repeat("\"x", 1<<20),
	} {
		start := time.Now()
		_, _ = ParsePolicy(text)
		if d := time.Since(start); d > time.Minute {
			t.Errorf("%d bytes took %v", len(text), d)
		}
	}
}

// TestULPPKeyRanges: ULP P_Key ranges lose bit 15 before they are ordered
// and expanded, as __pkey_rangelist2rangearr does.
func TestULPPKeyRanges(t *testing.T) {
	p, err := ParsePolicy("qos-ulps\n any, pkey 0x8005-0x0003, 0xffff : 1\n ipoib, pkey 0-0x1ffff : 2\nend-qos-ulps\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.ULPs[0].PKeys; !slices.Equal(got, []uint16{3, 4, 5, 0x7fff}) {
		t.Errorf("any pkeys %#x", got)
	}
	if got := p.ULPs[1].PKeys; len(got) != 0x8000 || got[0] != 0 || got[len(got)-1] != 0x7fff || !p.ULPs[1].IPoIB {
		t.Errorf("ipoib pkeys: %d values", len(got))
	}
}
