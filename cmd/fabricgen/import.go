package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/internal/brownfield"
	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/lint/format"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// importFlags are the import command's options.
type importFlags struct {
	platform  string
	out       string
	fabric    string
	osVersion string
	attrs     []string
	format    string
	// Live import.
	inventory  string
	device     string
	knownHosts []string
	insecure   bool
	username   string
	passEnv    string
	keyFile    string
	timeout    time.Duration
}

func newImportCommand(s *streams) *cobra.Command {
	var f importFlags
	cmd := &cobra.Command{
		Use:   "import --platform P [-o DIR] (FILE... | --inventory FILE [--device GLOB])",
		Short: "Read running configurations back into intent, report what no intent expresses, and lint it",
		Long: `import reads configuration files (one device each; --platform names their
platform, or GLOB=PLATFORM rules name one per file) and
writes the intent they amount to into DIR (default ./imported, which must not
hold a fabric yet): traffic classes, ECN profiles and watchdogs shared by
value, one qos_policy per group of devices whose QoS is the same (at the
fabric when every device shares it), port-level policies only for ports that
differ, ACLs and one device block per device, each block with a comment
naming the file and lines it came from. A device is named by its
configuration's hostname, else by its file's stem.

Forms read, by platform:
  arista_eos      show running-config, or show running-config | json
  cisco_nxos      show running-config
  juniper_junos   show configuration | display set, or the brace form
  nvidia_cumulus  nv config show -o commands, or startup.yaml
  sonic           config_db.json ([TABLE|name] and plain-name references)
  nvidia_mlnx     a mlnx_qos / cma_roce_tos setup script, or mlnx_qos -i output
  linux_dcb       a dcb setup script, or dcb -j ... show output

Nothing is dropped silently: the report lists, at FILE:LINE, every QoS line
no intent expresses and why, every port configured twice, and every value the
intent could not keep as read. Device strings are data: the intent escapes
them, the report prints control characters as \xNN.

With --inventory (a JSON object {"device": "host:port"}, as lab up writes),
import reads the running configuration of each device the --device glob
selects over SSH instead, with plan's host key policy (--known-hosts,
--insecure-ignore-host-key) and the credentials given by --username with
--password-env or --key-file; the configurations read are saved under
DIR/running/, which the report and the provenance comments name. Hosts have
no running configuration: import them from files.

--username (with --password-env or --key-file) writes a credentials block
into every device, so plan can reach them (references only, never secrets).

Then the written intent is linted: what the fabric already gets wrong.

Exit status: 0 imported with no findings and nothing reported; 2 imported,
with lint findings (warning or error) or reported lines; 1 a file could not
be read at all (FILE:LINE), or bad flags.`,
		Example: `  fabricgen import --platform arista_eos -o fabric/ leaf1.cfg leaf2.cfg
  fabricgen import --platform sonic --os-version 202305 --attr asic=mellanox -o fabric/ leaf3.json
  fabricgen import --platform juniper_junos -f json -o fabric/ spine1.conf > report.json
  fabricgen import --platform arista_eos --inventory .fabricgen/lab/inventory.json --device 'leaf*' \
      --known-hosts .fabricgen/lab/known_hosts --username admin --key-file ~/.ssh/fabricgen_ed25519 -o fabric/`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runImport(cmd, s, args, &f)
		},
	}
	cmd.Flags().StringVar(&f.platform, "platform", "", "the platform of every file or device (required): one of "+strings.Join(brownfield.Names(), ", ")+"; or GLOB=PLATFORM rules, comma-separated, on file base names or device names (first match wins)")
	cmd.Flags().StringVarP(&f.out, "out", "o", "imported", "directory to write the intent into (new or empty)")
	cmd.Flags().StringVar(&f.fabric, "fabric", "", "the fabric's name (default: the one fabricgen's render headers name, else imported)")
	cmd.Flags().StringVar(&f.osVersion, "os-version", "", "the release of devices whose configuration does not name it")
	cmd.Flags().StringSliceVar(&f.attrs, "attr", nil, "a device attribute for devices whose configuration does not name it: asic=, hwsku=, model=, driver=, buffer_model= (repeatable)")
	cmd.Flags().StringVarP(&f.format, "format", "f", "text", "output format: text or json")
	cmd.Flags().StringVar(&f.inventory, "inventory", "", "read the devices live: "+inventoryHelp)
	cmd.Flags().StringVar(&f.device, "device", "", "with --inventory: only the devices whose names match this glob")
	cmd.Flags().StringSliceVar(&f.knownHosts, "known-hosts", nil, "with --inventory: known_hosts file(s) to verify host keys against (default ~/.ssh/known_hosts)")
	cmd.Flags().BoolVar(&f.insecure, "insecure-ignore-host-key", false, "with --inventory: accept any host key (lab use only)")
	cmd.Flags().StringVar(&f.username, "username", "", "the SSH user: written as every device's credentials (with --password-env or --key-file), and used by --inventory")
	cmd.Flags().StringVar(&f.passEnv, "password-env", "", "the environment variable holding the password (credentials, --inventory)")
	cmd.Flags().StringVar(&f.keyFile, "key-file", "", "the private key file (credentials, --inventory)")
	cmd.Flags().DurationVar(&f.timeout, "timeout", 30*time.Second, "with --inventory: how long one device may take to connect and answer")
	return cmd
}

// importReport is import's JSON output.
type importReport struct {
	Dir      string          `json:"dir"`
	Files    []string        `json:"files"`
	Devices  []string        `json:"devices"`
	Report   []importer.Line `json:"report"`
	Findings []importFinding `json:"findings"`
}

type importFinding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Message  string `json:"message"`
}

func runImport(cmd *cobra.Command, s *streams, args []string, f *importFlags) error {
	ctx := cmd.Context()
	if f.format != "text" && f.format != "json" {
		return withCode(exitFailed, fmt.Errorf("--format %q: use text or json", f.format))
	}
	if f.platform == "" {
		return withCode(exitFailed, fmt.Errorf("--platform is required: one of %s, or GLOB=PLATFORM rules", strings.Join(brownfield.Names(), ", ")))
	}
	def, rules, err := brownfield.ParsePlatforms(f.platform)
	if err != nil {
		return withCode(exitFailed, err)
	}
	if len(args) == 0 && f.inventory == "" {
		return withCode(exitFailed, errors.New("no files: give one configuration file per device, or --inventory to read the devices live"))
	}
	if len(args) > 0 && f.inventory != "" {
		return withCode(exitFailed, errors.New("give files or --inventory, not both"))
	}
	attrs := map[string]string{}
	for _, a := range f.attrs {
		k, v, ok := strings.Cut(a, "=")
		switch k {
		case "asic", "hwsku", "model", "driver", "buffer_model":
		default:
			ok = false
		}
		if !ok || v == "" {
			return withCode(exitFailed, fmt.Errorf("--attr %q: write NAME=VALUE with NAME one of asic, hwsku, model, driver, buffer_model", a))
		}
		attrs[k] = v
	}
	var srcs []brownfield.Source
	if f.inventory != "" {
		srcs, err = readLiveSources(cmd, s, f, def, rules)
	} else {
		srcs, err = brownfield.ReadFiles(ctx, args)
		for i := range srcs {
			if srcs[i].Platform = brownfield.PlatformOf(filepath.Base(srcs[i].Name), def, rules); srcs[i].Platform == "" {
				err = fmt.Errorf("%s: no --platform rule matches the file; add one (GLOB=PLATFORM) or a catch-all (*=PLATFORM)", srcs[i].Name)
			}
		}
	}
	if err != nil {
		return withCode(exitFailed, err)
	}
	in, _, err := brownfield.Import(ctx, srcs, brownfield.Options{Platform: def, Fabric: f.fabric, OSVersion: f.osVersion, Attrs: attrs,
		Username: f.username, PasswordEnv: f.passEnv, KeyFile: f.keyFile})
	if err != nil {
		return withCode(exitFailed, err)
	}
	if err := brownfield.WriteDir(f.out, in); err != nil {
		return withCode(exitFailed, err)
	}
	if f.inventory != "" {
		if err := saveRunning(f.out, srcs); err != nil {
			return withCode(exitFailed, err)
		}
	}
	fab, diags := schema.LoadContext(ctx, f.out, schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		return withCode(exitFailed, fmt.Errorf("the intent written to %s does not load (a fabricgen bug: please report it with the input): %w", f.out, diags))
	}
	if err := brownfield.Renders(fab); err != nil {
		return withCode(exitFailed, fmt.Errorf("the intent written to %s does not render (a fabricgen bug: please report it with the input): %w", f.out, err))
	}
	findings, err := lint.Run(ctx, fab, lint.Options{})
	if err != nil {
		return withCode(exitFailed, err)
	}
	files := make([]string, 0, len(in.Files))
	for n := range in.Files {
		files = append(files, n)
	}
	sort.Strings(files)
	w := cmd.OutOrStdout()
	if f.format == "json" {
		rep := importReport{Dir: f.out, Files: files, Devices: in.Devices, Report: cleanReport(in.Report), Findings: []importFinding{}}
		for _, x := range findings {
			fi := importFinding{Rule: x.Rule, Severity: x.Severity.String(), Message: x.Summary}
			if x.Subject != nil {
				fi.File, fi.Line = x.Subject.Filename, int(x.Subject.Start.Line)
			}
			rep.Findings = append(rep.Findings, fi)
		}
		if rep.Report == nil {
			rep.Report = []importer.Line{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return withCode(exitFailed, err)
		}
	} else {
		if err := importText(w, s, f.out, files, in, fab, findings); err != nil {
			return withCode(exitFailed, err)
		}
	}
	if len(in.Report) > 0 || lint.AtOrAbove(findings, diag.Warning) > 0 {
		return withCode(exitFindings, nil)
	}
	return nil
}

// cleanReport escapes control characters in the report's text.
func cleanReport(r []importer.Line) []importer.Line {
	out := make([]importer.Line, len(r))
	for i, l := range r {
		out[i] = importer.Line{File: importer.Clean(l.File), Line: l.Line, Text: importer.Clean(l.Text), Why: importer.Clean(l.Why)}
	}
	return out
}

func importText(w io.Writer, s *streams, dir string, files []string, in *importer.Intent, fab *schema.Fabric, findings []lint.Finding) error {
	fmt.Fprintf(w, "Imported %d device(s) into %s (%s).\n", len(in.Devices), dir, strings.Join(files, ", "))
	if len(in.Report) > 0 {
		fmt.Fprintf(w, "\n%d line(s) no intent expresses, or values it could not keep:\n", len(in.Report))
		for _, l := range cleanReport(in.Report) {
			at := l.File
			if l.Line > 0 {
				at = fmt.Sprintf("%s:%d", l.File, l.Line)
			}
			if l.Text != "" {
				fmt.Fprintf(w, "  %s: %s\n      %s\n", at, l.Why, l.Text)
			} else {
				fmt.Fprintf(w, "  %s: %s\n", at, l.Why)
			}
		}
	}
	fmt.Fprintf(w, "\nLint of the imported intent:\n")
	out, err := format.Lookup("text")
	if err != nil {
		return err
	}
	res := &format.Result{Sources: sourcesOf(fab, nil), Rules: lint.Rules(), Version: version, BasePath: ".", Color: s.colour(s.outTTY), Valid: true}
	res.Diagnostics = append(res.Diagnostics, lint.Diagnostics(findings)...)
	return out.Write(w, res)
}

// readLiveSources reads the running configuration of the inventory's
// selected devices; each source is named DIR/running/<device>.<ext>, where
// saveRunning keeps it.
func readLiveSources(cmd *cobra.Command, s *streams, f *importFlags, def schema.Platform, rules []brownfield.PlatformRule) ([]brownfield.Source, error) {
	inv, err := readInventory(f.inventory)
	if err != nil {
		return nil, err
	}
	names, err := brownfield.Select(inv, f.device)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("--inventory %s: no device matches --device %q", f.inventory, f.device)
	}
	if f.username == "" {
		return nil, errors.New("--username is required with --inventory (with --password-env or --key-file)")
	}
	hk, err := newHostKeys(f.knownHosts, f.insecure)
	if err != nil {
		return nil, err
	}
	creds := schema.Credentials{Username: schema.Value[string]{V: f.username, Set: true}}
	if f.passEnv != "" {
		creds.PasswordEnv = schema.Value[string]{V: f.passEnv, Set: true}
	}
	if f.keyFile != "" {
		creds.KeyFile = schema.Value[string]{V: f.keyFile, Set: true}
	}
	var devs []brownfield.Live
	for _, n := range names {
		p := brownfield.PlatformOf(n, def, rules)
		if p == "" {
			return nil, fmt.Errorf("%s: no --platform rule matches the device; add one (GLOB=PLATFORM) or a catch-all (*=PLATFORM)", n)
		}
		devs = append(devs, brownfield.Live{Name: n, Addr: inv[n], Platform: p, Creds: creds})
	}
	srcs, err := brownfield.ReadLive(cmd.Context(), devs, brownfield.LiveOptions{HostKeys: hk, Timeout: f.timeout, Getenv: s.getenv})
	if err != nil {
		return nil, err
	}
	for i := range srcs {
		srcs[i].Name = filepath.Join(f.out, "running", srcs[i].Name)
	}
	return srcs, nil
}

// saveRunning keeps the configurations read live where the report points.
func saveRunning(dir string, srcs []brownfield.Source) error {
	if err := os.MkdirAll(filepath.Join(dir, "running"), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Join(dir, "running"), err)
	}
	for _, src := range srcs {
		if err := readlimit.WriteFile(src.Name, src.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
