//go:build !unix

package snapshot

import "os/exec"

// localProcess leaves the command as exec starts it (killed on its
// context's end).
func localProcess(*exec.Cmd) {}

// localReap has nothing to do without process groups.
func localReap(*exec.Cmd) {}
