package nvidiacumulus_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/labtest"
)

func decodeJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return m
}

func nvRevisions(t *testing.T, sh *labtest.Shell) map[string]any {
	t.Helper()
	return decodeJSON(t, sh.Run("nv config revision -o json"))
}

func revisionsIn(revs map[string]any, state string) []map[string]any {
	var out []map[string]any
	for _, v := range revs {
		if r := v.(map[string]any); r["state"] == state {
			out = append(out, r)
		}
	}
	return out
}

func TestCumulusPendingRevisionShared(t *testing.T) {
	for _, c := range []struct {
		name, finish, state string
		kept                bool
	}{
		{"confirmed", "nv config apply --confirm-yes", "applied_and_saved", true},
		{"refused", "nv config apply --confirm-no", "confirm_no", false},
		{"expired", "", "confirm_fail", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := labtest.Start(t, lab.DeviceSpec{Name: "leaf4", Platform: plat().Name})
			dev := l.Device("leaf4")
			prompt := `admin@leaf4:mgmt:~\$ $`
			a := labtest.OpenShell(t, l, "leaf4", prompt)
			b := labtest.OpenShell(t, l, "leaf4", prompt)
			if out := b.Run("nv config diff"); out != "" {
				t.Fatalf("diff with nothing pending: %q", out)
			}
			a.Run("nv set interface swp7 link mtu 9216")
			_ = a.Close()
			if out := b.Run("nv config diff"); out != "nv set interface swp7 link mtu 9216\n" {
				t.Errorf("B does not see A's pending change: %q", out)
			}
			if p := revisionsIn(nvRevisions(t, b), "pending"); len(p) != 1 || p[0]["user"] != "admin" {
				t.Errorf("pending revisions: %v", p)
			}
			if out := b.Run("nv config apply --confirm-status"); out != "No pending confirmation\n" {
				t.Errorf("confirm-status with none: %q", out)
			}
			if out := b.Run("nv config apply -y --confirm 300s"); !strings.Contains(out, "applied [rev_id:") {
				t.Fatalf("apply: %q", out)
			}
			if out := b.Run("nv config apply --confirm-status"); !regexp.MustCompile(`^Revision \d+ is waiting for confirmation: (5m0s|4m5\ds) left before the automatic rollback\n$`).MatchString(out) {
				t.Errorf("confirm-status: %q", out)
			}
			if p := revisionsIn(nvRevisions(t, b), "confirm"); len(p) != 1 {
				t.Errorf("revisions in confirm: %v", p)
			}
			if c.finish == "" {
				dev.ExpireTimers()
			} else {
				b.Run(c.finish)
			}
			revs := nvRevisions(t, b)
			if len(revisionsIn(revs, "confirm")) != 0 || len(revisionsIn(revs, c.state)) == 0 {
				t.Errorf("after %s: %v", c.name, revs)
			}
			if kept := strings.Contains(dev.RunningConfig(), "swp7 link mtu 9216"); kept != c.kept {
				t.Errorf("change kept = %v", kept)
			}
			if out := b.Run("nv config apply --confirm-status"); out != "No pending confirmation\n" {
				t.Errorf("confirm-status after %s: %q", c.name, out)
			}
			if out := b.Run("nv config revision"); !strings.HasPrefix(out, "Rev ID  State") {
				t.Errorf("table: %q", out)
			}
		})
	}
}
