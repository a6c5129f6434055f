// Package qosreadtest holds the fuzz target every platform folder's
// running-config reader shares.
package qosreadtest

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/qosread"
)

// Fuzz fuzzes a running-config reader from seeds: whatever it reads, every
// port (and the default) classifies every code point into a priority 0–7
// and a DSCP 0–63.
func Fuzz(f *testing.F, read qosread.Reader, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, err := read(text)
		if err != nil {
			return
		}
		for _, name := range append(d.PortNames(), "none") {
			qp := d.Port(name)
			for dscp := 0; dscp < 64; dscp++ {
				pr, out := qp.Classify(dscp, dscp%2 == 0)
				if !qosread.Prio(pr) || !qosread.DSCPOK(out) {
					t.Fatalf("%s: Classify(%d) = %d, %d out of range", name, dscp, pr, out)
				}
			}
		}
	})
}
