package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/lab"
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
	var dir, runningDir string
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
configuration. Its counters move with the lab clock, which moves only when
advanced (fabricgen lab clock advance 10s, or fabricgen check --lab-dir). fabricgen lab fault changes them while the lab runs and
fabricgen lab show prints a device's configuration, through the control
socket the lab serves in --dir (removed when the lab stops).`,
		Example: `  export FABRICGEN_PASSWORD=lab-only-secret
  fabricgen lab up examples/roce-storage
  fabricgen plan examples/roce-storage --inventory .fabricgen/lab/inventory.json --known-hosts .fabricgen/lab/known_hosts
  fabricgen lab up examples/clos-400g --running-config backups/ --fault 'leaf1:reject=^qos map' --fault nic01:delay=2s`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fdir := fabricDir(args)
			f, _, err := loadFabric(cmd, s, fdir, &vf)
			if err != nil {
				return err
			}
			devs, err := push.SelectDevices(f, devices)
			if err != nil {
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
			l, inv, err := startLab(ctx, f, specs, dir)
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
			fmt.Fprintf(w, "\nCheck the live fabric (the lab clock moves only when advanced; --lab-dir advances it by --interval):\n  fabricgen check %s --inventory %s --known-hosts %s --lab-dir %s\n",
				fdir, inv, l.KnownHostsPath(), dir)
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
	cmd.Flags().StringVar(&runningDir, "running-config", "", "start devices from CFGDIR/DEVICE.EXT instead of factory (EXT by platform: fabricgen platforms)")
	return cmd
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

// labSpecs makes one lab device per fabric device, accepting the username
// of its credentials with the password from the variable they name and/or
// the public key next to their key file (KEY.pub).
func labSpecs(devs []*schema.Device, getenv func(string) string) ([]lab.DeviceSpec, error) {
	var specs []lab.DeviceSpec
	for _, d := range devs {
		c := d.Credentials
		if c.Username.V == "" {
			return nil, fmt.Errorf("device %s: its credentials block gives no username for the lab to accept", d.Name)
		}
		sp := lab.SpecOf(d)
		sp.Username = c.Username.V
		if env := c.PasswordEnv.V; env != "" {
			if sp.Password = getenv(env); sp.Password == "" {
				return nil, fmt.Errorf("device %s: environment variable %s (credentials.password_env) is empty; export it before starting the lab", d.Name, env)
			}
		}
		if c.KeyFile.V != "" {
			pub := session.ExpandHome(c.KeyFile.V) + ".pub"
			b, err := readFileBounded(pub, maxPublicKeySize)
			if err != nil {
				return nil, fmt.Errorf("device %s: the lab accepts its key through %s: %w", d.Name, pub, err)
			}
			k, _, _, _, err := ssh.ParseAuthorizedKey(b)
			if err != nil {
				return nil, fmt.Errorf("device %s: %s: %w", d.Name, pub, err)
			}
			sp.AuthorizedKeys = []ssh.PublicKey{k}
		}
		if sp.Password == "" && len(sp.AuthorizedKeys) == 0 {
			return nil, fmt.Errorf("device %s: give its credentials password_env or key_file so the lab knows what to accept", d.Name)
		}
		for _, p := range d.Ports {
			sp.Ports = append(sp.Ports, p.Name)
		}
		specs = append(specs, sp)
	}
	return specs, nil
}

// startLab starts the devices, with the fabric's data plane, and writes
// inventory.json next to the known_hosts file.
func startLab(ctx context.Context, f *schema.Fabric, specs []lab.DeviceSpec, dir string) (*lab.Lab, string, error) {
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
	l, err := lab.Start(ctx, specs, lab.Options{Dir: dir, Fabric: f})
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
