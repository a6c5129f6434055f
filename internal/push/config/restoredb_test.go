package config_test

import (
	"slices"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestCompareRestoreDBRemovesWholeKeys: restoring a SONiC backup removes
// the keys (and tables) the applied config created as a whole, not field
// by field, which would leave empty keys ("FABRICGEN": {}) the backup
// never had. Found by the reliability suite (fabricgen rollback after an
// apply left 40 empty keys on a SONiC switch).
func TestCompareRestoreDBRemovesWholeKeys(t *testing.T) {
	dl, err := platforms.Dialect(schema.SONiC)
	if err != nil {
		t.Fatal(err)
	}
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
