package opensm

import (
	"context"
	"testing"

	"github.com/fabricgen/fabricgen/internal/ibsim"
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

// The behaviour tests that also lint (behaviour_more_test.go) are
// external tests: lint imports this package. These names give them the
// proof harness.

// The test fabric's HCA port GUIDs, for the external tests.
const (
	GUIDSM01   = guidSM01
	GUIDGPU01  = guidGPU01
	GUIDGPU02  = guidGPU02
	GUIDGPU03  = guidGPU03
	GUIDStor01 = guidStor01
)

// ProofFabric is testFabric for the external tests.
func ProofFabric() *schema.Fabric { return testFabric() }

// Rendered is rendered for the external tests.
func Rendered(t *testing.T, f *schema.Fabric) map[string]string { return rendered(t, f) }

// NoErrors is noErrors for the external tests.
func NoErrors(t *testing.T, log string) {
	t.Helper()
	noErrors(t, log)
}

// Lab is lab for the external tests.
type Lab struct{ l *lab }

// NewLab is newLab for the external tests.
func NewLab(t *testing.T, f *schema.Fabric, files map[string]string) *Lab {
	t.Helper()
	return &Lab{newLab(t, f, files)}
}

// Sim is the lab's simulator.
func (l *Lab) Sim() *ibsim.Sim { return l.l.sim }

// Ctx is the lab's context (bounded by its timeout).
func (l *Lab) Ctx() context.Context { return l.l.ctx }

// Conf is the path of the lab's opensm.conf.
func (l *Lab) Conf() string { return l.l.conf }

// Sweep is lab.sweep.
func (l *Lab) Sweep(t *testing.T) string {
	t.Helper()
	return l.l.sweep(t)
}

// StartSM is lab.startSM: the path of the long-running OpenSM's log.
func (l *Lab) StartSM(t *testing.T) string {
	t.Helper()
	return l.l.startSM(t)
}

// SL2VL is lab.sl2vl.
func (l *Lab) SL2VL(t *testing.T, n *ibsim.Node, out int) map[ibsim.PortPair][16]int {
	t.Helper()
	return l.l.sl2vl(t, n, out)
}

// VLArb is lab.vlarb.
func (l *Lab) VLArb(t *testing.T, n *ibsim.Node, port int) ibsim.VLArb {
	t.Helper()
	return l.l.vlarb(t, n, port)
}

// Paths is lab.paths.
func (l *Lab) Paths(t *testing.T, src, dst uint64, pk uint16) ([]ibsim.PathRecord, error) {
	t.Helper()
	return l.l.paths(t, src, dst, pk)
}

// Query is lab.query: smpquery args, its output.
func (l *Lab) Query(t *testing.T, args ...string) string {
	t.Helper()
	return l.l.query(t, args...)
}

// RingFabric is ringFabric for the external tests.
func RingFabric() *schema.Fabric { return ringFabric() }
