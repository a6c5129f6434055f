package schema

import (
	"time"
)

// Version is the software release a device runs (its os_version), as
// written and as numbers for comparison.
type Version struct {
	// Raw is the release as written: "4.30.1F", "10.3(2)F", "23.4R1",
	// "5.15", "202311".
	Raw string
	// Parts are its numeric components in order: 4.30.1F is [4 30 1],
	// 10.3(2)F [10 3 2], 23.4R1 [23 4 1], 202311 [202311].
	Parts []int
}

// String returns the release as written.
func (v Version) String() string { return v.Raw }

// AtLeast reports whether v is the release parts or a later one; missing
// components count as 0, so 5.15 is at least 5.15.0.
func (v Version) AtLeast(parts ...int) bool {
	for i, want := range parts {
		got := 0
		if i < len(v.Parts) {
			got = v.Parts[i]
		}
		if got != want {
			return got > want
		}
	}
	return true
}

// DefaultRestoration is the PFC watchdog restoration time of a
// pfc_watchdog that sets none (or its poll_interval, when that is longer):
// the SONiC pfcwd and Junos default, rendered on every platform that has a
// restoration knob.
const DefaultRestoration = 200 * time.Millisecond

// HardwareFamily is the hardware family a platform's spec assigns a
// device's model (DeviceAttrs.Family); its values belong to the platform
// folder, which selects the statements the family documents.
type HardwareFamily string
