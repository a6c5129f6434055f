package templates

import "github.com/fabricgen/fabricgen/templates/view"

// UnsupportedError reports an intent value a platform cannot express (see
// view.UnsupportedError): render fails with it, lint reports it.
type UnsupportedError = view.UnsupportedError

// Refusals is every intent value of one device its platform cannot
// express, in the order the view builder met them (see view.Refusals).
type Refusals = view.Refusals

// AllUnsupported returns every refusal err carries (nil when it carries none).
func AllUnsupported(err error) []*UnsupportedError { return view.AllUnsupported(err) }
