package nvidiamlnx

import (
	"github.com/fabricgen/fabricgen/platforms/internal/hostspec"
	"github.com/fabricgen/fabricgen/schema"
)

// spec is what the intent language needs of the platform: a host, with
// Linux port names and the shell's free-text rule.
func spec() schema.PlatformSpec { return hostspec.Spec(name) }
