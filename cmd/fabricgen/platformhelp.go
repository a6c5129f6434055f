package main

import (
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/templates"
)

// Help texts that name platforms are built from the layers' registries
// (templates.Platforms, lab.RunningConfigFormats), so a new platform
// appears in them without an edit here.

// platformGroup is a key (a file extension, a form of configuration) and
// the platforms that share it.
type platformGroup struct {
	key       string
	platforms []string
}

// groupPlatforms groups platforms by key in the order each key first
// appears, the platforms of a group in their given order.
func groupPlatforms(platforms, keys []string) []platformGroup {
	var out []platformGroup
	at := map[string]int{}
	for i, p := range platforms {
		k := keys[i]
		j, ok := at[k]
		if !ok {
			j = len(out)
			at[k] = j
			out = append(out, platformGroup{key: k})
		}
		out[j].platforms = append(out[j].platforms, p)
	}
	return out
}

// joinGroups writes each group as format(key) followed by its platforms
// in parentheses, joined with ", " and a final last ("or", "and").
func joinGroups(groups []platformGroup, format func(string) string, last string) string {
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = format(g.key) + " (" + strings.Join(g.platforms, ", ") + ")"
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " " + last + " " + parts[len(parts)-1]
}

// renderExtensions lists the rendered file's extension per platform:
// ".cfg (arista_eos, cisco_nxos), .set (juniper_junos), ...".
func renderExtensions() string {
	var platforms, exts []string
	for _, p := range templates.Platforms() {
		platforms, exts = append(platforms, string(p.Platform)), append(exts, p.Ext)
	}
	return joinGroups(groupPlatforms(platforms, exts), func(ext string) string { return "." + ext }, "or")
}

// runningConfigFiles lists the file lab up --running-config reads per
// platform: "<device>.cfg (arista_eos, ...), <device>.json (sonic) or ...".
func runningConfigFiles(device string) string {
	var platforms, exts []string
	for _, f := range lab.RunningConfigFormats() {
		platforms, exts = append(platforms, string(f.Platform)), append(exts, f.Ext)
	}
	return joinGroups(groupPlatforms(platforms, exts), func(ext string) string { return device + "." + ext }, "or")
}

// runningConfigForms says what those files hold per platform:
// "show running-config text (arista_eos, cisco_nxos), ...".
func runningConfigForms() string {
	var platforms, forms []string
	for _, f := range lab.RunningConfigFormats() {
		platforms, forms = append(platforms, string(f.Platform)), append(forms, f.Form)
	}
	return joinGroups(groupPlatforms(platforms, forms), func(form string) string { return form }, "or")
}

// runningConfigExts is the extensions of those files joined by sep,
// "DEVICE.cfg/.json/.sh".
func runningConfigExts(device, sep string) string {
	var exts []string
	for _, f := range lab.RunningConfigFormats() {
		exts = append(exts, f.Ext)
	}
	var out []string
	for _, g := range groupPlatforms(exts, exts) {
		out = append(out, "."+g.key)
	}
	return device + strings.Join(out, sep)
}

// wrapHelp fills text into lines of at most width columns, breaking only
// at spaces (a word longer than width has a line of its own).
func wrapHelp(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		switch {
		case n == 0:
		case n+1+len(w) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}
