// Package dialect is the kit of push dialects: the types a platform
// folder (platforms/<name>/dialect.go) fills in to say how to open a
// session (scrapligo definition or prompt), how to read the running
// config, which lines are volatile, which sections fabricgen manages, and
// which transaction the platform offers. The allowlist of push platforms
// is package platforms (platforms.Dialect).
//
// Nothing here does I/O. push/session opens sessions from a Dialect,
// push/config normalises and diffs with it, and push applies with its
// Transaction.
package dialect

import (
	"regexp"
	"strings"

	"github.com/fabricgen/fabricgen/schema"
)

// Transaction names how a platform stages, verifies and undoes a change.
type Transaction string

// Transactions fabricgen knows.
const (
	// TxnSession is an EOS configuration session: configure session NAME,
	// the lines, show session-config diffs, commit timer, then commit to
	// confirm or abort to discard.
	TxnSession Transaction = "config-session"
	// TxnCheckpoint is NX-OS: checkpoint NAME, configure terminal with the
	// lines, rollback running-config checkpoint NAME on failure.
	TxnCheckpoint Transaction = "checkpoint"
	// TxnHost runs idempotent commands one at a time on a host shell, reads
	// the state back, and re-applies the saved values on failure.
	TxnHost Transaction = "host-commands"
	// TxnCommitConfirmed is Junos: an exclusive candidate (configure
	// exclusive), set/delete statements, show | compare, commit confirmed
	// N, verify, then commit to confirm; rollback 1 and commit undo a
	// confirmed-pending commit.
	TxnCommitConfirmed Transaction = "commit-confirmed"
	// TxnNVUE is Cumulus NVUE: nv set / nv unset stage a pending
	// revision, nv config diff shows it, nv config apply --confirm T
	// applies it with an automatic rollback, nv config apply
	// --confirm-yes confirms; nv config detach discards a pending
	// revision, --confirm-no rolls an applied one back.
	TxnNVUE Transaction = "nvue-revision"
	// TxnGCU is SONiC's generic config updater: config checkpoint NAME,
	// config apply-patch FILE (a JSON Patch validated against the YANG
	// models), config rollback NAME on failure, config delete-checkpoint
	// NAME.
	TxnGCU Transaction = "generic-config-updater"
	// TxnFiles is a subnet manager host's files (OpenSM's): the new files
	// are written into a private directory next to the live ones, checked
	// there by the daemon's own parser, swapped in with a rename, the
	// daemon told to re-read them (SIGHUP), the tables it programs read
	// back; on any failure the saved files are put back and the daemon
	// told again.
	TxnFiles Transaction = "file-swap"
)

// Driver says which scrapligo driver a platform uses.
type Driver string

// scrapligo drivers.
const (
	// DriverNetwork is scrapligo's network driver with a built-in platform
	// definition (privilege levels, paging off on open, failure strings).
	DriverNetwork Driver = "network"
	// DriverGeneric is scrapligo's generic driver with our own prompt.
	DriverGeneric Driver = "generic"
)

// Section is one kind of configuration stanza fabricgen manages.
type Section struct {
	// Name describes the section in messages ("qos map", "interface").
	Name string
	// Match matches the stanza's top-level line.
	Match *regexp.Regexp
	// Named means the stanza defines a named object (ACL, class-map,
	// policy-map); fabricgen owns it only when the rendered config
	// defines an object of the same name, so other teams' objects are
	// never shown or touched. The name is Match's first submatch.
	Named bool
	// Shared means the stanza is not fabricgen's (an interface): only the
	// child lines matching Children are managed, and only when the
	// rendered config has the stanza.
	Shared   bool
	Children []*regexp.Regexp
	// Ordered means the order of the children is significant (policy-map
	// classes are matched first to last); otherwise children are compared
	// as a set and printed in natural order.
	Ordered bool
}

// Dialect is everything push needs to know about one platform.
type Dialect struct {
	Platform schema.Platform
	Driver   Driver
	// Scrapli is the scrapligo built-in platform name (DriverNetwork only).
	Scrapli string
	// PromptNotContains replaces the not-contains list of a scrapligo
	// privilege level (by name), where the built-in definition mistakes
	// one of the platform's prompts for another.
	PromptNotContains map[string][]string
	// Prompt is the prompt regexp for DriverGeneric.
	Prompt string
	// OnOpen are commands sent after login (paging off) for DriverGeneric;
	// the network driver's definitions carry their own.
	OnOpen []string
	// FailedWhenContains are output substrings meaning "the device
	// rejected the input", for DriverGeneric (the network definitions
	// carry their own).
	FailedWhenContains []string
	// ShowRunning is the command printing the running config.
	ShowRunning string
	// Volatile lines are dropped before anything is hashed or compared.
	Volatile []*regexp.Regexp
	// Canonical, when set, rewrites a configuration line (without its
	// indentation) to the form the templates write, before anything is
	// hashed or compared: EOS and NX-OS print well-known ACL ports by
	// name ("eq bgp") where fabricgen writes the number ("eq 179").
	Canonical func(line string) string
	// Indent is the number of spaces per nesting level in the running config.
	Indent int
	// Block, when set, returns how many lines a multi-line top-level
	// statement starting at lines[i] spans (an EOS or NX-OS banner, whose
	// text is not configuration), or 0: config.Parse keeps those lines
	// whole, as one node.
	Block func(lines []string, i int) int
	// Sections lists the managed stanzas, in the order changes are applied.
	Sections []Section
	// OwnedNames matches the names fabricgen's templates give the objects
	// they generate (FG-…, FABRICGEN…): such an object is fabricgen's even
	// when the rendered config no longer defines it, and is removed.
	OwnedNames *regexp.Regexp
	// Negate returns the command undoing one config line.
	Negate func(line string) string
	// InsertBefore, when set, returns the command creating the ordered
	// stanza line in front of the sibling before ("" when it cannot), so
	// a stanza added in the middle of an ordered section is inserted
	// rather than the section rebuilt (which, applied line by line,
	// leaves traffic unclassified for a moment).
	InsertBefore func(line, before string) string
	// Transaction is how the platform applies a change safely.
	Transaction Transaction
	// Host is true for host NIC platforms, whose "config" is a set of facts.
	Host bool
	// ConfigDB is true for SONiC: the config is CONFIG_DB JSON, changed
	// with a JSON Patch.
	ConfigDB bool
	// Files is true for a platform whose configuration is whole files
	// (an OpenSM host's): the rendered config and the device's state are
	// file bundles (internal/filebundle), read file by file, compared
	// file by file, and written whole.
	Files bool
	// Lines says how the change set's lines reach the device, and so what
	// a line may hold (config.CheckSendable checks every line before any
	// is sent).
	Lines LineForm
	// Unsafe lists the characters a CLI or shell-words line may not hold
	// (a shell-words line not even quoted), and UnsafeWhy says why
	// (LinesCLI and LinesShellWords).
	Unsafe, UnsafeWhy string
	// Commands are the commands a shell-words line may be, each its
	// leading words ("nv set"): a line that starts with none of them is
	// refused (LinesShellWords only).
	Commands []string
	// Factory lists settings a device fresh from the factory already
	// has, where push reads them as values (hosts, CONFIG_DB): a value
	// equal to its factory default is nobody's configuration, so
	// replacing it is no takeover (plan --no-takeover).
	Factory []FactoryDefault
	// Derived matches the settings the device writes itself in response
	// to the ones fabricgen manages ("TABLE|key|field = value" lines of
	// CONFIG_DB: SONiC's buffermgrd creates lossless priority groups and
	// their pg_lossless_* profiles from CABLE_LENGTH and pfc_enable).
	// They are neither fabricgen's nor another admin's change: push does
	// not count them among the unmanaged lines a change must leave alone.
	Derived []*regexp.Regexp
	// Vet, when set, checks a device before its plan: facts of the
	// running device the render depends on but does not set (SONiC's
	// buffer model, its SKU's lossless lookup rows). An error refuses the
	// device's plan, saying what to change.
	Vet func(v Vetting) error
}

// Vetting is what a dialect's Vet sees of one device before its plan.
type Vetting struct {
	// Device is the device in the intent.
	Device *schema.Device
	// Rendered and Running are the render and the running config.
	Rendered, Running string
	// Run runs a read-only shell command on the device and returns its
	// output and exit status.
	Run func(cmd string) (out string, status int, err error)
}

// LineForm is how a platform's change-set lines are sent.
type LineForm int

// Line forms.
const (
	// LinesCLI lines are typed into the device's interactive CLI, one
	// per line (EOS, NX-OS, Junos).
	LinesCLI LineForm = iota
	// LinesShellWords lines are shell commands made only of words (NVUE's
	// nv set / nv unset): each is split into words with POSIX quoting,
	// refused when the shell would expand or interpret anything in it,
	// and sent re-quoted, so a value is never code.
	LinesShellWords
	// LinesHostScript lines are a host script's action lines, parsed and
	// checked by config.ParseHostScript.
	LinesHostScript
	// LinesJSONPatch lines are JSON Patch operations, written into a file
	// on the device as data.
	LinesJSONPatch
	// LinesFiles lines are the lines of whole files, written on the
	// device as data (base64), never typed into a shell.
	LinesFiles
)

// FactoryDefault is one setting's value on a factory-fresh device.
type FactoryDefault struct {
	// Key matches the setting as push names it in a takeover line, the
	// part before " = " ("ens1f0np0 mtu", "PORT|Ethernet0|mtu").
	Key *regexp.Regexp
	// Value is the factory value.
	Value string
}

// IsFactoryDefault reports whether a "setting = value" line gives the
// setting its factory value.
func (d *Dialect) IsFactoryDefault(line string) bool {
	key, val, ok := strings.Cut(line, " = ")
	if !ok {
		return false
	}
	for _, f := range d.Factory {
		if f.Key.MatchString(key) {
			return f.Value == val
		}
	}
	return false
}

// NegateNo is the Cisco-style negation: "no X" for X, and X for "no X".
func NegateNo(line string) string {
	t := strings.TrimSpace(line)
	if rest, ok := strings.CutPrefix(t, "no "); ok {
		return rest
	}
	return "no " + t
}

// Re compiles a pattern of a dialect's table; it panics on a bad pattern,
// as the tables are constants of the code (TestAllowlist builds each).
func Re(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// OwnedNames matches the object names fabricgen's templates generate
// (FG-…, FABRICGEN…), for Dialect.OwnedNames.
func OwnedNames() *regexp.Regexp { return Re(`^(FG-|FABRICGEN)`) }
