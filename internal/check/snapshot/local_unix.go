//go:build unix

package snapshot

import (
	"os/exec"
	"syscall"
)

// localProcess starts the command in its own process group and kills the
// whole group when its context ends, so a pipeline's children end too.
func localProcess(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
}

// localReap kills what is left of the command's process group.
func localReap(c *exec.Cmd) {
	if c.Process != nil {
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
}
