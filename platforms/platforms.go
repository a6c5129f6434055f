// Package platforms is the one registry of platforms: one line per
// platform folder. Every layer loops over All; nothing else lists
// platforms.
package platforms

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/platform"
	aristaeos "github.com/fabricgen/fabricgen/platforms/arista_eos"
	cisconxos "github.com/fabricgen/fabricgen/platforms/cisco_nxos"
	ibswitch "github.com/fabricgen/fabricgen/platforms/ib_switch"
	juniperjunos "github.com/fabricgen/fabricgen/platforms/juniper_junos"
	linuxdcb "github.com/fabricgen/fabricgen/platforms/linux_dcb"
	nvidiacumulus "github.com/fabricgen/fabricgen/platforms/nvidia_cumulus"
	nvidiamlnx "github.com/fabricgen/fabricgen/platforms/nvidia_mlnx"
	"github.com/fabricgen/fabricgen/platforms/sonic"
	"github.com/fabricgen/fabricgen/schema"
)

// All returns every platform, one line each. The list is built on each
// call, so nothing can change it.
func All() []platform.Platform {
	return []platform.Platform{
		aristaeos.Platform(),
		cisconxos.Platform(),
		juniperjunos.Platform(),
		nvidiacumulus.Platform(),
		sonic.Platform(),
		nvidiamlnx.Platform(),
		linuxdcb.Platform(),
		ibswitch.Platform(),
	}
}

// Get returns the platform named p, and false when no folder has that name.
func Get(p schema.Platform) (platform.Platform, bool) {
	for _, pl := range All() {
		if pl.Name == p {
			return pl, true
		}
	}
	return platform.Platform{}, false
}

// Names returns every platform's name, sorted.
func Names() []string {
	var out []string
	for _, pl := range All() {
		out = append(out, string(pl.Name))
	}
	sort.Strings(out)
	return out
}

// Problems checks a registry: every platform of names has exactly one
// entry, every entry is a platform of names, and every entry has all its
// parts. Each problem names the platform and what is missing.
func Problems(all []platform.Platform, names []schema.Platform) []string {
	var out []string
	seen := map[schema.Platform]int{}
	for _, p := range all {
		seen[p.Name]++
		out = append(out, p.Missing()...)
	}
	known := map[schema.Platform]bool{}
	for _, n := range names {
		known[n] = true
		switch seen[n] {
		case 0:
			out = append(out, fmt.Sprintf("platform %s: no line in platforms/platforms.go", n))
		case 1:
		default:
			out = append(out, fmt.Sprintf("platform %s: %d lines in platforms/platforms.go, want one", n, seen[n]))
		}
	}
	for _, p := range all {
		if !known[p.Name] {
			out = append(out, fmt.Sprintf("platforms/%s: %q is not a platform name the intent accepts", p.Folder, p.Name))
		}
	}
	sort.Strings(out)
	return out
}

// Check returns an error naming every problem of the registry (nil when
// it is complete): a folder without a part, or two lines of one name. The
// registry is the list of platforms, so every name it holds is one the
// intent accepts (Catalog).
func Check() error {
	if p := Problems(All(), unique(List())); len(p) > 0 {
		return fmt.Errorf("platform registry incomplete:\n  %s", strings.Join(p, "\n  "))
	}
	return nil
}

// unique returns names without repeats, in order.
func unique(names []schema.Platform) []schema.Platform {
	var out []schema.Platform
	seen := map[schema.Platform]bool{}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}
