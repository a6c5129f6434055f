package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGraphCommand(t *testing.T) {
	ex := filepath.Join(repoRoot(t), "examples", "roce-storage")
	svg := filepath.Join(t.TempDir(), "f.svg")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"mermaid by default", []string{"graph", ex}, 0, "flowchart BT\n"},
		{"dot", []string{"graph", ex, "-format", "dot"}, 0, "graph \"roce-storage\" {"},
		{"svg to a file", []string{"graph", ex, "-format", "svg", "-o", svg}, 0, ""},
		{"grouped above --max-switches", []string{"graph", ex, "--max-switches", "2"}, 0, "leaf ×2"},
		{"unknown format", []string{"graph", ex, "-format", "png"}, exitFailed, ""},
		{"invalid intent", []string{"graph", filepath.Join(repoRoot(t), "examples", "broken", "nope")}, exitFailed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, out, errb := pushStreams("")
			if code := run(context.Background(), tt.args, s); code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, out, errb)
			}
			if !strings.Contains(out.String(), tt.want) {
				t.Errorf("no %q in:\n%s", tt.want, out)
			}
		})
	}
	b, err := os.ReadFile(svg)
	if err != nil || !strings.HasPrefix(string(b), "<svg ") || !strings.Contains(string(b), "stor01-cx6") {
		t.Errorf("-o %s: %v %.200s", svg, err, b)
	}
}
