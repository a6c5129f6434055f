package brownfield

import (
	"context"
	"testing"
)

// TestAttrsFillOnlyWhatIsMissing: --attr gives a device what its
// configuration does not say, never over what it does, and a name that is
// no attribute is ignored.
func TestAttrsFillOnlyWhatIsMissing(t *testing.T) {
	srcs := []Source{{Name: "leaf1.cfg", Data: []byte("hostname leaf1\n")}}
	_, devs, err := Import(context.Background(), srcs, Options{Platform: "arista_eos",
		Attrs: map[string]string{"model": "7060X6", "hwsku": "sku", "asic": "th5", "driver": "d", "buffer_model": "dynamic", "colour": "red"}})
	if err != nil {
		t.Fatal(err)
	}
	d := devs[0]
	for name, got := range map[string]string{"model": d.Model, "hwsku": d.HWSKU, "asic": d.ASIC, "driver": d.Driver, "buffer_model": d.BufferModel} {
		want := map[string]string{"model": "7060X6", "hwsku": "sku", "asic": "th5", "driver": "d", "buffer_model": "dynamic"}[name]
		if got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	// A host script that names its driver keeps it.
	host := []Source{{Name: "nic1.sh", Data: []byte("#!/bin/bash\n# fabricgen: fabric f, device nic1 (linux_dcb)\n# NIC driver ice (driver)\nset -eu\n")}}
	_, devs, err = Import(context.Background(), host, Options{Platform: "linux_dcb", Attrs: map[string]string{"driver": "mlx5_core", "model": "x"}})
	if err != nil {
		t.Fatal(err)
	}
	if devs[0].Driver != "ice" || devs[0].Model != "x" {
		t.Errorf("driver %q (want the script's ice), model %q (want x)", devs[0].Driver, devs[0].Model)
	}
}
