package brownfield

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
)

// TestImportKeepsSourceOrder: the sources are read in parallel, yet the
// devices come back in the sources' order, and of several bad sources
// the error is the first one's in that order.
func TestImportKeepsSourceOrder(t *testing.T) {
	const n = 40
	big := make([]byte, importer.MaxFileBytes+1)
	for _, tc := range []struct {
		name    string
		bad     []int
		wantErr string
	}{
		{name: "all good"},
		{name: "two bad", bad: []int{7, 29}, wantErr: "leaf07.cfg"},
		{name: "last bad", bad: []int{n - 1}, wantErr: fmt.Sprintf("leaf%02d.cfg", n-1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srcs := make([]Source, n)
			for i := range srcs {
				name := fmt.Sprintf("leaf%02d", i)
				srcs[i] = Source{Name: name + ".cfg", Data: []byte("hostname " + name + "\n")}
			}
			for _, i := range tc.bad {
				srcs[i].Data = big
			}
			_, devs, err := Import(context.Background(), srcs, Options{Platform: "arista_eos"})
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr+":") {
					t.Fatalf("error %v, want the first bad source's (%s)", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, d := range devs {
				if want := fmt.Sprintf("leaf%02d", i); d.Name != want {
					t.Errorf("device %d is %s, want %s", i, d.Name, want)
				}
			}
		})
	}
}
