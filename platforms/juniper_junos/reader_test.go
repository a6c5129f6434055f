package juniperjunos

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/qosread/qosreadtest"
	"github.com/fabricgen/fabricgen/internal/rendertest"
	"github.com/fabricgen/fabricgen/schema"
)

func FuzzReadQoS(f *testing.F) {
	qosreadtest.Fuzz(f, read, "set class-of-service classifiers dscp C forwarding-class roce loss-priority low code-points 011010\n")
}

// TestReadRedeclaredDefaultClasses: the QFX default classes a render
// redeclares lossy (fcoe on queue 3, no-loss on queue 4) carry no
// priority, so the read queue map and PFC are the intent's, whatever the
// order the reader meets the classes in.
func TestReadRedeclaredDefaultClasses(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(q *schema.PortQoS)
	}{
		{"lossless moved to queue 5", func(q *schema.PortQoS) { q.Queue[3], q.Queue[5] = q.Queue[5], q.Queue[3]; junosReach(q, 4, 5) }},
		{"lossless on priority 5", func(q *schema.PortQoS) { q.Lossless = schema.PrioSetOf(5) }},
		{"queues renumbered", func(q *schema.PortQoS) {
			q.Queue[1], q.Queue[3], q.Queue[4] = rendertest.Set(3), rendertest.Set(1), rendertest.Set(2)
			junosReach(q, 1, 4)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, d := rendertest.TinyFabric(Platform(), "et-0/0/0")
			q := d.Ports[0].QoS
			q.Queues[3].ECN = schema.Value[*schema.ECNProfile]{}
			tc.mutate(q)
			f.Reindex()
			text, err := rendertest.Render(t, Platform(), f, d)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text, "forwarding-classes class fcoe ") && !strings.Contains(text, "forwarding-classes class no-loss ") {
				t.Fatalf("the case redeclares no default class:\n%s", text)
			}
			for i := 0; i < 20; i++ { // map order varies between reads
				got, err := read(text)
				if err != nil {
					t.Fatal(err)
				}
				p := got.Port("et-0/0/0")
				for pr := 0; pr < 8; pr++ {
					if p.Queue[pr] != q.Queue[pr].V {
						t.Fatalf("priority %d read on queue %d, want %d\n%s", pr, p.Queue[pr], q.Queue[pr].V, text)
					}
				}
				if p.PFC != d.Lossless {
					t.Fatalf("PFC read %v, want %v", p.PFC, d.Lossless)
				}
			}
		})
	}
}
