package config

import (
	"strings"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/textdiff"
)

// Comparison is one device's running state against its rendered config.
type Comparison struct {
	// RunningSHA256 hashes the normalised running config.
	RunningSHA256 string
	// Running and Desired are the canonical managed sections compared.
	Running, Desired string
	Changes          *ChangeSet
	Diff             Diff
	// Replaced lists the managed lines of the running config the change
	// removes or replaces ("interface Ethernet1 > service-profile P",
	// "PORT_QOS_MAP|Ethernet0|dscp_to_tc_map = AZURE"), in canonical
	// order: what a change takes over from the device.
	Replaced []string
}

// Compare normalises the running config, extracts the managed sections of
// both sides, and computes the change set and the unified diff (labelled
// "<device> (running)" and "<device> (fabricgen)"). Host platforms compare
// facts (see CompareHost).
func Compare(device, running, rendered string, d *dialect.Dialect) (*Comparison, error) {
	return CompareScoped(device, running, rendered, "", d)
}

// CompareScoped is Compare where the config fabricgen applied last
// (scope) is managed too: an ACL or class-map it defined that the intent
// no longer has is removed, an interface it configured that the intent no
// longer names loses its managed lines, and a CONFIG_DB field it set that
// the render no longer sets is removed. Hosts ignore scope.
func CompareScoped(device, running, rendered, scope string, d *dialect.Dialect) (*Comparison, error) {
	return CompareSource(device, running, NewSource(rendered, d), NewSource(scope, d), d)
}

// CompareSource is CompareScoped with the rendered config and the scope
// parsed once (NewSource), for the many reads of one device a plan or an
// apply compares; scope may be nil.
func CompareSource(device, running string, rendered, scope *Source, d *dialect.Dialect) (*Comparison, error) {
	if d.Files {
		return compareFiles(device, running, rendered.Text(), "fabricgen")
	}
	if d.Host {
		return CompareHost(device, running, rendered.Text(), d)
	}
	if d.ConfigDB {
		return compareConfigDB(device, running, rendered.Text(), scope.Text(), "", d)
	}
	run, want := managedScoped(Parse(running, d), rendered.orEmpty(), scope.parsed(), d)
	crun, cwant := Canonical(run, d), Canonical(want, d)
	c := &Comparison{
		RunningSHA256: Digest(running, d),
		Running:       crun.Text(d.Indent),
		Desired:       cwant.Text(d.Indent),
		Changes:       Changes(run, want, d),
		Replaced:      removedPaths(crun.Nodes, cwant.Nodes, ""),
	}
	c.Diff = Unified(device+" (running)", device+" (fabricgen)", c.Running, c.Desired)
	return c, nil
}

// removedPaths lists the lines of run that want lacks, as "parent > line"
// paths, depth first.
func removedPaths(run, want []*Node, prefix string) []string {
	wantBy := index(want)
	var out []string
	for _, n := range run {
		path := n.Line
		if prefix != "" {
			path = prefix + " > " + n.Line
		}
		w, ok := wantBy[n.Line]
		if !ok {
			out = append(out, path)
			continue
		}
		out = append(out, removedPaths(n.Children, w.Children, path)...)
	}
	return out
}

// ManagedPaths lists every managed line of a config as "parent > line"
// paths (CONFIG_DB: "TABLE|key|field = value"; hosts: facts): what
// fabricgen considers its own after applying that config.
func ManagedPaths(config string, d *dialect.Dialect) ([]string, error) {
	return ManagedPathsSource(NewSource(config, d), d)
}

// ManagedPathsSource is ManagedPaths of a config parsed once.
func ManagedPathsSource(src *Source, d *dialect.Dialect) ([]string, error) {
	config := src.Text()
	switch {
	case d.Files:
		return managedFilePaths(config)
	case d.Host:
		// The preamble lookups (an RDMA device name the host prints)
		// stand for themselves: both sides compared name them alike.
		values := map[string]string{}
		for _, l := range HostLookups(config) {
			values[l.Var] = l.Var
		}
		actions, err := ParseHostScript(ResolveHostScript(config, values))
		if err != nil {
			return nil, err
		}
		var out []string
		for _, a := range actions {
			for _, f := range a.Facts {
				out = append(out, f.ID()+" = "+f.Value)
			}
		}
		return out, nil
	case d.ConfigDB:
		c, err := compareConfigDB("", "", config, "", "", d)
		if err != nil {
			return nil, err
		}
		return nonEmptyLines(c.Desired), nil
	}
	_, want := Managed(&Tree{}, src.orEmpty(), d)
	return allPaths(Canonical(want, d).Nodes, ""), nil
}

func allPaths(ns []*Node, prefix string) []string {
	var out []string
	for _, n := range ns {
		path := n.Line
		if prefix != "" {
			path = prefix + " > " + n.Line
		}
		out = append(out, path)
		out = append(out, allPaths(n.Children, path)...)
	}
	return out
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// Diff is a unified diff and its line counts (textdiff.Diff).
type Diff = textdiff.Diff

// Unified diffs a against b line by line (textdiff.Unified: go-diff with
// its timeout off).
func Unified(fromName, toName, a, b string) Diff {
	return textdiff.Unified(fromName, toName, a, b)
}
