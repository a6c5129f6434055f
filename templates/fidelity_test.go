package templates

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// Each platform folder's fidelity rows (platforms/<dir>/fidelity.md)
// list every line shape the platform emits, with its public source and a
// status (confirmed, plausible). TestFidelityTableCoversGoldens extracts
// the shapes from the golden renders (every folder goldenSources lists)
// and fails on a shape no row lists, on a row no golden emits any more,
// and on a row the folder's own fixture goldens do not emit: the rows
// cannot drift from the templates, and a copy of a folder passes.

// A line shape is a rendered line with its variable parts replaced:
// IPv6 addresses by X::X, numbers by N (rates by Nbit), runs of list items
// and maps by LIST (one port range stays "range N N" or N-N), the device's
// own names (its name, port names, ACL names and SONiC's ACL tables, class,
// watchdog and ECN profile names, descriptions) by DEV, IF, ACL, CLASS,
// NAME and TEXT. Comment lines are not shapes.

var (
	// List runs, after digits became N: "N,N,N", "N N N", "N:N N:N",
	// "N:on N:off", "ets,ets,strict".
	reListComma = regexp.MustCompile(`\bN(?:[,-]N)+\b`)
	reListSpace = regexp.MustCompile(`\bN(?: N)+\b`)
	reListWords = regexp.MustCompile(`\b(?:ets|strict|vendor)(?:,(?:ets|strict|vendor))+\b`)
	// Pairs: a dcb-app PCP key carries its DEI bit (0nd, 7de); a rate is
	// Nbit (dcb-maxrate). A rate map is a list however many pairs it has.
	reListPairs = regexp.MustCompile(`(?:N|\d(?:nd|de)):(?:N|on|off|ets|strict|vendor)(?: (?:N|\d(?:nd|de)):(?:N|on|off|ets|strict|vendor))+`)
	reRateMap   = regexp.MustCompile(`\bN:Nbit(?: N:Nbit)*\b`)
	reRate      = regexp.MustCompile(`\b\d+bit\b`)
	// An IPv6 address (checked with net.ParseIP) becomes X::X, before
	// numbers become N, so its groups are not taken for a list.
	reIPv6 = regexp.MustCompile(`[0-9A-Fa-f]*:[0-9A-Fa-f:]*:[0-9A-Fa-f]*`)
	// A port range "range A B" (EOS, NX-OS) is one range, not a list.
	reRangeKeyword = regexp.MustCompile(`\brange N N\b`)
)

// shapeNames holds one device's names, longest first, with their placeholders.
type shapeNames struct {
	pairs []string // old, new, ... for strings.NewReplacer
}

func newShapeNames(f *schema.Fabric, d *schema.Device) shapeNames {
	type rep struct{ from, to string }
	var reps []rep
	add := func(from, to string) {
		if from != "" {
			reps = append(reps, rep{from, to})
		}
	}
	add(d.Name, "DEV")
	for _, p := range d.Ports {
		add(p.Name, "IF")
		for _, a := range append(append([]*schema.ACL{}, p.ACLIn...), p.ACLOut...) {
			add(a.Name, "ACL")
			// A CONFIG_DB render names an ACL table after the ACL and
			// its stage.
			table := strings.ToUpper(strings.ReplaceAll(a.Name, "-", "_"))
			add(table+"_IN", "ACL")
			add(table+"_EG", "ACL")
		}
	}
	for _, w := range f.Watchdogs {
		add(w.Name, "NAME")
	}
	for _, e := range f.ECNProfiles {
		add(e.Name, "NAME")
	}
	sort.SliceStable(reps, func(i, j int) bool { return len(reps[i].from) > len(reps[j].from) })
	var sn shapeNames
	for _, r := range reps {
		sn.pairs = append(sn.pairs, r.from, r.to)
	}
	return sn
}

// replaceTokens replaces whole names: a name counts where it is not part
// of a longer word (letters, digits, "_" and "-" on either side).
func (sn shapeNames) replaceTokens(s string) string {
	for i := 0; i+1 < len(sn.pairs); i += 2 {
		from, to := sn.pairs[i], sn.pairs[i+1]
		var b strings.Builder
		for {
			j := strings.Index(s, from)
			if j < 0 {
				b.WriteString(s)
				break
			}
			end := j + len(from)
			if (j > 0 && isNameByte(s[j-1])) || (end < len(s) && isNameByte(s[end])) {
				b.WriteString(s[:end])
				s = s[end:]
				continue
			}
			b.WriteString(s[:j])
			b.WriteString(to)
			s = s[end:]
		}
		s = b.String()
	}
	return s
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// numbersToN replaces each number standing alone by N; digits that are
// part of a word (l3, ipv4, 400g, 8q, Q3) stay: a letter on either side
// keeps them.
func numbersToN(s string) string {
	isLetter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if (i > 0 && isLetter(s[i-1])) || (j < len(s) && isLetter(s[j])) {
			b.WriteString(s[i:j])
		} else {
			b.WriteByte('N')
		}
		i = j
	}
	return b.String()
}

var (
	// reJunosClass is a Junos forwarding class named after the intent's class.
	reJunosClass = regexp.MustCompile(`\b(forwarding-class|class) [A-Za-z][A-Za-z0-9_-]*`)
	// Generated names with a number or class in them: one shape each.
	reGenerated = []struct {
		re   *regexp.Regexp
		repl string
	}{
		{regexp.MustCompile(`FABRICGEN-Q\d`), "FABRICGEN-QN"},
		{regexp.MustCompile(`c-out-8q-q\d`), "c-out-8q-qN"},
		{regexp.MustCompile(`c-8q-nq\d`), "c-8q-nqN"},
		{regexp.MustCompile(`FG-DSCP-[A-Za-z0-9_-]+`), "FG-DSCP-CLASS"},
		{regexp.MustCompile(`ibdev_[A-Za-z0-9_]+`), "ibdev_IF"},
	}
	// fixedNumbers are numbers that are part of a command's syntax, not
	// values: kept as they are.
	fixedNumbers = []string{"g-8", "t-8", "ieee-802.1", "2>&1", ">&2", "exit 1", "-eq 78", " -p 1", "ports/1/", "-mindepth 1 -maxdepth 1"}
)

// lineShape normalises one rendered line; host is true for a host
// script's line.
func lineShape(host bool, line string, sn shapeNames) string {
	s := strings.TrimSpace(line)
	if i := strings.Index(s, "description "); i >= 0 && !strings.Contains(s[:i], "policy_desc") {
		s = s[:i] + "description TEXT"
	}
	s = sn.replaceTokens(s)
	if strings.HasPrefix(s, "set ") {
		// A set-form line (Junos) names forwarding classes after the
		// intent's classes.
		s = reJunosClass.ReplaceAllStringFunc(s, func(m string) string {
			kw, _, _ := strings.Cut(m, " ")
			return kw + " CLASS"
		})
	}
	if host {
		// Host messages are prose: keep the command, not the text.
		s = regexp.MustCompile(`\{ echo "[^"]*" >&2; exit 1; \}`).ReplaceAllString(s, `{ echo "MESSAGE" >&2; exit 1; }`)
	}
	for _, g := range reGenerated {
		s = g.re.ReplaceAllString(s, g.repl)
	}
	for i, f := range fixedNumbers {
		s = strings.ReplaceAll(s, f, fmt.Sprintf("QfixedQ%cQ", 'a'+i))
	}
	s = reIPv6.ReplaceAllStringFunc(s, func(m string) string {
		if net.ParseIP(m) == nil {
			return m
		}
		return "X::X"
	})
	s = reRate.ReplaceAllString(s, "Nbit")
	s = numbersToN(s)
	for i, f := range fixedNumbers {
		s = strings.ReplaceAll(s, fmt.Sprintf("QfixedQ%cQ", 'a'+i), f)
	}
	s = reRateMap.ReplaceAllString(s, "LIST")
	s = reListPairs.ReplaceAllString(s, "LIST")
	s = reListWords.ReplaceAllString(s, "LIST")
	s = reRangeKeyword.ReplaceAllString(s, "range QrangeQ")
	// One range A-B (a Junos port match, a SONiC L4 range) stays N-N; a
	// run of ranges and values is a list.
	s = reListComma.ReplaceAllStringFunc(s, func(m string) string {
		if m == "N-N" {
			return m
		}
		return "LIST"
	})
	s = reListSpace.ReplaceAllString(s, "LIST")
	s = strings.ReplaceAll(s, "range QrangeQ", "range N N")
	return s
}

// sonicShapes lists the shapes of a CONFIG_DB render: TABLE|KEY FIELD=VALUE
// (a row without fields is TABLE|KEY).
func sonicShapes(t *testing.T, text []byte, sn shapeNames) []string {
	var db map[string]map[string]map[string]any
	if err := json.Unmarshal(text, &db); err != nil {
		t.Fatalf("sonic render is not CONFIG_DB JSON: %v", err)
	}
	var out []string
	for table, rows := range db {
		for key, fields := range rows {
			k := table + "|" + key
			if len(fields) == 0 {
				out = append(out, lineShape(false, k, sn))
			}
			for f, v := range fields {
				val := fmt.Sprint(v)
				if list, ok := v.([]any); ok {
					parts := make([]string, len(list))
					for i, x := range list {
						parts[i] = fmt.Sprint(x)
					}
					val = "[" + strings.Join(parts, ",") + "]"
				}
				if table == "ACL_TABLE" && f == "policy_desc" || table == "PORT" && f == "description" {
					val = "TEXT"
				}
				s := lineShape(false, k+" "+f+"="+val, sn)
				// A list of ports is a list, however long.
				s = strings.ReplaceAll(s, "[IF,IF", "[IF")
				for strings.Contains(s, "IF,IF") {
					s = strings.ReplaceAll(s, "IF,IF", "IF")
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// goldenSource is one folder of golden renders and the fabric each file
// was rendered from.
type goldenSource struct {
	root string // slash-separated, relative to templates/
	// folder is the platform folder whose fixture the renders are ("" for
	// the examples' goldens, which hold every platform).
	folder string
	// fabric returns the fabric of the golden file at rel (relative to
	// root, slash-separated).
	fabric func(t *testing.T, rel string) *schema.Fabric
}

// goldenSources lists every folder of golden renders the fidelity rows are
// checked against: the examples' (TestGolden) and every registry folder's
// fixture goldens (TestPlatformFixtureGoldens).
// TestFidelityCoversEveryGoldenFolder fails on a golden folder under
// testdata this list does not name.
func goldenSources() []goldenSource {
	out := []goldenSource{
		{root: "testdata/golden", fabric: func(t *testing.T, rel string) *schema.Fabric {
			return loadExample(t, path.Dir(rel))
		}},
	}
	for _, fx := range platformtest.All("..") {
		out = append(out, goldenSource{root: filepath.ToSlash(fx.GoldenDir()), folder: fx.Platform.Folder, fabric: func(t *testing.T, _ string) *schema.Fabric {
			f, err := fx.Load()
			if err != nil {
				t.Fatal(err)
			}
			return f
		}})
	}
	return out
}

// goldenShapes extracts the line shapes of every golden render of every
// golden source, by platform, each with one golden file that emits it;
// own holds, by platform, the shapes its own folder's fixture goldens
// emit.
func goldenShapes(t *testing.T) (all, own map[schema.Platform]map[string]string) {
	t.Helper()
	all, own = map[schema.Platform]map[string]string{}, map[schema.Platform]map[string]string{}
	add := func(m map[schema.Platform]map[string]string, p schema.Platform, s, file string) {
		if m[p] == nil {
			m[p] = map[string]string{}
		}
		if _, ok := m[p][s]; !ok {
			m[p][s] = file
		}
	}
	for _, src := range goldenSources() {
		root := filepath.FromSlash(src.root)
		var fab *schema.Fabric
		var fabDir string
		err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() || strings.HasSuffix(p, ".err") {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if fab == nil || fabDir != path.Dir(rel) {
				fab, fabDir = src.fabric(t, rel), path.Dir(rel)
			}
			dev := strings.TrimSuffix(path.Base(rel), path.Ext(rel))
			d := fab.Device(dev)
			if d == nil {
				t.Errorf("%s/%s: no device %s in the fabric it was rendered from", src.root, rel, dev)
				return nil
			}
			text, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			pl := d.Platform.V
			mine := src.folder != "" && src.folder == folderOf(pl)
			for _, s := range shapesOf(t, pl, text, newShapeNames(fab, d)) {
				add(all, pl, s, src.root+"/"+rel)
				if mine {
					add(own, pl, s, src.root+"/"+rel)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return all, own
}

// TestFidelityCoversEveryGoldenFolder: every folder named golden under
// testdata is one goldenSources reads, so a new golden render test cannot
// add line shapes the fidelity table never sees.
func TestFidelityCoversEveryGoldenFolder(t *testing.T) {
	known := map[string]bool{}
	for _, src := range goldenSources() {
		known[src.root] = true
		if _, err := os.Stat(filepath.FromSlash(src.root)); err != nil {
			t.Errorf("golden source %s: %v", src.root, err)
		}
	}
	err := filepath.WalkDir("testdata", func(p string, de fs.DirEntry, err error) error {
		if err != nil || !de.IsDir() {
			return err
		}
		p = filepath.ToSlash(p)
		if known[p] {
			return fs.SkipDir
		}
		if de.Name() == "golden" {
			t.Errorf("%s holds golden renders the fidelity test does not read: add it to goldenSources in templates/fidelity_test.go", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// shapesOf lists the shapes of one render of platform p: a render whose
// format has no comment marker is CONFIG_DB JSON.
func shapesOf(t *testing.T, p schema.Platform, text []byte, sn shapeNames) []string {
	pl, ok := platforms.Get(p)
	if !ok {
		t.Fatalf("%s is no registry platform", p)
	}
	if pl.Render.Comment == "" {
		return sonicShapes(t, text, sn)
	}
	comment := pl.Render.Comment
	var out []string
	for _, l := range strings.Split(string(text), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, comment) || strings.HasPrefix(l, "#!") {
			continue
		}
		out = append(out, lineShape(pl.Spec.Host, l, sn))
	}
	return out
}

// fidelityRow is one row of a folder's fidelity table.
type fidelityRow struct {
	source, status string
	// at is where the row is: "file:line".
	at string
}

// fidelityProblems compares emitted shapes with the table.
func fidelityProblems(emitted map[schema.Platform]map[string]string, table map[schema.Platform]map[string]fidelityRow) []string {
	var out []string
	for p, shapes := range emitted {
		for s, file := range shapes {
			if _, ok := table[p][s]; !ok {
				out = append(out, fmt.Sprintf("%s emits %q (%s), which no fidelity row lists: add a row | `%s` | source | confirmed or plausible | to platforms/%s/fidelity.md", p, s, file, strings.ReplaceAll(s, "|", `\|`), folderOf(p)))
			}
		}
	}
	for p, rows := range table {
		for s, r := range rows {
			if _, ok := emitted[p][s]; !ok {
				out = append(out, fmt.Sprintf("%s: %s shape %q is emitted by no golden render: remove the row", r.at, p, s))
			}
		}
	}
	sort.Strings(out)
	return out
}

// folderOf is platform p's folder under platforms/ (p itself when no
// folder has it).
func folderOf(p schema.Platform) string {
	if pl, ok := platforms.Get(p); ok {
		return pl.Folder
	}
	return string(p)
}

// reFolderFidelityRow is one row of a platform folder's fidelity.md.
var reFolderFidelityRow = regexp.MustCompile("^\\| `(.+)` \\| (.+) \\| (confirmed|plausible) \\|$")

// fidelityHeader opens a folder's table of fidelity rows.
const fidelityHeader = "| line shape | source | status |"

// parseFidelity parses the table of a folder's fidelity.md (text):
// shape → row, and a problem for each line that is not a row, each shape
// listed twice and a file without a table.
func parseFidelity(folder, text string) (map[string]fidelityRow, []string) {
	out := map[string]fidelityRow{}
	var probs []string
	in, n := false, 0
	for i, l := range strings.Split(text, "\n") {
		switch {
		case l == fidelityHeader:
			in = true
			continue
		case !in, strings.HasPrefix(l, "|---"):
			continue
		case !strings.HasPrefix(l, "|"):
			in = false
			continue
		}
		n++
		at := fmt.Sprintf("platforms/%s/fidelity.md:%d", folder, i+1)
		m := reFolderFidelityRow.FindStringSubmatch(l)
		if m == nil {
			probs = append(probs, fmt.Sprintf("%s: not a fidelity row (| `shape` | source | confirmed or plausible |): %q", at, l))
			continue
		}
		shape := strings.ReplaceAll(m[1], `\|`, "|")
		if _, dup := out[shape]; dup {
			probs = append(probs, fmt.Sprintf("%s: shape %q listed twice", at, shape))
		}
		out[shape] = fidelityRow{source: m[2], status: m[3], at: at}
	}
	if n == 0 {
		probs = append(probs, fmt.Sprintf("platforms/%s/fidelity.md: no table under %q", folder, fidelityHeader))
	}
	return out, probs
}

// platformFidelity parses every registry folder's fidelity rows:
// platform → shape → row.
func platformFidelity(t *testing.T) map[schema.Platform]map[string]fidelityRow {
	t.Helper()
	out := map[schema.Platform]map[string]fidelityRow{}
	for _, p := range rendered() {
		rows, probs := parseFidelity(p.Folder, p.Fidelity)
		for _, prob := range probs {
			t.Error(prob)
		}
		out[p.Name] = rows
	}
	return out
}

func TestFidelityTableCoversGoldens(t *testing.T) {
	emitted, own := goldenShapes(t)
	table := platformFidelity(t)
	for _, pl := range rendered() {
		p := pl.Name
		if len(own[p]) == 0 {
			t.Errorf("platforms/%s: its fixture goldens render no %s device: the fidelity rows would cover nothing", pl.Folder, p)
		}
		if os.Getenv("FABRICGEN_FIDELITY_DUMP") != "" {
			shapes := make([]string, 0, len(emitted[p]))
			for s := range emitted[p] {
				shapes = append(shapes, s)
			}
			sort.Strings(shapes)
			for _, s := range shapes {
				fmt.Printf("%s\t%s\n", p, s)
			}
		}
		// A folder's own fixture emits every row of its fidelity.md, so
		// a copy of the folder, which has no other goldens, passes.
		var missing []string
		for s, r := range table[p] {
			if _, ok := own[p][s]; !ok {
				missing = append(missing, fmt.Sprintf("%s: %s shape %q is emitted by no golden render of platforms/%s/testdata/golden: grow the folder's fixture (testdata/fabric) until it does", r.at, p, s, pl.Folder))
			}
		}
		sort.Strings(missing)
		for _, m := range missing {
			t.Error(m)
		}
	}
	for _, prob := range fidelityProblems(emitted, table) {
		t.Error(prob)
	}
}

// TestFidelityTableCanFail proves the check: a line shape the table does
// not list, and a row nothing emits, are both reported; a malformed row
// and a file without a table are reported; normalisation maps different
// values and names onto one shape.
func TestFidelityTableCanFail(t *testing.T) {
	f := loadExample(t, "clos-400g")
	leaf1 := newShapeNames(f, f.Device("leaf1"))
	for _, pair := range [][2]string{
		{"   speed 400g-8", "speed 400g-8"},
		{"interface Ethernet31/1", "interface IF"},
		{"   description to spine1:et-0/0/0", "description TEXT"},
		{"qos map dscp 0 1 2 3 4 to traffic-class 0", "qos map dscp LIST to traffic-class N"},
		{"priority-flow-control pause watchdog default recovery-time 0.2", "priority-flow-control pause watchdog default recovery-time N.N"},
	} {
		if got := lineShape(false, pair[0], leaf1); got != pair[1] {
			t.Errorf("shape of %q = %q, want %q", pair[0], got, pair[1])
		}
	}
	// Addresses, ranges and maps: one shape per syntax, whatever the
	// values, but a range is not a list and two prefixes stay two.
	edge := shapeNames{pairs: []string{"EDGE_V4_IN", "ACL", "EDGE_V4_EG", "ACL", "Ethernet8", "IF"}}
	for _, c := range []struct {
		sn       shapeNames
		in, want string
	}{
		{leaf1, "   10 permit udp 2001:db8:1::/48 2001:db8:2::/48 eq 4791", "N permit udp X::X/N X::X/N eq N"},
		{leaf1, "   20 deny ip any 2001:db8::/32", "N deny ip any X::X/N"},
		{leaf1, "   20 permit udp any 10.9.0.0/16 range 4791 4792 dscp 26", "N permit udp any N.N.N.N/N range N N dscp N"},
		{shapeNames{}, "  match dscp 0-25,27-47,49-63", "match dscp LIST"},
		{shapeNames{}, "set firewall family inet filter f term 20 from destination-port 4791-4792", "set firewall family inet filter f term N from destination-port N-N"},
		{shapeNames{}, "set class-of-service forwarding-classes class roce queue-num 3", "set class-of-service forwarding-classes class CLASS queue-num N"},
		{shapeNames{}, "dcb maxrate set dev eth0 tc-maxrate 6:10000000000bit 7:25000000000bit", "dcb maxrate set dev eth0 tc-maxrate LIST"},
		{shapeNames{}, "dcb maxrate set dev eth0 tc-maxrate 6:10000000000bit", "dcb maxrate set dev eth0 tc-maxrate LIST"},
		{shapeNames{}, "dcb app replace dev eth0 pcp-prio 0nd:0 0de:0 7nd:7 7de:7", "dcb app replace dev eth0 pcp-prio LIST"},
		{shapeNames{}, "dcb app replace dev eth0 dscp-prio 0:0 1:0 26:3", "dcb app replace dev eth0 dscp-prio LIST"},
		{edge, "ACL_TABLE|EDGE_V4_IN stage=ingress", "ACL_TABLE|ACL stage=ingress"},
		{edge, "ACL_RULE|EDGE_V4_EG|RULE_20 L4_DST_PORT_RANGE=4791-4792", "ACL_RULE|ACL|RULE_N L4_DST_PORT_RANGE=N-N"},
		{edge, "INTERFACE|Ethernet8|2001:db8:9::/127", "INTERFACE|IF|X::X/N"},
	} {
		if got := lineShape(false, c.in, c.sn); got != c.want {
			t.Errorf("shape of %q = %q, want %q", c.in, got, c.want)
		}
	}
	if got, want := lineShape(true, `[ -e x ] || { echo "no such file" >&2; exit 1; }`, shapeNames{}), `[ -e x ] || { echo "MESSAGE" >&2; exit 1; }`; got != want {
		t.Errorf("host shape = %q, want %q", got, want)
	}
	const p = schema.Platform("some_os")
	rows, probs := parseFidelity("some_os", "# Fidelity rows\n\n"+fidelityHeader+"\n|---|---|---|\n"+
		"| `speed 400g-8` | AVD schema | confirmed |\n"+
		"| `shape rate N kbps` | AVD schema | plausible |\n")
	if len(probs) != 0 {
		t.Fatalf("parse problems %q", probs)
	}
	emitted := map[schema.Platform]map[string]string{p: {
		"speed 400g-8":                  "x.cfg",
		"priority-flow-control bogus N": "x.cfg",
	}}
	probs = fidelityProblems(emitted, map[schema.Platform]map[string]fidelityRow{p: rows})
	if len(probs) != 2 || !strings.Contains(probs[0]+probs[1], `"priority-flow-control bogus N"`) || !strings.Contains(probs[0]+probs[1], `"shape rate N kbps" is emitted by no golden`) {
		t.Errorf("problems %q, want the unlisted shape and the stale row", probs)
	}
	if _, probs := parseFidelity("x", fidelityHeader+"\n|---|---|---|\n| `a` | b | maybe |\n| `c` | d | confirmed |\n| `c` | d | confirmed |\n"); len(probs) != 2 {
		t.Errorf("problems %q, want the malformed row and the duplicate", probs)
	}
	if _, probs := parseFidelity("x", "# no table\n"); len(probs) != 1 {
		t.Errorf("problems %q, want the missing table", probs)
	}
}
