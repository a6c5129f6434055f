package lab

import (
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/schema"
)

func FuzzShell(f *testing.F) {
	for _, s := range []string{
		`command -v mlnx_qos >/dev/null || { echo "x" >&2; exit 1; }`,
		`ib=$(find /sys/class/net/eth0/device/infiniband -mindepth 1 -maxdepth 1 -printf '%f'); echo "$ib"`,
		`echo 1 > /sys/class/net/eth0/ecn/roce_np/enable/3 && cat /sys/class/net/eth0/ecn/roce_np/enable/3`,
		`set -eu; false; echo no`, `a | b || c && d ; e`, `echo '${x}' "$?" ${y}`,
		`ethtool -A eth0 rx off tx off || [ $? -eq 78 ]`,
		`[ "$(dcb -N app show dev eth0 dscp-prio)" = "dscp-prio 26:3 " ] || { echo "eth0: dcb app dscp-prio did not take" >&2; exit 1; }`,
		`modprobe rdma_cm; mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config`,
		`test ! -n "$x" -a`, `[ ! ]`, `[ 1 -ge ]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		env := &deviceEnv{spec: emuSpec{Name: "h", Platform: schema.NvidiaMLNX}, now: time.Now,
			afterFunc: func(time.Duration, func()) func() { return func() {} }}
		h, err := newHost(env)
		if err != nil {
			t.Fatal(err)
		}
		_ = shellChanges(line, hostChanges, func(string) bool { return false })
		_ = h.shell().exec(line)
	})
}

func FuzzEOSConfig(f *testing.F) {
	for _, s := range []string{
		"interface Ethernet1\n   mtu 9214\n   tx-queue 3\n      no priority\n",
		"ip access-list X\n   permit udp any any eq 4791\n   no 10\n",
		"policy-map type qos P\n   class C\n      set dscp 26\nno policy-map type quality-of-service P\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tr := newCfgTree(eosGrammar())
		_ = tr.load(text)
		_ = patch(newCfgTree(eosGrammar()).root, tr.root, "", "   ")
		// An existing configuration never fails to load, and what it
		// prints loads to the same print.
		e := &eos{env: testEnv("f", schema.AristaEOS), g: eosGrammar()}
		bf := newCfgTree(eosGrammar())
		bf.loadExisting(text, loadOptions{block: eosBanner})
		first := e.render(bf, false)
		again := newCfgTree(eosGrammar())
		again.loadExisting(first, loadOptions{block: eosBanner})
		if second := e.render(again, false); second != first {
			t.Fatalf("printed config does not load back the same:\n%s", unifiedDiff("first", "second", first, second))
		}
	})
}

func FuzzJunosStatement(f *testing.F) {
	for _, s := range []string{
		`set interfaces et-0/0/1 description "a b"`, "set interfaces et-0/0/1 unit 0 family inet filter input-list [ A B ]",
		"delete class-of-service", "set class-of-service schedulers S transmit-rate percent 5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		env := &deviceEnv{spec: emuSpec{Name: "j", Platform: schema.JuniperJunos, Username: "u"}, now: time.Now,
			afterFunc: func(time.Duration, func()) func() { return func() {} }}
		j, err := newJunos(env)
		if err != nil {
			t.Fatal(err)
		}
		cand := j.active.clone()
		_ = j.apply(cand, line)
		_ = junosCompare(j.active, cand)
	})
}
