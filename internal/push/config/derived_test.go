package config

import (
	"regexp"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// TestUnmanagedWithoutDerived: the settings a device derives itself are
// not among the unmanaged lines; every other unmanaged line stays, and a
// derived-looking line the render sets stays managed.
func TestUnmanagedWithoutDerived(t *testing.T) {
	d := &dialect.Dialect{ConfigDB: true, Derived: []*regexp.Regexp{
		regexp.MustCompile(`^BUFFER_PROFILE\|pg_lossless_[^|]*_profile\|`),
		regexp.MustCompile(`^BUFFER_PG\|[^|]+\|[0-9-]+\|profile = pg_lossless_[^|]*_profile$`),
	}}
	running := `{"BUFFER_PROFILE": {"pg_lossless_400000_5m_profile": {"xoff": "1"}, "ingress_lossy_profile": {"size": "0"}},
 "BUFFER_PG": {"Ethernet0|3-4": {"profile": "pg_lossless_400000_5m_profile"}, "Ethernet0|0": {"profile": "ingress_lossy_profile"}},
 "NTP_SERVER": {"192.0.2.1": {}}}`
	got, err := Unmanaged(running, `{}`, "", d)
	if err != nil {
		t.Fatal(err)
	}
	want := "BUFFER_PG|Ethernet0|0|profile = ingress_lossy_profile\nBUFFER_PROFILE|ingress_lossy_profile|size = 0\nNTP_SERVER|192.0.2.1 (no fields)\n"
	if got != want {
		t.Errorf("unmanaged:\n%s\nwant:\n%s", got, want)
	}
	d.Derived = nil
	all, err := Unmanaged(running, `{}`, "", d)
	if err != nil {
		t.Fatal(err)
	}
	if all == got {
		t.Error("without Derived the derived lines are not listed: the filter proves nothing")
	}
}
