// Package emulator emulates a SONiC switch for the lab: CONFIG_DB, config
// apply-patch (RFC 6902 JSON Patch through github.com/evanphx/json-patch/v5,
// then a YANG-like validation), checkpoints and rollback, sonic-cfggen and
// sonic-db-cli, in a bash login. New is its only entry point; it accepts
// what templates/sonic renders.
package emulator
