package main

import (
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab"
)

// Help texts name no platform (fabricgen platforms lists them, so a new
// platform changes no generated doc); the error messages that list each
// platform's files are built from the lab's registry
// (lab.RunningConfigFormats), so a new platform appears in them without
// an edit here.

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

// runningConfigFiles lists the file lab up --running-config reads per
// platform: "<device>.cfg (p1, p2), <device>.json (p3) or ...".
func runningConfigFiles(device string) string {
	var platforms, exts []string
	for _, f := range lab.RunningConfigFormats() {
		platforms, exts = append(platforms, string(f.Platform)), append(exts, f.Ext)
	}
	return joinGroups(groupPlatforms(platforms, exts), func(ext string) string { return device + "." + ext }, "or")
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
