// Package cli is the lab's CLI engine, shared by every emulator: the
// configuration tree of the indented CLIs (Tree, driven by a per-platform
// Grammar of Rules: EOS, NX-OS), the statement tree of the path CLIs
// (PathTree: Junos set statements, NVUE paths), the session contract
// between an emulator and the SSH server (Emulator, Session, Reply, Term,
// Env), and text helpers (UnifiedDiff and LineOps over internal/textdiff, output filters, JSON).
//
// It knows no platform: each emulator under platforms/ builds
// its grammar and behaviour on top of it.
package cli
