package ibsimtest

import "testing"

func TestOneLeaf(t *testing.T) {
	a, b := OneLeaf(), OneLeaf()
	if a == b || a.Devices[0] == b.Devices[0] {
		t.Fatal("OneLeaf shares its fabric between calls")
	}
	if len(a.Devices) != 3 || len(a.Links) != 2 {
		t.Fatalf("%d devices, %d links; want 3, 2", len(a.Devices), len(a.Links))
	}
	for _, l := range a.Links {
		if l.A.Device.Name != "leaf1" || !l.B.GUID.Set {
			t.Errorf("link %s:%s - %s:%s", l.A.Device.Name, l.A.Name, l.B.Device.Name, l.B.Name)
		}
	}
	if g := a.Links[1].B; g.Device.Name != "gpu01" || g.GUID.V != GPUGUID {
		t.Errorf("host port %s on %s, GUID %#x", g.Name, g.Device.Name, g.GUID.V)
	}
}
