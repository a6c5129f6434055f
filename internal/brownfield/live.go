package brownfield

import (
	"context"
	"fmt"
	"path"
	"sort"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// Live is a device to read over SSH: its name, address and platform, and
// how to log in.
type Live struct {
	Name     string
	Addr     string
	Platform schema.Platform
	Creds    schema.Credentials
}

// LiveOptions are the session settings of a live import: the same host
// key policy, timeouts and environment as plan's.
type LiveOptions struct {
	HostKeys *session.HostKeys
	Timeout  time.Duration
	Getenv   func(string) string
	// Parallel bounds the sessions open at once (8 when 0).
	Parallel int
}

// Select returns the inventory's devices whose names match glob (path.Match
// syntax; "" matches all), sorted by name.
func Select(inv map[string]string, glob string) ([]string, error) {
	var out []string
	for name := range inv {
		ok := true
		if glob != "" {
			m, err := path.Match(glob, name)
			if err != nil {
				return nil, fmt.Errorf("--device %q: %w", glob, err)
			}
			ok = m
		}
		if ok {
			out = append(out, name)
		}
	}
	sort.Slice(out, func(i, j int) bool { return schema.NaturalLess(out[i], out[j]) })
	return out, nil
}

// ReadLive opens a session to each device and reads its running
// configuration, as plan reads it: the sources an import reads, named
// "<device>.<ext>" (the platform's running-config file form). Hosts have
// no running configuration: import them from their setup script or the
// output of their read-back commands.
func ReadLive(ctx context.Context, devs []Live, o LiveOptions) ([]Source, error) {
	if o.HostKeys == nil {
		return nil, fmt.Errorf("no host key policy: pass --known-hosts FILE or --insecure-ignore-host-key")
	}
	out := make([]Source, len(devs))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(o.Parallel, 1))
	if o.Parallel == 0 {
		g.SetLimit(8)
	}
	for i, d := range devs {
		p, ok := platforms.Get(d.Platform)
		if !ok {
			return nil, fmt.Errorf("%s: unknown platform %q", d.Name, d.Platform)
		}
		if p.Dialect == nil || p.Spec.Host {
			return nil, fmt.Errorf("%s: a %s host has no running configuration to read; import it from its setup script or its mlnx_qos -i / dcb -j output saved to a file", d.Name, d.Platform)
		}
		g.Go(func() error {
			auth, err := session.ResolveAuth(d.Name, d.Creds, o.Getenv, nil)
			if err != nil {
				return err
			}
			conn, err := session.Open(gctx, session.Target{Name: d.Name, Addr: d.Addr, Dialect: p.Dialect(), Auth: auth, HostKeys: o.HostKeys, Timeout: o.Timeout, Getenv: o.Getenv})
			if err != nil {
				return err
			}
			defer func() { _ = conn.Close() }()
			text, err := conn.RunningConfig()
			if err != nil {
				return fmt.Errorf("%s: reading the running configuration: %w", d.Name, err)
			}
			src := Source{Name: d.Name + "." + p.RunningConfig.Ext, Data: []byte(text), Platform: d.Platform}
			if p.LLDP.Command != "" && p.LLDP.Parse != nil {
				lldp, err := conn.Show(p.LLDP.Command)
				if err != nil {
					return fmt.Errorf("%s: reading LLDP neighbours: %w", d.Name, err)
				}
				if src.Neighbors, err = p.LLDP.Parse(lldp); err != nil {
					return fmt.Errorf("%s: %s: %w", d.Name, p.LLDP.Command, err)
				}
			}
			out[i] = src
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}
