package lab

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
)

// Removal semantics: each platform's negation ("no X" / "default X",
// Junos `delete`, NVUE `nv unset`, a JSON Patch `remove`, the hosts'
// `del`/`flush` forms) typed over SSH must remove exactly the line or the
// value it names, and a changed value must replace the old one. Each case
// starts a device from the platform's setup, types its commands, and
// compares the configuration before and after as a multiset of lines
// qualified by their parents: the lines that went and the lines that came
// must be exactly the ones listed. docs/lab.md ("Removal semantics") gives
// the vendor source of each rule.

// removalCase is one negation (or replacement) and its whole effect.
type removalCase struct {
	Name string `json:"name"`
	// Cmds are typed in configuration mode (after the platform's enter
	// commands, before its exit ones; a JSON Patch platform: the
	// operations of one patch; hosts: shell commands).
	Cmds []string `json:"cmds"`
	// Gone and Added are the qualified lines ("parent > child") that
	// must disappear and appear; nothing else may change.
	Gone  []string `json:"gone,omitempty"`
	Added []string `json:"added,omitempty"`
	// Fails means the device must refuse the commands (and change
	// nothing).
	Fails bool `json:"fails,omitempty"`
}

// removalPlatform is how one platform is set up, driven and read: its
// folder's testdata/lab/removal.json. A host types shell commands and is
// read from its state (RunningConfig); a switch is read from its export.
type removalPlatform struct {
	Ports  []string `json:"ports,omitempty"`
	Prompt string   `json:"prompt"`
	// Enter and Exit are typed before and after a case's commands.
	Enter []string `json:"enter,omitempty"`
	Exit  []string `json:"exit,omitempty"`
	// PatchApply, when set, makes a case's commands one JSON Patch,
	// written to /tmp/p.json and applied with this command.
	PatchApply string `json:"patch_apply,omitempty"`
	// Errors are the substrings that tell a switch's refusal.
	Errors []string `json:"errors,omitempty"`
	// Lines is the form of the switch's export: "indented", "plain" or
	// "db" (CONFIG_DB JSON).
	Lines string `json:"lines,omitempty"`
	// Setup is the configuration each case starts from (on top of the
	// factory one), applied with ConfigureOutOfBand.
	Setup []string      `json:"setup"`
	Cases []removalCase `json:"cases"`
}

// typeIn types a case's commands over SSH and reports the output of each.
func (p removalPlatform) typeIn(t *testing.T, host bool, sh *shellClient, cmds []string) []string {
	switch {
	case host:
		return hostIn(t, sh, cmds)
	case p.PatchApply != "":
		patch := "[" + strings.Join(cmds, ",") + "]"
		sh.run("printf '%s' '" + patch + "' > /tmp/p.json")
		return []string{sh.run(p.PatchApply)}
	}
	return cliIn(p.Enter, p.Exit...)(t, sh, cmds)
}

// errOut tells a refusal.
func (p removalPlatform) errOut(host bool, out string) bool {
	if host {
		return hostErr(out)
	}
	for _, e := range p.Errors {
		if strings.Contains(out, e) {
			return true
		}
	}
	return false
}

// lines reads the device's configuration as qualified lines.
func (p removalPlatform) lines(t *testing.T, host bool, d *Device) []string {
	if host {
		return indentedLines(d.RunningConfig())
	}
	switch p.Lines {
	case "indented":
		return indentedLines(d.Export())
	case "plain":
		return plainLines(d.Export())
	case "db":
		return dbLines(d.Export())
	}
	t.Fatalf("removal.json: lines %q is not indented, plain or db", p.Lines)
	return nil
}

// TestRemovalSemantics runs every registry platform's removal cases
// (platforms/<name>/testdata/lab/removal.json); a folder without them
// fails, naming it (every folder has them).
func TestRemovalSemantics(t *testing.T) {
	for _, f := range platformtest.All(filepath.Join("..", "..")) {
		var p removalPlatform
		if err := f.LabData("removal", &p); err != nil {
			t.Fatal(err)
		}
		if len(p.Cases) == 0 {
			t.Fatalf("platforms/%s: testdata/lab/removal.json has no cases", f.Platform.Folder)
		}
		name, host := f.Platform.Name, f.Platform.Spec.Host
		for _, c := range p.Cases {
			t.Run(string(name)+"/"+c.Name, func(t *testing.T) {
				l := startLab(t, DeviceSpec{Name: "r1", Platform: name, Ports: p.Ports})
				dev := l.Device("r1")
				if len(p.Setup) > 0 {
					if err := dev.ConfigureOutOfBand(p.Setup); err != nil {
						t.Fatalf("setup: %v", err)
					}
				}
				before := p.lines(t, host, dev)
				sh := openShell(t, l, "r1", p.Prompt)
				outs := p.typeIn(t, host, sh, c.Cmds)
				refused := false
				for i, o := range outs {
					if p.errOut(host, o) {
						refused = true
						if !c.Fails {
							t.Errorf("command %d refused: %q", i, o)
						}
					}
				}
				if c.Fails && !refused {
					t.Errorf("the commands were accepted; want them refused")
				}
				gone, added := lineDelta(before, p.lines(t, host, dev))
				if !sameLines(gone, c.Gone) || !sameLines(added, c.Added) {
					t.Errorf("after %q:\n  gone  %q\n  want  %q\n  added %q\n  want  %q", c.Cmds, gone, sorted(c.Gone), added, sorted(c.Added))
				}
			})
		}
	}
}

// lineDelta returns the lines of before missing from after and the lines
// of after missing from before, counting repeats, sorted.
func lineDelta(before, after []string) (gone, added []string) {
	n := map[string]int{}
	for _, l := range before {
		n[l]++
	}
	for _, l := range after {
		n[l]--
	}
	for l, c := range n {
		for ; c > 0; c-- {
			gone = append(gone, l)
		}
		for ; c < 0; c++ {
			added = append(added, l)
		}
	}
	sort.Strings(gone)
	sort.Strings(added)
	return gone, added
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func sameLines(a, b []string) bool {
	b = sorted(b)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// indentedLines qualifies each line of an indented configuration by the
// lines above it ("interface Ethernet1 > tx-queue 3 > no priority"),
// without comments, separators and the header lines a device prints anew.
func indentedLines(text string) []string {
	type level struct {
		indent int
		text   string
	}
	var stack []level
	var out []string
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "!") || line == "end" || strings.HasPrefix(line, "version ") {
			continue
		}
		indent := len(raw) - len(strings.TrimLeft(raw, " "))
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		var parts []string
		for _, s := range stack {
			parts = append(parts, s.text)
		}
		out = append(out, strings.Join(append(parts, line), " > "))
		stack = append(stack, level{indent, line})
	}
	return out
}

// plainLines are the lines of a flat configuration (set statements,
// NVUE commands, a host's state dump), without comments.
func plainLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "set version ") {
			out = append(out, l)
		}
	}
	return out
}

// dbLines flattens CONFIG_DB JSON into "TABLE|key|field = value" lines,
// and "TABLE|key" for an entry without fields.
func dbLines(text string) []string {
	var db map[string]map[string]map[string]any
	if err := json.Unmarshal([]byte(text), &db); err != nil {
		return []string{"not CONFIG_DB JSON: " + err.Error()}
	}
	var out []string
	for t, keys := range db {
		for k, fields := range keys {
			if len(fields) == 0 {
				out = append(out, t+"|"+k)
			}
			for f, v := range fields {
				out = append(out, fmt.Sprintf("%s|%s|%s = %v", t, k, f, v))
			}
		}
	}
	return out
}

// cliIn types commands between an entry and an exit command.
func cliIn(enter []string, exit ...string) func(t *testing.T, sh *shellClient, cmds []string) []string {
	return func(t *testing.T, sh *shellClient, cmds []string) []string {
		var outs []string
		for _, c := range enter {
			sh.run(c)
		}
		for _, c := range cmds {
			outs = append(outs, sh.run(c))
		}
		for _, c := range exit {
			outs = append(outs, sh.run(c))
		}
		return outs
	}
}

// hostIn runs each command and reports its exit status after its output.
func hostIn(t *testing.T, sh *shellClient, cmds []string) []string {
	var outs []string
	for _, c := range cmds {
		outs = append(outs, sh.run(c+"; echo rc=$?"))
	}
	return outs
}

func hostErr(o string) bool { return !strings.Contains(o, "rc=0") }
