package schema

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names are data, never code: every identifier that reaches a device CLI,
// a shell or a file path is checked here when the intent is loaded, so
// that nothing a template prints can start a new command, a new config
// line or a path outside its folder. The rules are documented in
// docs/language.md ("Names and text").

// Length limits of identifiers and free text.
const (
	// MaxObjectNameLen bounds the names of classes, policies, ACLs,
	// profiles, subnets, links, meshes and the fabric.
	MaxObjectNameLen = 63
	// MaxDeviceNameLen bounds a device name (a host name: dot-separated
	// labels of at most 63 characters each).
	MaxDeviceNameLen = 253
	// MaxPortNameLen bounds a switch port name; host ports are Linux
	// interface names of at most MaxHostPortNameLen bytes.
	MaxPortNameLen     = 64
	MaxHostPortNameLen = 15
	// MaxTextLen bounds a description, in characters.
	MaxTextLen = 240
	// MaxUsernameLen bounds a login name.
	MaxUsernameLen = 64
	// MaxPathLen bounds a key file path, in bytes.
	MaxPathLen = 4096
	// MaxEnvNameLen bounds an environment variable name.
	MaxEnvNameLen = 128
)

// Forms of the identifiers in words, for error messages and docs.
const (
	objectNameForm = `a letter, then letters, digits, "_" or "-", at most 63 characters (e.g. "roce", "lossless-v2")`
	deviceNameForm = `a host name: letters, digits, "_" and "-", optionally in dot-separated labels, each label starting with a letter or digit, at most 253 characters (e.g. "leaf1", "gpu01-cx6", "leaf1.dc1")`
	hostPortForm   = `a Linux interface name: 1–15 bytes of letters, digits, "_", ".", "-" and "@", not starting with "-", and not "." or ".." (e.g. "eth0", "ens1f0np0")`
	portNameForm   = `letters, digits and "_", ".", "-", "/", ":", "@", at most 64 characters`
	usernameForm   = `letters, digits, "_", ".", "@" and "-", not starting with "-", "." or "@", at most 64 characters (e.g. "admin", "netops")`
	textForm       = `printable text of at most 240 characters: no control characters (newline, tab, ESC, NUL, ...), no invisible Unicode format characters (zero-width space, bidi controls, BOM)`
)

// checkObjectName checks the name of a class, policy, ACL, profile,
// subnet, link, mesh or the fabric.
func checkObjectName(s string) error {
	if s == "" {
		return fmt.Errorf("the name is empty")
	}
	if len(s) > MaxObjectNameLen {
		return fmt.Errorf("the name is %d characters long", utf8.RuneCountInString(s))
	}
	if !isLetter(s[0]) {
		if r, _ := utf8.DecodeRuneInString(s); !isPlainRune(r) {
			return fmt.Errorf("it starts with %s", describeRune(r))
		}
		return fmt.Errorf("it starts with %q, not a letter", s[:1])
	}
	for _, r := range s {
		if !nameRune(r, "_-") {
			return fmt.Errorf("it contains %s", describeRune(r))
		}
	}
	return nil
}

// checkDeviceName checks a device name: it becomes a file name (backups,
// rendered configs), a host name and part of "DEVICE:PORT" endpoints.
func checkDeviceName(s string) error {
	if s == "" {
		return fmt.Errorf("the name is empty")
	}
	if s == "." || s == ".." {
		return fmt.Errorf("%q is a directory name, not a file name", s)
	}
	if len(s) > MaxDeviceNameLen {
		return fmt.Errorf("the name is %d characters long", utf8.RuneCountInString(s))
	}
	for _, r := range s {
		if !nameRune(r, "_-.") {
			return fmt.Errorf("it contains %s", describeRune(r))
		}
	}
	for _, label := range strings.Split(s, ".") {
		switch {
		case label == "":
			return fmt.Errorf("it has an empty label (a leading, trailing or double dot)")
		case len(label) > 63:
			return fmt.Errorf("the label %q is longer than 63 characters", label)
		case !isLetter(label[0]) && !isDigit(label[0]):
			return fmt.Errorf("the label %q starts with %q", label, label[:1])
		}
	}
	return nil
}

// checkHostPortName checks a host port: a Linux interface name that is
// also a plain shell word, so host scripts never need to quote it.
func checkHostPortName(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("the name is empty")
	case s == "." || s == "..":
		return fmt.Errorf("%q is a directory name", s)
	case len(s) > MaxHostPortNameLen:
		return fmt.Errorf("the name is %d bytes long", len(s))
	case s[0] == '-':
		return fmt.Errorf("it starts with \"-\" (it would read as an option)")
	}
	for _, r := range s {
		if !nameRune(r, "_.-@") {
			return fmt.Errorf("it contains %s", describeRune(r))
		}
	}
	return nil
}

// checkPortName is the character set every port name keeps, whatever the
// platform (the platform's own naming is checked after it).
func checkPortName(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("the name is empty")
	case s == "." || s == "..":
		return fmt.Errorf("%q is a directory name", s)
	case len(s) > MaxPortNameLen:
		return fmt.Errorf("the name is %d characters long", utf8.RuneCountInString(s))
	case s[0] == '-':
		return fmt.Errorf("it starts with \"-\" (it would read as an option)")
	}
	for _, r := range s {
		if !nameRune(r, "_.-/:@") {
			return fmt.Errorf("it contains %s", describeRune(r))
		}
	}
	return nil
}

// checkUsername checks a login name.
func checkUsername(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("the name is empty")
	case len(s) > MaxUsernameLen:
		return fmt.Errorf("the name is %d characters long", utf8.RuneCountInString(s))
	case s[0] == '-' || s[0] == '.' || s[0] == '@':
		return fmt.Errorf("it starts with %q", s[:1])
	}
	for _, r := range s {
		if !nameRune(r, "_.@-") {
			return fmt.Errorf("it contains %s", describeRune(r))
		}
	}
	return nil
}

// checkPath checks a local file path (key_file): any printable text,
// spaces included, at most MaxPathLen bytes.
func checkPath(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("the path is empty")
	case len(s) > MaxPathLen:
		return fmt.Errorf("the path is %d bytes long; at most %d", len(s), MaxPathLen)
	}
	for _, r := range s {
		if !isPlainRune(r) || (r != ' ' && unicode.IsSpace(r)) {
			return fmt.Errorf("it contains %s", describeRune(r))
		}
	}
	return nil
}

// checkText checks free text (a description). rule adds the characters a
// platform treats specially.
func checkText(s string, rule TextRule) error {
	if n := utf8.RuneCountInString(s); n > MaxTextLen {
		return fmt.Errorf("the text is %d characters long; at most %d", n, MaxTextLen)
	}
	for _, r := range s {
		if !isPlainRune(r) || (r != ' ' && unicode.IsSpace(r)) {
			return fmt.Errorf("it contains %s", describeRune(r))
		}
		if rule.Refuse != "" && strings.ContainsRune(rule.Refuse, r) {
			return fmt.Errorf("it contains %q, which %s", r, rule.Why)
		}
	}
	return nil
}

// isPlainRune reports whether r may appear in text at all: not a control
// or format character, not a line or paragraph separator, not private,
// unassigned or a surrogate, not a character that renders as nothing.
func isPlainRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0x20 && r != 0x7f
	}
	if r == utf8.RuneError || !unicode.IsGraphic(r) {
		// IsGraphic excludes Cc, Cf, Cs, Co, Cn, Zl and Zp.
		return false
	}
	switch r {
	case 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800, 0x034f, 0x17b4, 0x17b5:
		// Hangul fillers, braille blank, combining grapheme joiner and
		// the Khmer inherent vowels render as nothing.
		return false
	}
	return !unicode.In(r, unicode.Variation_Selector)
}

// describeRune names a character for an error message: printable
// characters quoted, others by code point and name where known.
func describeRune(r rune) string {
	names := map[rune]string{
		0: "NUL", '\t': "a tab", '\n': "a newline", '\r': "a carriage return", 0x1b: "ESC",
		0x7f: "DEL", 0x200b: "a zero-width space", 0x200c: "a zero-width non-joiner",
		0x200d: "a zero-width joiner", 0xfeff: "a byte order mark", 0x2028: "a line separator",
		0x2029: "a paragraph separator", 0x202e: "a right-to-left override", 0x00a0: "a no-break space",
		' ': "a space",
	}
	if n, ok := names[r]; ok {
		return fmt.Sprintf("%s (U+%04X)", n, r)
	}
	if isPlainRune(r) && !unicode.IsSpace(r) {
		return fmt.Sprintf("%q", r)
	}
	if r < 0x20 {
		return fmt.Sprintf("the control character U+%04X", r)
	}
	if unicode.Is(unicode.Cf, r) {
		return fmt.Sprintf("the invisible format character U+%04X", r)
	}
	return fmt.Sprintf("the character U+%04X", r)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// foldName is the key two names collide on: ASCII case folded (the
// identifier rules allow nothing else, and free text is never a key).
func foldName(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// foldIndex finds names that differ only in case, cheaply when most names
// are lower case: only names with an upper-case letter are stored.
type foldIndex[T any] struct {
	upper map[string]T // folded name → first value whose name had upper case
}

// clash returns the earlier value whose name folds like name: exact holds
// the values by exact name (the caller's own map).
func (fi *foldIndex[T]) clash(name string, exact map[string]T) (T, bool) {
	var zero T
	fold := foldName(name)
	if v, ok := fi.upper[fold]; ok {
		return v, true
	}
	if fold != name {
		if v, ok := exact[fold]; ok {
			return v, true
		}
	}
	return zero, false
}

// add records name (after clash found nothing).
func (fi *foldIndex[T]) add(name string, v T) {
	if fold := foldName(name); fold != name {
		if fi.upper == nil {
			fi.upper = map[string]T{}
		}
		fi.upper[fold] = v
	}
}

// CheckRenderable reports the first name or description of d (and of the
// fabric-wide objects it uses) that Load would have refused. Load already
// checks them all; renderers call this again so that a Fabric built or
// edited in Go code cannot carry a newline or a shell command into a
// configuration either.
func CheckRenderable(f *Fabric, d *Device) error {
	if err := checkDeviceName(d.Name); err != nil {
		return fmt.Errorf("device name %q: %w", d.Name, err)
	}
	if f.Name != "" {
		if err := checkObjectName(f.Name); err != nil {
			return fmt.Errorf("fabric name %q: %w", f.Name, err)
		}
	}
	rule, host := d.text, d.HostPlatform
	for _, p := range d.Ports {
		check := checkPortName
		if host {
			check = checkHostPortName
		}
		if err := check(p.Name); err != nil {
			return fmt.Errorf("port name %q: %w", p.Name, err)
		}
		if p.Description != "" {
			if err := checkText(p.Description, rule); err != nil {
				return fmt.Errorf("description of port %s: %w", p.Name, err)
			}
		}
		for _, list := range [][]*ACL{p.ACLIn, p.ACLOut} {
			for _, a := range list {
				if err := checkObjectName(a.Name); err != nil {
					return fmt.Errorf("acl name %q: %w", a.Name, err)
				}
			}
		}
	}
	return nil
}

// CheckRenderableFabric is CheckRenderable for the fabric-wide names that
// configurations print: classes, ECN profiles, watchdogs and policies.
func CheckRenderableFabric(f *Fabric) error {
	for _, c := range f.Classes {
		if err := checkObjectName(c.Name); err != nil {
			return fmt.Errorf("traffic_class name %q: %w", c.Name, err)
		}
	}
	for _, e := range f.ECNProfiles {
		if err := checkObjectName(e.Name); err != nil {
			return fmt.Errorf("ecn_profile name %q: %w", e.Name, err)
		}
	}
	for _, w := range f.Watchdogs {
		if err := checkObjectName(w.Name); err != nil {
			return fmt.Errorf("pfc_watchdog name %q: %w", w.Name, err)
		}
	}
	for _, p := range f.Policies {
		if err := checkObjectName(p.Name); err != nil {
			return fmt.Errorf("qos_policy name %q: %w", p.Name, err)
		}
	}
	return nil
}

// nameRune reports whether r is an ASCII letter or digit, or one of the
// punctuation characters in extra.
func nameRune(r rune, extra string) bool {
	return r < utf8.RuneSelf && (isLetter(byte(r)) || isDigit(byte(r)) || strings.ContainsRune(extra, r))
}

// CheckObjectName reports whether s may label a traffic_class,
// ecn_profile, pfc_watchdog, qos_policy, acl, subnet, link, mesh or
// fabric block: the error Load gives for it, or nil.
func CheckObjectName(s string) error { return checkObjectName(s) }

// CheckDeviceName reports whether s may name a device (or a host).
func CheckDeviceName(s string) error { return checkDeviceName(s) }

// CheckPortName reports whether s may name a port of a switch (host
// false) or of a host's NIC (host true), before the platform's own form.
func CheckPortName(s string, host bool) error {
	if host {
		return checkHostPortName(s)
	}
	return checkPortName(s)
}

// CheckText reports whether s may be a description under rule (a
// platform's Spec.Text).
func CheckText(s string, rule TextRule) error { return checkText(s, rule) }
