package opensm

import (
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// PathCase is pathCase for the external tests (opensm_test), which may
// import the registry: What, between Src and Dst in partition PKey, must
// get service level SL.
type PathCase struct {
	What     string
	Src, Dst uint64
	PKey     uint16
	SL       int
}

// ProveRender is proveRender for the external tests.
func ProveRender(t *testing.T, f *schema.Fabric, paths []PathCase) {
	t.Helper()
	var cs []pathCase
	for _, p := range paths {
		cs = append(cs, pathCase{what: p.What, src: p.Src, dst: p.Dst, pkey: p.PKey, sl: p.SL})
	}
	proveRender(t, f, cs)
}
