package nvidiamlnx_test

import (
	"testing"

	"github.com/fabricgen/fabricgen/platforms/internal/hostimport/hostimporttest"
	"github.com/fabricgen/fabricgen/platforms/nvidia_mlnx"
)

// TestImportGoldens reads the fixture's golden renders back and compares
// every QoS fact with the resolved intent.
func TestImportGoldens(t *testing.T) {
	hostimporttest.CheckGoldens(t, "../..", nvidiamlnx.Platform(), true)
}

// TestImportHostile feeds the hostile inputs of issue 24: each is a clean
// import or an *importer.Error at its line.
func TestImportHostile(t *testing.T) {
	hostimporttest.CheckHostile(t, nvidiamlnx.Platform().Import)
}

// FuzzImport: no input panics, and every error is an *importer.Error.
func FuzzImport(f *testing.F) {
	hostimporttest.FuzzSeeds(f, "../..", nvidiamlnx.Platform())
	imp := nvidiamlnx.Platform().Import
	f.Fuzz(func(t *testing.T, data []byte) { hostimporttest.FuzzOne(t, imp, data) })
}
