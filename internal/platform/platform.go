// Package platform defines what one platform folder (platforms/<name>/)
// gives the rest of fabricgen: one Platform value holding every part the
// layers need (push dialect, lab emulator, running-config reader, check
// collector, data-plane answers, ...). The layers define the small types
// of those parts; this package gathers them; package platforms lists the
// values, one line per platform, and every layer loops over that list.
package platform

import (
	"io/fs"
	"sort"

	"github.com/fabricgen/fabricgen/internal/check/collect"
	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/txn"
	"github.com/fabricgen/fabricgen/internal/qosread"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates/view"
)

// Platform is everything fabricgen knows about one platform, as its folder
// gives it. A field left empty is a missing part: Missing names it.
type Platform struct {
	// Name is the platform's name in the intent (a device's platform).
	Name schema.Platform
	// Folder is the platform's folder under platforms/ (its name), so a
	// completeness error can say where the missing part belongs.
	Folder string
	// Spec is what the intent language needs of the platform (spec.go):
	// host or switch, port names, free-text refusals, release form,
	// platform-only device attributes, rendered-name limits. The loader
	// takes the catalog of them (platforms.Catalog).
	Spec schema.PlatformSpec

	// Push and lab parts (dialect, emulator) go below this line.

	// Dialect builds the platform's push dialect (a fresh value each
	// call, so a caller may keep or change it): how push opens a
	// session, reads, diffs and applies (dialect.go).
	Dialect func() *dialect.Dialect
	// Emulator builds the lab's emulator of one of the platform's
	// devices (emulator/).
	Emulator func(env *cli.Env) (cli.Emulator, error)
	// RunningConfig is the form of the configuration the lab exports
	// and starts from (lab show, lab up --running-config).
	RunningConfig RunningConfig
	// Transaction is how push changes the platform's devices safely:
	// stage, verify, undo, find other runs' work in flight (txn.go; the
	// hosts share platforms/internal/hostpush). Its Kind is the
	// dialect's Transaction.
	Transaction txn.Transaction
	// ZeroDSCP is the seed's second case as a hand edit on one of the
	// platform's switches (handedit.go): the lines another administrator
	// would enter, in the form Device.ConfigureOutOfBand takes, to make
	// the switch send RoCE on with DSCP 0 (a set dscp 0 policy, a DSCP
	// rewrite), which the platform's emulator accepts and its reader
	// reads, so the lab's data plane zeroes RoCE's DSCP at that hop and
	// fabricgen check pins it there (CHK014, CHK016). fabricgen demo
	// loops the registry for it. Hosts have none.
	ZeroDSCP func(at RoCEAt) []string

	// Read-back, data-plane and check parts (reader, responder,
	// collector) go below this line.

	// Reader reads the QoS the platform runs from its running-config
	// text (platforms/<name>/reader.go). Hosts have none: a host's
	// configuration is a script of commands, not a text a device prints
	// back, and its read-back is per setting (the check collector's).
	Reader qosread.Reader
	// Collector reads a live device of the platform for fabricgen check
	// (platforms/<name>/collector.go; the hosts share
	// platforms/internal/hostcheck).
	Collector collect.Collector
	// Responder answers the platform's data-plane commands in the lab
	// (platforms/<name>/responder.go; the hosts share
	// platforms/internal/hostcheck): the read-only commands its collector
	// runs, in their documented shapes.
	Responder dataplane.Responder
	// LLDP reads the device's LLDP neighbours for fabricgen import
	// --inventory (platforms/<name>/lldp.go): a read-only command and its
	// parser. The lab's responder answers the command from the intent's
	// links.
	LLDP LLDP
	// Import reads a configuration file of the platform (running
	// config, host script or host state, in any of the forms the
	// platform prints) back into intent terms for fabricgen import
	// (platforms/<name>/importer.go).
	Import importer.Func

	// Render parts (templates, view builder, fidelity rows) go below
	// this line.

	// Render is how the platform's files are named and commented
	// (extension, comment marker, vendor docs) and what its header adds.
	Render view.Info
	// View builds the data the platform's templates print (view.go).
	View view.Builder
	// Templates holds the platform's embedded templates, device.tmpl and
	// its sub-templates (templates/*.tmpl).
	Templates fs.FS
	// Fidelity is the platform's fidelity rows (fidelity.md): a markdown
	// table of every line shape its templates emit, with its public
	// source and status; docs/templates.md's table is made from them.
	Fidelity string
}

// RoCEAt is what a ZeroDSCP hand edit needs to know of RoCE at one
// switch.
type RoCEAt struct {
	// Ports are the switch ports the edit applies to (RoCE arrives on
	// them, or leaves by them: an ingress policy or an egress rewrite).
	Ports []string
	// Class is the name fabricgen's render gives RoCE's class on the
	// switch (view.ClassNames: a Junos forwarding class).
	Class string
	// Priority is RoCE's priority in the intent (an EOS traffic class,
	// a SONiC TC); Queue is its egress queue (an NX-OS qos-group).
	Priority, Queue int
}

// RunningConfig is what one platform's saved configuration looks like:
// the file `fabricgen lab up --running-config` reads for a device
// (NAME.Ext) and the form `fabricgen lab show` prints.
type RunningConfig struct {
	// Ext is the file extension, without the dot.
	Ext string
	// Form says in words what the file holds, for help texts.
	Form string
}

// Part is one piece a platform folder provides, and how to tell it is
// there.
type Part struct {
	// Name is the part in messages ("push dialect", "lab emulator").
	Name string
	// Doc says in a line what the part is, for docs/adding-a-platform.md.
	Doc string
	// File is where the part lives in the folder ("dialect.go").
	File string
	// Present reports whether p has the part.
	Present func(p Platform) bool
	// Applies reports whether a platform of spec s must have the part
	// (nil: every platform must); For says which in words, for docs.
	Applies func(s schema.PlatformSpec) bool
	For     string
}

// AppliesTo reports whether a platform of spec s must have the part.
func (pt Part) AppliesTo(s schema.PlatformSpec) bool { return pt.Applies == nil || pt.Applies(s) }

// Part scopes. A managed switch (InfiniBand's ib_switch, configured by
// the subnet manager) has only a name and an intent spec. The push, lab
// and read-back parts are Ethernet's: the devices of an InfiniBand fabric
// are configured through the subnet manager's files.
// A subnet manager is pushed and has a lab device: it is reached over SSH
// like a host, its files written and the tables it programs read back.
var (
	notManaged = func(s schema.PlatformSpec) bool { return !s.Managed }
	ethernet   = func(s schema.PlatformSpec) bool { return !s.Managed && s.SpeaksLinkLayer(schema.LinkEthernet) }
	pushed     = func(s schema.PlatformSpec) bool { return ethernet(s) || s.FitsKind(schema.KindSubnetManager) }
)

const (
	forAll      = "every platform"
	forRendered = "every platform but a managed switch"
	forEthernet = "Ethernet platforms"
	forPushed   = "Ethernet platforms and subnet managers"
)

// Parts lists every part a platform folder must provide, in a stable order.
func Parts() []Part {
	parts := []Part{
		{Name: "name", For: forAll, Doc: "the platform's name in the intent and its folder", File: "platform.go", Present: func(p Platform) bool { return p.Name != "" && p.Folder != "" }},
		// Intent parts: what the loader needs of the platform.
		{Name: "intent spec", For: forAll, Doc: "what the loader needs: host or switch, port names, characters refused in free text, platform-only attributes, name limits", File: "spec.go", Present: func(p Platform) bool {
			s := p.Spec
			return s.Name == p.Name && s.Ports.Check != nil && s.Ports.Form != "" && s.Text.Why != ""
		}},
		// A switch has a release syntax; a host renders the same for every
		// release.
		{Name: "release forms", Applies: notManaged, For: forRendered, Doc: "the os_version syntax and the release rendered when none is set (switches)", File: "spec.go", Present: func(p Platform) bool {
			if p.Spec.Release == nil {
				return p.Spec.Host
			}
			_, err := p.Spec.ParseVersion(p.Spec.Release.Default)
			return err == nil
		}},
		// Push and lab parts.
		{Name: "push dialect", Applies: pushed, For: forPushed, Doc: "how push opens a session, reads the running config, which sections it manages and how a line is undone", File: "dialect.go", Present: func(p Platform) bool { return p.Dialect != nil }},
		{Name: "lab emulator", Applies: pushed, For: forPushed, Doc: "the lab device: prompts, modes, `show running-config`, transactions, vendor-style errors", File: "emulator/", Present: func(p Platform) bool { return p.Emulator != nil }},
		{Name: "push transaction", Applies: pushed, For: forPushed, Doc: "how a change is staged, verified, confirmed and undone, and what an interrupted run left", File: "txn.go", Present: func(p Platform) bool { return p.Transaction.Run != nil }},
		// A switch can be given the seed's DSCP reset by hand; a host
		// has no switch ports to reset it on.
		{Name: "hand edit resetting DSCP", Applies: ethernet, For: forEthernet, Doc: "the lines that make a switch send RoCE on with DSCP 0, as an administrator would type them, for `fabricgen demo` and the lab (switches)", File: "handedit.go", Present: func(p Platform) bool { return p.ZeroDSCP != nil || p.Spec.Host }},
		{Name: "running-config file form", Applies: pushed, For: forPushed, Doc: "the file `lab up --running-config` reads and `lab show` prints", File: "platform.go", Present: func(p Platform) bool {
			return p.RunningConfig.Ext != "" && p.RunningConfig.Form != ""
		}},

		// Read-back, data-plane and check parts.
		// A switch must have a reader; a host has no running-config text
		// to read (see Platform.Reader).
		{Name: "running-config reader", Applies: ethernet, For: forEthernet, Doc: "running-config text to the vendor-neutral QoS facts (switches; a host is read back per setting)", File: "reader.go", Present: func(p Platform) bool { return p.Reader != nil || p.Spec.Host }},
		{Name: "importer", Applies: ethernet, For: forEthernet, Doc: "a configuration file (running config, host script or read-back output, in every form the platform prints) back into intent terms, for `fabricgen import`", File: "importer.go", Present: func(p Platform) bool { return p.Import != nil }},
		{Name: "check collector", Applies: ethernet, For: forEthernet, Doc: "the read-only commands `check` runs and their parsers", File: "collector.go", Present: func(p Platform) bool { return p.Collector != nil }},
		{Name: "data-plane responder", Applies: ethernet, For: forEthernet, Doc: "the lab's answers to the collector's commands", File: "responder.go", Present: func(p Platform) bool { return p.Responder.Show != nil || p.Responder.Exec != nil }},
		{Name: "lldp reader", Applies: ethernet, For: forEthernet, Doc: "the read-only command that lists LLDP neighbours, and its parser, for `import --inventory` link blocks", File: "lldp.go", Present: func(p Platform) bool { return p.LLDP.Command != "" && p.LLDP.Parse != nil }},

		// Render parts.
		{Name: "render info", Applies: notManaged, For: forRendered, Doc: "file extension, comment marker, vendor documentation", File: "platform.go", Present: func(p Platform) bool { return p.Render.Ext != "" && p.Render.Docs != "" }},
		{Name: "view builder", Applies: notManaged, For: forRendered, Doc: "the intent to the data the templates print, refusing what the platform cannot express", File: "view.go", Present: func(p Platform) bool { return p.View != nil }},
		{Name: "templates", Applies: notManaged, For: forRendered, Doc: "`device.tmpl` and its sub-templates", File: "templates/device.tmpl", Present: func(p Platform) bool {
			if p.Templates == nil {
				return false
			}
			_, err := fs.Stat(p.Templates, "device.tmpl")
			return err == nil
		}},
		{Name: "fidelity rows", Applies: notManaged, For: forRendered, Doc: "every line shape the templates emit, with its vendor source", File: "fidelity.md", Present: func(p Platform) bool { return p.Fidelity != "" }},
	}
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].Name < parts[j].Name })
	return parts
}

// Missing returns the parts p lacks, each as "platforms/<folder>: no
// <part> (<file>)", in a stable order; nil when the folder is complete.
func (p Platform) Missing() []string {
	var out []string
	for _, part := range Parts() {
		if part.AppliesTo(p.Spec) && !part.Present(p) {
			out = append(out, "platforms/"+p.Folder+": no "+part.Name+" ("+part.File+")")
		}
	}
	return out
}

// LLDP is how a platform's LLDP neighbours are read: Command is the
// read-only CLI line (switches) or shell command (hosts), Parse its
// output's parser. A zero LLDP reads none.
type LLDP struct {
	Command string
	Parse   func(out string) ([]importer.Neighbor, error)
}
