package sonic_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/config/configtest"
	"github.com/fabricgen/fabricgen/platforms/sonic"
)

// TestConfigDerivableScope: of an unverified record's CONFIG_DB claims the
// device bears out, VerifiedScope keeps each; DerivableScope keeps only
// those the render or fabricgen's naming re-derives, and lists the rest
// as held back.
func TestConfigDerivableScope(t *testing.T) {
	for name, c := range map[string]configtest.ScopeCase{
		"another team's WRED profile": {
			Running:     `{"WRED_PROFILE":{"roce":{"ecn":"ecn_all"},"OTHER":{"ecn":"ecn_none"}}}`,
			Render:      `{"WRED_PROFILE":{"roce":{"ecn":"ecn_all"}}}`,
			Scope:       `{"WRED_PROFILE":{"roce":{"ecn":"ecn_all"},"OTHER":{"ecn":"ecn_none"}}}`,
			VerifiedHas: []string{"OTHER"}, DerivedHas: []string{"roce"}, DerivedLacks: []string{"OTHER"},
			Held: []string{"WRED_PROFILE|OTHER"}},
		"fabricgen's scheduler and a rule of a rendered ACL table are fabricgen's": {
			Running:     `{"SCHEDULER":{"fabricgen.3":{"type":"DWRR","weight":"50"}},"ACL_TABLE":{"ROCE_MARK_IN":{"stage":"ingress"}},"ACL_RULE":{"ROCE_MARK_IN|RULE_30":{"PACKET_ACTION":"DROP"},"THEIRS|RULE_1":{"PACKET_ACTION":"DROP"}}}`,
			Render:      `{"ACL_TABLE":{"ROCE_MARK_IN":{"stage":"ingress"}}}`,
			Scope:       `{"SCHEDULER":{"fabricgen.3":{"type":"DWRR","weight":"50"}},"ACL_TABLE":{"ROCE_MARK_IN":{"stage":"ingress"}},"ACL_RULE":{"ROCE_MARK_IN|RULE_30":{"PACKET_ACTION":"DROP"},"THEIRS|RULE_1":{"PACKET_ACTION":"DROP"}}}`,
			VerifiedHas: []string{"THEIRS"}, DerivedHas: []string{"fabricgen.3", "RULE_30"}, DerivedLacks: []string{"THEIRS"},
			Held: []string{"ACL_RULE|THEIRS|RULE_1"}},
	} {
		t.Run(name, func(t *testing.T) { configtest.Scope(t, sonic.Platform().Dialect(), c) })
	}
}

// TestConfigBufferPGTakeover: a rendered lossless PG displaces the stock key it
// overlaps ("Ethernet0|3-4" for "Ethernet0|3"), leaves the port's lossy
// PG 0 alone, and a restore brings the displaced key back.
func TestConfigBufferPGTakeover(t *testing.T) {
	d := sonic.Platform().Dialect()
	running := `{"PORT": {"Ethernet0": {"speed": "400000", "lanes": "0"}},
"BUFFER_PG": {"Ethernet0|0": {"profile": "ingress_lossy_profile"}, "Ethernet0|3-4": {"profile": "pg_lossless_400000_5m_profile"}}}`
	rendered := `{"PORT": {"Ethernet0": {"speed": "400000"}}, "BUFFER_PG": {"Ethernet0|3": {"profile": "pg_lossless_400000_5m_profile"}}}`
	cmp, err := config.CompareConfigDB("leaf", running, rendered, d)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(cmp.Changes.Commands(), "\n")
	for _, want := range []string{`{"op":"remove","path":"/BUFFER_PG/Ethernet0|3-4"}`, `{"op":"add","path":"/BUFFER_PG/Ethernet0|3"`} {
		if !strings.Contains(got, want) {
			t.Errorf("changes lack %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Ethernet0|0") {
		t.Errorf("the lossy PG 0 is touched:\n%s", got)
	}
	applied := `{"PORT": {"Ethernet0": {"speed": "400000", "lanes": "0"}},
"BUFFER_PG": {"Ethernet0|0": {"profile": "ingress_lossy_profile"}, "Ethernet0|3": {"profile": "pg_lossless_400000_5m_profile"}}}`
	back, err := config.CompareRestore("leaf", applied, running, rendered, d)
	if err != nil {
		t.Fatal(err)
	}
	got = strings.Join(back.Changes.Commands(), "\n")
	for _, want := range []string{`{"op":"remove","path":"/BUFFER_PG/Ethernet0|3"}`, `"path":"/BUFFER_PG/Ethernet0|3-4"`} {
		if !strings.Contains(got, want) {
			t.Errorf("restore lacks %s:\n%s", want, got)
		}
	}
}

// TestConfigWholeTableRemoved: when every key of a table goes, the patch removes
// the table (CONFIG_DB has no empty tables; the config updater refuses a
// patch leaving one), in an apply and in a restore.
func TestConfigWholeTableRemoved(t *testing.T) {
	d := sonic.Platform().Dialect()
	running := `{"PORT": {"Ethernet0": {"speed": "400000"}, "Ethernet8": {"speed": "400000"}},
"BUFFER_PG": {"Ethernet0|3": {"profile": "p"}, "Ethernet8|3": {"profile": "p"}}}`
	rendered := `{"PORT": {"Ethernet0": {"speed": "400000"}, "Ethernet8": {"speed": "400000"}}}`
	scope := `{"BUFFER_PG": {"Ethernet0|3": {"profile": "p"}, "Ethernet8|3": {"profile": "p"}}}`
	cmp, err := config.CompareScoped("leaf", running, rendered, scope, d)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cmp.Changes.Commands(), "\n"); got != `{"op":"remove","path":"/BUFFER_PG"}` {
		t.Errorf("changes %q, want the table removed once", got)
	}
	back, err := config.CompareRestore("leaf", running, rendered, scope, d)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(back.Changes.Commands(), "\n"); got != `{"op":"remove","path":"/BUFFER_PG"}` {
		t.Errorf("restore %q, want the table removed once", got)
	}
}

// TestConfigCompareRestoreDBRemovesWholeKeys: restoring a SONiC backup removes
// the keys (and tables) the applied config created as a whole, not field
// by field, which would leave empty keys ("FABRICGEN": {}) the backup
// never had. Found by the reliability suite (fabricgen rollback after an
// apply left 40 empty keys on a SONiC switch).
func TestConfigCompareRestoreDBRemovesWholeKeys(t *testing.T) {
	dl := sonic.Platform().Dialect()
	backup := `{
 "DSCP_TO_TC_MAP": {"AZURE": {"26": "3"}},
 "PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "AZURE", "pfc_enable": "3"}},
 "PORT": {"Ethernet0": {"mtu": "9100"}, "Ethernet8": {"mtu": "9100"}}
}`
	scope := `{
 "DSCP_TO_TC_MAP": {"FABRICGEN": {"26": "3", "48": "6"}},
 "PFC_WD": {"Ethernet0": {"action": "drop"}, "GLOBAL": {"POLL_INTERVAL": "100"}},
 "PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "FABRICGEN"}, "Ethernet8": {"dscp_to_tc_map": "FABRICGEN"}},
 "PORT": {"Ethernet0": {"mtu": "9214"}, "Ethernet8": {"mtu": "9214"}}
}`
	running := `{
 "DSCP_TO_TC_MAP": {"AZURE": {"26": "3"}, "FABRICGEN": {"26": "3", "48": "6"}},
 "PFC_WD": {"Ethernet0": {"action": "drop"}, "GLOBAL": {"POLL_INTERVAL": "100"}},
 "PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "FABRICGEN", "pfc_enable": "3"}, "Ethernet8": {"dscp_to_tc_map": "FABRICGEN"}},
 "PORT": {"Ethernet0": {"mtu": "9214"}, "Ethernet8": {"mtu": "9214"}}
}`
	cmp, err := config.CompareRestore("leaf3", running, backup, scope, dl)
	if err != nil {
		t.Fatal(err)
	}
	got := cmp.Changes.Commands()
	want := []string{
		`{"op":"remove","path":"/DSCP_TO_TC_MAP/FABRICGEN"}`,
		`{"op":"remove","path":"/PFC_WD"}`,
		`{"op":"replace","path":"/PORT/Ethernet0/mtu","value":"9100"}`,
		`{"op":"replace","path":"/PORT/Ethernet8/mtu","value":"9100"}`,
		`{"op":"replace","path":"/PORT_QOS_MAP/Ethernet0/dscp_to_tc_map","value":"AZURE"}`,
		`{"op":"remove","path":"/PORT_QOS_MAP/Ethernet8"}`,
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("restore patch:\n%q\nwant:\n%q", got, want)
	}
	// Restored, nothing is left to do.
	again, err := config.CompareRestore("leaf3", backup, backup, scope, dl)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Changes.Empty() {
		t.Errorf("restoring the backup itself: %q", again.Changes.Commands())
	}
}

// TestConfigCompareRestoreDBBringsBackTakenOverPortKeys: apply takes over
// every key of a per-port table (QUEUE, PORT_QOS_MAP …) for a port the
// render configures in it, so a brownfield port's stock queues and
// pfc_to_pg_map binding go; restoring the backup puts them back, and
// leaves another port's keys alone. Found by the reliability suite
// (fabricgen rollback after a clean apply on the clos seat's brownfield
// switch left its stock QUEUE keys and pfc_to_pg_map out).
func TestConfigCompareRestoreDBBringsBackTakenOverPortKeys(t *testing.T) {
	dl := sonic.Platform().Dialect()
	backup := `{
 "PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "AZURE", "pfc_to_pg_map": "AZURE"}},
 "QUEUE": {"Ethernet0|0": {"scheduler": "scheduler.0"}, "Ethernet0|1": {"scheduler": "scheduler.0"}, "Ethernet8|1": {"scheduler": "scheduler.0"}}
}`
	scope := `{
 "PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "FABRICGEN"}},
 "QUEUE": {"Ethernet0|0": {"scheduler": "FABRICGEN.0"}}
}`
	running := `{
 "PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "FABRICGEN"}},
 "QUEUE": {"Ethernet0|0": {"scheduler": "FABRICGEN.0"}, "Ethernet8|1": {"scheduler": "scheduler.0"}}
}`
	cmp, err := config.CompareRestore("leaf3", running, backup, scope, dl)
	if err != nil {
		t.Fatal(err)
	}
	got := cmp.Changes.Commands()
	want := []string{
		`{"op":"replace","path":"/PORT_QOS_MAP/Ethernet0/dscp_to_tc_map","value":"AZURE"}`,
		`{"op":"add","path":"/PORT_QOS_MAP/Ethernet0/pfc_to_pg_map","value":"AZURE"}`,
		`{"op":"replace","path":"/QUEUE/Ethernet0|0/scheduler","value":"scheduler.0"}`,
		`{"op":"add","path":"/QUEUE/Ethernet0|1","value":{"scheduler":"scheduler.0"}}`,
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("restore patch:\n%q\nwant:\n%q", got, want)
	}
	again, err := config.CompareRestore("leaf3", backup, backup, scope, dl)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Changes.Empty() {
		t.Errorf("restoring the backup itself: %q", again.Changes.Commands())
	}
}
