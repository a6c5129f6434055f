package aristaeos_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab"
	aristaeos "github.com/fabricgen/fabricgen/platforms/arista_eos"
)

// Start a lab leaf of this platform, change it behind fabricgen's back,
// and read the result.
func Example_lab() {
	dir, err := os.MkdirTemp("", "lab")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	l, err := lab.Start(context.Background(), []lab.DeviceSpec{
		{Name: "leaf1", Platform: aristaeos.Platform().Name, Username: "admin", Password: "example-only"},
	}, lab.Options{Dir: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer l.Close()
	dev := l.Device("leaf1")
	if err := dev.ConfigureOutOfBand([]string{"interface Ethernet1", "   mtu 9214"}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Contains(dev.RunningConfig(), "interface Ethernet1\n   mtu 9214\n"))
	fmt.Println(strings.HasPrefix(l.Addr("leaf1"), "127.0.0.1:"))
	// Output:
	// true
	// true
}
