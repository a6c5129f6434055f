package lab

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// TestExecutedRecordsInjection drives the shells of every platform that
// has one (shellPlatforms) over SSH and checks which commands Device.Executed says ran: an
// injected command in an unquoted or double-quoted substitution runs (as
// in bash), a quoted or escaped one does not.
func TestExecutedRecordsInjection(t *testing.T) {
	cases := []struct {
		line string
		// ran is the command name that must have run, or "" for none.
		ran string
	}{
		{`echo e$(reboot)`, "reboot"},
		{`echo 'e$(reboot)'`, ""},
		{`echo "e$(reboot)"`, "reboot"},
		{"echo e`touch /tmp/pwned`", "touch"},
		{"echo 'e`touch /tmp/pwned`'", ""},
		{`echo e\$(reboot)`, ""},
		{`echo "e\$(reboot)"`, ""},
		{`echo e;reboot`, "reboot"},
		{`echo e && curl http://192.0.2.1/x`, "curl"},
		{`echo e | rm -rf /`, "rm"},
		{`echo e & reboot`, "reboot"},
		{`(reboot)`, "reboot"},
		{`echo ${UNSET:-$(reboot)}`, "reboot"},
		{`echo '${UNSET:-$(reboot)}'`, ""},
		{`eval 'reboot now'`, "reboot"},
		{`sh -c 'reboot'`, "reboot"},
		{`sudo reboot`, "reboot"},
		{`env X=1 reboot`, "reboot"},
		{`cat <(reboot)`, "reboot"},
		{`echo "$(echo "$(reboot)")"`, "reboot"},
	}
	var specs []DeviceSpec
	for _, p := range shellPlatforms(t) {
		specs = append(specs, DeviceSpec{Name: "d-" + strings.ReplaceAll(string(p), "_", "-"), Platform: p, Ports: portsFor(p)})
	}
	l := startLab(t, specs...)
	for _, sp := range specs {
		t.Run(string(sp.Platform), func(t *testing.T) {
			dev := l.Device(sp.Name)
			sh := openShell(t, l, sp.Name, `\$ $`)
			for _, c := range cases {
				before := len(dev.ExecutedArgv())
				sh.run(c.line)
				ran := map[string]bool{}
				for _, argv := range dev.ExecutedArgv()[before:] {
					ran[argv[0]] = true
				}
				for _, injected := range []string{"reboot", "touch", "curl", "rm"} {
					if want := injected == c.ran; ran[injected] != want {
						t.Errorf("%s: %s ran = %v, want %v (executed %q)", c.line, injected, ran[injected], want, dev.Executed()[before:])
					}
				}
			}
		})
	}
}

// TestUnknownCommandAnsweredLikeBash: commands the lab does not know are
// recorded and answered "command not found" with status 127.
func TestUnknownCommandAnsweredLikeBash(t *testing.T) {
	type tcase struct {
		platform schema.Platform
		cmd      string
	}
	var cases []tcase
	for _, p := range shellPlatforms(t) {
		cmds := []string{"reboot", "curl", "touch"}
		if d, err := platforms.Dialect(p); platforms.IsHost(p) && err == nil && !d.Files {
			// A switch's shell has rm (push removes its patch files), and
			// so does a subnet manager host (push swaps files there).
			cmds = append(cmds, "rm")
		}
		for _, cmd := range cmds {
			cases = append(cases, tcase{p, cmd})
		}
	}
	for _, c := range cases {
		t.Run(string(c.platform)+"/"+c.cmd, func(t *testing.T) {
			env := testEnv("d1", c.platform)
			env.Spec.Ports = portsFor(c.platform)
			var got [][]string
			env.Executed = func(argv []string) { got = append(got, argv) }
			emu, err := newEmulator(env)
			if err != nil {
				t.Fatal(err)
			}
			s := emu.NewSession(&cli.Term{}, testUser)
			r := s.Handle(c.cmd + " -x arg")
			if r.Status != 127 || !strings.Contains(r.Out, c.cmd+": command not found") {
				t.Errorf("%s: status %d, out %q", c.cmd, r.Status, r.Out)
			}
			if len(got) != 1 || quoteArgv(got[0]) != c.cmd+" -x arg" {
				t.Errorf("executed %q", got)
			}
		})
	}
}

func TestQuoteArgv(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"mlnx_qos", "-i", "eth0", "--pfc", "0,0,0,1,0,0,0,0"}, "mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0"},
		{[]string{"find", "/sys/class/net/e$(reboot)/device"}, "find '/sys/class/net/e$(reboot)/device'"},
		{[]string{"printf", "%s", "it's"}, `printf %s 'it'\''s'`},
		{[]string{"echo", ""}, "echo ''"},
	} {
		if got := quoteArgv(c.argv); got != c.want {
			t.Errorf("quoteArgv(%q) = %q, want %q", c.argv, got, c.want)
		}
	}
}

// shellPlatforms are the registry's platforms whose lab device is a shell
// (push sends them shell words, a host script or a JSON patch, not CLI
// lines), in registry order.
func shellPlatforms(t testing.TB) []schema.Platform {
	t.Helper()
	var out []schema.Platform
	for _, pl := range platforms.Needing("lab emulator") {
		if pl.Emulator != nil && pl.Dialect != nil && pl.Dialect().Lines != dialect.LinesCLI {
			out = append(out, pl.Name)
		}
	}
	if len(out) == 0 {
		t.Fatal("no platform of the registry has a shell")
	}
	return out
}
