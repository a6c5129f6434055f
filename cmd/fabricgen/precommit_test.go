package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreCommitHooks checks that every hook entry in .pre-commit-hooks.yaml
// names a fabricgen command with flags that command accepts.
func TestPreCommitHooks(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ids, entries []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if v, ok := strings.CutPrefix(line, "- id:"); ok {
			ids = append(ids, strings.TrimSpace(v))
		}
		if v, ok := strings.CutPrefix(line, "entry:"); ok {
			entries = append(entries, strings.TrimSpace(v))
		}
	}
	if strings.Join(ids, ",") != "fabricgen-fmt,fabricgen-validate,fabricgen-lint" || len(entries) != 3 {
		t.Fatalf("hooks %v, entries %v", ids, entries)
	}
	for _, e := range entries {
		args := strings.Fields(e)
		if args[0] != "fabricgen" {
			t.Errorf("entry %q does not run fabricgen", e)
			continue
		}
		s, _, _ := pushStreams("")
		root := newRootCommand(s)
		cmd, rest, err := root.Find(args[1:])
		if err != nil || cmd == root {
			t.Errorf("entry %q: no such command (%v)", e, err)
			continue
		}
		if err := cmd.ParseFlags(rest); err != nil {
			t.Errorf("entry %q: %v", e, err)
		}
	}
}
