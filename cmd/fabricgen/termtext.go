package main

import (
	"fmt"
	"unicode/utf8"

	"github.com/fabricgen/fabricgen/diag"
)

// Text that came from a file or a device — a plan file, a state record,
// the lock file, the inventory, a device's output or rejection — reaches
// the terminal only through these, as the intent's text does through
// diag.EscapeText (and with the same escapes): an ESC, BEL, CSI or OSC
// sequence, a C1 control or a bidi override would otherwise be acted on
// by the terminal (retitle it, clear the screen, reorder what the
// operator reads). The escapes are visible and unambiguous: \x1b, \u202e.

// termLine is s on one line, every control and invisible character shown
// as its escape (a newline as \n), cut after maxTermLine bytes: a reason
// or error can quote a device's answer or a rendered line, and one
// megabytes long (an override template's, a device's) must not flood the
// terminal.
func termLine(s string) string { return diag.EscapeText(clipTerm(s), false) }

// maxTermLine bounds one line of a message on the terminal.
const maxTermLine = 16 << 10

// clipTerm is s cut after maxTermLine bytes (at a character boundary),
// saying how much was left out.
func clipTerm(s string) string {
	if len(s) <= maxTermLine {
		return s
	}
	cut := maxTermLine
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes not shown)", s[:cut], len(s)-cut)
}

// termText is termLine keeping line breaks and tabs: diffs, a device's
// report, multi-line errors.
func termText(s string) string { return diag.EscapeText(s, true) }
