package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// varFlags are the -var / -var-file flags shared by every command that loads a fabric.
type varFlags struct {
	vars     []string
	varFiles []string
}

func (v *varFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&v.vars, "var", nil, "set a variable: -var name=value (repeatable)")
	cmd.Flags().StringArrayVar(&v.varFiles, "var-file", nil, "read variables from an HCL or JSON file (repeatable)")
}

// options converts the flags into schema options.
func (v *varFlags) options(s *streams) (schema.Options, error) {
	opts := schema.Options{Vars: map[string]string{}, VarFiles: v.varFiles, Getenv: s.getenv, Platforms: platforms.Catalog()}
	for _, kv := range v.vars {
		k, val, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return opts, fmt.Errorf("-var %q: write -var name=value", kv)
		}
		opts.Vars[k] = val
	}
	return opts, nil
}

// fabricDir is the directory argument, "." by default. A fabric is a
// directory (its files reference each other), so a *.fab.hcl or *.fab.json
// file argument stands for the directory it is in: lint fabric/spines.fab.hcl
// checks the fabric in fabric/.
func fabricDir(args []string) string {
	if len(args) == 0 {
		return "."
	}
	a := args[0]
	if strings.HasSuffix(a, schema.HCLSuffix) || strings.HasSuffix(a, schema.JSONSuffix) {
		if st, err := os.Stat(a); err == nil && !st.IsDir() {
			return filepath.Dir(a)
		}
	}
	return a
}

// loadIntent loads the fabric in dir without printing anything: the
// caller renders the diagnostics in the format it was asked for.
// An interrupt (SIGINT, SIGTERM) cancels ctx, which stops the load.
func loadIntent(ctx context.Context, s *streams, dir string, vf *varFlags) (*schema.Fabric, schema.Diagnostics, error) {
	opts, err := vf.options(s)
	if err != nil {
		return nil, nil, withCode(exitFailed, err)
	}
	f, diags := schema.LoadContext(ctx, dir, opts)
	return f, diags, nil
}

// sourcesOf is the text of every file the diagnostics point at, for their
// source snippets: the fabric's files, and files it does not hold — a
// -var-file, or every file when the load stopped at a syntax error and
// returned no fabric — read again, bounded as the load read them.
func sourcesOf(f *schema.Fabric, diags schema.Diagnostics) map[string][]byte {
	var have map[string][]byte
	if f != nil {
		have = f.Files
	}
	var out map[string][]byte
	for _, d := range diags {
		if d.Subject == nil || d.Subject.Filename == "" {
			continue
		}
		name := d.Subject.Filename
		if _, ok := have[name]; ok {
			continue
		}
		if _, ok := out[name]; ok {
			continue
		}
		if out == nil {
			out = make(map[string][]byte, len(have)+1)
			for k, v := range have {
				out[k] = v
			}
		}
		b, err := readlimit.File(name, schema.MaxFileSize)
		if err != nil {
			b = nil // no snippet; the diagnostic still names file:line:column
		}
		out[name] = b
	}
	if out == nil {
		return have
	}
	return out
}

// loadFabric loads the fabric in dir and prints its diagnostics with source
// snippets to stderr. With errors it returns a code-1 error after printing.
func loadFabric(cmd *cobra.Command, s *streams, dir string, vf *varFlags) (*schema.Fabric, schema.Diagnostics, error) {
	f, diags, err := loadIntent(cmd.Context(), s, dir, vf)
	if err != nil {
		return nil, nil, err
	}
	if len(diags) > 0 {
		if err := diags.WriteText(cmd.ErrOrStderr(), sourcesOf(f, diags), s.colour(s.errTTY)); err != nil {
			return nil, diags, withCode(exitFailed, err)
		}
	}
	if diags.HasErrors() {
		return f, diags, withCode(exitFailed, fmt.Errorf("%s is not a valid fabric: %d error(s)", dir, len(diags.Errs())))
	}
	return f, diags, nil
}

// applyHint is the command that applies the plan saved to out, with the
// flags of the plan run that apply needs again (variables, inventory,
// known_hosts, templates), shell-quoted where needed.
func applyHint(out string, pf *pushFlags) string {
	args := []string{"fabricgen", "apply", shellWord(out)}
	for _, v := range pf.vf.vars {
		args = append(args, "-var", shellWord(v))
	}
	for _, v := range pf.vf.varFiles {
		args = append(args, "-var-file", shellWord(v))
	}
	if pf.inventory != "" {
		args = append(args, "--inventory", shellWord(pf.inventory))
	}
	for _, k := range pf.knownHosts {
		args = append(args, "--known-hosts", shellWord(k))
	}
	if pf.insecure {
		args = append(args, "--insecure-ignore-host-key")
	}
	if pf.templates != "" {
		args = append(args, "--templates", shellWord(pf.templates))
	}
	return strings.Join(args, " ")
}

// shellWord quotes s for a POSIX shell unless it is a plain word.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// notPushedOnIB says why push leaves device d of an InfiniBand fabric
// alone ("" for a device it pushes): the subnet manager programs the
// switches and the HCAs from its files, so only the subnet manager hosts
// are pushed; a host's job environment file is sourced by the jobs.
func notPushedOnIB(f *schema.Fabric, d *schema.Device) string {
	switch {
	case !f.InfiniBand() || d.Kind.V == schema.KindSubnetManager:
		return ""
	case d.Kind.V == schema.KindNIC:
		return "an InfiniBand host: its job environment file is for the jobs to source; the subnet manager programs its HCA"
	}
	return "an InfiniBand switch: the subnet manager programs it"
}

// pushedOnly is devs without the devices push leaves alone on an
// InfiniBand fabric (notPushedOnIB).
func pushedOnly(f *schema.Fabric, devs []*schema.Device) []*schema.Device {
	var out []*schema.Device
	for _, d := range devs {
		if notPushedOnIB(f, d) == "" {
			out = append(out, d)
		}
	}
	return out
}

// ethernetOnly refuses an InfiniBand fabric for fabricgen check, which
// reads Ethernet switches' and hosts' counters, optics and QoS. On an
// InfiniBand fabric, apply reads the subnet manager's tables back itself.
func ethernetOnly(f *schema.Fabric, command string) error {
	if !f.InfiniBand() {
		return nil
	}
	return withCode(exitFailed, fmt.Errorf("fabric %q is an InfiniBand fabric (link_layer = \"infiniband\"): %s reads Ethernet fabrics (switch and NIC counters, optics, PFC and ECN); "+
		"on an InfiniBand fabric, fabricgen apply reads back the tables the subnet manager programs (SL2VL, VLArb, P_Keys), and fabricgen drift %s compares its files with the intent",
		f.Name, command, shellQuote(f.Dir)))
}
