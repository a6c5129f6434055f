package templates

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fabricgen/fabricgen/schema"
)

// oneOff is name with its last letter changed: a misspelling one edit
// away.
func oneOff(name string) string {
	last := byte('x')
	if name[len(name)-1] == 'x' {
		last = 'y'
	}
	return name[:len(name)-1] + string(last)
}

// TestOverrideFolderRules: what a --templates folder may hold (issue 21
// item 8). A symlink may not lead out of the folder (device.tmpl linked
// to a secret printed the secret into leaf1.cfg), a misnamed platform
// folder is an error naming it (it was silently ignored), and templates
// are regular files. Each case sets up the folder and wants NewRenderer's
// error to hold every fragment of want, or no error and the render of a
// switch platform (sw)
// to start with render.
func TestOverrideFolderRules(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(secret, []byte("root:$6$secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// write makes rel under dir: "->TARGET" a symlink, "|" a named pipe,
	// "/" a folder, anything else a file with that content.
	write := func(t *testing.T, dir string, files map[string]string) {
		t.Helper()
		for rel, content := range files {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			var err error
			switch {
			case strings.HasPrefix(content, "->"):
				err = os.Symlink(strings.ReplaceAll(content[2:], "SECRET", secret), p)
			case content == "|":
				err = syscall.Mkfifo(p, 0o600)
			case content == "/":
				err = os.MkdirAll(p, 0o755)
			default:
				err = os.WriteFile(p, []byte(content), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	// sw and other are two switch platforms of the registry; the
	// misspellings are one letter off their names.
	var sws []string
	for _, pl := range rendered() {
		if !pl.Spec.Host {
			sws = append(sws, string(pl.Name))
		}
	}
	if len(sws) < 2 {
		t.Fatalf("the registry has %d switch platforms: this test needs two", len(sws))
	}
	sw, other := sws[len(sws)-1], sws[len(sws)-2]
	misspelt, missp2 := oneOff(other), oneOff(sw)
	for _, c := range []struct {
		name   string
		files  map[string]string
		want   []string // error fragments; nil: no error
		render string   // with no error: the sw render's start
	}{
		{name: "device.tmpl linked to a secret outside",
			files: map[string]string{sw + "/device.tmpl": "->SECRET"},
			want:  []string{sw + "/device.tmpl is a symlink to", "outside the --templates folder", "/etc/shadow", "Copy the file"}},
		{name: "sub-template linked outside by a relative path",
			files: map[string]string{sw + "/device.tmpl": "x", sw + "/interface.tmpl": "->../../" + "escape.tmpl", "../escape.tmpl": "y"},
			want:  []string{"interface.tmpl is a symlink to", "outside the --templates folder"}},
		{name: "platform folder linked outside",
			files: map[string]string{sw: "->" + "/etc"},
			want:  []string{sw + " is a symlink to /etc", "outside the --templates folder"}},
		{name: "template linked to /dev/zero",
			files: map[string]string{sw + "/device.tmpl": "->/dev/zero"},
			want:  []string{"outside the --templates folder"}},
		{name: "dangling symlink",
			files: map[string]string{sw + "/device.tmpl": "->nowhere.tmpl"},
			want:  []string{sw + "/device.tmpl is a symlink that leads nowhere"}},
		{name: "symlink inside the folder is followed",
			files:  map[string]string{other + "/device.tmpl": "shared\n", sw + "/device.tmpl": "->../" + other + "/device.tmpl"},
			render: "shared"},
		{name: "named pipe as a template",
			files: map[string]string{sw + "/device.tmpl": "|"},
			want:  []string{sw + "/device.tmpl is a named pipe"}},
		{name: "misnamed platform folder",
			files: map[string]string{"bogus_os/device.tmpl": "x"},
			want:  []string{"bogus_os is not named after a platform", "Rename it to one of"}},
		{name: "misspelt platform folder gets a suggestion",
			files: map[string]string{misspelt + "/device.tmpl": "x"},
			want:  []string{misspelt + " is not named after a platform", `Did you mean "` + other + `"?`}},
		{name: "every misnamed folder is named",
			files: map[string]string{"bogus_os/device.tmpl": "x", missp2 + "/device.tmpl": "x"},
			want:  []string{"bogus_os is not named", missp2 + " is not named", `Did you mean "` + sw + `"?`}},
		{name: "template beside the platform folders",
			files: map[string]string{"device.tmpl": "x"},
			want:  []string{"device.tmpl is not in a platform folder", "<platform>"}},
		{name: "hidden folders and other files are left alone",
			files:  map[string]string{".git/HEAD": "x", "README.md": "notes", sw + "/device.tmpl": "mine\n"},
			render: "mine"},
		{name: "missing --templates folder",
			files: map[string]string{},
			want:  []string{"--templates", "no such file"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "tmpl")
			if len(c.files) > 0 {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			write(t, dir, c.files)
			r, err := NewRenderer(Options{Dir: dir})
			if c.want == nil {
				if err != nil {
					t.Fatalf("NewRenderer: %v", err)
				}
				f, d := tinyFabric(schema.Platform(sw), portName(t, schema.Platform(sw)))
				o, err := r.Render(f, d)
				if err != nil {
					t.Fatalf("render: %v", err)
				}
				if !strings.HasPrefix(string(o.Text), c.render) {
					t.Fatalf("render = %q, %v; want it to start %q", o.Text, err, c.render)
				}
				return
			}
			if err == nil {
				t.Fatalf("NewRenderer accepted the folder; want an error with %q", c.want)
			}
			msg := strings.ReplaceAll(err.Error(), string(filepath.Separator), "/")
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error lacks %q:\n%s", w, msg)
				}
			}
			if strings.Contains(c.name, "misnamed") {
				for _, n := range renderedNames() {
					if !strings.Contains(msg, string(n)) {
						t.Errorf("error does not list the valid name %s:\n%s", n, msg)
					}
				}
			}
			if strings.Contains(msg, "$6$secret") {
				t.Errorf("the error shows the secret: %s", msg)
			}
		})
	}
}
