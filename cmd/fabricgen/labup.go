package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/lab"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/push/session"
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
	cmd.AddCommand(newLabUpCommand(s))
	return cmd
}

func newLabUpCommand(s *streams) *cobra.Command {
	var vf varFlags
	var dir string
	var devices []string
	cmd := &cobra.Command{
		Use:   "up [DIR]",
		Short: "Serve the fabric's devices until interrupted",
		Long: `lab up starts one emulated device per device of the fabric in DIR (default
"."), each on its own SSH port on 127.0.0.1 with the factory config of its
platform, writes an inventory (device → 127.0.0.1:port) and a known_hosts
file under --dir, prints how to point plan and apply at them, and serves
until interrupted (Ctrl-C).

Each device accepts the username of its credentials block and the password
in the environment variable its password_env names; export it first.`,
		Example: `  export FABRICGEN_PASSWORD=lab-only-secret
  fabricgen lab up examples/roce-storage
  fabricgen plan examples/roce-storage --inventory .fabricgen/lab/inventory.json --known-hosts .fabricgen/lab/known_hosts`,
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
			l, inv, err := startLab(cmd.Context(), specs, dir)
			if err != nil {
				return withCode(exitFailed, err)
			}
			defer l.Close()
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "Lab up: %d devices of fabric %s on 127.0.0.1.\n", len(specs), f.Name)
			for _, sp := range specs {
				fmt.Fprintf(w, "  %-24s %-15s %s\n", sp.Name, sp.Platform, l.Addr(sp.Name))
			}
			fmt.Fprintf(w, "\nPoint plan and apply at it:\n  fabricgen plan %s --inventory %s --known-hosts %s\n  fabricgen apply %s --inventory %s --known-hosts %s\n\nServing until interrupted (Ctrl-C).\n",
				fdir, inv, l.KnownHostsPath(), fdir, inv, l.KnownHostsPath())
			<-cmd.Context().Done()
			fmt.Fprintln(w, "Lab stopped.")
			return nil
		},
	}
	vf.register(cmd)
	cmd.Flags().StringVar(&dir, "dir", filepath.Join(".fabricgen", "lab"), "where host keys, known_hosts and inventory.json are written")
	cmd.Flags().StringArrayVar(&devices, "device", nil, "only these devices (glob, repeatable)")
	return cmd
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
		sp := lab.DeviceSpec{Name: d.Name, Platform: d.Platform.V, Username: c.Username.V}
		if env := c.PasswordEnv.V; env != "" {
			if sp.Password = getenv(env); sp.Password == "" {
				return nil, fmt.Errorf("device %s: environment variable %s (credentials.password_env) is empty; export it before starting the lab", d.Name, env)
			}
		}
		if c.KeyFile.V != "" {
			pub := session.ExpandHome(c.KeyFile.V) + ".pub"
			b, err := os.ReadFile(pub)
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

// startLab starts the devices and writes inventory.json next to the
// known_hosts file.
func startLab(ctx context.Context, specs []lab.DeviceSpec, dir string) (*lab.Lab, string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", fmt.Errorf("create %s: %w", dir, err)
	}
	l, err := lab.Start(ctx, specs, lab.Options{Dir: dir})
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
	if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		_ = l.Close()
		return nil, "", fmt.Errorf("write %s: %w", path, err)
	}
	return l, path, nil
}
