// Package emulator emulates a Juniper Junos switch for the lab: set
// statements on a path tree, configure private/exclusive/shared, commit
// confirmed and rollback, show | compare and display set. New is its only
// entry point; it accepts what templates/juniper_junos renders.
package emulator
