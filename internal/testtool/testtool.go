// Package testtool finds the external programs tests run (yanglint,
// prlimit, git, bash, go): a test may skip only when one is missing, must
// name it, and must not skip under CI=true, where .ci/run installs them.
package testtool

import (
	"os"
	"os/exec"
	"testing"
)

// Need returns the path of the program name, from the Debian package pkg.
// When it is missing the test is skipped, saying which package installs
// it, except under CI=true, where it fails instead.
func Need(t testing.TB, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s not found (install the Debian package %s); CI=true, so this fails instead of skipping", name, pkg)
		return ""
	}
	t.Skipf("%s not found: install the Debian package %s to run this test", name, pkg)
	return ""
}
