// Package emulator emulates a Cisco NX-OS switch for the lab: the indented CLI
// (nxos_grammar.go), checkpoints and rollback, and the show commands push
// reads. New is its only entry point; it accepts what templates/cisco_nxos
// renders.
package emulator
