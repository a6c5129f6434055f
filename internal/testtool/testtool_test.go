package testtool

import (
	"strings"
	"testing"
)

// recorder is a testing.TB that records a skip or a failure instead of
// ending the goroutine.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                     {}
func (r *recorder) Skipf(f string, args ...any) { r.skipped = f }
func (r *recorder) Fatalf(f string, args ...any) {
	r.failed = f
}

func TestNeed(t *testing.T) {
	if p := Need(t, "sh", "dash"); p == "" {
		t.Fatal("sh not found")
	}
	t.Setenv("CI", "")
	r := &recorder{TB: t}
	Need(r, "fabricgen-no-such-tool", "no-such-package")
	if !strings.Contains(r.skipped, "install the Debian package") || r.failed != "" {
		t.Errorf("outside CI: skipped %q, failed %q; want a skip naming the package", r.skipped, r.failed)
	}
	t.Setenv("CI", "true")
	r = &recorder{TB: t}
	Need(r, "fabricgen-no-such-tool", "no-such-package")
	if !strings.Contains(r.failed, "CI=true") || r.skipped != "" {
		t.Errorf("under CI=true: skipped %q, failed %q; want a failure", r.skipped, r.failed)
	}
}
