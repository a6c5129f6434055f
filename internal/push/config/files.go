package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/fabricgen/fabricgen/internal/filebundle"
)

// A Files dialect's configuration is a set of whole files (an OpenSM
// host's opensm.conf, qos-policy.conf, partitions.conf, GUID files): the
// rendered config and what push reads from the device are file bundles
// (internal/filebundle). fabricgen manages exactly the files the render
// holds, each whole: a file differs or it does not, and a change writes
// it whole. Files of the directory the render does not hold are never
// read, shown or touched.

// A Files dialect's change set has one block per file to change. A file
// to write is the block Path ["file PATH", "sha256 HEX"] with the file's
// lines (the digest of its exact bytes tells whether it ends with a
// newline, and guards the text from the plan to the device); a file to
// remove is the block Path ["remove PATH"] without lines.
const (
	filePrefix   = "file "
	removePrefix = "remove "
	shaPrefix    = "sha256 "
)

// fileBlock is the change-set block writing f (removing it when absent).
func fileBlock(f filebundle.File) Block {
	if f.Absent {
		return Block{Path: []string{removePrefix + f.Path}}
	}
	sum := sha256.Sum256(f.Text)
	return Block{Path: []string{filePrefix + f.Path, shaPrefix + hex.EncodeToString(sum[:])}, Lines: fileLines(f.Text)}
}

// FileWrites reads a Files dialect's change set back into the files it
// writes (Absent: removes), checking each file's digest: a block whose
// lines do not make the bytes it names (an edited plan) is an error.
func FileWrites(cs *ChangeSet) ([]filebundle.File, error) {
	if cs == nil {
		return nil, nil
	}
	var out []filebundle.File
	for i, b := range cs.Blocks {
		switch {
		case len(b.Path) == 1 && strings.HasPrefix(b.Path[0], removePrefix):
			p := strings.TrimPrefix(b.Path[0], removePrefix)
			if err := filebundle.CheckPath(p); err != nil {
				return nil, fmt.Errorf("change block %d: %w", i+1, err)
			}
			if len(b.Lines) > 0 {
				return nil, fmt.Errorf("change block %d removes %s but has %d lines", i+1, p, len(b.Lines))
			}
			out = append(out, filebundle.File{Path: p, Absent: true})
		case len(b.Path) == 2 && strings.HasPrefix(b.Path[0], filePrefix) && strings.HasPrefix(b.Path[1], shaPrefix):
			p := strings.TrimPrefix(b.Path[0], filePrefix)
			if err := filebundle.CheckPath(p); err != nil {
				return nil, fmt.Errorf("change block %d: %w", i+1, err)
			}
			want := strings.TrimPrefix(b.Path[1], shaPrefix)
			text := strings.Join(b.Lines, "\n")
			candidates := []string{text + "\n", text}
			if len(b.Lines) == 0 {
				candidates = []string{""}
			}
			found := false
			for _, c := range candidates {
				sum := sha256.Sum256([]byte(c))
				if hex.EncodeToString(sum[:]) == want {
					out = append(out, filebundle.File{Path: p, Text: []byte(c)})
					found = true
					break
				}
			}
			if !found {
				return nil, fmt.Errorf("change block %d: the lines of %s do not make the file whose SHA-256 the block names (%s): the change set was edited", i+1, p, want)
			}
		default:
			return nil, fmt.Errorf("change block %d (%q) is not a file to write or remove", i+1, strings.Join(b.Path, " / "))
		}
	}
	return out, nil
}

// compareFiles compares the device's files (running, a bundle read with
// ReadFiles) with the rendered bundle.
func compareFiles(device, running, rendered, label string) (*Comparison, error) {
	want, err := filebundle.Decode([]byte(rendered))
	if err != nil {
		return nil, fmt.Errorf("%s: the rendered files: %w", device, err)
	}
	var have map[string]filebundle.File
	if running != "" {
		files, err := filebundle.Decode([]byte(running))
		if err != nil {
			return nil, fmt.Errorf("%s: the files read from the device: %w", device, err)
		}
		have = filebundle.Map(files)
	}
	c := &Comparison{RunningSHA256: filesDigest(running), Changes: &ChangeSet{}}
	var run, des strings.Builder
	for _, w := range want {
		h, ok := have[w.Path]
		if !ok {
			h = filebundle.File{Path: w.Path, Absent: true}
		}
		showFile(&run, h)
		showFile(&des, w)
		if h.Absent == w.Absent && bytes.Equal(h.Text, w.Text) {
			continue
		}
		c.Changes.Blocks = append(c.Changes.Blocks, fileBlock(w))
		if !h.Absent {
			kept := map[string]bool{}
			for _, l := range fileLines(w.Text) {
				kept[l] = true
			}
			for _, l := range fileLines(h.Text) {
				if !kept[l] && strings.TrimSpace(l) != "" {
					c.Replaced = append(c.Replaced, w.Path+" > "+l)
				}
			}
		}
	}
	c.Running, c.Desired = run.String(), des.String()
	c.Diff = Unified(device+" (running)", device+" ("+label+")", c.Running, c.Desired)
	return c, nil
}

// showFile writes a file as the diff shows it: a header line naming it,
// then its lines; a file that does not end with a newline says so, as
// diff does.
func showFile(b *strings.Builder, f filebundle.File) {
	if f.Absent {
		fmt.Fprintf(b, "### %s: absent\n", f.Path)
		return
	}
	fmt.Fprintf(b, "### %s\n", f.Path)
	for _, l := range fileLines(f.Text) {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if len(f.Text) > 0 && f.Text[len(f.Text)-1] != '\n' {
		b.WriteString("\\ No newline at end of file\n")
	}
}

// fileLines splits a file into its lines, without the last newline.
func fileLines(text []byte) []string {
	if len(text) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
}

// filesDigest is the hex SHA-256 of a bundle's bytes: every byte of a
// file counts (a blank line or a trailing space is a change to a file).
func filesDigest(bundle string) string {
	sum := sha256.Sum256([]byte(bundle))
	return hex.EncodeToString(sum[:])
}

// managedFilePaths lists every line of a bundle's files as "PATH > line":
// what fabricgen considers its own after writing them.
func managedFilePaths(bundle string) ([]string, error) {
	files, err := filebundle.Decode([]byte(bundle))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		if f.Absent {
			continue
		}
		out = append(out, f.Path)
		for _, l := range fileLines(f.Text) {
			out = append(out, f.Path+" > "+l)
		}
	}
	return out, nil
}

// FilesOf decodes a Files dialect's bundle: the files a render holds, or
// those read from a device.
func FilesOf(bundle string) ([]filebundle.File, error) {
	if bundle == "" {
		return nil, nil
	}
	return filebundle.Decode([]byte(bundle))
}
