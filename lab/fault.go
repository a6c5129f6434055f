package lab

import (
	"fmt"
	"regexp"
	"time"
)

// Fault is what a device does wrong on purpose, for tests. The zero Fault
// does nothing.
type Fault struct {
	// DropAfter, when positive, drops the SSH connection right after the
	// device has applied its DropAfter-th configuration command (counted
	// from SetFault, across connections), before it answers. It fires
	// once; the device keeps whatever that platform keeps on a disconnect.
	DropAfter int
	// Reject is a regular expression; a command matching it (the whole
	// line, as typed) is refused with the platform's error and not applied.
	Reject string
	// Delay is added before every response.
	Delay time.Duration
}

// Validate reports whether the fault is usable: DropAfter and Delay must
// not be negative and Reject must compile.
func (f Fault) Validate() error {
	if f.DropAfter < 0 {
		return fmt.Errorf("fault: DropAfter %d is negative: use 0 to disable", f.DropAfter)
	}
	if f.Delay < 0 {
		return fmt.Errorf("fault: Delay %s is negative: use 0 to disable", f.Delay)
	}
	if f.Reject != "" {
		if _, err := regexp.Compile(f.Reject); err != nil {
			return fmt.Errorf("fault: Reject %q is not a regular expression: %w", f.Reject, err)
		}
	}
	return nil
}

// compileReject compiles the Reject pattern; a pattern that is not a valid
// regular expression matches its literal text instead.
func compileReject(s string) *regexp.Regexp {
	if s == "" {
		return nil
	}
	if re, err := regexp.Compile(s); err == nil {
		return re
	}
	return regexp.MustCompile(regexp.QuoteMeta(s))
}
