// Package opensm is the OpenSM subnet manager platform (kind
// subnet_manager on an InfiniBand fabric): the files every SM host gets,
// opensm.conf, qos-policy.conf, partitions.conf and the routing engine's
// GUID files, from the intent's classes, partitions and sm block.
package opensm

import (
	"bytes"
	"embed"
	"fmt"
	"text/template"

	"github.com/fabricgen/fabricgen/schema"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

// fidelity is the platform's fidelity rows (fidelity.md): every line shape
// the templates emit, with its OpenSM source.
//
//go:embed fidelity.md
var fidelity string

// Fidelity returns the fidelity table.
func Fidelity() string { return fidelity }

// File is one rendered file: its name in ConfigDir and its text.
type File struct {
	Name string
	Text []byte
}

// Files are the files every SM host gets, in order: the first rendered
// by device.tmpl, each other by the template of its name plus ".tmpl"; a
// file whose render is blank (a GUID file the routing engine does not
// read) is left out. It is the platform's view.Info Files.
func Files() []string {
	return []string{FileConf, FilePolicy, FilePartitions, FileRoots, FileCNs, FileIOs}
}

func parse() (*template.Template, error) {
	t, err := template.New("opensm").Option("missingkey=error").ParseFS(templateFS, "templates/*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parsing the opensm templates: %w", err)
	}
	return t, nil
}

// Render renders the files every subnet manager host of f gets (Files),
// with no device name in them: every SM host gets the same bytes.
func Render(f *schema.Fabric) ([]File, error) {
	v, err := Build(f)
	if err != nil {
		return nil, err
	}
	t, err := parse()
	if err != nil {
		return nil, err
	}
	var out []File
	for i, name := range Files() {
		tmpl := name + ".tmpl"
		if i == 0 {
			tmpl = "device.tmpl"
		}
		var b bytes.Buffer
		if err := t.ExecuteTemplate(&b, tmpl, v); err != nil {
			return nil, fmt.Errorf("rendering %s: %w", name, err)
		}
		if len(bytes.TrimSpace(b.Bytes())) == 0 {
			continue
		}
		if n := b.Len(); b.Bytes()[n-1] != '\n' {
			b.WriteByte('\n')
		}
		out = append(out, File{Name: name, Text: b.Bytes()})
	}
	return out, nil
}
