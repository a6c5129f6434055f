package osmconf

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/ibsim"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/internal/testtool"
	"github.com/fabricgen/fabricgen/schema"
)

// sweepFabric is one leaf with the subnet manager and one host.
func sweepFabric() *schema.Fabric {
	kind := func(k schema.Kind) schema.Value[schema.Kind] { return schema.Value[schema.Kind]{V: k, Set: true} }
	guid := func(g uint64) schema.Value[uint64] { return schema.Value[uint64]{V: g, Set: true} }
	leaf := &schema.Device{Name: "leaf1", Kind: kind(schema.KindLeaf), GUID: guid(0x0002c90000000101)}
	sm := &schema.Device{Name: "sm01", Kind: kind(schema.KindSubnetManager)}
	gpu := &schema.Device{Name: "gpu01", Kind: kind(schema.KindNIC)}
	port := func(d *schema.Device, name string, g uint64) *schema.Port {
		p := &schema.Port{Name: name, Device: d}
		if g != 0 {
			p.GUID = guid(g)
		}
		d.Ports = append(d.Ports, p)
		return p
	}
	l1, l2 := port(leaf, "1", 0), port(leaf, "2", 0)
	f := &schema.Fabric{Devices: []*schema.Device{leaf, gpu, sm}, Links: []*schema.Link{
		{A: l1, B: port(sm, "ib0", 0x0002c90300a00101)},
		{A: l2, B: port(gpu, "ib0", 0x0002c90300a00201)},
	}}
	f.Reindex()
	return f
}

// sweeper runs the real OpenSM for one sweep on an emulated fabric.
type sweeper struct {
	sim *ibsim.Sim
	n   int
}

// newSweeper starts ibsim, or skips naming the missing binary (never
// under CI=true).
func newSweeper(t *testing.T) *sweeper {
	t.Helper()
	for bin, pkg := range ibsim.Binaries {
		testtool.Need(t, bin, pkg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	topo, err := ibsim.FromFabric(sweepFabric())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ibsim.Start(ctx, t.TempDir(), topo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return &sweeper{sim: s}
}

// sweep writes partitions.conf and qos-policy.conf (each when not empty),
// runs `opensm -o` once with QoS on and returns its log.
func (sw *sweeper) sweep(t *testing.T, partitions, policy string) string {
	t.Helper()
	sw.n++
	dir := sw.sim.Dir
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := readlimit.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	conf := "qos TRUE\nlog_flags 0x07\n"
	if partitions != "" {
		conf += "partition_config_file " + write("p.conf", partitions) + "\n"
	} else {
		conf += "partition_config_file " + filepath.Join(dir, "absent") + "\n"
	}
	if policy != "" {
		conf += "qos_policy_file " + write("q.conf", policy) + "\n"
	} else {
		conf += "qos_policy_file " + filepath.Join(dir, "absent") + "\n"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	log, err := sw.sim.OpenSM(ctx, write("opensm.conf", conf))
	if err != nil {
		t.Fatalf("opensm: %v", err)
	}
	return log
}

// logWarnings returns the "line N: PARSE ..." messages of an OpenSM log in
// this package's form, and the line of the PARSE ERROR that made it reject
// partitions.conf (0 when it did not).
func logPartitionFindings(log string) (warns []string, errLine int, rejected bool) {
	for _, l := range strings.Split(log, "\n") {
		_, msg, ok := strings.Cut(l, "-> ")
		if !ok {
			continue
		}
		_, msg, _ = strings.Cut(msg, ": ")
		switch {
		case strings.HasPrefix(msg, "PARSE WARN: line "):
			rest := strings.TrimPrefix(msg, "PARSE WARN: line ")
			n, text, _ := strings.Cut(rest, ": ")
			warns = append(warns, "line "+n+": PARSE WARN: "+text)
		case strings.HasPrefix(msg, "PARSE ERROR: line "):
			n, _, _ := strings.Cut(strings.TrimPrefix(msg, "PARSE ERROR: line "), ":")
			errLine, _ = strconv.Atoi(n)
		case strings.Contains(msg, "Partition configuration in error"):
			rejected = true
		}
	}
	return warns, errLine, rejected
}

// partitionCorpus are partitions.conf texts OpenSM can be run on.
var partitionCorpus = []string{
	"Default=0x7fff : ALL=limited, SELF=full ;\n",
	"ShareIO = 0x80 , defmember=full : 0x123451, 0x123452=limited;  a=2,ipoib,mtu=5,rate=7,sl=3,scope=2,indx0:ALL_CAS=both;\n",
	"# c\nP1 = 0x8001 , i, d=f, s=5: # header\n\tA=f,\n  ALL_S, N, S=l\n ;\n",
	"0x10: 0x2c9000000001=full",
	"o=010: ALL;\nnokey: ALL;\n",
	"w=1,mtu=4x,sl=16,bogus,defmember=x: ALL=fool;\n",
	"w=1,mtu=0,rate,scope=16,Q_Key=z,TClass,FlowLabel=0x100000,sl=3 x: ALL;\n",
	"w=1,,=,sl= 2: ALL;\n",
	"Default=0x7fff,ipoib:\n mgid=ff12::1,sl=1,Q_Key=0xDEADBEEF,rate=3,mtu=2\n ALL=full;\n",
	"Default=0x7fff,ipoib:\n mgid=ff12:401b::0707,sl=1,bogus # random IPv4 group\n mgid=ff12:401b::16,rate=6    # IGMP\n ALL=full;\n",
	"a=1: mgid=1.2.3.4,sl=1; ALL;\n",
	"a=1: mgid=zz ; ALL;\n",
	"# only a comment\n\n",
	"",
	"Default=0x7fff ALL;\n",
	"Default=0x7fff,\n ipoib: ALL;\n",
	"ok=1: ALL;\n  bad=0x8g01 : ALL;\n",
	"bad= : ALL;\n",
	"p=1: ALL,\n   0x2c9zz;\n",
	"p=1: 0x0;\n",
	"p=1: -1;\n",
	"p=1: ALL;;\n",
	"P1 = 0x8001 : \n ;\n",
	"P1 = 0x8001 : ALL\n;\n",
	"a very long name that goes on=0x1,ipoib,mtu=4,rate=3 : ALL\n;\nb=2:\n;\n",
	";\n",
	"a=1:ALL; b=2:ALL ; c=3 : ALL ; \n",
	"a=1:ALL\r\n;\r\n",
	"Default=0x7fff,ipoib:\n mgid=ff12:401b::16    # IGMP\n ALL=full;\n",
	"Default=0x7fff,ipoib:\n mgid=ff12:401b::16\n ALL=full;\n",
	"Default=0x7fff,ipoib,rate=3,mtu=4,sl=1,Q_Key=0x1,TClass=3,FlowLabel=5,scope=2,scope=5,defmember=both:\n ALL_SWITCHES, ALL_ROUTERS=l, 0x2c90300a00201=b;\n",
	"a=0x18001:ALL;\n",
	"a=0x1:AL=full,ALL_=l,ALL_C;\n",
	"a=1,m=4,r=2,T=1,F=2,Q=3: A;\n",
	"a=1: A=;\n",
	"a=1: =full;\n",
	"# c\nP1 = 0x8001 , i, d=f, s=5: # header\n\tA=f,\n  ALL_S, N, S=l\n ;",
	"# c\nP1 = 0x8001 , i, d=f, s=5: # header\n\tA=f,\n  ALL_S, N, S=l;",
}

// TestPartitionsMatchOpenSM: the real OpenSM rejects a partitions.conf
// exactly when ParsePartitions fails, at the same line, and logs the same
// PARSE WARN lines as the Warnings.
func TestPartitionsMatchOpenSM(t *testing.T) {
	sw := newSweeper(t)
	corpus := slices.Clone(partitionCorpus)
	for _, rd := range renderDirs {
		corpus = append(corpus, readRender(t, rd.dir, rd.prefix+"partitions.conf"))
	}
	for _, text := range corpus {
		parts, err := ParsePartitions(text)
		if text == "" {
			// OpenSM only reads a file that exists; the sweeper leaves an
			// empty text absent, which is the no-file case.
			if err == nil {
				t.Errorf("empty text accepted")
			}
			continue
		}
		log := sw.sweep(t, text, "")
		osmWarns, errLine, rejected := logPartitionFindings(log)
		if rejected != (err != nil) {
			t.Errorf("%q: OpenSM rejected=%v (line %d), ParsePartitions err=%v", text, rejected, errLine, err)
			continue
		}
		if err != nil {
			if errLine != 0 && !strings.HasPrefix(err.Error(), fmt.Sprintf("partitions.conf:%d:", errLine)) {
				t.Errorf("%q: OpenSM says line %d, we say %v", text, errLine, err)
			}
			continue
		}
		var ours []string
		for _, p := range parts {
			for _, w := range p.Warnings {
				if strings.Contains(w, "PARSE WARN") {
					ours = append(ours, w)
				}
			}
		}
		slices.Sort(ours)
		slices.Sort(osmWarns)
		if !slices.Equal(ours, osmWarns) {
			t.Errorf("%q: warnings\n ours %q\n osm  %q", text, ours, osmWarns)
		}
	}
}
