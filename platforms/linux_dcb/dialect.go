package linuxdcb

import (
	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms/internal/hostpush"
)

// dialect is the push dialect of this host platform, the one both host
// platforms share (platforms/internal/hostpush).
func dialect() *pushdialect.Dialect { return hostpush.Dialect(name) }
