package lab

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// brownfieldFixture is a realistic existing configuration per platform
// (testdata/brownfield), written in the lab's own normalised form, so
// loading and printing it gives back the same text.
type brownfieldFixture struct {
	platform schema.Platform
	file     string
	ports    []string
	prompt   string
	// show is the command that prints the form the file is in.
	show string
	// change is a change typed over SSH; changed the lines it alters.
	change  []string
	changed []string
}

func brownfieldFixtures() []brownfieldFixture {
	return []brownfieldFixture{
		{aristaEOS, "arista_eos.cfg", nil, `leaf1[^\n]*#$`, "show running-config",
			[]string{"configure", "interface Ethernet3", "mtu 9214", "end"}, []string{"interface Ethernet3"}},
		{ciscoNXOS, "cisco_nxos.cfg", nil, `leaf1[^\n]*# $`, "show running-config",
			[]string{"configure terminal", "interface Ethernet1/3", "mtu 9216", "end"}, []string{"interface Ethernet1/3"}},
		{juniperJunos, "juniper_junos.cfg", nil, `admin@leaf1[>#] $`, "show configuration | display set | no-more",
			[]string{"configure private", "set interfaces et-0/0/3 mtu 9216", "commit and-quit"}, nil},
		{nvidiaCumulus, "nvidia_cumulus.cfg", nil, `admin@leaf1:mgmt:~\$ $`, "nv config show -o commands",
			[]string{"nv set interface swp3 link mtu 9216", "nv config apply -y"}, []string{"nv set interface swp3 type swp"}},
		{sonicOS, "sonic.json", nil, `admin@leaf1:~\$ $`, "show runningconfiguration all",
			[]string{`printf '%s' '[{"op":"replace","path":"/PORT/Ethernet24/mtu","value":"9216"}]' > /tmp/p.json`, "sudo config apply-patch /tmp/p.json"},
			[]string{`            "mtu": "9100",`}},
		{nvidiaMLNX, "nvidia_mlnx.sh", nil, `\$ $`, "",
			[]string{"ip link set dev ens1f1np1 mtu 4200"}, []string{"ip link set dev ens1f1np1 mtu 1500"}},
		{linuxDCB, "linux_dcb.sh", []string{"enp65s0f0np0"}, `\$ $`, "",
			[]string{"dcb pfc set dev enp65s0f0np0 prio-pfc 4:on"}, []string{"dcb pfc set dev enp65s0f0np0 prio-pfc"}},
	}
}

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "brownfield", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBrownfieldRoundTrip starts each platform from a realistic existing
// configuration full of things the lab has no grammar for, reads it back
// over SSH in the same form, changes one thing, and expects every other
// line to stay.
func TestBrownfieldRoundTrip(t *testing.T) {
	for _, c := range brownfieldFixtures() {
		t.Run(string(c.platform), func(t *testing.T) {
			text := readFixture(t, c.file)
			l := startLab(t, DeviceSpec{Name: "leaf1", Platform: c.platform, Ports: c.ports, RunningConfig: text})
			dev := l.Device("leaf1")
			want := text
			if platforms.IsHost(c.platform) {
				// A host's form is its state as commands: loading that
				// again gives the same state and the same text.
				want = dev.Export()
				again := startLab(t, DeviceSpec{Name: "leaf1", Platform: c.platform, Ports: c.ports, RunningConfig: want})
				if got := again.Device("leaf1").Export(); got != want {
					t.Fatalf("host export is not stable:\n%s", cli.UnifiedDiff("first", "second", want, got))
				}
				if a, b := dev.RunningConfig(), again.Device("leaf1").RunningConfig(); a != b {
					t.Fatalf("replaying the export gives another state:\n%s", cli.UnifiedDiff("loaded", "replayed", a, b))
				}
			}
			if got := dev.Export(); stripNXOSHeader(got) != stripNXOSHeader(want) {
				t.Fatalf("export differs from the file:\n%s", cli.UnifiedDiff(c.file, "export", want, got))
			}
			crlf := startLab(t, DeviceSpec{Name: "leaf1", Platform: c.platform, Ports: c.ports, RunningConfig: strings.ReplaceAll(text, "\n", "\r\n")})
			if got := crlf.Device("leaf1").Export(); stripNXOSHeader(got) != stripNXOSHeader(dev.Export()) {
				t.Errorf("CRLF file loads differently:\n%s", cli.UnifiedDiff("LF", "CRLF", dev.Export(), got))
			}
			sh := openShell(t, l, "leaf1", c.prompt)
			if c.show != "" {
				sh.run("terminal length 0")
				if got := strings.ReplaceAll(sh.run(c.show), "\r", ""); stripNXOSHeader(got) != stripNXOSHeader(want) {
					t.Errorf("%s over SSH differs from the file:\n%s", c.show, cli.UnifiedDiff(c.file, c.show, want, got))
				}
			}
			for _, cmd := range c.change {
				out := sh.run(cmd)
				if strings.Contains(out, "rror") || strings.Contains(out, "% ") {
					t.Fatalf("%s: %q", cmd, out)
				}
			}
			after := dev.Export()
			if after == want {
				t.Fatalf("the change did not take")
			}
			lines := map[string]bool{}
			for _, l := range strings.Split(after, "\n") {
				lines[l] = true
			}
		next:
			for _, l := range strings.Split(want, "\n") {
				if lines[l] || strings.HasPrefix(l, "!Time:") || strings.HasPrefix(l, "!Running configuration") || strings.HasPrefix(l, "## Last commit") {
					continue
				}
				for _, ch := range c.changed {
					if strings.HasPrefix(l, ch) {
						continue next
					}
				}
				t.Errorf("line %q of the existing configuration is gone after an unrelated change", l)
			}
		})
	}
}

// TestBrownfieldRestoreOpaque: lines the lab has no grammar for, removed
// and typed again (as restoring a backup does), are accepted and print
// back where they were.
func TestBrownfieldRestoreOpaque(t *testing.T) {
	cases := []struct {
		platform schema.Platform
		file     string
		prompt   string
		remove   []string
		restore  []string
	}{
		{aristaEOS, "arista_eos.cfg", `leaf1[^\n]*#$`,
			[]string{"configure session restore", "no router ospf 1", "router bgp 65101", "no address-family ipv4", "commit"},
			[]string{"configure session restore2", "router ospf 1", "router-id 10.255.0.1", "passive-interface default",
				"no passive-interface Ethernet1", "max-lsa 12000", "router bgp 65101", "address-family ipv4", "neighbor SPINES activate", "commit"}},
		{ciscoNXOS, "cisco_nxos.cfg", `leaf1[^\n]*# $`,
			[]string{"configure terminal", "no router ospf 1", "router bgp 65101", "no neighbor 10.255.1.0", "end"},
			[]string{"configure terminal", "router ospf 1", "router-id 10.255.0.1", "log-adjacency-changes",
				"router bgp 65101", "neighbor 10.255.1.0", "remote-as 65000", "address-family ipv4 unicast", "send-community", "end"}},
	}
	for _, c := range cases {
		t.Run(string(c.platform), func(t *testing.T) {
			text := readFixture(t, c.file)
			l := startLab(t, DeviceSpec{Name: "leaf1", Platform: c.platform, RunningConfig: text})
			dev := l.Device("leaf1")
			sh := openShell(t, l, "leaf1", c.prompt)
			for _, cmd := range c.remove {
				if out := sh.run(cmd); strings.Contains(out, "%") {
					t.Fatalf("%s: %q", cmd, out)
				}
			}
			if strings.Contains(dev.Export(), "\nrouter ospf 1\n") {
				t.Fatal("no router ospf 1 did not remove the opaque stanza")
			}
			for _, cmd := range c.restore {
				if out := sh.run(cmd); strings.Contains(out, "%") {
					t.Fatalf("%s: %q", cmd, out)
				}
			}
			if got := dev.Export(); stripNXOSHeader(got) != stripNXOSHeader(text) {
				t.Errorf("restored configuration differs:\n%s", cli.UnifiedDiff(c.file, "restored", text, got))
			}
		})
	}
}

func TestRunningConfigErrors(t *testing.T) {
	// A saved configuration over the limit is refused on every platform,
	// naming the device; each folder tests its own syntax errors
	// (platforms/<name>/lab_runningconfig_test.go).
	text := strings.Repeat("x", MaxRunningConfig+1)
	const want = "more than the 16777216"
	for _, p := range platforms.List() {
		t.Run(string(p), func(t *testing.T) {
			l, err := Start(context.Background(), []DeviceSpec{{Name: "d1", Platform: p, Username: testUser, Password: testPass, RunningConfig: text}}, Options{Dir: t.TempDir()})
			if err == nil {
				_ = l.Close()
				t.Fatalf("Start succeeded, want an error containing %q", want)
			}
			if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "d1") {
				t.Errorf("error %q does not name the device and %q", err, want)
			}
		})
	}
}

// TestEOSRestoreWholeConfigInSession: a backup of a brownfield device,
// typed line by line into a session after rollback clean-config (how a
// backup is restored through the platform's transaction), gives back
// exactly the configuration the backup holds, banner and opaque stanzas
// included.
func TestEOSRestoreWholeConfigInSession(t *testing.T) {
	text := readFixture(t, "arista_eos.cfg")
	l := startLab(t, DeviceSpec{Name: "leaf1", Platform: aristaEOS, RunningConfig: text})
	dev := l.Device("leaf1")
	if err := dev.ConfigureOutOfBand([]string{"interface Ethernet3", "   mtu 9000", "no router bgp 65101"}); err != nil {
		t.Fatal(err)
	}
	if dev.Export() == text {
		t.Fatal("the out-of-band change did not take")
	}
	sh := openShell(t, l, "leaf1", `leaf1[^\n]*#$`)
	sh.run("configure session restore")
	sh.run("rollback clean-config")
	inBanner := false
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if !inBanner && (strings.HasPrefix(strings.TrimSpace(line), "!") || line == "end") {
			continue
		}
		out := sh.run(line)
		switch {
		case strings.HasPrefix(line, "banner "):
			inBanner = true
		case line == "EOF":
			inBanner = false
		}
		if strings.Contains(out, "% ") {
			t.Fatalf("%q: %q", line, out)
		}
	}
	if out := sh.run("commit"); out != "" {
		t.Fatalf("commit: %q", out)
	}
	if got := dev.Export(); got != text {
		t.Errorf("restored configuration differs from the backup:\n%s", cli.UnifiedDiff("backup", "restored", text, got))
	}
}
