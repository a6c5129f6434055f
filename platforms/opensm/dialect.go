package opensm

import (
	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms/internal/hostpush"
)

// dialect is the push dialect of a subnet manager host: a Linux host
// reached over SSH, whose configuration is OpenSM's files under
// ConfigDir, compared and written whole (a file bundle; see
// internal/push/config/files.go), changed with the file-swap transaction
// (txn.go).
func dialect() *pushdialect.Dialect {
	return &pushdialect.Dialect{
		Platform: name,
		Driver:   pushdialect.DriverGeneric,
		Prompt:   hostpush.Prompt,
		FailedWhenContains: []string{
			"command not found",
			"Permission denied",
			"Read-only file system",
			"No space left on device",
		},
		Negate:      func(line string) string { return line },
		Transaction: pushdialect.TxnFiles,
		Lines:       pushdialect.LinesFiles,
		Files:       true,
	}
}
