package linuxdcb

import (
	"github.com/fabricgen/fabricgen/platforms/internal/hostspec"
	"github.com/fabricgen/fabricgen/schema"
)

// spec is what the intent language needs of the platform: a host, with
// Linux port names and the shell's free-text rule, that reads driver.
func spec() schema.PlatformSpec {
	s := hostspec.Spec(name)
	s.Attrs = hostspec.DriverAttrs()
	return s
}
