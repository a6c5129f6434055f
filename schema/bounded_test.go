package schema_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/testtool"
)

// boundedCase is an input that once exhausted memory, the stack or the
// CPU. It runs in the real CLI, in a child process limited to 2 GiB of
// data (RLIMIT_DATA: the heap it maps), which must exit 1 with the error,
// quickly and without a crash.
type boundedCase struct {
	name string
	// bad is bad.fab.hcl next to the base fabric; files are extra files.
	bad   string
	files map[string]string
	// setup writes inputs too large for a literal.
	setup func(t *testing.T, dir string)
	args  []string
	env   []string
	// want are fragments of stderr: the summary or detail, and where
	// ("bad.fab.hcl:3:", "-var v", a path).
	want []string
}

// dataLimit is prlimit's flag for the children's 2 GiB data limit.
const dataLimit = "--data=2147483648"

func deep(open, close string, n int) string {
	return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
}

// chain is a locals block a0 = first, a1 = step(a0), … a(n-1), then
// tail's lines: a(i) is on line i+2. step holds %[1]s for the previous
// local's name ("[%[1]s, %[1]s]").
func chain(n int, first, step, tail string) string {
	var b strings.Builder
	b.WriteString("locals {\n  a0 = " + first + "\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "  a%d = %s\n", i, fmt.Sprintf(step, fmt.Sprintf("local.a%d", i-1)))
	}
	b.WriteString(tail + "}\n")
	return b.String()
}

func boundedCases() []boundedCase {
	return []boundedCase{
		{name: "range of 2e30 values", bad: "locals {\n  x = range(-1e30, 1e30)\n}\n",
			want: []string{"range would produce", "bad.fab.hcl:2:"}},
		{name: "setproduct of three range(1000)", bad: "locals {\n  r = range(1000)\n  x = setproduct(local.r, local.r, local.r)\n}\n",
			want: []string{"setproduct would build more than 1000000", "bad.fab.hcl:3:"}},
		{name: "indent by a billion", bad: "locals {\n  x = indent(1000000000, \"a\\nb\")\n}\n",
			want: []string{"indent takes 0 to", "bad.fab.hcl:2:"}},
		{name: "jsondecode of deep nesting", bad: "locals {\n  x = jsondecode(\"" + deep("[", "]", 100000) + "\")\n}\n",
			want: []string{"the JSON nests", "bad.fab.hcl:2:"}},
		{name: "deep nesting in a JSON template string", files: map[string]string{"bad.fab.json": "{\"locals\": {\n  \"x\": \"${" + deep("[", "]", 300000) + "}\"\n}}\n"},
			want: []string{"Nested too deeply", "bad.fab.json:2:"}},
		{name: "for expression in a JSON template string", files: map[string]string{"bad.fab.json": "{\"locals\": {\n  \"x\": \"${[for i in range(1000000): [for j in range(1000000): j]]}\"\n}}\n"},
			want: []string{"Template too complex for JSON", "bad.fab.json:2:"}},
		{name: "a large local in a JSON template's function call", bad: "locals {\n  big = range(100000)\n}\ndevice \"n\" {\n  count    = 20000\n  kind     = \"nic\"\n  platform = \"probe_host\"\n}\n",
			files: map[string]string{"bad.fab.json": "{\"device\": {\"m\": {\"count\": 20000, \"kind\": \"nic\", \"platform\": \"probe_host\",\n  \"name\": \"m${length(local.big) + count.index}\"}}}\n"},
			want:  []string{"Template too complex for JSON", "local.big", "bad.fab.json:2:"}},
		{name: "-var with deep nesting", bad: "variable \"v\" {\n}\n", args: []string{"-var", "v=" + deep("[", "]", 60000)},
			want: []string{"Invalid value for variable", "-var v", "nested too deeply"}},
		{name: "-var with a huge number", bad: "variable \"v\" {\n  type = number\n}\n", args: []string{"-var", "v=1e400"},
			want: []string{"Invalid value for variable", "-var v", "too large"}},
		{name: "-var-file with deep nesting", bad: "variable \"v\" {\n}\n", args: []string{"-var-file", "VARS/vars.hcl"},
			files: map[string]string{"vars/vars.hcl": "\nv = " + deep("[", "]", 300000) + "\n"},
			want:  []string{"Nested too deeply", "vars.hcl:2:"}},
		{name: "-var-file JSON with deep nesting", bad: "variable \"v\" {\n}\n", args: []string{"-var-file", "VARS/vars.json"},
			files: map[string]string{"vars/vars.json": "{\n\"v\": " + deep("[", "]", 300000) + "}\n"},
			want:  []string{"Nested too deeply", "vars.json:2:"}},
		{name: "-var-file /dev/zero", bad: "variable \"v\" {\n  default = 1\n}\n", args: []string{"-var-file", "/dev/zero"},
			want: []string{"Cannot read variable file", "/dev/zero", "character device"}},
		{name: "FABRICGEN_VAR_ with deep nesting", bad: "variable \"v\" {\n  type = list(any)\n}\n", env: []string{"FABRICGEN_VAR_v=" + deep("[", "]", 60000)},
			want: []string{"Invalid value for variable", "FABRICGEN_VAR_v", "nested too deeply", "declared at ", "bad.fab.hcl:1)"}},
		{name: "null priority through a variable", bad: "variable \"p\" {\n  default = null\n}\ntraffic_class \"x\" {\n  priority = var.p\n}\n",
			want: []string{"Missing required value", "priority", "bad.fab.hcl:5:"}},
		{name: "size overflowing int64", bad: "ecn_profile \"x\" {\n  min_threshold = \"1KB\"\n  max_threshold = \"100000000000000000000GB\"\n}\n",
			want: []string{"too large: at most", "bad.fab.hcl:3:"}},
		{name: "speed overflowing int64", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  port \"Ethernet0\" {\n    speed = \"100000000000T\"\n  }\n}\n",
			want: []string{"too large: at most", "bad.fab.hcl:5:"}},
		{name: "template doubling", bad: "locals {\n  a = format(\"%1000000s\", \"x\")\n  b = \"${local.a}${local.a}\"\n}\n",
			want: []string{"bad.fab.hcl:3:", "more than 1048576 bytes"}},
		{name: "for directive of 100,000 long strings", bad: "locals {\n  a = format(\"%1000s\", \"x\")\n  b = \"%{ for i in range(100000) }${local.a}%{ endfor }\"\n}\n",
			want: []string{"bad.fab.hcl:3:", "MiB of strings in total"}},
		{name: "format width of a billion", bad: "locals {\n  x = format(\"%999999999d\", 1)\n}\n",
			want: []string{"bad.fab.hcl:2:", "width or precision"}},
		{name: "format repeating an argument", bad: "locals {\n  a = format(\"%100000s\", \"x\")\n  x = format(\"" + strings.Repeat("%[1]s", 1000) + "\", local.a)\n}\n",
			want: []string{"bad.fab.hcl:3:", "1048576 bytes"}},
		{name: "replace growing a string", bad: "locals {\n  a = format(\"%100000s\", \"x\")\n  x = replace(local.a, \" \", local.a)\n}\n",
			want: []string{"bad.fab.hcl:3:", "1048576 bytes"}},
		{name: "join of a million copies", bad: "locals {\n  a = format(\"%1000s\", \"x\")\n  x = join(\",\", [for i in range(100000) : local.a])\n}\n",
			want: []string{"bad.fab.hcl:3:", "1048576 bytes"}},
		{name: "jsonencode of a million copies", bad: "locals {\n  a = format(\"%1000s\", \"x\")\n  x = jsonencode([for i in range(100000) : local.a])\n}\n",
			want: []string{"bad.fab.hcl:3:", "1048576 bytes"}},
		{name: "concat past a million", bad: "locals {\n  x = concat(range(1000000), range(1000000))\n}\n",
			want: []string{"bad.fab.hcl:2:", "1000000"}},
		{name: "flatten past a million", bad: "locals {\n  r = range(600)\n  x = flatten([for i in local.r : [for j in local.r : [i, j, i]]])\n}\n",
			want: []string{"bad.fab.hcl:3:", "more than 1000000"}},
		{name: "number literal 1e400", bad: "locals {\n  x = 1e400\n}\n",
			want: []string{"Number out of range", "bad.fab.hcl:2:"}},
		{name: "squaring past float64", bad: "locals {\n  a = 1e200\n  b = local.a * local.a\n}\n",
			want: []string{"bad.fab.hcl:3:", "too large"}},
		{name: "tostring of a tiny number", bad: "locals {\n  a = 1e-300\n  b = local.a / 1e300\n}\n",
			want: []string{"bad.fab.hcl:3:", "too close to zero"}},
		{name: "parseint of a megabyte", bad: "locals {\n  x = parseint(format(\"%01000000d\", 1), 10)\n}\n",
			want: []string{"bad.fab.hcl:2:", "too long"}},
		{name: "mesh of a million squared", bad: "locals {\n  n = [for i in range(100000) : \"d${i}\"]\n}\nmesh \"m\" {\n  lower       = local.n\n  lower_ports = local.n\n  upper       = local.n\n  upper_ports = local.n\n}\n",
			want: []string{"Too many links", "bad.fab.hcl:4:"}},
		// Memory: what a for expression, a constructor in its body and a
		// map entry cost is charged before the load exceeds 2 GiB.
		{name: "map of a million entries", bad: "locals {\n  a = {for i in range(1000000) : tostring(i) => i}\n}\n",
			want: []string{"Evaluation limit reached", "bad.fab.hcl:2:", "more than 2000000 collection elements"}},
		{name: "list of a million strings", bad: "locals {\n  a = [for i in range(1000000) : \"xxxxxxxxxxxxxxxxxxxx\"]\n}\n",
			want: []string{"Evaluation limit reached", "bad.fab.hcl:2:"}},
		{name: "tuples built in a for body", bad: "locals {\n  a = [for i in range(650000) : [i, i, i, i, i, i, i, i]]\n}\n",
			want: []string{"Evaluation limit reached", "bad.fab.hcl:2:"}},
		// Walks: values are shared, walks are not.
		{name: "shared doubling then jsonencode", bad: chain(27, "[1]", "[%[1]s, %[1]s]", "  b = jsonencode(local.a26)\n"),
			want: []string{"Value too large", "local.a20", "bad.fab.hcl:22:", "expands to more than 2000000"}},
		{name: "shared doubling compared", bad: chain(26, "[1]", "[%[1]s, %[1]s]", "  b = local.a25 == local.a24\n  c = setunion([local.a25], [local.a24])\n"),
			want: []string{"Value too large", "bad.fab.hcl:22:"}},
		{name: "shared doubling inside one expression", bad: chain(19, "[1]", "[%[1]s, %[1]s]", "  b = length([for i in range(64) : local.a18])\n"),
			want: []string{"Value too large", "bad.fab.hcl:21:"}},
		{name: "nesting through 300 locals", bad: chain(300, "1", "[%[1]s]", ""),
			want: []string{"nests more than 100 levels", "local.a101", "bad.fab.hcl:103:"}},
		{name: "20,000 chained locals", bad: chain(20000, "1", "%[1]s", "  b = local.nope\n"),
			want: []string{"Reference to undeclared local value", "bad.fab.hcl:20002:"}},
		{name: "a large list's length in every iteration", bad: "locals {\n  big = range(100000)\n  x = [for i in range(20000) : length(local.big)]\n}\n",
			want: []string{"Evaluation limit reached", "bad.fab.hcl:3:", "walk more than 20000000"}},
		{name: "comparing large values in every iteration", bad: "locals {\n  big = range(100000)\n  x = [for i in range(20000) : local.big == local.big]\n}\n",
			want: []string{"Evaluation limit reached", "bad.fab.hcl:3:", "walk more than 20000000"}},
		{name: "setproduct repeating a large value", bad: "locals {\n  big = [range(100000)]\n  x = setproduct(range(1000), local.big)\n}\n",
			want: []string{"bad.fab.hcl:3:", "expands to more than 2000000"}},
		{name: "dynamic blocks from a huge range", bad: "device \"x\" {\n  kind     = \"leaf\"\n  platform = \"probe_b\"\n  dynamic \"port\" {\n    for_each = range(2000000)\n    labels   = [\"Ethernet${port.value}\"]\n    content {}\n  }\n}\n",
			want: []string{"bad.fab.hcl:5:", "range would produce"}},
	}
}

// TestBoundedEvaluation runs each bounded case through the real CLI under
// a 2 GiB data limit (prlimit --data, from util-linux). The limit is on
// data, not address space: the Go runtime reserves 1.3–1.5 GB of address
// space before it reads a file (VmPeak of validate on a ten-line fabric),
// so a 2 GiB --as left a few hundred MB of real headroom that varied from
// run to run, and a case using 300 MB failed at random. Reservations are
// not data; mapped heap is, so --data bounds what the loader builds.
func TestBoundedEvaluation(t *testing.T) {
	prlimit := testtool.Need(t, "prlimit", "util-linux")
	if testing.Short() {
		t.Skip("builds the CLI")
	}
	bin := filepath.Join(t.TempDir(), "fabricgen")
	build := exec.Command("go", "build", "-o", bin, "./cmd/fabricgen")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cases := boundedCases()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Each case may take a quarter of what is left of the test
			// deadline, at most two minutes: a loaded machine waits
			// longer, a hang fails (and leaves time for the others).
			per := 2 * time.Minute
			if dl, ok := t.Deadline(); ok {
				per = min(per, time.Until(dl)/4)
			}
			dir := t.TempDir()
			fab := filepath.Join(dir, "fabric")
			writeFile(t, mkdir(t, fab), baseFile, badBase)
			if c.bad != "" {
				writeFile(t, fab, "bad.fab.hcl", c.bad)
			}
			for name, content := range c.files {
				target := filepath.Join(fab, name)
				if strings.HasPrefix(name, "vars/") {
					target = filepath.Join(dir, name)
				}
				writeFile(t, mkdir(t, filepath.Dir(target)), filepath.Base(target), content)
			}
			if c.setup != nil {
				c.setup(t, fab)
			}
			args := []string{dataLimit, "--", bin, "validate", fab}
			for _, a := range c.args {
				args = append(args, strings.ReplaceAll(a, "VARS", filepath.Join(dir, "vars")))
			}
			ctx, cancel := context.WithTimeout(context.Background(), per)
			defer cancel()
			cmd := exec.CommandContext(ctx, prlimit, args...)
			cmd.Env = append(append(os.Environ(), "NO_COLOR=1"), c.env...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			err := cmd.Run()
			took := time.Since(start)
			errText := stderr.String()
			if ctx.Err() != nil {
				t.Fatalf("still running after %s", per)
			}
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				t.Logf("took %s, max RSS %d MiB", took.Round(time.Millisecond), ru.Maxrss>>10)
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Errorf("exit %v, want status 1 (took %s)", err, took)
			}
			for _, bad := range []string{"goroutine ", "runtime:", "fatal error", "panic:"} {
				if strings.Contains(errText, bad) {
					t.Fatalf("crashed (%q in stderr):\n%s", bad, head(errText))
				}
			}
			for _, w := range c.want {
				if !strings.Contains(errText, w) {
					t.Errorf("stderr lacks %q:\n%s", w, head(errText))
				}
			}
		})
	}
}

func mkdir(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func head(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}
