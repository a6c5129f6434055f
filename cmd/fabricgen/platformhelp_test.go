package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/platforms"
)

func TestJoinGroups(t *testing.T) {
	cases := []struct {
		platforms, keys []string
		want            string
	}{
		{[]string{"a", "b", "c", "d"}, []string{"x", "y", "x", "z"}, ".x (a, c), .y (b) or .z (d)"},
		{[]string{"a", "b"}, []string{"x", "x"}, ".x (a, b)"},
		{[]string{"a", "b"}, []string{"x", "y"}, ".x (a) or .y (b)"},
		{nil, nil, ""},
	}
	for _, tc := range cases {
		got := joinGroups(groupPlatforms(tc.platforms, tc.keys), func(k string) string { return "." + k }, "or")
		if got != tc.want {
			t.Errorf("joinGroups(%v, %v) = %q, want %q", tc.platforms, tc.keys, got, tc.want)
		}
	}
}

func TestWrapHelp(t *testing.T) {
	got := wrapHelp("aa bb  cc\ndd averyveryverylongword e", 8)
	want := "aa bb cc\ndd\naveryveryverylongword\ne"
	if got != want {
		t.Errorf("wrapHelp = %q, want %q", got, want)
	}
	for _, l := range strings.Split(wrapHelp(strings.Repeat("word ", 100), 76), "\n") {
		if len(l) > 76 {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
}

// TestHelpPointsAtPlatforms: the help texts that say what each
// platform's files are name no platform (a generated doc must not go
// stale when a platform is added) and point at fabricgen platforms; the
// --running-config error still names every platform's file.
func TestHelpPointsAtPlatforms(t *testing.T) {
	for _, args := range [][]string{{"render", "--help"}, {"lab", "up", "--help"}, {"lab", "show", "--help"}, {"lint", "--help"}} {
		code, stdout, stderr := lintRun(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		flat := strings.Join(strings.Fields(stdout), " ")
		if !strings.Contains(flat, "fabricgen platforms") {
			t.Errorf("%v does not point at fabricgen platforms:\n%s", args, stdout)
		}
		for _, pl := range platforms.All() {
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(string(pl.Name)) + `\b`).MatchString(stdout) {
				t.Errorf("%v names platform %s: list platforms in fabricgen platforms, not in help:\n%s", args, pl.Name, stdout)
			}
		}
	}
	files := runningConfigFiles("<device>")
	for _, pl := range platforms.All() {
		if pl.Emulator == nil {
			continue
		}
		want := regexp.MustCompile(regexp.QuoteMeta("<device>."+pl.RunningConfig.Ext+" (") + `[^)]*\b` + regexp.QuoteMeta(string(pl.Name)) + `\b`)
		if !want.MatchString(files) {
			t.Errorf("runningConfigFiles = %q, lacks <device>.%s for %s", files, pl.RunningConfig.Ext, pl.Name)
		}
	}
}

// TestPlatformsCommand: fabricgen platforms shows every platform of the
// registry, in registry order, with its kind, files, rule and vendor docs,
// the same each run, as text and as JSON; an unknown format fails.
func TestPlatformsCommand(t *testing.T) {
	code, text, stderr := lintRun(t, "platforms")
	if code != 0 {
		t.Fatalf("platforms: exit %d: %s", code, stderr)
	}
	if _, again, _ := lintRun(t, "platforms"); again != text {
		t.Errorf("platforms printed two texts:\n%s\n---\n%s", text, again)
	}
	code, js, stderr := lintRun(t, "platforms", "-format", "json")
	if code != 0 {
		t.Fatalf("platforms -format json: exit %d: %s", code, stderr)
	}
	var doc struct {
		FormatVersion string        `json:"format_version"`
		Platforms     []platformRow `json:"platforms"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatalf("platforms -format json: %v\n%s", err, js)
	}
	all := platforms.All()
	if doc.FormatVersion != platformsFormatVersion || len(doc.Platforms) != len(all) {
		t.Fatalf("platforms -format json: version %q, %d platforms, want %q and %d", doc.FormatVersion, len(doc.Platforms), platformsFormatVersion, len(all))
	}
	at := -1
	for i, pl := range all {
		r := doc.Platforms[i]
		kind := platformKind(pl.Spec)
		rule := lint.PlatformRule(pl.Name)
		want := platformRow{Name: string(pl.Name), Kind: kind, LinkLayers: linkLayers(pl.Spec), RenderExt: pl.Render.Ext, RunningConfigExt: pl.RunningConfig.Ext,
			RunningConfigForm: pl.RunningConfig.Form, Rule: rule, Docs: pl.Render.Docs}
		if !reflect.DeepEqual(r, want) {
			t.Errorf("platform %d: %+v, want %+v", i, r, want)
		}
		if pl.Spec.Managed {
			block := fmt.Sprintf("%s (managed switch, infiniband)\n  render:          nothing: the subnet manager configures it\n", pl.Name)
			if i := strings.Index(text, block); i <= at {
				t.Errorf("platforms text lacks %s's block, or has it out of registry order:\n%s", pl.Name, text)
			} else {
				at = i
			}
			continue
		}
		if rule == "" || lint.Lookup(rule) == nil {
			t.Errorf("%s: rule %q is not a lint rule", pl.Name, rule)
		}
		block := fmt.Sprintf("%s (%s, %s)\n  render:          DEVICE.%s\n  running config:  DEVICE.%s, %s\n  lint rule:       %s\n  vendor docs:     %s\n",
			pl.Name, kind, strings.Join(linkLayers(pl.Spec), " and "), pl.Render.Ext, pl.RunningConfig.Ext, pl.RunningConfig.Form, rule, pl.Render.Docs)
		i := strings.Index(text, block)
		if i <= at {
			t.Errorf("platforms text lacks %s's block, or has it out of registry order:\n%s", pl.Name, text)
		}
		at = i
	}
	if code, _, stderr := lintRun(t, "platforms", "-format", "yaml"); code != exitFailed || !strings.Contains(stderr, "text, json") {
		t.Errorf("platforms -format yaml: exit %d, %q", code, stderr)
	}
}

// TestExplainEveryPlatformRule: fabricgen explain prints the
// platform-limit rule of every platform of the registry.
func TestExplainEveryPlatformRule(t *testing.T) {
	for _, pl := range platforms.Needing("templates") {
		rule := lint.PlatformRule(pl.Name)
		code, out, stderr := lintRun(t, "explain", rule)
		if code != 0 || !strings.Contains(out, rule) || !strings.Contains(out, string(pl.Name)) {
			t.Errorf("explain %s (%s): exit %d\n%s%s", rule, pl.Name, code, out, stderr)
		}
	}
}
