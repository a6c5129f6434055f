package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/schema"
)

func newLabCommand(s *streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lab",
		Short: "Run emulated devices for a fabric on 127.0.0.1",
		Long: `lab runs emulated devices that speak each platform's CLI over real SSH on
127.0.0.1, so plan and apply can be tried without touching real devices.`,
		Example: `  fabricgen lab up examples/roce-storage`,
		Args:    cobra.NoArgs,
	}
	cmd.AddCommand(newLabUpCommand(s), newLabFaultCommand(s), newLabShowCommand(s), newLabClockCommand(s), newLabConfigureCommand(s))
	return cmd
}

// defaultLabDir is where lab up writes its files and lab fault / lab show
// find its control socket.
func defaultLabDir() string { return filepath.Join(".fabricgen", "lab") }

func newLabUpCommand(s *streams) *cobra.Command {
	var vf varFlags
	var dir, runningDir, clockMode string
	var devices, faultFlags []string
	cmd := &cobra.Command{
		Use:   "up [DIR]",
		Short: "Serve the fabric's devices until interrupted",
		Long: `lab up starts one emulated device per device of the fabric in DIR (default
"."), each on its own SSH port on 127.0.0.1 with the factory config of its
platform, writes an inventory (device → 127.0.0.1:port) and a known_hosts
file under --dir, prints how to point plan and apply at them, and serves
until interrupted (Ctrl-C).

Each device accepts the username of its credentials block and the password
in the environment variable its password_env names; export it first.

` + wrapHelp("--running-config CFGDIR starts each device from CFGDIR/DEVICE.EXT "+
			"instead of its factory config, in the form lab show prints; fabricgen platforms "+
			"lists each platform's EXT and form. A device without a file starts from factory. Configuration the lab "+
			"has no grammar for is kept as it is.", 76) + `

--fault DEVICE:KEY=VALUE (repeatable; faults on one device add up) makes a
device misbehave from the start: drop-after=N drops the connection after N
configuration commands, reject=REGEXP refuses matching commands that would
change the device (show commands and read-backs always work), delay=DURATION
slows every answer. Data-plane faults, DEVICE:KIND[=VALUE], change what the
device's counters and optics show (fabricgen check reads them) and survive
apply: ` + lab.DataFaultForms + `.

The lab has a data plane: every NIC sends RoCE and background traffic to a
partner NIC over the intent's links, through each device's current
configuration. Its counters move with the lab clock, which runs on real
time (--clock real, the default), so fabricgen check against the lab sees
traffic as on real devices; fabricgen lab clock advance 10s, or fabricgen
check --lab-dir, moves it further at once. --clock manual stops it: the
counters move only when it is advanced, as tests and fabricgen demo want.
fabricgen lab fault changes them while the lab runs and
fabricgen lab show prints a device's configuration, through the control
socket the lab serves in --dir (removed when the lab stops).`,
		Example: `  export FABRICGEN_PASSWORD=lab-only-secret
  fabricgen lab up examples/roce-storage
  fabricgen plan examples/roce-storage --inventory .fabricgen/lab/inventory.json --known-hosts .fabricgen/lab/known_hosts
  fabricgen lab up examples/clos-400g --running-config backups/ --fault 'leaf1:reject=^qos map' --fault nic01:delay=2s`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			clock, err := labClock(clockMode)
			if err != nil {
				return withCode(exitFailed, err)
			}
			fdir := fabricDir(args)
			f, _, err := loadFabric(cmd, s, fdir, &vf)
			if err != nil {
				return err
			}
			devs, err := push.SelectDevices(f, devices)
			if err != nil {
				return withCode(exitFailed, err)
			}
			// On an InfiniBand fabric the lab runs the subnet manager
			// hosts; the fabric they program is their emulator's.
			devs = pushedOnly(f, devs)
			if err := labSize(f, devs); err != nil {
				return withCode(exitFailed, err)
			}
			specs, err := labSpecs(devs, s.getenv)
			if err != nil {
				return withCode(exitFailed, err)
			}
			faults, err := labFaults(faultFlags, specs)
			if err != nil {
				return withCode(exitFailed, err)
			}
			var sources map[string]string
			if runningDir != "" {
				if sources, err = loadRunningConfigs(cmd.Context(), runningDir, f.Devices, specs); err != nil {
					return withCode(exitFailed, err)
				}
			}
			ctx := cmd.Context()
			l, inv, err := startLabClock(ctx, f, specs, dir, clock)
			if err != nil {
				return withCode(exitFailed, err)
			}
			defer func() { _ = l.Close() }()
			for name, fl := range faults {
				if err := l.Device(name).CheckFault(fl); err != nil {
					return withCode(exitFailed, fmt.Errorf("--fault %s:%s: %w", name, fl, err))
				}
				l.Device(name).SetFault(fl)
			}
			srv, err := l.ServeControl(ctx, filepath.Join(dir, lab.ControlSocket))
			if err != nil {
				return withCode(exitFailed, err)
			}
			defer func() { _ = srv.Close() }()
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "Lab up: %d devices of fabric %s on 127.0.0.1.\n", len(specs), f.Name)
			for _, sp := range specs {
				var notes []string
				if src := sources[sp.Name]; src != "" {
					notes = append(notes, "from "+src)
				}
				if fl, ok := faults[sp.Name]; ok {
					notes = append(notes, "fault "+fl.String())
				}
				line := fmt.Sprintf("  %-24s %-15s %-21s %s", sp.Name, sp.Platform, l.Addr(sp.Name), strings.Join(notes, "; "))
				fmt.Fprintln(w, strings.TrimRight(line, " "))
			}
			fmt.Fprintf(w, "\nPoint plan and apply at it:\n  fabricgen plan %s --inventory %s --known-hosts %s\n  fabricgen apply %s --inventory %s --known-hosts %s\n",
				fdir, inv, l.KnownHostsPath(), fdir, inv, l.KnownHostsPath())
			switch {
			case f.InfiniBand():
				// check reads Ethernet fabrics; apply reads an
				// InfiniBand fabric's tables back itself.
				fmt.Fprintf(w, "\nOn an InfiniBand fabric, apply reads back the tables OpenSM programs (smpquery from each subnet manager host).\n")
			case clock.Real():
				fmt.Fprintf(w, "\nCheck the live fabric (the lab clock runs on real time; --lab-dir DIR advances it by --interval instead of waiting):\n  fabricgen check %s --inventory %s --known-hosts %s\n",
					fdir, inv, l.KnownHostsPath())
			default:
				fmt.Fprintf(w, "\nCheck the live fabric (--clock manual: the lab clock moves only when advanced; --lab-dir advances it by --interval):\n  fabricgen check %s --inventory %s --known-hosts %s --lab-dir %s\n",
					fdir, inv, l.KnownHostsPath(), dir)
			}
			fmt.Fprintf(w, "\nChange faults and read configurations while it runs (control socket %s):\n  fabricgen lab fault --dir %s DEVICE KEY=VALUE... | clear\n  fabricgen lab show --dir %s DEVICE\n  fabricgen lab clock --dir %s [advance 10s]\n\nServing until interrupted (Ctrl-C).\n",
				srv.Path(), dir, dir, dir)
			<-ctx.Done()
			if err := srv.Close(); err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "Warning: %v\n", err)
			}
			fmt.Fprintln(w, "Lab stopped.")
			return nil
		},
	}
	vf.register(cmd)
	cmd.Flags().StringVar(&dir, "dir", defaultLabDir(), "where host keys, known_hosts, inventory.json and the control socket go")
	cmd.Flags().StringArrayVar(&devices, "device", nil, "only these devices (glob, repeatable)")
	cmd.Flags().StringArrayVar(&faultFlags, "fault", nil, "DEVICE:KEY=VALUE with drop-after=N, reject=REGEXP or delay=DURATION, or a data-plane fault DEVICE:KIND[=VALUE] such as leaf1:dirty-optic=Ethernet1/1 (repeatable; one device's faults add up)")
	cmd.Flags().StringVar(&clockMode, "clock", "real", "the data plane's clock: real (moves with wall time) or manual (moves only when advanced: lab clock advance, check --lab-dir)")
	cmd.Flags().StringVar(&runningDir, "running-config", "", "start devices from CFGDIR/DEVICE.EXT instead of factory (EXT by platform: fabricgen platforms)")
	return cmd
}

// labClock is the data plane's clock for lab up --clock mode.
func labClock(mode string) (*dataplane.Clock, error) {
	switch mode {
	case "real":
		return dataplane.NewRealClock(time.Now), nil
	case "manual":
		return dataplane.NewClock(), nil
	}
	return nil, fmt.Errorf("--clock %q: use --clock real (the default: counters move with wall time) or --clock manual (they move only when advanced)", mode)
}

// labFaults reads the --fault flags into one Fault per device; settings
// for the same device add up, a later one of the same key wins.
func labFaults(flags []string, specs []lab.DeviceSpec) (map[string]lab.Fault, error) {
	known := map[string]bool{}
	var names []string
	for _, sp := range specs {
		known[sp.Name] = true
		names = append(names, sp.Name)
	}
	out := map[string]lab.Fault{}
	for _, fl := range flags {
		dev, setting, err := lab.ParseFault(fl)
		if err != nil {
			return nil, fmt.Errorf("--%w", err)
		}
		if !known[dev] {
			return nil, fmt.Errorf("--fault %q: no device %q in this lab (devices: %s): use --fault DEVICE:KEY=VALUE with %s", fl, dev, strings.Join(names, ", "), lab.FaultForms)
		}
		f := out[dev]
		if err := f.Set(setting); err != nil {
			return nil, fmt.Errorf("--fault %q: %w", fl, err)
		}
		out[dev] = f
	}
	return out, nil
}

// labCredentialsBlock is the credentials block the lab's refusals
// suggest: a username and a password from the environment.
const labCredentialsBlock = `  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }`

// labSpecs makes one lab device per fabric device, accepting the username
// of its credentials with the password from the variable they name and/or
// the public key next to their key file (KEY.pub). A device the lab
// cannot serve is refused with the change that makes it servable.
func labSpecs(devs []*schema.Device, getenv func(string) string) ([]lab.DeviceSpec, error) {
	var specs []lab.DeviceSpec
	for _, d := range devs {
		c := d.Credentials
		at := d.Name
		if !d.Range.IsZero() {
			at = fmt.Sprintf("%s (%s)", d.Name, d.Range)
		}
		if c.Range.IsZero() && c.Username.V == "" && c.PasswordEnv.V == "" && c.KeyFile.V == "" && !c.Agent.V {
			return nil, fmt.Errorf("device %s has no credentials block, so the lab does not know which login to accept (nor plan how to log in): add one to its device block,\n%s\nthen export FABRICGEN_PASSWORD=SOME-LAB-SECRET and run lab up again%s",
				at, labCredentialsBlock, othersLike(devs, d, func(o *schema.Device) bool { return o.Credentials.Range.IsZero() && o.Credentials.Username.V == "" }))
		}
		if c.Username.V == "" {
			return nil, fmt.Errorf("device %s: its credentials block gives no username for the lab to accept: add username = \"admin\" (or the login the device really has) to it", at)
		}
		sp := lab.SpecOf(d)
		sp.Username = c.Username.V
		if env := c.PasswordEnv.V; env != "" {
			if sp.Password = getenv(env); sp.Password == "" {
				return nil, fmt.Errorf("device %s: environment variable %s (credentials.password_env) is empty: export %s=SOME-LAB-SECRET before starting the lab (plan and apply read the same variable)", at, env, env)
			}
		}
		if c.KeyFile.V != "" {
			key := session.ExpandHome(c.KeyFile.V)
			pub := key + ".pub"
			b, err := readFileBounded(pub, maxPublicKeySize)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil, fmt.Errorf("device %s: the lab accepts the key of its credentials.key_file through %s, which does not exist: create the key pair with\n  ssh-keygen -t ed25519 -N '' -f %s\n(plan and apply log in with %s), or give the device password_env instead of key_file", at, pub, shellQuote(key), key)
				}
				return nil, fmt.Errorf("device %s: the lab accepts its key through %s: %w", at, pub, err)
			}
			k, _, _, _, err := ssh.ParseAuthorizedKey(b)
			if err != nil {
				return nil, fmt.Errorf("device %s: %s is not an OpenSSH public key (%w): make it again with ssh-keygen -y -f %s > %s", at, pub, err, shellQuote(key), shellQuote(pub))
			}
			sp.AuthorizedKeys = []ssh.PublicKey{k}
		}
		if sp.Password == "" && len(sp.AuthorizedKeys) == 0 {
			return nil, fmt.Errorf("device %s: its credentials use only the SSH agent, which the lab cannot ask for a public key: add password_env = \"FABRICGEN_PASSWORD\" (and export it) or key_file = \"~/.ssh/KEY\" (with KEY.pub beside it) to the credentials block", at)
		}
		for _, p := range d.Ports {
			sp.Ports = append(sp.Ports, p.Name)
		}
		specs = append(specs, sp)
	}
	return specs, nil
}

// othersLike is " (so do N more devices: a, b, …)" for the devices other
// than d for which like holds, or "".
func othersLike(devs []*schema.Device, d *schema.Device, like func(*schema.Device) bool) string {
	var names []string
	n := 0
	for _, o := range devs {
		if o == d || !like(o) {
			continue
		}
		n++
		if len(names) < 3 {
			names = append(names, o.Name)
		}
	}
	if n == 0 {
		return ""
	}
	more := ""
	if n > len(names) {
		more = ", …"
	}
	return fmt.Sprintf(" (%d more devices have none: %s%s)", n, strings.Join(names, ", "), more)
}

// shellQuote quotes path for a POSIX shell when it needs it.
func shellQuote(path string) string {
	if path != "" && strings.Trim(path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-~+") == "" {
		return path
	}
	return "'" + strings.ReplaceAll(path, "'", `'\''`) + "'"
}

// maxLabDevices is the most devices one lab up serves: each is an SSH
// server with its own listener and goroutines in this process.
const maxLabDevices = 1024

// labSize refuses a lab of more than maxLabDevices devices, saying how to
// pick fewer.
func labSize(f *schema.Fabric, devs []*schema.Device) error {
	if len(devs) <= maxLabDevices {
		return nil
	}
	return fmt.Errorf("fabric %s has %d devices; lab up serves at most %d in one process: pick some with --device GLOB (repeatable, e.g. --device 'spine0[12]' --device 'leaf000[12]*'), or make the fabric smaller (one sized by variables takes -var NAME=VALUE, as examples/scale does)", f.Name, len(devs), maxLabDevices)
}

// startLab starts the devices, with the fabric's data plane on a manual
// clock, and writes inventory.json next to the known_hosts file.
func startLab(ctx context.Context, f *schema.Fabric, specs []lab.DeviceSpec, dir string) (*lab.Lab, string, error) {
	return startLabClock(ctx, f, specs, dir, nil)
}

// startLabClock is startLab with the data plane on clock c (a manual
// clock when nil).
func startLabClock(ctx context.Context, f *schema.Fabric, specs []lab.DeviceSpec, dir string, c *dataplane.Clock) (*lab.Lab, string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", fmt.Errorf("create %s: %w", dir, err)
	}
	// The lab's private keys must never be committed (docs/push.md,
	// "State and git").
	if sd, ok := state.EnclosingDir(dir); ok {
		if err := state.EnsureGitignore(sd); err != nil {
			return nil, "", err
		}
	}
	lf := f
	if f != nil && f.InfiniBand() {
		// The lab's data plane is Ethernet's (PFC, ECN, DSCP); an
		// InfiniBand lab's subnet manager hosts emulate the fabric
		// they program themselves.
		lf = nil
	}
	l, err := lab.Start(ctx, specs, lab.Options{Dir: dir, Fabric: lf, Clock: c})
	if err != nil {
		return nil, "", fmt.Errorf("start lab: %w", err)
	}
	inv := map[string]string{}
	for _, sp := range specs {
		inv[sp.Name] = l.Addr(sp.Name)
	}
	b, err := json.MarshalIndent(inv, "", "  ")
	if err != nil {
		_ = l.Close()
		return nil, "", fmt.Errorf("encode inventory: %w", err)
	}
	path := filepath.Join(dir, "inventory.json")
	if err := readlimit.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		_ = l.Close()
		return nil, "", fmt.Errorf("write %s: %w", path, err)
	}
	return l, path, nil
}
