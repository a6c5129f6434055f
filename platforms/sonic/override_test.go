package sonic_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms/sonic"
	"github.com/fabricgen/fabricgen/templates"
)

// TestSONiCOverrideDuplicateField: an override that prints a field twice
// fails the render with the template and the field named (moved from
// templates/stanza_test.go).
func TestSONiCOverrideDuplicateField(t *testing.T) {
	p := sonic.Platform()
	fx := platformtest.Of(filepath.Join("..", ".."), p)
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, string(p.Name)), 0o755); err != nil {
		t.Fatal(err)
	}
	over := "{{define \"interface\"}}mtu 1\nmtu 2{{end}}"
	if err := os.WriteFile(filepath.Join(dir, string(p.Name), "interface.tmpl"), []byte(over), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := templates.NewRenderer(templates.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Render(f, fx.Devices(f)[0])
	if err == nil || !strings.Contains(err.Error(), `the "interface" template: field mtu printed twice`) {
		t.Errorf("render: %v; want the duplicate field named", err)
	}
}
