// Package opensm is the OpenSM subnet manager platform (kind
// subnet_manager on an InfiniBand fabric): the files every SM host gets,
// opensm.conf, qos-policy.conf, partitions.conf and the routing engine's
// GUID files, from the intent's classes, partitions and sm block.
package opensm

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
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

func parse() (*template.Template, error) {
	t, err := template.New("opensm").Option("missingkey=error").Funcs(template.FuncMap{"join": strings.Join}).ParseFS(templateFS, "templates/*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parsing the opensm templates: %w", err)
	}
	return t, nil
}

// Render renders the files every subnet manager host of f gets, in the
// order opensm.conf, qos-policy.conf, partitions.conf, then the GUID files
// the routing engine reads. They name no device: every SM host gets the
// same bytes.
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
	run := func(name, tmpl string, data any) error {
		var b bytes.Buffer
		if err := t.ExecuteTemplate(&b, tmpl, data); err != nil {
			return fmt.Errorf("rendering %s: %w", name, err)
		}
		if n := b.Len(); n > 0 && b.Bytes()[n-1] != '\n' {
			b.WriteByte('\n')
		}
		out = append(out, File{Name: name, Text: b.Bytes()})
		return nil
	}
	for _, s := range []struct {
		name, tmpl string
		data       any
		when       bool
	}{
		{FileConf, "opensm.conf.tmpl", v, true},
		{FilePolicy, "qos-policy.conf.tmpl", v, true},
		{FilePartitions, "partitions.conf.tmpl", v, true},
		{FileRoots, "guids.tmpl", v.Roots, v.RootsPath != ""},
		{FileCNs, "guids.tmpl", v.CNs, v.CNsPath != ""},
		{FileIOs, "guids.tmpl", v.IOs, v.IOsPath != ""},
	} {
		if !s.when {
			continue
		}
		if err := run(s.name, s.tmpl, s.data); err != nil {
			return nil, err
		}
	}
	return out, nil
}
