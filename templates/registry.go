package templates

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"

	"github.com/fabricgen/fabricgen/schema"
)

// builder turns the platform-independent view into the platform's view, or
// fails with an *UnsupportedError for a value the platform cannot express.
type builder func(f *schema.Fabric, d *schema.Device, b Base) (any, error)

// PlatformInfo describes how one platform's files are named and commented.
type PlatformInfo struct {
	// Platform is the platform name.
	Platform schema.Platform
	// Ext is the file extension without the dot ("cfg", "json", "sh", ...).
	Ext string
	// Comment is the line-comment marker ("!", "#"), or "" when the format has none.
	Comment string
	// Docs names the vendor documentation the embedded templates follow.
	Docs string
	// NoRestoration says why the platform's render cannot set the PFC
	// watchdog restoration time ("" when it renders one; lint's WDG005
	// reports the switches it applies to).
	NoRestoration string
}

type platformSpec struct {
	PlatformInfo
	build builder
}

// registry is the one table of platforms: name → view builder, template
// set (templates/<platform>/), file extension and comment syntax.
func registry() map[schema.Platform]platformSpec {
	return map[schema.Platform]platformSpec{
		schema.AristaEOS: {PlatformInfo{schema.AristaEOS, "cfg", "!",
			"Arista EOS User Manual (QoS, PFC, ACL chapters); AVD eos_cli_config_gen output", ""}, buildEOS},
		schema.CiscoNXOS: {PlatformInfo{schema.CiscoNXOS, "cfg", "!",
			"Cisco Nexus 9000 NX-OS Quality of Service Configuration Guide (classification, queuing, network-qos, PFC)",
			"no Cisco source confirms an NX-OS restore-timer command, so the switch restores on its own default"}, buildNXOS},
		schema.JuniperJunos: {PlatformInfo{schema.JuniperJunos, "set", "#",
			"Junos OS Traffic Management (QFX): classifiers, forwarding-classes, congestion-notification-profile, schedulers", ""}, buildJunos},
		schema.NvidiaCumulus: {PlatformInfo{schema.NvidiaCumulus, "nvue", "#",
			"NVIDIA Cumulus Linux 5.7 and later user guides (Quality of Service, RoCE, ACLs) and NVUE command reference",
			"the Cumulus PFC watchdog has no restoration time; it restores a queue when the storm ends"}, buildCumulus},
		schema.SONiC: {PlatformInfo{schema.SONiC, "json", "",
			"SONiC CONFIG_DB schema (sonic-buildimage src/sonic-yang-models)", ""}, buildSONiC},
		schema.NvidiaMLNX: {PlatformInfo{schema.NvidiaMLNX, "sh", "#",
			"NVIDIA MLNX_OFED user manual (mlnx_qos, ECN sysfs), mlnx-tools cma_roce_tos", ""}, buildMLNX},
		schema.LinuxDCB: {PlatformInfo{schema.LinuxDCB, "sh", "#",
			"iproute2 dcb(8), dcb-app(8), dcb-pfc(8), dcb-ets(8) man pages", ""}, buildDCB},
	}
}

// Platforms returns the rendering details of every platform in the stable
// order of schema.Platforms.
func Platforms() []PlatformInfo {
	reg := registry()
	out := make([]PlatformInfo, 0, len(reg))
	for _, p := range schema.Platforms() {
		out = append(out, reg[p].PlatformInfo)
	}
	return out
}

// checkRegistry reports every platform of platforms that lacks a registry
// entry (or its builder or file extension), or an embedded template folder
// with the entry template, and every registry entry or folder of a platform
// schema does not know. The error names them all.
func checkRegistry(platforms []schema.Platform, reg map[schema.Platform]platformSpec, fsys fs.FS) error {
	var errs []error
	known := make(map[schema.Platform]bool, len(platforms))
	for _, p := range platforms {
		known[p] = true
		spec, ok := reg[p]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("platform %s has no entry in templates/registry.go", p))
		case spec.build == nil || spec.Ext == "" || spec.Platform != p:
			errs = append(errs, fmt.Errorf("platform %s: its registry entry lacks a builder, a file extension or its own name", p))
		}
		if _, err := fs.Stat(fsys, path.Join(string(p), entry)); err != nil {
			errs = append(errs, fmt.Errorf("platform %s has no template folder templates/%s/ with %s: %w", p, p, entry, err))
		}
	}
	for p := range reg {
		if !known[p] {
			errs = append(errs, fmt.Errorf("registry entry %s is not a schema platform", p))
		}
	}
	dirs, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return fmt.Errorf("listing the template folders: %w", err)
	}
	for _, d := range dirs {
		if d.IsDir() && !known[schema.Platform(d.Name())] {
			errs = append(errs, fmt.Errorf("template folder templates/%s/ is not a schema platform", d.Name()))
		}
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errors.Join(errs...)
}
