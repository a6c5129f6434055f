package emulator

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/filebundle"
	"github.com/fabricgen/fabricgen/internal/testtool"
	"github.com/fabricgen/fabricgen/platforms/opensm/osmconf"
)

// TestCommands: the coreutils the push flow sends, with Debian's
// messages and exit statuses for missing files, directories and hostile
// paths.
func TestCommands(t *testing.T) {
	_, c := host(t, "")
	for _, tc := range []struct {
		line   string
		status int
		out    string
	}{
		{"base64 -w0 -- /etc/opensm/opensm.conf", 1, "base64: /etc/opensm/opensm.conf: No such file or directory\n"},
		{"cat -- /etc/opensm/nope", 1, "cat: /etc/opensm/nope: No such file or directory\n"},
		{"stat -c %s -- /etc/opensm/nope", 1, "stat: cannot statx '/etc/opensm/nope': No such file or directory\n"},
		{"tail -c +3 -- /etc/opensm/nope", 1, "tail: cannot open '/etc/opensm/nope' for reading: No such file or directory\n"},
		{"cp -p -- /etc/opensm/nope /tmp/x", 1, "cp: cannot stat '/etc/opensm/nope': No such file or directory\n"},
		{"mv -f -- /etc/opensm/nope /tmp/x", 1, "mv: cannot stat '/etc/opensm/nope': No such file or directory\n"},
		{"rm -f -- /etc/opensm/nope /etc/opensm/nope2", 0, ""},
		{"rm -- /etc/opensm/nope", 1, "rm: cannot remove '/etc/opensm/nope': No such file or directory\n"},
		{"rm -f -- /etc/opensm", 1, "rm: cannot remove '/etc/opensm': Is a directory\n"},

		{"rm -rf /", 1, "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n"},
		{"test -e /etc/opensm/nope", 1, ""},
		{"test -e /etc/opensm", 0, ""},
		{"mktemp -d /nonexist/.fabricgen.XXXXXXXXXX", 1, "mktemp: failed to create directory via template '/nonexist/.fabricgen.XXXXXXXXXX': No such file or directory\n"},
		{"mktemp -d /etc/opensm/x.XX", 1, "mktemp: too few X's in template '/etc/opensm/x.XX'\n"},
		{"printf 'a!!' > /tmp/bad && base64 -d -- /tmp/bad", 1, "base64: invalid input\n"},
		{"printf '%s' 'hello' > /tmp/h && base64 -w0 -- /tmp/h", 0, "aGVsbG8="},
		{"base64 -- /tmp/h", 0, "aGVsbG8=\n"},
		{"printf '%s' 'aGVsbG8=' | base64 -d", 0, "hello"},
		{"tail -c +3 -- /tmp/h", 0, "llo"},
		{"tail -c +9 -- /tmp/h", 0, ""},
		{"tail -c 2 -- /tmp/h", 0, "lo"},
		{"stat -c %s -- /tmp/h", 0, "5\n"},
		{"cp -p -- /tmp/h /tmp/h", 1, "cp: '/tmp/h' and '/tmp/h' are the same file\n"},
		{"cp -p -- /tmp/h /etc/opensm/", 0, ""},
		{"cat -- /etc/opensm/h", 0, "hello"},
		{"cat -- /etc/opensm", 1, "cat: /etc/opensm: Is a directory\n"},
		{"printf x > /etc/opensm/nodir/f", 1, "bash: /etc/opensm/nodir/f: No such file or directory\n"},
		{"printf x > /etc/opensm", 1, "bash: /etc/opensm: Is a directory\n"},
		{"hostname", 0, "sm01\n"},
		{"id -u", 0, "0\n"},
		{"sudo id -u", 0, "0\n"},
		{"true", 0, ""},
		{"pidof opensm", 0, "1187\n"},
		{"pkill -HUP -x opens", 1, ""},
		{"pkill -HUP -x opensm", 0, ""},
		{"frobnicate", 127, "bash: frobnicate: command not found\n"},
		{"smpquery -D sl2vl 0,2", 255, "ibwarn: [2187] mad_rpc: _do_madrpc failed; dport (DR path slid 65535; dlid 65535; 0,2)\nsmpquery: iberror: failed: operation sl2vl: node info query failed\n"},
		{"smpquery -D sl2vl 0,1 99", 255, "smpquery: iberror: failed: operation sl2vl: invalid port number\n"},
		// The host lock, as hostemu's.
		{"mkdir /run/lock/fabricgen.lock && printf '%s\\n' 'me' > /run/lock/fabricgen.lock/owner && cat /run/lock/fabricgen.lock/owner", 0, "me\n"},
		{"mkdir /run/lock/fabricgen.lock", 1, "mkdir: cannot create directory '/run/lock/fabricgen.lock': File exists\n"},
		{"rm -rf /run/lock/fabricgen.lock && test -e /run/lock/fabricgen.lock", 1, ""},
	} {
		r := c.Handle(tc.line)
		if r.Status != tc.status || r.Out != tc.out {
			t.Errorf("%q: status %d, output %q; want %d, %q", tc.line, r.Status, r.Out, tc.status, tc.out)
		}
	}
	run(t, c, "pkill -x opensm", 0)
	run(t, c, "pidof opensm", 1)
	if out := run(t, c, "pkill -HUP -x opensm", 1); out != "" {
		t.Errorf("pkill of a stopped daemon printed %q", out)
	}
}

// TestHostilePaths: ".." leaves /etc/opensm (and the bundle), device
// files are refused, names a shell would read stay out of the bundle,
// and a file cannot grow past the bound.
func TestHostilePaths(t *testing.T) {
	s, c := host(t, "")
	run(t, c, "printf '%s' 'x' > /etc/opensm/../../etc/passwd", 0)
	if got := run(t, c, "cat -- /etc/passwd", 0); got != "x" {
		t.Errorf("/etc/passwd = %q", got)
	}
	if got := run(t, c, "printf x > /dev/stdin", 1); got != "bash: /dev/stdin: Permission denied\n" {
		t.Errorf("write to /dev/stdin: %q", got)
	}
	run(t, c, "printf '%s' 'p' > '/etc/opensm/fifo|x'", 0)
	run(t, c, "printf '%s' 'q' > '/etc/opensm/new\nline'", 0)
	run(t, c, "printf '%s' 'ok' > /etc/opensm/ok.conf", 0)
	files, err := filebundle.Decode([]byte(s.Running()))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path != "/etc/opensm/ok.conf" {
		t.Errorf("bundle = %+v, want ok.conf alone", files)
	}
	// Huge: a file past 8 MiB is refused as by a full file system.
	big := strings.Repeat("A", 1<<20)
	if e := s.fs.write("/tmp/big", big, false); e != "" {
		t.Fatal(e)
	}
	r := c.Handle("cat /tmp/big /tmp/big /tmp/big /tmp/big /tmp/big /tmp/big /tmp/big /tmp/big /tmp/big > /etc/opensm/huge")
	if r.Status != 1 || r.Out != "bash: /etc/opensm/huge: No space left on device\n" {
		t.Errorf("huge write: %d %q", r.Status, r.Out)
	}
	for i := 0; i < 70; i++ {
		if e := s.fs.write("/tmp/f"+name(i), big, false); e != "" {
			if e != errNoSpc || i < 50 {
				t.Fatalf("write %d: %s", i, e)
			}
			break
		}
		if i == 69 {
			t.Fatal("the file system took 70 MiB")
		}
	}
	// A running config with a file outside /etc/opensm is refused.
	bad, err := filebundle.Encode([]filebundle.File{{Path: "/etc/passwd", Text: []byte("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(testEnv(string(bad))); err == nil || !strings.Contains(err.Error(), "not under /etc/opensm") {
		t.Errorf("a bundle with /etc/passwd: %v", err)
	}
	if _, err := New(testEnv("not a bundle")); err == nil {
		t.Error("a malformed running config was taken")
	}
}

func name(i int) string { return string(rune('a'+i/26)) + string(rune('a'+i%26)) }

// TestChanges: what the fault injection counts as a change.
func TestChanges(t *testing.T) {
	_, c := host(t, "")
	for line, want := range map[string]bool{
		"base64 -w0 -- /etc/opensm/opensm.conf":                    false,
		"opensm -F /etc/opensm/.fabricgen.x/opensm.conf -c /tmp/d": false,
		"smpquery -D sl2vl 0,1 3":                                  false,
		"cat -- /etc/opensm/opensm.conf":                           false,
		"stat -c %s -- /etc/opensm/opensm.conf":                    false,
		"test -e /etc/opensm/opensm.conf":                          false,
		"pidof opensm":                                             false,
		"printf '%s' 'x' > /tmp/y":                                 false,
		"mkdir /run/lock/fabricgen.lock":                           false,
		"rm -rf /run/lock/fabricgen.lock":                          false,
		"sudo pkill -HUP -x opensm":                                true,
		"mktemp -d /etc/opensm/.fabricgen.XXXXXXXXXX":              true,
		"printf '%s' 'x' > /etc/opensm/.fabricgen.a/f.b64":         true,
		"printf '%s' 'x' >> /etc/opensm/opensm.conf":               true,
		"base64 -d -- /tmp/a > /etc/opensm/opensm.conf":            true,
		"mv -f -- /etc/opensm/.fabricgen.a/f /etc/opensm/f":        true,
		"cp -p -- /etc/opensm/f /etc/opensm/f.bak":                 true,
		"rm -f -- /etc/opensm/f":                                   true,
		"rm -rf -- /etc/opensm/.fabricgen.a":                       true,
		"opensm -F x -c /etc/opensm/dump":                          true,
		"printf x > /tmp/../etc/opensm/x":                          true,
	} {
		if got := c.Changes(line); got != want {
			t.Errorf("Changes(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestOpenSMCheck: opensm -F CONF -c DUMP prints OpenSM 3.3.23's banner
// (copied from the real binary) and writes a dump osmconf reads back,
// with the file's values and the defaults.
func TestOpenSMCheck(t *testing.T) {
	_, c := host(t, "")
	run(t, c, "printf '%s\\n' 'qos TRUE' 'foo_bar 1' 'max_op_vls 3' 'baz' > /tmp/u.conf", 0)
	const want = "-------------------------------------------------\nOpenSM 3.3.23\nConfig file is `/tmp/u.conf`:\n" +
		" Reading Cached Option File: /tmp/u.conf\n Loading Cached Option:qos = TRUE\n Unrecognized token: \"foo_bar\"\n" +
		" Loading Cached Option:max_op_vls = 3\n Unrecognized token: \"baz\"\nCommand Line Arguments:\n" +
		" Creating config file template '/tmp/d.conf'.\n Log File: /var/log/opensm.log\n-------------------------------------------------\n"
	if got := run(t, c, "opensm -F /tmp/u.conf -c /tmp/d.conf", 0); got != want {
		t.Errorf("banner:\n%s\nwant\n%s", got, want)
	}
	dump, err := osmconf.ParseOptions(run(t, c, "cat /tmp/d.conf", 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(dump.Unknown) != 0 {
		t.Errorf("dump has unknown keys %v", dump.Unknown)
	}
	for _, k := range osmconf.KnownKeys() {
		if _, ok := dump.Get(k); !ok && !osmconf.IsAlias(k) {
			t.Errorf("dump lacks %s", k)
		}
	}
	for k, v := range map[string]string{"qos": "TRUE", "max_op_vls": "3", "sm_priority": "0", "qos_policy_file": "/etc/opensm/qos-policy.conf"} {
		if got, _ := dump.Get(k); got != v {
			t.Errorf("dump %s = %q, want %q", k, got, v)
		}
	}
	// A missing file: no "Reading" line, status 0, the defaults.
	got := run(t, c, "opensm -F /nonexist.conf -c /tmp/d2.conf", 0)
	if strings.Contains(got, "Reading Cached") || !strings.Contains(got, "Config file is `/nonexist.conf`:\nCommand Line Arguments:\n") {
		t.Errorf("missing config:\n%s", got)
	}
	if d2 := run(t, c, "cat /tmp/d2.conf", 0); !strings.Contains(d2, "\nqos FALSE\n") {
		t.Error("default dump lacks qos FALSE")
	}
	r := c.Handle("opensm -F /tmp/u.conf -c /nonexistdir/x.conf")
	if r.Status != 255 || !strings.HasSuffix(r.Out, "cannot open file '/nonexistdir/x.conf' for writing: No such file or directory\n\nosm_subn_write_conf_file failed!\n") {
		t.Errorf("unwritable dump: %d\n%s", r.Status, r.Out)
	}
}

// TestDefaultsMatchOpenSM compares the vendored defaults with what the
// real binary writes for a missing configuration file.
func TestDefaultsMatchOpenSM(t *testing.T) {
	bin := testtool.Need(t, "opensm", "opensm")
	dump := filepath.Join(t.TempDir(), "d.conf")
	if out, err := exec.Command(bin, "-F", filepath.Join(t.TempDir(), "none.conf"), "-c", dump).CombinedOutput(); err != nil {
		t.Fatalf("opensm -c: %v\n%s", err, out)
	}
	b, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	if got, want := strings.Join(lines, "\n"), strings.TrimSpace(defaultsTable); got != want {
		t.Errorf("the real opensm's defaults differ from defaultsTable:\n%s", got)
	}
}

// TestRemoveConfigDir: root may remove /etc/opensm itself, as on a real
// host; then writes into it fail and the bundle is empty.
func TestRemoveConfigDir(t *testing.T) {
	s, c := host(t, "")
	run(t, c, "printf x > /etc/opensm/a && rm -rf -- /etc/opensm", 0)
	if got := run(t, c, "printf x > /etc/opensm/a", 1); got != "bash: /etc/opensm/a: No such file or directory\n" {
		t.Errorf("write into a removed /etc/opensm: %q", got)
	}
	if s.Running() != filebundle.Magic+"\n" {
		t.Errorf("bundle: %q", s.Running())
	}
	run(t, c, "mkdir -p /etc/opensm && printf x > /etc/opensm/a", 0)
}

// TestOpenSMCheckAsReal runs `opensm -F CONF -c DUMP` on the emulator and
// on the real binary for a file with unknown keys, typed values (a
// lowercase boolean, hex numbers, a value that is not a number, quotes,
// a key without a value, a default restated) and compares the printed
// lines and the dump's options.
func TestOpenSMCheckAsReal(t *testing.T) {
	bin := testtool.Need(t, "opensm", "opensm")
	conf := "# comment\nqos true\nmax_op_vls 0x3\nsweep_interval abc\nqos_sl2vl  0,1,2\nguid 0x1\nroot_guid_file \"/x y\"\n" +
		"foo_bar 1\nqos\nsm_priority 0\nqos_ca_max_vls 4 # trailing\nrouting_engine ftree,no_fallback\nlmc 0x2\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c.conf"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-F", "c.conf", "-c", filepath.Join(dir, "d.conf"))
	cmd.Dir = dir
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("opensm -c: %v", err)
	}
	wantDump, err := os.ReadFile(filepath.Join(dir, "d.conf"))
	if err != nil {
		t.Fatal(err)
	}
	_, c := host(t, "")
	run(t, c, "mkdir -p "+dir+" && printf '%s' "+quote(conf)+" > c.conf", 0)
	got := run(t, c, "opensm -F c.conf -c "+dir+"/d.conf", 0)
	if got != string(want) {
		t.Errorf("opensm -c printed\n%s\nthe real one\n%s", got, want)
	}
	gotDump, err := osmconf.ParseOptions(run(t, c, "cat "+dir+"/d.conf", 0))
	if err != nil {
		t.Fatal(err)
	}
	real, err := osmconf.ParseOptions(string(wantDump))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range osmconf.KnownKeys() {
		g, _ := gotDump.Get(k)
		w, _ := real.Get(k)
		if g != w {
			t.Errorf("dump %s = %q, the real one %q", k, g, w)
		}
	}
}
