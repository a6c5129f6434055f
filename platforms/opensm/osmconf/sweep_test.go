package osmconf

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/ibsim"
	"github.com/fabricgen/fabricgen/internal/ibsim/ibsimtest"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/internal/testtool"
)

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
	topo, err := ibsim.FromFabric(ibsimtest.OneLeaf())
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

// logMessages returns the messages of an OpenSM log: each "-> " line's
// text after its function's name ("func: ").
func logMessages(log string) []string {
	var msgs []string
	for _, l := range strings.Split(log, "\n") {
		_, msg, ok := strings.Cut(l, "-> ")
		if !ok {
			continue
		}
		_, msg, _ = strings.Cut(msg, ": ")
		msgs = append(msgs, msg)
	}
	return msgs
}

// logWarnings returns the "line N: PARSE ..." messages of an OpenSM log in
// this package's form, and the line of the PARSE ERROR that made it reject
// partitions.conf (0 when it did not).
func logPartitionFindings(log string) (warns []string, errLine int, rejected bool) {
	for _, msg := range logMessages(log) {
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

// policyFindings are what an OpenSM log says about the QoS policy (ERR
// AC14, a match rule P_Key without a partition, is logged but not fatal).
type policyFindings struct {
	syntaxAt string // "line:col" of ERR AC05
	parseErr bool   // ERR AC03
	rejected bool   // ERR AC04
	first    string // the first ERR AC1x message
}

// logPolicyFindings reads the ERR AC lines of an OpenSM log.
func logPolicyFindings(log string) policyFindings {
	var f policyFindings
	for _, msg := range logMessages(log) {
		switch {
		case strings.HasPrefix(msg, "ERR AC05: Syntax error (line "):
			at, _, _ := strings.Cut(strings.TrimPrefix(msg, "ERR AC05: Syntax error (line "), ")")
			if f.syntaxAt == "" {
				f.syntaxAt = at
			}
		case strings.HasPrefix(msg, "ERR AC03"):
			f.parseErr = true
		case strings.HasPrefix(msg, "ERR AC04"):
			f.rejected = true
		case strings.HasPrefix(msg, "ERR AC1") && !strings.HasPrefix(msg, "ERR AC14") && f.first == "":
			f.first = strings.TrimSpace(msg)
		}
	}
	return f
}

// policyCorpus are qos-policy.conf texts to compare with the real OpenSM.
var policyCorpus = []string{
	defaultLevel,
	"",
	"# only a comment\n",
	"qos-levels\n qos-level\n    bogus-key: x\n",
	"port-groups\n port-group\n  name: my-port-group\n",
	"qos-levels\n qos-level\n  name: a,b\n",
	defaultLevel + "qos-levels\n qos-level\n  name: x\n  sl: 1\n",
	"port-groups\nend-port-groups\n",
	"qos-ulps\nend-qos-ulps\n",
	defaultLevel + "# bye",
	"qos-levels\n qos-level\n  name: x\n  sl: high\n",
	"qos-levels\n qos-level\n  name: x\n  sl: 1\n  sl: 2\n",
	"port-groups\n port-group\n  name: x\n  name: y\n",
	"port-groups\n port-group\n  name: x\n  name: y\n\n# c\n\n  port-guid: 0x1\n",
	"qos-levels\n qos-level\n  name: x\n end-qos-level\n",
	"qos-levels\n qos-level\n  sl: 1\n end-qos-level\n",
	"port-groups\n port-group\n end-port-group\n",
	"qos-match-rules\n qos-match-rule\n  source: a\n end-qos-match-rule\n",
	"qos-levels\n qos-level\n  name: x\n  mtu-limit: 6\n",
	"qos-levels\n qos-level\n  name: x\n  rate-limit: 1\n  sl: 0\n",
	"qos-ulps\n default : 16\nend-qos-ulps\n",
	"qos-ulps\n ipoib, pkey 0x8001\nend-qos-ulps\n",
	"port-groups\n port-group\n  name: x\n  port-name: host/1\n",
	"qos-setup\n sl2vl-tables\n  sl2vl-scope\n   group: a\n   sl2vl-table: 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14\n",
	"qos-setup\n vlarb-tables\n  vlarb-scope\n   group: a\n   vlarb-high: 0:255,1:127\n   vl-high-limit: 10\n  end-vlarb-scope\n end-vlarb-tables\n sl2vl-tables\n  sl2vl-scope\n   across: a\n   from: *\n   to: 1-4\n   sl2vl-table: 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7\n  end-sl2vl-scope\n end-sl2vl-tables\nend-qos-setup\n" + defaultLevel,
	"qos-levels\n qos-level\n  name: x\n  sl: 0\n end-qos-level\nend-qos-levels\n",
	"qos-ulps\n default : 1\nend-qos-ulps\n",
	"qos-levels\n qos-level\n  name: Default\n  sl: 0\n end-qos-level\nend-qos-levels\n",
	defaultLevel + "port-groups\n port-group\n  name: A\n end-port-group\nend-port-groups\nqos-match-rules\n qos-match-rule\n  source: a, b\n  destination: c\n  qos-level-name: default\n end-qos-match-rule\nend-qos-match-rules\n",
	defaultLevel + "qos-match-rules\n qos-match-rule\n  qos-level-name: nope\n end-qos-match-rule\nend-qos-match-rules\n",
	defaultLevel + "port-groups\n port-group\n  name: A\n end-port-group\nend-port-groups\nqos-match-rules\n qos-match-rule\n  source: a\n  destination: c\n  qos-level-name: default\n end-qos-match-rule\nend-qos-match-rules\n",
	"qos-levels\n qos-level\n  name: DEFAULT\n  sl: 16\n end-qos-level\nend-qos-levels\n",
	"qos-ulps\n default: 0\n ipoib: 1\n ipoib, pkey 0x8001,0x8002 : 2\n any, pkey 0x9 : 1\n sdp, port-num 30000 : 1\n SRP, target-port-guid 0x1234 : 2\n any, service-id 0x6234:5\n iser: 6\n rds, port-num 70000 : 1\nend-qos-ulps\n",
	"qos-ulps\n default: 0\n ipoib, pkey 0x8003 : 2\nend-qos-ulps\n",
	"qos-ulps\n default: 0\n sdp, port-num 70000 : 1\nend-qos-ulps\n",
	"port-groups\n port-group\n  name: a b\n  use: x, y: port-group 3\n  port-guid: 0x10, 0x20-0x11, 7\n  port-name: \"node one/P1\", n2/p2\n  partition: P1, P2\n  node-type: ca, SWITCH,Router, all, self\n  pkey: 0x8001, 2-1\n end-port-group\nend-port-groups\n" + defaultLevel,
	"port-groups\n port-group\n  name: a\n  node-type: cax\n end-port-group\nend-port-groups\n",
	defaultLevel + "qos-levels qos-level name: y sl: 1 end-qos-level end-qos-levels\n",
	defaultLevel + "qos-match-rules\n qos-match-rule\n  qos-level-name: DEFAULT\n  pkey: 0x8001 - 0x8002, 5\n  service-id: 0x1-0x2\n  qos-class: 3\n end-qos-match-rule\nend-qos-match-rules\n",
	"qos-levels\n\tqos-level\r\n\t\tname: DEFAULT\n\t\tsl: 0\n\tend-qos-level\nend-qos-levels\n",
	"qos-levels\n qos-level\n  name: \"DEFAULT\n\"\n  sl: 0\n end-qos-level\nend-qos-levels\n",
	"qos-setup\n sl2vl-tables\n  sl2vl-scope\n   group: a\n   from: 0-255\n",
}

// TestPolicyMatchesOpenSM: the real OpenSM fails to parse a policy exactly
// when ParsePolicy (or CheckPartitions) fails, at the same line:column, and
// rejects a parsed one exactly when Problems has an ERR AC1x entry, the
// first one the same.
func TestPolicyMatchesOpenSM(t *testing.T) {
	sw := newSweeper(t)
	const partitions = "Default=0x7fff: ALL=full;\ncompute=0x8001: ALL=full;\nstorage=0x8002: ALL=full;\nlimited=0x9: ALL;\n"
	parts, err := ParsePartitions(partitions)
	if err != nil {
		t.Fatal(err)
	}
	corpus := slices.Clone(policyCorpus)
	for _, rd := range renderDirs {
		corpus = append(corpus, readRender(t, rd.dir, rd.prefix+"qos-policy.conf"))
	}
	for _, text := range corpus {
		if text == "" {
			continue // an empty text is the absent file here
		}
		f := logPolicyFindings(sw.sweep(t, partitions, text))
		p, err := ParsePolicy(text)
		var checks []string
		if err == nil {
			checks = p.CheckPartitions(parts)
		}
		if f.parseErr != (err != nil || len(checks) > 0) {
			t.Errorf("%q: OpenSM parse error=%v (at %s), ParsePolicy err=%v, CheckPartitions %q", text, f.parseErr, f.syntaxAt, err, checks)
			continue
		}
		if err != nil {
			var pe *PolicyError
			if !errors.As(err, &pe) || fmt.Sprintf("%d:%d", pe.Line, pe.Col) != f.syntaxAt {
				t.Errorf("%q: OpenSM says line %s, we say %v", text, f.syntaxAt, err)
			}
			continue
		}
		if len(checks) > 0 {
			continue
		}
		var rejecting []string
		for _, pr := range p.Problems() {
			if strings.HasPrefix(pr, "ERR AC") {
				rejecting = append(rejecting, pr)
			}
		}
		if f.rejected != (len(rejecting) > 0) {
			t.Errorf("%q: OpenSM rejected=%v (%s), Problems %q", text, f.rejected, f.first, p.Problems())
			continue
		}
		if f.rejected && !strings.HasPrefix(rejecting[0], f.first) {
			t.Errorf("%q: OpenSM says %q first, we say %q", text, f.first, rejecting[0])
		}
	}
}
