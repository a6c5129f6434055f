package view

import (
	"errors"
	"fmt"
	"github.com/fabricgen/fabricgen/diag"
	"strings"

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
	// Related are the other places involved: for a per-switch refusal,
	// where the value the device's other ports hold is set.
	Related []diag.Related
}

// Error is "file:line:col: device D (platform P) cannot express VALUE: REASON".
func (e *UnsupportedError) Error() string {
	at := ""
	if !e.Src.IsZero() {
		at = e.Src.String() + ": "
	}
	return fmt.Sprintf("%sdevice %s (platform %s) cannot express %s: %s", at, e.Device, e.Platform, e.Value, e.Reason)
}

// Unsupported is the refusal of value on device d, for reason, set at src.
func Unsupported(d *schema.Device, value, reason string, src schema.Range) *UnsupportedError {
	return &UnsupportedError{Device: d.Name, Platform: d.Platform.V, Value: value, Reason: reason, Src: src}
}

// Refusals is every intent value of one device its platform cannot
// express, in the order the view builder met them: render fails with it
// (one line per refusal), and lint reports each (templates.Checker).
type Refusals []*UnsupportedError

// Error is one refusal per line.
func (rs Refusals) Error() string {
	parts := make([]string, len(rs))
	for i, e := range rs {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Unwrap returns the refusals, so errors.As finds an *UnsupportedError.
func (rs Refusals) Unwrap() []error {
	out := make([]error, len(rs))
	for i, e := range rs {
		out[i] = e
	}
	return out
}

// AllUnsupported returns every refusal err carries (nil when it carries none).
func AllUnsupported(err error) []*UnsupportedError {
	var rs Refusals
	if errors.As(err, &rs) {
		return rs
	}
	var ue *UnsupportedError
	if errors.As(err, &ue) {
		return []*UnsupportedError{ue}
	}
	return nil
}

// Collector collects what a platform cannot express while a view builder
// goes on, so one render (and one lint) names every refusal of a device,
// not only the first.
type Collector struct {
	list Refusals
}

// Add records the refusals err carries and reports true; for nil it
// reports true, and for any other error false: the builder must stop and
// return that error.
func (r *Collector) Add(err error) bool {
	if err == nil {
		return true
	}
	rs := AllUnsupported(err)
	if rs == nil {
		return false
	}
next:
	for _, e := range rs {
		for _, have := range r.list {
			if have.Value == e.Value && have.Src == e.Src {
				continue next // met twice (an ACL bound in both directions)
			}
		}
		r.list = append(r.list, e)
	}
	return true
}

// Err is nil, the one refusal, or all of them.
func (r *Collector) Err() error {
	switch len(r.list) {
	case 0:
		return nil
	case 1:
		return r.list[0]
	}
	return r.list
}
