package lab

import (
	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// dataPlatform is what the data plane takes of platform p, from its
// folder in the platform registry: its running-config reader and its
// data-plane responder. A platform the registry lacks gets its name only
// (a factory configuration, no data-plane answers).
func dataPlatform(p schema.Platform) dataplane.Platform {
	pl, ok := platforms.Get(p)
	if !ok {
		return dataplane.Platform{Name: p}
	}
	return dataplane.Platform{Name: p, Host: pl.Spec.Host, Read: pl.Reader, Responder: pl.Responder}
}
