package planfile

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/push/config"
)

func sample() *Plan {
	return &Plan{
		FormatVersion: FormatVersion, ToolVersion: "test", Fabric: "f", Dir: "fabric", IntentDigest: "abc",
		Devices: []*Device{
			{Name: "leaf1", Platform: "os_a", Address: "127.0.0.1:2222", Status: StatusChange, RunningSHA256: "r",
				Rendered: "qos map dscp 26 to traffic-class 3\n", RenderedSHA256: "s",
				Changes: &config.ChangeSet{Blocks: []config.Block{{Lines: []string{"qos map dscp 26 to traffic-class 3"}}}},
				Diff:    config.Diff{Text: "--- a\n+++ b\n@@ -0,0 +1 @@\n+qos map dscp 26 to traffic-class 3\n", Added: 1}},
			{Name: "leaf2", Platform: "os_a", Status: StatusUnchanged},
			{Name: "leaf3", Platform: "os_b", Status: StatusError, Error: "unreachable"},
			// A --no-takeover refusal keeps the diff it refused: its
			// lines are not part of the plan's total.
			{Name: "leaf4", Platform: "os_b", Status: StatusError, Error: "--no-takeover: …", Diff: config.Diff{Added: 7, Removed: 5}},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := sample().Write(&b); err != nil {
		t.Fatal(err)
	}
	p, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Summary(); got != (Summary{Change: 1, Unchanged: 1, Errors: 2, Added: 1}) {
		t.Errorf("summary %+v", got)
	}
	if cmds := p.Device("leaf1").Changes.Commands(); len(cmds) != 1 {
		t.Errorf("commands %q", cmds)
	}
}

func TestReadRefuses(t *testing.T) {
	cases := map[string]string{
		"other version":   `{"format_version": 99, "devices": [{"name": "a", "platform": "os_a", "status": "change"}]}`,
		"unknown field":   `{"format_version": 1, "password": "x", "devices": []}`,
		"no devices":      `{"format_version": 1, "devices": []}`,
		"bad status":      `{"format_version": 1, "devices": [{"name": "a", "platform": "os_a", "status": "maybe"}]}`,
		"not json":        `plan`,
		"nameless device": `{"format_version": 1, "devices": [{"platform": "os_a", "status": "change"}]}`,
	}
	for name, doc := range cases {
		if _, err := Read(strings.NewReader(doc)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzRead(f *testing.F) {
	var b bytes.Buffer
	_ = sample().Write(&b)
	f.Add(b.String())
	f.Add(`{"format_version": 1, "devices": [{"name": "a", "platform": "os_c", "status": "change", "changes": {"blocks": [{"lines": ["x"]}]}}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Read(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, d := range p.Devices {
			_ = d.Changes.Commands()
		}
		_ = p.Summary()
	})
}

func TestSignature(t *testing.T) {
	key := []byte("k3y")
	signed := func() *Plan {
		p := sample()
		if err := p.Sign(key); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := p.Write(&b); err != nil {
			t.Fatal(err)
		}
		back, err := Read(&b)
		if err != nil {
			t.Fatal(err)
		}
		return back
	}
	if err := signed().Verify(key); err != nil {
		t.Fatalf("a signed plan read back does not verify: %v", err)
	}
	tests := []struct {
		name string
		edit func(*Plan)
		key  []byte
		want string
	}{
		{"line added to changes", func(p *Plan) {
			p.Devices[0].Changes.Blocks[0].Lines = append(p.Devices[0].Changes.Blocks[0].Lines, "username evil privilege 15 secret x")
		}, key, "does not match"},
		{"address changed", func(p *Plan) { p.Devices[0].Address = "192.0.2.1:22" }, key, "does not match"},
		{"signature removed", func(p *Plan) { p.Signature = "" }, key, "not signed"},
		{"other key", func(*Plan) {}, []byte("other"), "does not match"},
		{"no key for a signed plan", func(*Plan) {}, nil, "is not set"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := signed()
			tc.edit(p)
			err := p.Verify(tc.key)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Verify: %v, want an error with %q", err, tc.want)
			}
		})
	}
	if err := sample().Verify(nil); err != nil {
		t.Errorf("an unsigned plan without a key: %v", err)
	}
}

func TestReadRefusesAbsoluteDirAndDuplicates(t *testing.T) {
	for name, edit := range map[string]func(*Plan){
		"absolute dir":     func(p *Plan) { p.Dir = "/home/ops/fabric" },
		"duplicate device": func(p *Plan) { p.Devices = append(p.Devices, p.Devices[0]) },
		// A device name names state files (inflight/<device>.json,
		// backups/<device>/): one that could leave its folder is refused.
		"device name ../x":      func(p *Plan) { p.Devices[0].Name = "../x" },
		"device name with /":    func(p *Plan) { p.Devices[0].Name = "a/b" },
		"device name ..":        func(p *Plan) { p.Devices[0].Name = ".." },
		"device name control":   func(p *Plan) { p.Devices[0].Name = "leaf1\n" },
		"device name backslash": func(p *Plan) { p.Devices[0].Name = `..\x` },
	} {
		p := sample()
		edit(p)
		var b bytes.Buffer
		_ = p.Write(&b)
		if _, err := Read(&b); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
