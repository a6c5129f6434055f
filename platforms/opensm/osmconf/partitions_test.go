package osmconf

import (
	"reflect"
	"strings"
	"testing"
)

func TestParsePartitions(t *testing.T) {
	all := func(full bool) Member { return Member{Name: "ALL", Full: full, Line: 1} }
	runParseCases(t, ParsePartitions, []parseCase[[]Partition]{
		{
			name: "doc example",
			text: "Default=0x7fff : ALL=limited, SELF=full ;\n",
			want: []Partition{{Name: "Default", PKey: 0x7fff, Line: 1, Members: []Member{all(false), {Name: "SELF", Full: true, Line: 1}}}},
		},
		{
			name: "flags, GUIDs, defmember, several statements on one line",
			text: "ShareIO = 0x80 , defmember=full : 0x123451, 0x123452=limited;  a=2,ipoib,mtu=5,rate=7,sl=3,scope=2,indx0:ALL_CAS=both;\n",
			want: []Partition{
				{Name: "ShareIO", PKey: 0x80, Line: 1, DefMember: "full", Members: []Member{{Name: "0x123451", GUID: 0x123451, Full: true, Line: 1}, {Name: "0x123452", GUID: 0x123452, Line: 1}}},
				{Name: "a", PKey: 2, Line: 1, IPoIB: true, MTU: 5, Rate: 7, SL: 3, Scope: 2, ScopeMask: 4, Index0: true, Members: []Member{{Name: "ALL_CAS", Both: true, Line: 1}}},
			},
		},
		{
			name: "statement over several lines, comments, prefixes of keywords",
			text: "# c\nP1 = 0x8001 , i, d=f, s=5: # header\n\tA=f,\n  ALL_S, N, S=l;",
			want: []Partition{{Name: "P1", PKey: 0x8001, Line: 2, IPoIB: true, DefMember: "full", Scope: 5, ScopeMask: 1 << 5, Members: []Member{
				{Name: "ALL", Full: true, Line: 3}, {Name: "ALL_SWITCHES", Full: true, Line: 4}, {Name: "SELF", Line: 4},
			}}},
		},
		{
			// The real OpenSM rejects this too (TestPartitionsMatchOpenSM):
			// after a ';' that starts a line it reads past the line's end.
			name:    "';' alone on a line after a long line",
			text:    "P1 = 0x8001 : \n ;\n",
			wantErr: "partitions.conf:2:4: PARSE ERROR: no partition definition found",
		},
		{
			name: "P_Key alone, no name; last statement without ';'",
			text: "0x10: 0x2c9000000001=full",
			want: []Partition{{PKey: 0x10, Line: 1, Members: []Member{{Name: "0x2c9000000001", GUID: 0x2c9000000001, Full: true, Line: 1}}}},
		},
		{
			name: "octal P_Key and no P_Key",
			text: "o=010: ALL;\nnokey: ALL;\n",
			want: []Partition{{Name: "o", PKey: 8, Line: 1, Members: []Member{all(false)}}, {Name: "nokey", Line: 2, Members: []Member{{Name: "ALL", Line: 2}}}},
		},
		{
			name: "warnings do not reject",
			text: "w=1,mtu=4x,sl=16,bogus,defmember=x: ALL=fool;\n",
			want: []Partition{{Name: "w", PKey: 1, Line: 1, MTU: 4, Members: []Member{all(false)}, Warnings: []string{
				"line 1: PARSE WARN: suspicious val=(4x) detected. flag=(mtu)",
				"line 1: PARSE WARN: flag 'sl' requires valid value - skipped",
				"line 1: PARSE WARN: unrecognized partition flag 'bogus' - ignored",
				"line 1: PARSE WARN: flag 'defmember' requires valid value (limited or full or both) - skipped",
				"line 1: PARSE WARN: unrecognized port flag 'fool'. Assume 'limited'",
			}}},
		},
		{
			name: "mgid with flags",
			text: "Default=0x7fff,ipoib:\n mgid=ff12::1,sl=1,Q_Key=0xDEADBEEF,rate=3,mtu=2\n ALL=full;\n",
			want: []Partition{{Name: "Default", PKey: 0x7fff, Line: 1, IPoIB: true,
				MGroups: []MGroup{{MGID: "ff12::1", Line: 2, MTU: 2, Rate: 3, SL: 1, QKey: 0xdeadbeef}},
				Members: []Member{{Name: "ALL", Full: true, Line: 3}}}},
		},
		{name: "empty file", text: "# only a comment\n\n", wantErr: "partitions.conf:2:1: no partition definition"},
		{name: "no colon", text: "Default=0x7fff ALL;\n", wantErr: "partitions.conf:1:1: PARSE ERROR: no partition definition found"},
		{name: "header split over lines", text: "Default=0x7fff,\n ipoib: ALL;\n", wantErr: "partitions.conf:1:1: PARSE ERROR: no partition definition found"},
		{name: "bad pkey", text: "ok=1: ALL;\n  bad=0x8g01 : ALL;\n", wantErr: "partitions.conf:2:3: PARSE ERROR: bad partition definition"},
		{name: "empty pkey", text: "bad= : ALL;\n", wantErr: "partitions.conf:1:1: PARSE ERROR: bad partition definition"},
		{name: "bad GUID", text: "p=1: ALL,\n   0x2c9zz;\n", wantErr: "partitions.conf:2:4: PARSE ERROR: bad PortGUID \"0x2c9zz\""},
		{name: "zero GUID", text: "p=1: 0x0;\n", wantErr: "partitions.conf:1:6: PARSE ERROR: bad PortGUID"},
		{name: "double semicolon", text: "p=1: ALL;;\n", wantErr: "partitions.conf:1:10: PARSE ERROR: no partition definition found"},
		{name: "mgid without value", text: "p=1: mgid;\n", wantErr: "partitions.conf:1:6: mgid without '='"},
		{name: "NUL", text: "p=1: ALL;\x00\n", wantErr: "partitions.conf:1:10: NUL byte"},
		{name: "long line", text: "p=1: ALL" + strings.Repeat(" ", prtnMaxLine) + ";\n", wantErr: "partitions.conf:1:1: line of 4104 bytes"},
	})
}

func TestPartitionKey(t *testing.T) {
	if (Partition{PKey: 0x8002}).Key() != 2 || (Partition{PKey: 0x7fff}).Key() != 0x7fff {
		t.Error("Key does not drop bit 15")
	}
}

// TestRenderedPartitions: every rendered partitions.conf parses without a
// warning, with the values the render holds.
func TestRenderedPartitions(t *testing.T) {
	for _, rd := range renderDirs {
		parts, err := ParsePartitions(readRender(t, rd.dir, rd.prefix+"partitions.conf"))
		if err != nil {
			t.Fatalf("%s: %v", rd.dir, err)
		}
		if len(parts) != 3 {
			t.Fatalf("%s: %d partitions", rd.dir, len(parts))
		}
		for _, p := range parts {
			if len(p.Warnings) != 0 || len(p.Members) == 0 || !p.IPoIB {
				t.Errorf("%s: %+v", rd.dir, p)
			}
		}
		if c := parts[1]; c.Name != "compute" || c.PKey != 0x8001 || c.SL != 3 || c.MTU != 4 || !c.Members[0].Full {
			t.Errorf("%s: compute %+v", rd.dir, c)
		}
		if s := parts[2]; s.Name != "storage" || s.PKey != 0x8002 || s.SL != 2 || s.Members[0].Full || !s.Members[len(s.Members)-1].Full {
			t.Errorf("%s: storage %+v", rd.dir, s)
		}
	}
	parts, err := ParsePartitions(readRender(t, "../testdata/render", "partitions.conf"))
	if err != nil {
		t.Fatal(err)
	}
	want := Partition{Name: "default", PKey: 0x7fff, Line: 2, IPoIB: true, Members: []Member{{Name: "ALL", Full: true, Line: 2}, {Name: "SELF", Full: true, Line: 2}}}
	if !reflect.DeepEqual(parts[0], want) {
		t.Errorf("default %+v", parts[0])
	}
	if g := parts[2].Members[4]; g.GUID != 0x0002c90300a00701 || !g.Full {
		t.Errorf("storage target %+v", g)
	}
}

// TestParsePartitionsHostile: huge, repetitive and nested-looking inputs
// finish quickly and without panics.
func TestParsePartitionsHostile(t *testing.T) {
	for name, text := range map[string]string{
		"many statements": strings.Repeat("p=1: ALL;", 100000),
		"many members":    "p=1:" + strings.Repeat(" ALL,\n", 100000) + ";",
		"many semicolons": strings.Repeat(";", 4000) + "\n",
		"many mgids":      "p=1:\n" + strings.Repeat("mgid=ff12::1,sl=1\n", 100000) + ";",
		"many colons":     strings.Repeat("p=1:", 1000) + "\n",
		"over the limit":  strings.Repeat("x", MaxTextSize+1),
	} {
		_, _ = ParsePartitions(text)
		_ = name
	}
}

func FuzzParsePartitions(f *testing.F) {
	fuzzParse(f, "partitions.conf", []string{
		"Default=0x7fff,ipoib:\n mgid=ff12:401b::0707,sl=1\n mgid=ff12::1\n ALL=full;;\n",
		"a=1:\n\tmgid=ff12:401b::1;x\n",
	}, ParsePartitions, func(t *testing.T, _ string, err error) {
		if !strings.HasPrefix(err.Error(), "partitions.conf:") {
			t.Fatalf("error without position: %v", err)
		}
	}, func(t *testing.T, parts []Partition) {
		if len(parts) == 0 {
			t.Fatal("no error and no partition")
		}
		for _, p := range parts {
			if p.Line < 1 || p.SL > 15 {
				t.Fatalf("bad partition %+v", p)
			}
			for _, m := range p.Members {
				if m.Full && m.Both || (m.GUID == 0) == (m.Name != "ALL" && m.Name != "ALL_CAS" && m.Name != "ALL_SWITCHES" && m.Name != "ALL_ROUTERS" && m.Name != "SELF") {
					t.Fatalf("bad member %+v", m)
				}
			}
		}
	})
}
