package emulator

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/filebundle"
)

// FuzzSession runs any command line on a configured host: nothing
// panics, the configuration stays a valid bundle, and a line Changes
// calls read-only leaves the files and the programmed tables as they were
// (the promise Fault.Reject relies on).
func FuzzSession(f *testing.F) {
	for _, s := range []string{
		"sudo mktemp -d /etc/opensm/.fabricgen.XXXXXXXXXX",
		"sudo printf '%s' 'cW9zIFRSVUUK' > /etc/opensm/.fabricgen.a/opensm.conf.b64",
		"sudo printf '%s' 'cW9z' >> /tmp/x.b64 && base64 -d -- /tmp/x.b64 > /etc/opensm/opensm.conf",
		"base64 -w0 -- /etc/opensm/opensm.conf", "base64 -d -- /etc/opensm/opensm.conf > /tmp/o",
		"opensm -F /etc/opensm/opensm.conf -c /tmp/d.conf", "opensm -F /etc/opensm/opensm.conf -c /etc/opensm/d",
		"sudo pkill -HUP -x opensm", "pkill -x opensm; pidof opensm", "pidof opensm",
		"smpquery -D sl2vl 0", "smpquery -D vlarb 0,1 3", "smpquery -D pkeys 0", "smpquery -D sl2vl 0,1",
		"cp -p -- /etc/opensm/opensm.conf /etc/opensm/opensm.conf.bak", "mv -f -- /etc/opensm/a /etc/opensm/b",
		"rm -rf -- /etc/opensm/.fabricgen.a", "rm -f -- /etc/opensm/opensm.conf", "test -e /etc/opensm/x",
		"stat -c %s -- /etc/opensm/opensm.conf", "tail -c +5 -- /etc/opensm/opensm.conf",
		"printf '%s\\n' 'max_op_vls 2' >> /etc/opensm/opensm.conf && pkill -HUP -x opensm",
		"mkdir /run/lock/l && printf '%s\\n' me > /run/lock/l/owner; cat /run/lock/l/owner; rm -rf /run/lock/l",
		"sh -c 'pkill -HUP -x opensm'", "echo opensm | xargs pkill -HUP -x", "x=$(cat /etc/opensm/opensm.conf); echo $x",
		"mv /etc/opensm /tmp/o", "cat /etc/opensm/../../etc/passwd", "id -u; hostname; true",
	} {
		f.Add(s)
	}
	files := "qos TRUE\nmax_op_vls 3\nqos_ca_sl2vl 0,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0\nqos_swe_sl2vl 0,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0\n"
	running, err := filebundle.Encode([]filebundle.File{
		{Path: "/etc/opensm/opensm.conf", Text: []byte(files)},
		{Path: "/etc/opensm/partitions.conf", Text: []byte("Default=0x7fff : ALL=full ;\nx=0x0005 : SELF=limited ;\n")},
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		s, c := host(t, string(running))
		before := s.Running()
		ca, sw, pk := s.ca, s.sw, append([]uint16(nil), s.pkeys...)
		changes := c.Changes(line)
		_ = c.Handle(line)
		if _, err := filebundle.Decode([]byte(s.Running())); err != nil {
			t.Fatalf("Running is no bundle after %q: %v", line, err)
		}
		if changes {
			return
		}
		if s.Running() != before {
			t.Fatalf("%q changed the files but Changes said it only reads", line)
		}
		if s.ca != ca || s.sw != sw || len(s.pkeys) != len(pk) {
			t.Fatalf("%q reprogrammed the tables but Changes said it only reads", line)
		}
	})
}
