package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fatih/color"
	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/push/planfile"
	"github.com/fabricgen/fabricgen/schema"
)

// demoFabrics are tried in order when demo gets no directory.
func demoFabrics() []string {
	return []string{filepath.Join("examples", "clos-400g"), filepath.Join("examples", "roce-storage")}
}

func newDemoCommand(s *streams) *cobra.Command {
	var vf varFlags
	var parallelism int
	cmd := &cobra.Command{
		Use:   "demo [DIR]",
		Short: "Lint, plan, apply and re-plan a fabric against an in-process lab",
		Long: `demo shows the whole workflow with nothing to set up: it starts emulated
devices for the fabric (default examples/clos-400g, else
examples/roce-storage) on 127.0.0.1 inside this process, then runs lint,
plan, apply and plan again, which must show no changes.

The lab password is generated in-process and handed to the devices and to
the SSH sessions directly; it is never printed or written. Host keys are
verified against the lab's known_hosts. Nothing outside a temporary
directory is written.`,
		Example: `  fabricgen demo
  fabricgen demo examples/roce-storage`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := demoDir(args)
			if err != nil {
				return withCode(exitFailed, err)
			}
			secret, err := randomSecret()
			if err != nil {
				return withCode(exitFailed, err)
			}
			tmp, err := os.MkdirTemp("", "fabricgen-demo-")
			if err != nil {
				return withCode(exitFailed, fmt.Errorf("temporary directory: %w", err))
			}
			defer os.RemoveAll(tmp)

			// The demo's own streams: its password variable reads the
			// in-process secret; nothing else of the environment changes.
			ds := *s
			var f *schema.Fabric
			ds.getenv = func(k string) string {
				if k == demoPasswordEnv {
					return secret
				}
				return s.getenv(k)
			}
			w := cmd.OutOrStdout()
			step := func(n int, what string) {
				fmt.Fprintf(w, "\n%s %s\n", painter(ds.colour(ds.outTTY), color.Bold)(fmt.Sprintf("==> %d/4", n)), what)
			}

			step(1, "fabricgen lint "+dir)
			if f, _, err = loadFabric(cmd, &ds, dir, &vf); err != nil {
				return err
			}
			findings, err := lint.Run(cmd.Context(), f, lint.Options{})
			if err != nil {
				return withCode(exitFailed, fmt.Errorf("lint: %w", err))
			}
			bySev := map[schema.Severity]int{}
			for _, fd := range findings {
				bySev[fd.Severity]++
			}
			fmt.Fprintf(w, "%d devices, %d links: %d error(s), %d warning(s), %d info.\n",
				len(f.Devices), len(f.Links), bySev[schema.SevError], bySev[schema.SevWarning], bySev[schema.SevInfo])

			demoCredentials(f)
			var pushable []*schema.Device
			for _, d := range f.Devices {
				if _, err := dialect.Lookup(d.Platform.V); err == nil {
					pushable = append(pushable, d)
				}
			}
			specs, err := labSpecs(pushable, ds.getenv)
			if err != nil {
				return withCode(exitFailed, err)
			}
			l, inv, err := startLab(cmd.Context(), specs, filepath.Join(tmp, "lab"))
			if err != nil {
				return withCode(exitFailed, err)
			}
			defer l.Close()
			fmt.Fprintf(w, "Lab: %d emulated devices on 127.0.0.1 (known_hosts and inventory in a temporary directory).\n", len(specs))

			pf := pushFlags{vf: vf, parallelism: parallelism, timeout: 30 * time.Second, inventory: inv, knownHosts: []string{l.KnownHostsPath()}, skipUnrenderable: true}
			opts, err := pf.options(cmd, &ds)
			if err != nil {
				return withCode(exitFailed, err)
			}
			run, err := prepareFabric(cmd.Context(), f, &pf)
			if err != nil {
				return err
			}

			if len(run.unrendered) > 0 {
				fmt.Fprintf(w, "Left out: %d device(s) whose config cannot be rendered (fabricgen plan would stop here):\n", len(run.unrendered))
				for _, e := range run.unrendered {
					fmt.Fprintf(w, "  %s\n", e)
				}
			}
			if len(run.inputs) == 0 {
				return withCode(exitFailed, fmt.Errorf("no device of %s can be rendered", dir))
			}

			step(2, "fabricgen plan")
			p, err := push.Plan(cmd.Context(), run.f, run.inputs, version, opts)
			if err != nil {
				return withCode(exitFailed, err)
			}
			writePlanHuman(w, p, run.skipped, ds.colour(ds.outTTY))
			if err := planExit(p, false); err != nil {
				return err
			}

			step(3, "fabricgen apply -auto-approve")
			prog := newProgress(cmd, &ds)
			opts.Events = prog.event
			opts.State = state.Dir{Path: filepath.Join(tmp, "state")}
			results, err := push.Apply(cmd.Context(), p, run.f, run.inputs, push.ApplyOptions{Options: opts})
			prog.wait()
			opts.Events = nil
			if err := writeResults(w, "Apply", results, err); err != nil {
				return err
			}
			fmt.Fprintln(w, "(The demo's backups live in its temporary directory and are removed when it exits.)")

			step(4, "fabricgen plan (again: must show no changes)")
			p2, err := push.Plan(cmd.Context(), run.f, run.inputs, version, opts)
			if err != nil {
				return withCode(exitFailed, err)
			}
			writePlanHuman(w, p2, run.skipped, ds.colour(ds.outTTY))
			if err := planExit(p2, false); err != nil {
				return err
			}
			if p2.HasChanges() {
				return withCode(exitFailed, fmt.Errorf("the second plan still has changes: %s", unconverged(p2)))
			}
			fmt.Fprintf(w, "\nDone: the lab matches the intent. Next: fabricgen lab up %s, then plan/apply against it yourself.\n", dir)
			return nil
		},
	}
	vf.register(cmd)
	cmd.Flags().IntVar(&parallelism, "parallelism", push.DefaultParallelism, "devices worked on at once")
	return cmd
}

// demoPasswordEnv is the variable the demo's devices log in with; the demo
// answers it in-process and never exports it.
const demoPasswordEnv = "FABRICGEN_DEMO_PASSWORD"

// demoCredentials points every device of the in-memory fabric at the
// demo's generated lab password (keeping its username), so the demo needs
// neither the intent's key files nor its password variables.
func demoCredentials(f *schema.Fabric) {
	for _, d := range f.Devices {
		user := d.Credentials.Username
		if user.V == "" {
			user = schema.Value[string]{V: "admin", Set: true}
		}
		d.Credentials = schema.Credentials{
			Range:       d.Credentials.Range,
			Username:    user,
			PasswordEnv: schema.Value[string]{V: demoPasswordEnv, Set: true},
		}
	}
}

// demoDir is the argument, else the first demo fabric that exists.
func demoDir(args []string) (string, error) {
	if len(args) == 1 {
		return args[0], nil
	}
	for _, d := range demoFabrics() {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, nil
		}
	}
	return "", fmt.Errorf("no demo fabric found (%v): run fabricgen demo from the fabricgen repository root, or pass a fabric directory", demoFabrics())
}

func randomSecret() (string, error) {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate the lab password: %w", err)
	}
	return hex.EncodeToString(b), nil
}

func unconverged(p *planfile.Plan) string {
	var names []string
	for _, d := range p.Devices {
		if d.Status == planfile.StatusChange {
			names = append(names, d.Name)
		}
	}
	return fmt.Sprint(names)
}
