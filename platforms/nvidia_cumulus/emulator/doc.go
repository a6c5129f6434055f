// Package emulator emulates an NVIDIA Cumulus Linux switch for the lab:
// NVUE (nv set/unset, nv config apply with revisions and --confirm, diff
// and show) in a bash login. New is its only entry point; it accepts what
// templates/nvidia_cumulus renders.
package emulator
