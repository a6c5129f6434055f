package lab

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/schema"
)

var goldenPlatformRe = regexp.MustCompile(`device (\S+) \(([a-z_]+)\)`)

// TestTemplatesGoldenAccepted loads every rendered configuration the
// templates package keeps as a golden file into the matching emulator:
// each line the templates produce must be accepted.
func TestTemplatesGoldenAccepted(t *testing.T) {
	var files []string
	err := filepath.WalkDir("../../templates/testdata/golden", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".err") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := goldenPlatformRe.FindStringSubmatch(string(data))
		if m == nil {
			continue
		}
		n++
		name, _ := filepath.Rel("../../templates/testdata/golden", f)
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			env := &deviceEnv{
				spec:      DeviceSpec{Name: m[1], Platform: schema.Platform(m[2]), Username: testUser, Password: testPass},
				afterFunc: func(time.Duration, func()) func() { return func() {} },
				now:       time.Now,
			}
			emu, err := newEmulator(env)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(data), "\n")
			if p := schema.Platform(m[2]); p.IsHost() || p == schema.NvidiaCumulus {
				lines = scriptBody(lines)
			}
			if err := emu.outOfBand(lines); err != nil {
				t.Errorf("%v", err)
			}
		})
	}
	t.Logf("%d golden configurations checked", n)
}

// scriptBody drops the shebang and comments of a host script.
func scriptBody(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		out = append(out, l)
	}
	return out
}
