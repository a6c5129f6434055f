// Package planfile is fabricgen's saved plan: per device the change set,
// the rendered config, and the SHA-256 of the normalised running config the
// plan was computed against, plus the intent digest and the tool version.
// apply refuses a device whose running config no longer hashes the same
// (a stale plan). A plan file never holds credentials: only device names,
// addresses, configuration text and hashes.
package planfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fabricgen/fabricgen/push/config"
)

// FormatVersion is the plan file format this build reads and writes.
const FormatVersion = 1

// Device status values.
const (
	StatusChange    = "change"
	StatusUnchanged = "unchanged"
	StatusError     = "error"
)

// Plan is a saved plan.
type Plan struct {
	FormatVersion int    `json:"format_version"`
	ToolVersion   string `json:"tool_version"`
	Fabric        string `json:"fabric"`
	// Dir is the intent directory the plan was made from.
	Dir string `json:"dir"`
	// IntentDigest is Fabric.Digest at plan time.
	IntentDigest string    `json:"intent_digest"`
	Devices      []*Device `json:"devices"`
}

// Device is one device's planned change.
type Device struct {
	Name     string `json:"name"`
	Platform string `json:"platform"`
	Address  string `json:"address"`
	// Status is change, unchanged or error.
	Status string `json:"status"`
	// Error says why the device could not be planned.
	Error string `json:"error,omitempty"`
	// RunningSHA256 is the hex SHA-256 of the normalised running config.
	RunningSHA256 string `json:"running_sha256,omitempty"`
	// Rendered is the full rendered config; RenderedSHA256 its hash.
	Rendered       string `json:"rendered"`
	RenderedSHA256 string `json:"rendered_sha256"`
	// Changes are the commands apply will send.
	Changes *config.ChangeSet `json:"changes,omitempty"`
	// Diff is the unified diff of the managed sections.
	Diff config.Diff `json:"diff"`
}

// Summary counts a plan's devices and lines.
type Summary struct {
	Change, Unchanged, Errors int
	Added, Removed            int
}

// Summary counts the plan.
func (p *Plan) Summary() Summary {
	var s Summary
	for _, d := range p.Devices {
		switch d.Status {
		case StatusChange:
			s.Change++
		case StatusUnchanged:
			s.Unchanged++
		default:
			s.Errors++
		}
		s.Added += d.Diff.Added
		s.Removed += d.Diff.Removed
	}
	return s
}

// HasChanges reports whether any device would change.
func (p *Plan) HasChanges() bool { return p.Summary().Change > 0 }

// Device returns the named device, or nil.
func (p *Plan) Device(name string) *Device {
	for _, d := range p.Devices {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// Write encodes the plan as indented JSON.
func (p *Plan) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return fmt.Errorf("encode plan: %w", err)
	}
	return nil
}

// Save writes the plan to path (mode 0600: it holds device configs).
func (p *Plan) Save(path string) error {
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		return fmt.Errorf("write plan file: %w", err)
	}
	return nil
}

// Read decodes a plan, refusing other format versions and unknown fields.
func Read(r io.Reader) (*Plan, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var p Plan
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("not a fabricgen plan file: %w", err)
	}
	if p.FormatVersion != FormatVersion {
		return nil, fmt.Errorf("plan file format_version %d: this fabricgen reads version %d; run fabricgen plan again", p.FormatVersion, FormatVersion)
	}
	if len(p.Devices) == 0 {
		return nil, errors.New("plan file lists no devices")
	}
	for i, d := range p.Devices {
		if d == nil || d.Name == "" || d.Platform == "" {
			return nil, fmt.Errorf("plan file device %d has no name or platform", i)
		}
		if d.Status != StatusChange && d.Status != StatusUnchanged && d.Status != StatusError {
			return nil, fmt.Errorf("plan file device %s: unknown status %q", d.Name, d.Status)
		}
	}
	return &p, nil
}

// Load reads a plan file.
func Load(path string) (*Plan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open plan file: %w", err)
	}
	defer f.Close()
	p, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}
