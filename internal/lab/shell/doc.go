// Package shell is the POSIX-shell subset the Linux-based emulators run
// (hosts, Cumulus and SONiC): Shell executes command lines against a
// device's tools (a Runner), MemFS keeps their scratch files, LinuxCLI is
// a bash login, and Changes decides statically, without running anything,
// whether a line may change the device (for Fault.Reject).
//
// Lines are parsed by mvdan.cc/sh/v3/syntax (Parse, bash variant) after a
// bound on their size and nesting, and both Shell and Changes walk the
// same syntax tree, so what Changes counts is what Shell may run. A line
// holding a construct the subset does not run (if, for, while, case,
// functions, arithmetic, [[ ]], input redirection, here-documents) is
// refused whole, before anything of it runs. The tree is walked here
// rather than run by mvdan.cc/sh/v3/interp for measured reasons written in
// docs/lab.md ("The shell"): interp creates real FIFOs for <(...), looks
// `command -v` up on the real file system and loses the output of
// background jobs, where the lab must record every command, answer from
// the emulated host and stay deterministic.
package shell
