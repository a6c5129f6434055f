package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
)

// demoSpine1 is spine1's line in the demo fabric's devices.fab.hcl: the
// test puts another platform in its seat.
var demoSpine1 = regexp.MustCompile(`(?m)^(\s*spine1\s*=\s*\{\s*platform\s*=\s*)"[^"]+"`)

// demoSpineBlock is the start of the spine block, and demoLeafASIC the
// leaves' asic line (SONiC needs one), which the test copies into it.
var (
	demoSpineBlock = regexp.MustCompile(`device "spine" \{\n`)
	demoLeafASIC   = regexp.MustCompile(`(?m)^  asic\s*=.*\n`)
	// demoNICsPerLeaf is the NICs per leaf: two keep the test short and
	// still send RoCE from every leaf to another.
	demoNICsPerLeaf = regexp.MustCompile(`(?m)^(\s*nics_per_leaf\s*=\s*)\d+`)
)

// TestDemoHandEditEveryPlatform runs fabricgen demo on the demo fabric
// with spine1 on each switch platform in turn: the demo gives spine1 its
// platform's DSCP reset by hand (platform.Platform.ZeroDSCP), the
// platform's emulator takes the lines, the lab's data plane zeroes RoCE's
// DSCP there (the goodput falls), check pins the hop (CHK014 naming
// spine1, CHK016 on spine1), apply repairs it and the goodput comes back
// (the demo fails otherwise).
func TestDemoHandEditEveryPlatform(t *testing.T) {
	for _, p := range platforms.Needing("hand edit resetting DSCP") {
		if p.Spec.Host {
			if p.ZeroDSCP != nil {
				t.Errorf("platforms/%s: a host has a DSCP reset hand edit", p.Folder)
			}
			continue
		}
		t.Run(p.Folder, func(t *testing.T) {
			t.Parallel()
			if p.ZeroDSCP == nil {
				t.Fatalf("platforms/%s: no DSCP reset hand edit (ZeroDSCP)", p.Folder)
			}
			dir := filepath.Join(t.TempDir(), "fabric")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			files, err := fs.Glob(demoFabricFS, "demofabric/*.fab.hcl")
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				b, err := demoFabricFS.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				text := string(b)
				if filepath.Base(f) == "devices.fab.hcl" {
					if !demoSpine1.MatchString(text) {
						t.Fatal("the demo fabric's devices.fab.hcl has no spine1 seat line")
					}
					text = demoSpine1.ReplaceAllString(text, `${1}"`+string(p.Name)+`"`)
					asic := demoLeafASIC.FindString(text)
					if asic == "" || !demoSpineBlock.MatchString(text) {
						t.Fatal("the demo fabric's devices.fab.hcl has no spine block or no leaf asic line")
					}
					if !demoNICsPerLeaf.MatchString(text) {
						t.Fatal("the demo fabric's devices.fab.hcl sets no nics_per_leaf")
					}
					text = demoNICsPerLeaf.ReplaceAllString(text, "${1}2")
					text = demoSpineBlock.ReplaceAllLiteralString(text, "device \"spine\" {\n"+asic)
				}
				if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, out, errb := pushStreams("")
			if code := run(context.Background(), []string{"demo", dir}, s); code != 0 {
				t.Fatalf("demo with spine1 on %s: exit %d\n%s\n%s", p.Name, code, out, errb)
			}
			text := strings.ReplaceAll(out.String(), "\n  ", " ")
			case2 := text[strings.Index(text, "Seed case 2"):]
			// CHK014 pins spine1: RoCE leaves it in its class and arrives
			// in another (an egress rewrite, or an ingress re-mark that
			// keeps the class there), or leaves it in another class (an
			// ingress re-mark that reclassifies there).
			if !regexp.MustCompile(`error\[CHK014\]: RoCE data (leaves spine1 in its class|reaches spine1 in its class from every neighbour [^\n]* leaves spine1 in another class)`).MatchString(case2) {
				t.Errorf("spine1 on %s: CHK014 does not pin spine1:\n%s", p.Name, case2)
			}
			for _, want := range []string{"Seed case 2: spine1 resets RoCE's DSCP to 0",
				"error[CHK016]: spine1 runs QoS that differs from the intent", "Apply: 1 applied, 13 unchanged.", "Goodput across subnets meanwhile"} {
				if !strings.Contains(case2, want) {
					t.Errorf("spine1 on %s: seed case 2 lacks %q:\n%s", p.Name, want, case2)
				}
			}
			if strings.Contains(case2, "unchanged: the hops after") {
				t.Errorf("spine1 on %s: the goodput did not fall:\n%s", p.Name, case2)
			}
		})
	}
}
