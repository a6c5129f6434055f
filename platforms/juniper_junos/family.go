package juniperjunos

import "github.com/fabricgen/fabricgen/schema"

// The Junos hardware families fabricgen renders for: the
// schema.HardwareFamily values FamilyOf assigns a device's model, each
// selecting the statements the family documents.
const (
	// FamilyQFX5000 is QFX5100 … QFX5700 and EX4600 (the default).
	FamilyQFX5000 schema.HardwareFamily = "qfx5000"
	// FamilyQFX10000 is QFX10002, QFX10008 and QFX10016.
	FamilyQFX10000 schema.HardwareFamily = "qfx10000"
	// FamilyEX is the EX Series other than EX4600.
	FamilyEX schema.HardwareFamily = "ex"
	// FamilyMX is the MX Series routers.
	FamilyMX schema.HardwareFamily = "mx"
)

// IsQFX reports whether the family is a QFX switch.
func IsQFX(f schema.HardwareFamily) bool { return f == FamilyQFX5000 || f == FamilyQFX10000 }
