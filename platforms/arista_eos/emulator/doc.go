// Package emulator emulates an Arista EOS switch for the lab: the indented CLI
// with its modes and running-config layout (eos_grammar.go), configure
// sessions with diffs, commit timers and aborts, show commands with
// "| json", and brownfield configurations kept verbatim. New is its only
// entry point; the templates it accepts are those of templates/arista_eos.
package emulator
