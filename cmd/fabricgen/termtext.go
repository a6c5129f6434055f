package main

import "github.com/fabricgen/fabricgen/diag"

// Text that came from a file or a device — a plan file, a state record,
// the lock file, the inventory, a device's output or rejection — reaches
// the terminal only through these, as the intent's text does through
// diag.EscapeText (and with the same escapes): an ESC, BEL, CSI or OSC
// sequence, a C1 control or a bidi override would otherwise be acted on
// by the terminal (retitle it, clear the screen, reorder what the
// operator reads). The escapes are visible and unambiguous: \x1b, \u202e.

// termLine is s on one line, every control and invisible character shown
// as its escape (a newline as \n).
func termLine(s string) string { return diag.EscapeText(s, false) }

// termText is termLine keeping line breaks and tabs: diffs, a device's
// report, multi-line errors.
func termText(s string) string { return diag.EscapeText(s, true) }
