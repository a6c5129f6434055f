package config

import (
	"github.com/fabricgen/fabricgen/push/dialect"
)

// Comparison is one device's running state against its rendered config.
type Comparison struct {
	// RunningSHA256 hashes the normalised running config.
	RunningSHA256 string
	// Running and Desired are the canonical managed sections compared.
	Running, Desired string
	Changes          *ChangeSet
	Diff             Diff
}

// Compare normalises the running config, extracts the managed sections of
// both sides, and computes the change set and the unified diff (labelled
// "<device> (running)" and "<device> (fabricgen)"). Host platforms compare
// facts (see CompareHost).
func Compare(device, running, rendered string, d *dialect.Dialect) (*Comparison, error) {
	if d.Host {
		return CompareHost(device, running, rendered, d)
	}
	if d.ConfigDB {
		return CompareConfigDB(device, running, rendered, d)
	}
	run, want := Managed(Parse(running, d), Parse(rendered, d), d)
	c := &Comparison{
		RunningSHA256: Digest(running, d),
		Running:       Canonical(run, d).Text(d.Indent),
		Desired:       Canonical(want, d).Text(d.Indent),
		Changes:       Changes(run, want, d),
	}
	c.Diff = Unified(device+" (running)", device+" (fabricgen)", c.Running, c.Desired)
	return c, nil
}
