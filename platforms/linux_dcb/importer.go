package linuxdcb

import (
	"context"

	"github.com/fabricgen/fabricgen/internal/importer"
	"github.com/fabricgen/fabricgen/platforms/internal/hostimport"
)

// importConfig reads a host's setup script, or the host state fabricgen's
// collectors fetch, into an importer.Device (platforms/internal/hostimport,
// which both host platforms share).
func importConfig(ctx context.Context, file string, data []byte) (*importer.Device, error) {
	return hostimport.Import(ctx, hostimport.Flavour{Platform: string(name), MLNX: false}, file, data)
}
