// Package push plans and applies rendered configs on live devices, the
// `terraform plan/apply` of fabricgen.
//
// Plan fetches every device's running config in parallel (one SSH session
// per device, push/session), compares the sections fabricgen manages with
// the rendered config (push/config) and returns a plan (push/planfile).
// Apply re-fetches each device, refuses a stale one, saves a backup, stages
// the change with the platform's transaction (EOS configuration session with
// commit timer, NX-OS checkpoint, host commands read back), verifies that a
// fresh plan is empty, and rolls the device back on any failure.
//
// The platforms push knows are the allowlist in push/dialect.
package push
