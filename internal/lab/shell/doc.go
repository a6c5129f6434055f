// Package shell is the POSIX-shell subset the Linux-based emulators run
// (hosts, Cumulus and SONiC): Shell executes command lines against a
// device's tools (a Runner), MemFS keeps their scratch files, LinuxCLI is
// a bash login, and Changes decides statically, without running anything,
// whether a line may change the device (for Fault.Reject).
//
// It stays a subset rather than mvdan.cc/sh/v3's interpreter for measured
// reasons written in docs/lab.md ("The shell").
package shell
