package config_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms"
)

// dialectsOf returns the registry's dialects whose lines take form f, and
// fails when none does.
func dialectsOf(tb testing.TB, f dialect.LineForm) []*dialect.Dialect {
	tb.Helper()
	var out []*dialect.Dialect
	for _, pl := range platforms.Needing("push dialect") {
		if d := pl.Dialect(); d.Lines == f {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		tb.Fatalf("no platform's dialect has line form %d", f)
	}
	return out
}

func TestHostScriptErrors(t *testing.T) {
	for _, bad := range []string{
		"modprobe mlx5_core",
		"mlnx_qos --trust dscp",
		`echo 1 > "/sys/$UNSET/x"`,
		"mlnx_qos -i eth0 --bogus 1",
	} {
		if _, err := config.ParseHostScript(bad + "\n"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// FuzzParse: on every CLI dialect of the registry, a parsed config
// prints back stably and compared with itself has no changes.
func FuzzParse(f *testing.F) {
	f.Add("! Command: show running-config\nhostname leaf1\nip access-list ROCE\n   10 permit udp any any eq 4791\ninterface Ethernet1\n   mtu 1500\n   qos trust cos\nend\n")
	f.Add("policy-map type qos P\n  class B\n    set qos-group 3\n  class A\n    set qos-group 0\n")
	f.Add("a\n\tb\n  c\n d\ne")
	ds := dialectsOf(f, dialect.LinesCLI)
	f.Fuzz(func(t *testing.T, s string) {
		for _, d := range ds {
			tr := config.Parse(s, d)
			text := tr.Text(d.Indent)
			if again := config.Parse(text, d).Text(d.Indent); again != text {
				t.Errorf("Parse(Text) not stable:\n%q\n%q", text, again)
			}
			run, want := config.Managed(tr, tr, d)
			if !config.Changes(run, want, d).Empty() {
				t.Errorf("a config compared with itself has changes")
			}
		}
	})
}

func FuzzParseHostScript(f *testing.F) {
	f.Add("mlnx_qos -i e --trust dscp\ndcb pfc set dev e prio-pfc all:off 3:on\n")
	f.Add("x=$(find /sys -printf '%f')\ncma_roce_tos -d \"$x\" -t 106\n")
	f.Fuzz(func(t *testing.T, s string) {
		actions, err := config.ParseHostScript(s)
		if err != nil {
			return
		}
		config.HostFacts(actions, config.HostState([]string{"x"}, []string{s}))
	})
}

// FuzzCompareConfigDB: on every JSON-patch dialect of the registry.
func FuzzCompareConfigDB(f *testing.F) {
	f.Add(`{"PORT": {"Ethernet0": {"mtu": "9100", "lanes": "0,1"}}}`, `{"PORT": {"Ethernet0": {"mtu": "9216"}}, "DSCP_TO_TC_MAP": {"AZURE": {"26": "3"}}}`)
	f.Add(`{}`, `{"WRED_PROFILE": {"AZURE_LOSSLESS": {"ecn": "ecn_all"}}}`)
	f.Add(`{"BUFFER_QUEUE": {"Ethernet0|0-2": {"profile": "l"}, "Ethernet0|3-4": {"profile": "ll"}, "Ethernet0|5-6": {"profile": "l"}, "Ethernet0|x-y": {"profile": "h"}}}`,
		`{"BUFFER_QUEUE": {"Ethernet0|5": {"profile": "ll"}, "Ethernet0|1-3": {"profile": "ll"}, "Ethernet0|6-5": {"profile": "ll"}}}`)
	ds := dialectsOf(f, dialect.LinesJSONPatch)
	f.Fuzz(func(t *testing.T, running, rendered string) {
		for _, d := range ds {
			fuzzConfigDB(t, d, running, rendered)
		}
	})
}

// fuzzConfigDB compares two CONFIG_DB documents on d: a change set comes
// with a diff, and a document compared with itself has no changes.
func fuzzConfigDB(t *testing.T, d *dialect.Dialect, running, rendered string) {
	t.Helper()
	c, err := config.Compare("dev", running, rendered, d)
	if err != nil {
		return
	}
	if !c.Changes.Empty() && c.Diff.Text == "" {
		t.Errorf("changes without a diff")
	}
	if self, err := config.Compare("dev", rendered, rendered, d); err == nil && !self.Changes.Empty() {
		t.Errorf("a CONFIG_DB compared with itself has changes: %q", self.Changes.Commands())
	}
}
