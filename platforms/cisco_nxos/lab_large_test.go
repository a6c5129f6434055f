package cisconxos_test

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
		if i == 0 {
			b.WriteString("ip access-list BIG\n")
		}
		fmt.Fprintf(b, "  %d permit udp any any eq %d\n", (i+1)*10, i%65535)
	}
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		gen(&b, i)
	}
	if err := lab.CheckRunningConfig(lab.DeviceSpec{Name: "big", Platform: plat().Name, Username: "u", Password: "p", RunningConfig: b.String()}); err != nil {
		t.Fatal(err)
	}
}
