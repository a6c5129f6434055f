// Package templates renders one configuration file per device from the
// resolved fabric model.
//
// Rendering is split in two. Go code in this package builds a sorted,
// platform-specific view of a device (the realised DSCP→priority,
// priority→queue and PFC maps, ECN and schedulers per queue, the PFC
// watchdog, buffers, MTU, ACL rules and their bindings) and rejects any intent
// value the platform cannot express. The text/template files embedded under
// templates/<platform>/ only print that view. Output is byte-for-byte
// deterministic: nothing in it depends on time, map order or scheduling.
//
// The lint package owns the meaning of the intent; this package owns how each
// vendor spells it. docs/templates.md documents the view for users who write
// their own templates (--templates DIR).
package templates
