// Package planfile is fabricgen's saved plan: per device the change set,
// the rendered config, and the SHA-256 of the normalised running config the
// plan was computed against, plus the intent digest and the tool version.
//
// A plan file is a record to check, never a script to run: apply
// re-renders the intent, re-reads every device and derives the change set
// itself, and refuses a device whose running config no longer hashes the
// same (stale), whose intent changed, or whose derived change set differs
// from the saved one. With a key (FABRICGEN_PLAN_KEY) a plan carries an
// HMAC-SHA-256 signature and apply refuses unsigned or altered plans.
//
// A plan file never holds credentials or absolute paths: only device
// names, addresses, configuration text, hashes and the fabric directory
// relative to where plan ran, so it can move between CI jobs.
package planfile

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/state"
	"github.com/fabricgen/fabricgen/internal/readlimit"
)

// FormatVersion is the plan file format this build reads and writes.
// Version 2 added the signature and made dir relative.
const FormatVersion = 2

// KeyEnv names the environment variable holding the plan signing key.
const KeyEnv = "FABRICGEN_PLAN_KEY"

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
	// Dir is the intent directory the plan was made from, relative to
	// the working directory of plan (slash-separated).
	Dir string `json:"dir"`
	// IntentDigest is Fabric.Digest at plan time.
	IntentDigest string    `json:"intent_digest"`
	Devices      []*Device `json:"devices"`
	// TrustRecords says plan ran with --trust-records: removals only an
	// unsigned last-applied record justified were planned. apply must be
	// given the same flag (an unsigned plan file could be edited to say
	// so) and refuses the plan otherwise.
	TrustRecords bool `json:"trust_records,omitempty"`
	// Signature is the hex HMAC-SHA-256 of the plan's canonical JSON
	// without this field, keyed with FABRICGEN_PLAN_KEY; empty when
	// plan ran without a key.
	Signature string `json:"signature,omitempty"`
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
	// Changes are the commands the plan derived. apply derives them
	// again from the intent and the device and refuses the device when
	// they differ; it never sends these.
	Changes *config.ChangeSet `json:"changes,omitempty"`
	// Diff is the unified diff of the managed sections.
	Diff config.Diff `json:"diff"`
	// ScopeSHA256 hashes the last-applied config the plan also managed
	// (what fabricgen created earlier); empty when there was none. apply
	// refuses the device when its own differs.
	ScopeSHA256 string `json:"scope_sha256,omitempty"`
	// Takeover lists the device's managed lines the change removes or
	// replaces that fabricgen did not apply last (brownfield config it
	// takes over).
	Takeover []string `json:"takeover,omitempty"`
	// Kept notes, one a claim, the removals held back: objects, an
	// interface's managed lines, CONFIG_DB keys or host settings only an
	// unsigned last-applied record says fabricgen made (plan ran without
	// FABRICGEN_PLAN_KEY and without --trust-records). The device keeps
	// them.
	Kept []string `json:"kept,omitempty"`
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
			// Only devices that will change count lines: a device that
			// could not be planned (a --no-takeover refusal keeps its
			// diff) changes nothing.
			s.Added += d.Diff.Added
			s.Removed += d.Diff.Removed
		case StatusUnchanged:
			s.Unchanged++
		default:
			s.Errors++
		}
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
	if err := readlimit.WriteFile(path, b.Bytes(), 0o600); err != nil {
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
	if filepath.IsAbs(filepath.FromSlash(p.Dir)) {
		return nil, fmt.Errorf("plan file dir %q is an absolute path: plan files record the fabric directory relative to where plan ran; run fabricgen plan again", p.Dir)
	}
	seen := map[string]bool{}
	for i, d := range p.Devices {
		if d == nil || d.Name == "" || d.Platform == "" {
			return nil, fmt.Errorf("plan file device %d has no name or platform", i)
		}
		// A device name names the device's state files: one that could
		// place a file outside its folder is no device fabricgen planned.
		if err := state.CheckName(d.Name); err != nil {
			return nil, fmt.Errorf("plan file device %d: %w: the plan was edited; run fabricgen plan again", i, err)
		}
		if seen[d.Name] {
			return nil, fmt.Errorf("plan file lists device %s twice", d.Name)
		}
		seen[d.Name] = true
		if d.Status != StatusChange && d.Status != StatusUnchanged && d.Status != StatusError {
			return nil, fmt.Errorf("plan file device %s: unknown status %q", d.Name, d.Status)
		}
	}
	return &p, nil
}

// MaxFileSize bounds a plan file Load reads: a plan of examples/scale
// (67,648 devices with their diffs) is far below it.
const MaxFileSize = 1 << 30

// Load reads a plan file, decoding it as it is read: a file past
// MaxFileSize (or /dev/zero) is refused without being held in memory.
func Load(path string) (*Plan, error) {
	f, err := readlimit.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open plan file: %w", err)
	}
	defer func() { _ = f.Close() }()
	p, err := Read(nestlimit.JSONReader(readlimit.Reader(f, path, MaxFileSize), path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// canonical is the plan's JSON without its signature: the bytes signed.
func (p *Plan) canonical() ([]byte, error) {
	c := *p
	c.Signature = ""
	b, err := json.Marshal(&c)
	if err != nil {
		return nil, fmt.Errorf("encode plan: %w", err)
	}
	return b, nil
}

func (p *Plan) mac(key []byte) (string, error) {
	b, err := p.canonical()
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, key)
	m.Write(b)
	return hex.EncodeToString(m.Sum(nil)), nil
}

// Sign sets the plan's signature with key.
func (p *Plan) Sign(key []byte) error {
	if len(key) == 0 {
		return errors.New("sign plan: empty key")
	}
	sig, err := p.mac(key)
	if err != nil {
		return err
	}
	p.Signature = sig
	return nil
}

// Verify checks the plan's signature against key. With no key, a signed
// plan is refused (it cannot be checked) and an unsigned one passes; with
// a key, an unsigned or mismatched plan is refused.
func (p *Plan) Verify(key []byte) error {
	switch {
	case len(key) == 0 && p.Signature == "":
		return nil
	case len(key) == 0:
		return fmt.Errorf("the plan file is signed but %s is not set: set it to the key plan used, so apply can check the plan was not altered", KeyEnv)
	case p.Signature == "":
		return fmt.Errorf("%s is set but the plan file is not signed: refusing an unsigned plan (run fabricgen plan with the key set)", KeyEnv)
	}
	want, err := p.mac(key)
	if err != nil {
		return err
	}
	if !hmac.Equal([]byte(want), []byte(p.Signature)) {
		return errors.New("the plan file's signature does not match: it was altered after plan, or signed with another key; refusing it")
	}
	return nil
}
