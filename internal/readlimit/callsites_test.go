package readlimit

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// fileOpeners are the calls that open, read or write a file by path, or
// parse one they open themselves: every one must be this package's (Open,
// File, FileContext, FS, Root, OpenDir, ReadDir, WriteFile), which refuse named
// pipes, devices and sockets and bound the size. Keys are
// "package.Func" for package functions and ".Method" for methods.
var fileOpeners = map[string]bool{
	"os.Open": true, "os.OpenFile": true, "os.ReadFile": true, "os.ReadDir": true,
	"os.DirFS": true, "os.OpenRoot": true, "os.OpenInRoot": true,
	"ioutil.ReadFile": true, "ioutil.ReadDir": true,
	"template.ParseFiles": true, "template.ParseGlob": true, ".ParseFiles": true, ".ParseGlob": true,
	".ParseHCLFile": true, ".ParseJSONFile": true,
	"knownhosts.New": true,
	// Writers by path: a named pipe there blocks a plain write until
	// someone reads it; WriteFile refuses it instead.
	"os.WriteFile": true, "os.Create": true, "ioutil.WriteFile": true,
}

// hclParsers recurse once per nesting level and overflow the stack on a
// deep text: the function that calls one must bound the text first
// (nestlimit, or schema's checkNesting and tooDeep that use it).
var hclParsers = map[string]bool{
	"hclsyntax.ParseConfig": true, "hclsyntax.ParseExpression": true, "hclsyntax.ParseTemplate": true,
	"hclsyntax.ParseTraversalAbs": true, "hcljson.Parse": true, "hcljson.ParseExpression": true,
	".ParseHCL": true, ".ParseJSON": true,
}

// jsonDecoders stop at 10,000 levels with an error that names no line;
// a function that reads a file (this package) and decodes it must check
// its nesting (nestlimit) so the error says FILE:LINE:COLUMN.
var jsonDecoders = map[string]bool{"json.Unmarshal": true, "json.NewDecoder": true}

// fileReadWrappers are the module's own helpers around this package's
// readers: a function calling one reads a file, as if it called File.
var fileReadWrappers = map[string]bool{"readFileBounded": true, "readBounded": true}

// nestingGuards are the calls that bound nesting.
func isNestingGuard(key string) bool {
	m := methodKey(key)
	return strings.HasPrefix(key, "nestlimit.") || m == ".checkNesting" || key == "tooDeep" || m == ".checkJSONNesting"
}

// allowed are the call sites (FILE:FUNC:CALL, FILE relative to the
// module root) that open files without this package, and why. Keep it
// short: a new entry needs a reason a reviewer accepts.
var allowed = map[string]string{
	// The ibsim harness of the InfiniBand tests: files it writes and
	// reads in its own scratch directory, and /proc/net/unix.
	"internal/ibsim/sim.go:Start:os.WriteFile":      "test harness: the ibsim net file in its own new scratch directory",
	"internal/ibsim/sim.go:Start:os.Create":         "test harness: the ibsim log in its own new scratch directory",
	"internal/ibsim/sim.go:Start:os.ReadFile":       "test harness: /proc/net/unix, to see ibsim's socket bound",
	"internal/ibsim/sim.go:OpenSM:os.ReadFile":      "test harness: the log OpenSM wrote in the scratch directory",
	"internal/ibsim/sim.go:StartOpenSM:os.ReadFile": "test harness: the log OpenSM writes in the scratch directory",
	// The reader itself.
	"internal/readlimit/readlimit.go:Open:os.OpenFile":    "the bounded reader: stat, O_NONBLOCK open, fstat",
	"internal/readlimit/write.go:WriteFile:os.OpenFile":   "the bounded writer: stat, O_NONBLOCK open, fstat before truncating",
	"internal/readlimit/readlimit.go:OpenDir:os.OpenFile": "the bounded reader: O_DIRECTORY|O_NONBLOCK never blocks on a pipe",
	// Writers and locks: fabricgen creates these files (O_CREATE with
	// O_EXCL or a temporary name) or opens them for writing; a pipe
	// opened O_RDWR does not block.
	"internal/push/state/records.go:saveBackup:os.OpenFile":        "writer: O_WRONLY|O_CREATE|O_EXCL of a new backup",
	"internal/push/state/records.go:saveAppliedBeside:os.OpenFile": "writer: O_WRONLY|O_CREATE|O_EXCL of the record beside a new backup",
	"internal/push/state/gitignore.go:EnsureGitignore:os.OpenFile": "writer: O_WRONLY|O_CREATE|O_EXCL of a new .gitignore; one that exists (a link, a pipe) is left alone",
	"internal/push/state/lock.go:Lock:os.OpenFile":                 "the lock file: O_RDWR|O_CREATE|O_NOFOLLOW, never blocks; its holder is read with readlimit.File",
	"check/readings/readings.go:Save:os.OpenFile":                  "writer: O_WRONLY|O_CREATE|O_TRUNC of a temporary file fabricgen made",
	// A folder opened as an os.Root, so that no symlink in it leads out;
	// every template in it is read with readlimit.Root.
	"templates/overrides_load.go:openOverrides:os.OpenRoot": "the --templates folder, read only through readlimit.Root",
	// Tests' helper (not linked into fabricgen): golden files are the
	// repository's own testdata.
	"internal/golden/golden.go:Check:os.ReadFile":             "test helper reading the repository's golden files",
	"internal/golden/golden.go:Write:os.WriteFile":            "test helper writing the repository's golden files (-update)",
	"internal/platformtest/intent.go:LoadIntent:os.WriteFile": "test helper writing an intent file into the test's own TempDir",
	"internal/lab/labtest/labtest.go:Dial:knownhosts.New":     "test helper reading the known_hosts file the test's own lab wrote",
	// x/crypto's knownhosts.New opens files by name: it is given only
	// private copies of the known_hosts files, each read with
	// readlimit.File (knownHostsCallback).
	"internal/push/session/hostkey.go:knownHostsCallback:knownhosts.New": "parses private copies written from readlimit.File reads",
}

// hclAllowed are HCL parser calls whose text is bounded elsewhere.
var hclAllowed = map[string]string{}

// TestEveryFileOpenIsBounded scans every non-test .go file of the module
// (go/ast) for calls that open a file by path and fails on one that does
// not go through this package, unless allowed says why; for HCL parser
// calls in a function that does not bound the nesting first; and for
// JSON decoding in a function that reads a file without checking its
// nesting.
func TestEveryFileOpenIsBounded(t *testing.T) {
	root := filepath.Join("..", "..")
	problems, used := scanCallSites(t, root)
	for _, p := range problems {
		t.Error(p)
	}
	for k := range allowed {
		if !used[k] {
			t.Errorf("allow-list entry %s matches no call: remove it", k)
		}
	}
}

// TestCallSiteScanFails shows the scan catches a stray read: a file with
// an os.ReadFile, an unguarded hclsyntax.ParseConfig and a json.Unmarshal
// of a file read without a nesting check.
func TestCallSiteScanFails(t *testing.T) {
	dir := t.TempDir()
	src := `package stray

import (
	"encoding/json"
	"os"

	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func Stray(path string) ([]byte, error) { return os.ReadFile(path) }

func Parse(src []byte) { _, _ = hclsyntax.ParseConfig(src, "x", hcl.InitialPos) }

func Decode(path string, v any) error {
	b, err := readlimit.File(path, 10)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
`
	if err := os.WriteFile(filepath.Join(dir, "stray.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	problems, _ := scanCallSites(t, dir)
	got := strings.Join(problems, "\n")
	for _, want := range []string{"stray.go:12: Stray calls os.ReadFile", "stray.go:14: Parse calls hclsyntax.ParseConfig", "stray.go:21: Decode calls json.Unmarshal"} {
		if !strings.Contains(got, want) {
			t.Errorf("the scan missed %q; it found:\n%s", want, got)
		}
	}
}

// scanCallSites returns the problems found under root and which allowed
// entries matched.
func scanCallSites(t *testing.T, root string) ([]string, map[string]bool) {
	t.Helper()
	var problems []string
	used := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			problems = append(problems, scanFunc(fset, rel, fn, used)...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(problems)
	return problems, used
}

type call struct {
	key string
	pos token.Position
}

// scanFunc checks one function (with the function literals in it).
func scanFunc(fset *token.FileSet, rel string, fn *ast.FuncDecl, used map[string]bool) []string {
	var calls []call
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if k := callKey(c); k != "" {
			calls = append(calls, call{k, fset.Position(c.Pos())})
		}
		return true
	})
	guarded, readsFile := false, false
	for _, c := range calls {
		if isNestingGuard(c.key) {
			guarded = true
		}
		if (strings.HasPrefix(c.key, "readlimit.") && c.key != "readlimit.Reader" && c.key != "readlimit.Size") || fileReadWrappers[c.key] || (rel == "internal/readlimit/readlimit.go" && (c.key == "File" || c.key == "Open")) {
			readsFile = true
		}
	}
	name := fn.Name.Name
	var out []string
	for _, c := range calls {
		site := fmt.Sprintf("%s:%s:%s", rel, name, strings.TrimPrefix(c.key, "."))
		where := fmt.Sprintf("%s:%d: %s calls %s", rel, c.pos.Line, name, strings.TrimPrefix(c.key, "."))
		switch {
		case fileOpeners[c.key] || fileOpeners[methodKey(c.key)]:
			if _, ok := allowed[site]; ok {
				used[site] = true
				continue
			}
			out = append(out, where+": open files with internal/readlimit (Open, File, FS, Root, ReadDir), which refuses named pipes, devices and sockets and bounds the size; or add the site to allowed with the reason")
		case (hclParsers[c.key] || hclParsers[methodKey(c.key)]) && !guarded:
			if _, ok := hclAllowed[site]; ok {
				continue
			}
			out = append(out, where+" without bounding the nesting first (nestlimit.HCL): 100,000 nested brackets overflow the parser's stack")
		case jsonDecoders[c.key] && readsFile && !guarded:
			out = append(out, where+" on a file it read without nestlimit.JSON (or nestlimit.JSONReader): a deep file must be refused at FILE:LINE:COLUMN")
		}
	}
	return out
}

// callKey names a call "pkg.Func" (a selector on an identifier: a
// package, or a variable, which then also matches as ".Method"), ".Method"
// for a selector on anything else, or "Func" for a plain call.
func callKey(c *ast.CallExpr) string {
	switch fun := c.Fun.(type) {
	case *ast.SelectorExpr:
		if id, ok := fun.X.(*ast.Ident); ok {
			return id.Name + "." + fun.Sel.Name
		}
		return "." + fun.Sel.Name
	case *ast.Ident:
		return fun.Name
	}
	return ""
}

// methodKey is ".Method" for "recv.Method".
func methodKey(key string) string {
	if i := strings.LastIndexByte(key, '.'); i > 0 {
		return key[i:]
	}
	return key
}
