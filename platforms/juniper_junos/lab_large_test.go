package juniperjunos_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab"
)

// TestLargeRunningConfigLoads: loading stays linear in the size of the
// configuration (thousands of siblings); a quadratic loader would not
// finish a few MiB within the test's deadline.
func TestLargeRunningConfigLoads(t *testing.T) {
	const size = 2 << 20
	gen := func(b *strings.Builder, i int) {
		fmt.Fprintf(b, "set policy-options prefix-list BIG 10.%d.%d.%d/32\n", i>>16&255, i>>8&255, i&255)
	}
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		gen(&b, i)
	}
	if err := lab.CheckRunningConfig(lab.DeviceSpec{Name: "big", Platform: plat().Name, Username: "u", Password: "p", RunningConfig: b.String()}); err != nil {
		t.Fatal(err)
	}
}
