package brownfield

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// corpusQoS marks, per platform, the lines of a configuration that speak
// of QoS: each must be read (inside a span the import records) or
// reported (importer.Device.Unmapped), never dropped.
var corpusQoS = map[schema.Platform]*regexp.Regexp{
	"arista_eos":    regexp.MustCompile(`^\s*(qos |priority-flow-control|tx-queue|uc-tx-queue|mc-tx-queue|random-detect|service-policy type qos|policy-map type quality-of-service|class-map type qos|platform trident mmu|platform sand qos)`),
	"cisco_nxos":    regexp.MustCompile(`^\s*(policy-map type (qos|queuing|network-qos)|class-map type (qos|queuing|network-qos)|pause pfc-cos|priority-flow-control|random-detect|system qos|service-policy type|hardware qos|set qos-group|set dscp|set cos|bandwidth (remaining )?percent|priority level)`),
	"juniper_junos": regexp.MustCompile(`^\s*(set class-of-service|class-of-service|forwarding-classes|classifiers|congestion-notification-profile|drop-profiles|schedulers|scheduler-maps|rewrite-rules)`),
	"sonic":         regexp.MustCompile(`"(DSCP_TO_TC_MAP|DOT1P_TO_TC_MAP|TC_TO_QUEUE_MAP|TC_TO_PRIORITY_GROUP_MAP|PORT_QOS_MAP|QUEUE|SCHEDULER|WRED_PROFILE|PFC_WD|BUFFER_POOL|BUFFER_PROFILE|BUFFER_PG|BUFFER_QUEUE|CABLE_LENGTH|TC_TO_DSCP_MAP|MAP_PFC_PRIORITY_TO_QUEUE|PFC_PRIORITY_TO_PRIORITY_GROUP_MAP)"`),
	"nvidia_mlnx":   regexp.MustCompile(`^\s*(sudo\s+)?(mlnx_qos|cma_roce_tos|cma_roce_mode|lldptool)\b|^[^#]*>\s*\S*/(ecn/|roce_np|roce_rp)`),
}

// TestCorpus imports every public configuration of the corpus
// (internal/importer/testdata/corpus, sources and licences in SOURCES.md)
// with its platform's importer: each imports, and each QoS line of it is
// read or reported.
func TestCorpus(t *testing.T) {
	root := filepath.Join("..", "importer", "testdata", "corpus")
	for _, p := range platforms.Needing("importer") {
		dir := filepath.Join(root, string(p.Name))
		ents, err := os.ReadDir(dir)
		if os.IsNotExist(err) {
			continue // SOURCES.md says what was searched for
		}
		if err != nil {
			t.Fatal(err)
		}
		if p.Import == nil {
			continue
		}
		t.Run(string(p.Name), func(t *testing.T) {
			for _, e := range ents {
				n := e.Name()
				if strings.HasPrefix(n, "LICENSE") || strings.HasPrefix(n, "NOTICE") {
					continue
				}
				t.Run(n, func(t *testing.T) {
					path := filepath.Join(dir, n)
					data, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					d, err := p.Import(context.Background(), path, data)
					if err != nil {
						t.Fatalf("does not import: %v", err)
					}
					covered := coveredLines(d)
					re := corpusQoS[p.Name]
					if re == nil {
						return
					}
					var dropped []string
					for i, line := range strings.Split(string(data), "\n") {
						if re.MatchString(line) && !covered[i+1] {
							dropped = append(dropped, strings.TrimSpace(line))
						}
					}
					if len(dropped) > 0 {
						t.Errorf("%d QoS line(s) neither read nor reported, e.g. %q", len(dropped), dropped[:min(5, len(dropped))])
					}
					in, err := importer.Write([]*importer.Device{d}, importer.Options{Spec: Spec})
					if err != nil {
						t.Fatal(err)
					}
					out := t.TempDir()
					if err := WriteDir(out, in); err != nil {
						t.Fatal(err)
					}
					if _, diags := schema.Load(out, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()}); diags.HasErrors() {
						t.Errorf("the written intent does not load: %v\n%s", diags, dump(in))
					}
				})
			}
		})
	}
}

// coveredLines are the lines an import says it read (spans of the QoS,
// ports and ACLs) or reported.
func coveredLines(d *importer.Device) map[int]bool {
	out := map[int]bool{}
	span := func(s importer.Span) {
		if s.From <= 0 {
			return
		}
		to := max(s.To, s.From)
		for l := s.From; l <= to; l++ {
			out[l] = true
		}
	}
	qos := func(q *importer.QoS) {
		if q != nil {
			for _, s := range q.Src {
				span(s)
			}
		}
	}
	qos(d.Default)
	if d.RDMA != nil {
		for _, s := range d.RDMA.Src {
			span(s)
		}
	}
	for _, p := range d.Ports {
		span(p.Src)
		qos(p.QoS)
	}
	for _, a := range d.ACLs {
		span(a.Src)
		for _, r := range a.Rules {
			span(r.Src)
		}
	}
	for _, l := range append(append([]importer.Line{}, d.Unmapped...), d.Twice...) {
		out[l.Line] = true
	}
	return out
}
