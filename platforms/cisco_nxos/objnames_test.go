package cisconxos_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	cisconxos "github.com/fabricgen/fabricgen/platforms/cisco_nxos"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
)

// nxosNamed matches the NX-OS lines that name a class-map, a policy-map
// or an access-list, with the name.
var nxosNamed = regexp.MustCompile(`(?m)^(class-map type qos (?:match-any|match-all) |policy-map type qos |ip access-list |ipv6 access-list )(\S+)$`)

// TestNXOSRenderedNameLimits renders this folder's fixture with a traffic
// class and a re-marking ACL renamed to the longest names the loader
// accepts for NX-OS (schema.NXOS*NameLen less what the renderer adds),
// and checks that every class-map, policy-map and access-list name on the
// NX-OS devices is within NX-OS's limits — and that names one character
// longer are refused at load. The loader's table and the renderer's name
// forms cannot drift apart unnoticed.
func TestNXOSRenderedNameLimits(t *testing.T) {
	class := "c" + strings.Repeat("x", 31) // 32: FG-DSCP-<class> is 40
	acl := "a" + strings.Repeat("y", 26)   // 27: FABRICGEN-IN-<acl> is 40
	f := loadRenamed(t, class, acl)
	r, err := templates.NewRenderer(templates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	longest := map[string]int{}
	for _, d := range f.Devices {
		if d.Platform.V != cisconxos.Platform().Name {
			continue
		}
		out, err := r.Render(f, d)
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		for _, m := range nxosNamed.FindAllStringSubmatch(string(out.Text), -1) {
			kind, name := strings.Fields(m[1])[0], m[2]
			limit := map[string]int{"class-map": cisconxos.ClassMapNameLen, "policy-map": cisconxos.PolicyMapNameLen,
				"ip": cisconxos.ACLNameLen, "ipv6": cisconxos.ACLNameLen}[kind]
			if len(name) > limit {
				t.Errorf("%s: %s %q is %d characters; NX-OS allows %d", d.Name, kind, name, len(name), limit)
			}
			longest[kind] = max(longest[kind], len(name))
		}
	}
	// The renamed objects must have reached the configuration: otherwise
	// this test checks nothing.
	if longest["class-map"] != cisconxos.ClassMapNameLen {
		t.Errorf("longest class-map name is %d characters; want %d (FG-DSCP-%s)", longest["class-map"], cisconxos.ClassMapNameLen, class)
	}
	if longest["policy-map"] != cisconxos.PolicyMapNameLen {
		t.Errorf("longest policy-map name is %d characters; want FABRICGEN-IN-%s", longest["policy-map"], acl)
	}
	for _, c := range []struct{ class, acl, want string }{
		{class + "z", acl, "class-map"},
		{class, acl + "z", "policy-map"},
	} {
		if _, diags := loadRenamedDiags(t, c.class, c.acl); !strings.Contains(diags.Error(), "Name too long for the platform") || !strings.Contains(diags.Error(), c.want) {
			t.Errorf("class %d, acl %d characters: want the loader to refuse the %s name; got %v", len(c.class), len(c.acl), c.want, diags.Error())
		}
	}
}

// loadRenamed loads this folder's fixture (testdata/fabric) with its
// "roce" class and its "roce-mark" ACL renamed.
func loadRenamed(t *testing.T, class, acl string) *schema.Fabric {
	t.Helper()
	f, diags := loadRenamedDiags(t, class, acl)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return f
}

func loadRenamedDiags(t *testing.T, class, acl string) (*schema.Fabric, schema.Diagnostics) {
	t.Helper()
	src := filepath.Join("testdata", "fabric")
	dir := t.TempDir()
	files, err := schema.IntentFiles(src)
	if err != nil {
		t.Fatal(err)
	}
	rename := strings.NewReplacer(`traffic_class "roce"`, `traffic_class "`+class+`"`, "traffic_class.roce,", "traffic_class."+class+",",
		`acl "roce-mark"`, `acl "`+acl+`"`, "acl.roce-mark", "acl."+acl)
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(p)), []byte(rename.Replace(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return schema.Load(dir, schema.Options{Platforms: platforms.Catalog()})
}
