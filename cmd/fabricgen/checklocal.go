package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/check"
	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/internal/check/snapshot"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/push"
	"github.com/fabricgen/fabricgen/schema"
)

// textfileName is the file --textfile-dir writes: node-exporter's
// textfile collector reads every *.prom of its directory.
const textfileName = "fabricgen.prom"

// maxHostsListed bounds the hosts an error about the host's identity lists.
const maxHostsListed = 10

// localRefused are the flags about reaching devices over SSH, which a
// --local run has no use for, and why.
var localRefused = []struct{ flag, why string }{
	{"inventory", "--local reads this host's NICs without SSH: it has no use for an inventory"},
	{"known-hosts", "--local reads this host's NICs without SSH: it has no host keys to verify"},
	{"insecure-ignore-host-key", "--local reads this host's NICs without SSH: it has no host keys to ignore"},
	{"from", "--from judges saved readings without reading any device: drop --local"},
}

// localFlags checks the flags of a --local or --textfile-dir run and sets
// the output they imply.
func localFlags(cmd *cobra.Command, cf *checkFlags) error {
	if cf.textfileDir != "" {
		if cmd.Flags().Changed("format") && cf.formatName != prometheusFormat {
			return fmt.Errorf("--textfile-dir writes the prometheus format for node-exporter's textfile collector: drop -format %s", cf.formatName)
		}
		if cf.output != "" {
			return fmt.Errorf("--textfile-dir writes %s in its directory: drop --output %s", textfileName, cf.output)
		}
		cf.formatName = prometheusFormat
		cf.output = filepath.Join(cf.textfileDir, textfileName)
	}
	if !cf.local {
		return nil
	}
	for _, r := range localRefused {
		if cmd.Flags().Changed(r.flag) {
			return fmt.Errorf("--%s: %s", r.flag, r.why)
		}
	}
	host, fabric := check.HostRules()
	for _, id := range cf.only {
		r := check.Lookup(id)
		if r != nil && !slices.Contains(host, r.ID) {
			return fmt.Errorf("--rule %s: %s needs other devices' readings, which a host does not have: run it in a central fabricgen check (--local judges %s)", id, r.ID, strings.Join(host, ", "))
		}
	}
	if len(cf.only) == 0 {
		cf.only = host
		cf.leftCentral = fabric
	}
	return nil
}

// leftToCentral is the one line a --local run says about the rules it
// leaves to a central run.
func leftToCentral(ids []string) string {
	var parts []string
	for _, id := range ids {
		if r := check.Lookup(id); r != nil {
			parts = append(parts, id+" ("+r.Title+")")
		}
	}
	return "check --local: left to a central fabricgen check, since a host cannot judge them from its own NICs alone: " + strings.Join(parts, "; ")
}

// localDevices are the NICs a --local run reads: those --device names
// (never a switch), else those whose host attribute is this host's name
// (or its first label).
func localDevices(f *schema.Fabric, globs []string, hostname func() (string, error)) ([]*schema.Device, error) {
	if len(globs) > 0 {
		devs, err := push.SelectDevices(f, globs)
		if err != nil {
			return nil, err
		}
		for _, d := range devs {
			if !d.HostPlatform {
				return nil, fmt.Errorf("--local reads this host's own NICs: %s is a switch (%s); judge switches with a central fabricgen check", d.Name, d.Platform.V)
			}
		}
		return devs, nil
	}
	name, err := hostname()
	if err != nil {
		return nil, fmt.Errorf("--local: this host's name: %w; name its NICs with --device", err)
	}
	short, _, _ := strings.Cut(name, ".")
	var devs []*schema.Device
	known := map[string]bool{}
	for _, d := range f.Devices {
		if !d.HostPlatform || d.Host.V == "" {
			continue
		}
		known[d.Host.V] = true
		if strings.EqualFold(d.Host.V, name) || strings.EqualFold(d.Host.V, short) {
			devs = append(devs, d)
		}
	}
	if len(devs) > 0 {
		return devs, nil
	}
	hosts := make([]string, 0, len(known))
	for h := range known {
		hosts = append(hosts, h)
	}
	sort.Slice(hosts, func(i, j int) bool { return schema.NaturalLess(hosts[i], hosts[j]) })
	list := "none: no NIC of the intent sets host"
	if len(hosts) > 0 {
		more := ""
		if len(hosts) > maxHostsListed {
			more = fmt.Sprintf(" and %d more", len(hosts)-maxHostsListed)
			hosts = hosts[:maxHostsListed]
		}
		list = strings.Join(hosts, ", ") + more
	}
	return nil, fmt.Errorf("--local: no NIC of fabric %s has host = %q (this host's name): the intent knows hosts %s; set host on this host's NICs or name them with --device", f.Name, name, list)
}

// localRunner is the runner of a --local run: the streams' test hook, or
// a LocalRunner on this host.
func localRunner(cmd *cobra.Command, s *streams, cf *checkFlags) func(*schema.Device) (collect.Runner, error) {
	if s.localRunner != nil {
		return s.localRunner
	}
	r := &snapshot.LocalRunner{Ctx: cmd.Context(), Timeout: cf.timeout, MaxOutput: int64(cf.maxOutput) << 20}
	return func(*schema.Device) (collect.Runner, error) { return r, nil }
}

// checkReportTarget refuses a report path that is there but not a
// regular file (a directory, a FIFO, a device): renaming over it would
// fail late or replace something that is not a report.
func checkReportTarget(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--output %s: %w", path, err)
	}
	if st.Mode()&os.ModeSymlink != 0 {
		if st, err = os.Stat(path); err != nil {
			return fmt.Errorf("--output %s: %w", path, err)
		}
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("--output %s is a %s, not a report file: remove it or write elsewhere", path, readlimit.Kind(st.Mode()))
	}
	return nil
}

// noteOnce writes a line to w.
func noteOnce(w io.Writer, line string) { fmt.Fprintln(w, line) }
