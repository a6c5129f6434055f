package lab

import (
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
)

// TestDataPlatformFromRegistry: every platform's devices that fabricgen
// check reads (the Ethernet ones; an InfiniBand fabric's subnet manager
// hosts are read back by apply itself) get their folder's data-plane
// responder and (switches) running-config reader; a platform without a
// responder fails, named, as its devices would answer none of their
// collector's commands.
func TestDataPlatformFromRegistry(t *testing.T) {
	for _, pl := range platforms.Needing("data-plane responder") {
		dp := dataPlatform(pl.Name)
		if dp.Name != pl.Name {
			t.Errorf("platforms/%s: data plane platform %q", pl.Folder, dp.Name)
		}
		if dp.Responder.Show == nil && dp.Responder.Exec == nil {
			t.Errorf("platforms/%s: no data-plane responder (responder.go): the lab's %s devices answer no check command", pl.Folder, pl.Name)
		}
		if (dp.Read == nil) != (pl.Reader == nil) {
			t.Errorf("platforms/%s: the data plane does not get the folder's running-config reader", pl.Folder)
		}
		if dp.Read == nil && !pl.Spec.Host {
			t.Errorf("platforms/%s: a switch without a running-config reader (reader.go)", pl.Folder)
		}
	}
	if dp := dataPlatform("vyos"); dp.Read != nil || dp.Responder.Show != nil || dp.Responder.Exec != nil {
		t.Error("a platform the registry lacks got parts")
	}
}
