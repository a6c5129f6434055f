package templates

import (
	"fmt"

	"github.com/fabricgen/fabricgen/schema"
)

// UnsupportedError reports an intent value a platform cannot express. The
// renderer never drops such a value; it fails with this error instead.
type UnsupportedError struct {
	// Device and Platform name where rendering failed.
	Device   string
	Platform schema.Platform
	// Value describes the intent value ("ecn_profile roce on queue 3", ...).
	Value string
	// Reason says why the platform cannot express it and, where possible, what to do.
	Reason string
	// Src is where the value was set, when known.
	Src schema.Range
}

// Error is "file:line:col: device D (platform P) cannot express VALUE: REASON".
func (e *UnsupportedError) Error() string {
	at := ""
	if !e.Src.IsZero() {
		at = e.Src.String() + ": "
	}
	return fmt.Sprintf("%sdevice %s (platform %s) cannot express %s: %s", at, e.Device, e.Platform, e.Value, e.Reason)
}

func unsupported(d *schema.Device, value, reason string, src schema.Range) *UnsupportedError {
	return &UnsupportedError{Device: d.Name, Platform: d.Platform.V, Value: value, Reason: reason, Src: src}
}
