package push

import "github.com/fabricgen/fabricgen/internal/push/txn"

// shell runs one shell command and turns a non-zero exit status or a
// failure string into an error naming the command and its output.
func (a *applier) shell(cmd string) (string, error) { return txn.Shell(a.conn, cmd) }
