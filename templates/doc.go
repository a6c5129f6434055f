// Package templates renders one configuration file per device from the
// resolved fabric model.
//
// Rendering is split in two. Each platform folder's view builder
// (platforms/<name>/view.go, on the kit package templates/view) builds a
// sorted, platform-specific view of a device (the realised DSCP→priority,
// priority→queue and PFC maps, ECN and schedulers per queue, the PFC
// watchdog, buffers, MTU, ACL rules and their bindings) and rejects any intent
// value the platform cannot express. The text/template files embedded under
// platforms/<name>/templates/ only print that view. This package is the
// engine: it finds the platforms in platforms.All(), parses their
// templates and any overrides, and runs the builders and templates.
// Output is byte-for-byte deterministic: nothing in it depends on time,
// map order or scheduling.
//
// The lint package owns the meaning of the intent; this package owns how each
// vendor spells it. docs/templates.md documents the view for users who write
// their own templates (--templates DIR).
package templates
