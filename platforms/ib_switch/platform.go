// Package ibswitch is the InfiniBand switch platform: a leaf or spine of
// an InfiniBand fabric. The subnet manager configures it over management
// datagrams (SL to VL tables, VL arbitration, P_Keys on its ports), so
// fabricgen renders, pushes and reads nothing from it: its only part is
// what the intent language needs (spec.go). Its QoS is rendered into the
// subnet manager's files (platforms/opensm).
package ibswitch

import (
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/schema"
)

// name is the platform's name in the intent.
const name schema.Platform = "ib_switch"

// Platform returns everything this folder gives fabricgen.
func Platform() platform.Platform {
	return platform.Platform{
		Name:   name,
		Folder: "ib_switch",
		Spec:   spec(),
	}
}
