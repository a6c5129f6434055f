package push

import (
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/push/config"
)

// The matrix's own account of what fabricgen may change on each switch
// (matrixData.Managed, in the folder's matrix.json), written from
// docs/push.md's table of managed sections and the seat's render,
// independently of the product's filter (config.Unmanaged): a state line
// matching none of these patterns is the device's own and must be
// byte-identical after every mutation. The patterns name fabricgen's
// objects (the fixture's ACLs, FABRICGEN/FG- names, the rendered ports)
// exactly, so a product change that claims a customer's object (an NX-OS
// JUMBO-NQ policy, an EOS qos profile, a SONiC AZURE map) shows up as a
// change of an unmanaged line. matrixData.Keep are lines of each
// brownfield device that sit next to what fabricgen manages and are not
// its: each must be on the device before and after every mutation.

// unmanagedState is the device's state lines (CONFIG_DB fields sorted)
// that match none of the platform's managed patterns.
func (r *matrixRig) unmanagedState(t *testing.T, text string) []string {
	t.Helper()
	managed := compileAll(r.dev.data.Managed...)
	var lines []string
	if r.dl.ConfigDB {
		for k, v := range dbFields(t, text) {
			lines = append(lines, k+" = "+v)
		}
		sort.Strings(lines)
	} else {
		lines = qualified(config.Parse(text, r.dl).Nodes, nil)
	}
	var out []string
	for _, l := range lines {
		if !matchesAny(l, managed) {
			out = append(out, l)
		}
	}
	return out
}

// checkUnmanagedIndependent compares the lines the matrix's own patterns
// call unmanaged before and after the change, and looks for the platform's
// keep lines on both sides.
func (r *matrixRig) checkUnmanagedIndependent(t *testing.T, before, after string) {
	t.Helper()
	b, a := r.unmanagedState(t, before), r.unmanagedState(t, after)
	if len(b) < 20 {
		t.Fatalf("only %d unmanaged lines before the change: the brownfield configuration is missing, the check proves nothing", len(b))
	}
	if bs, as := strings.Join(b, "\n")+"\n", strings.Join(a, "\n")+"\n"; bs != as {
		t.Errorf("lines fabricgen does not manage (by the matrix's own patterns) changed:\n%s", config.Unified("before", "after", bs, as).Text)
	}
	keep := r.dev.data.Keep
	if len(keep) == 0 {
		t.Fatalf("platforms/%s/testdata/push/matrix.json: no keep lines", r.dev.fx.Platform.Folder)
	}
	for _, k := range keep {
		if !containsLine(b, k) || !containsLine(a, k) {
			t.Errorf("%q is not an unmanaged line of the device both before and after the change", k)
		}
	}
}

func containsLine(lines []string, l string) bool {
	for _, x := range lines {
		if x == l {
			return true
		}
	}
	return false
}

// TestMatrixDataComplete: every folder of the registry has a seat in the
// clos fabric and a matrix.json with an expectation for every mutation of
// push's matrix and for no other, its patterns valid and, for a switch,
// managed patterns and keep lines; a folder that lacks a mutation or names
// one push does not have fails naming the folder and the mutation.
func TestMatrixDataComplete(t *testing.T) {
	mutations := allMatrixMutations(t)
	for _, md := range matrixDevices(t) {
		if len(md.data.Mutations) != len(mutations) {
			t.Errorf("platforms/%s: %d mutations, want %d", md.fx.Platform.Folder, len(md.data.Mutations), len(mutations))
		}
	}
	fx := platformtest.All(repoRoot)[0]
	var d matrixData
	if err := fx.PushData("matrix", &d); err != nil {
		t.Fatal(err)
	}
	missing, unknown := mutations[0].name, "no-such-mutation"
	d.Mutations[unknown] = d.Mutations[missing]
	delete(d.Mutations, missing)
	err := checkMatrixData(fx, d, mutations)
	if err == nil {
		t.Fatal("a matrix.json lacking a mutation and naming an unknown one passes")
	}
	for _, want := range []string{"platforms/" + fx.Platform.Folder, missing, unknown} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %q: %v", want, err)
		}
	}
}
