package sonic_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/platformtest"
	"github.com/fabricgen/fabricgen/internal/testtool"
	"github.com/fabricgen/fabricgen/platforms/sonic"
)

// yangTable says where a CONFIG_DB table lives in the SONiC YANG models.
type yangTable struct {
	module, list string
	keys         []string
	// inner, innerKey, innerVal describe map tables (DSCP_TO_TC_MAP ...):
	// each row is a nested list of {innerKey, innerVal} entries.
	inner, innerKey, innerVal string
}

var yangTables = map[string]yangTable{
	"PORT":                               {module: "sonic-port", list: "PORT_LIST", keys: []string{"name"}},
	"INTERFACE":                          {module: "sonic-interface", list: "INTERFACE_LIST", keys: []string{"name"}},
	"CABLE_LENGTH":                       {"sonic-cable-length", "CABLE_LENGTH_LIST", []string{"name"}, "CABLE_LENGTH", "port", "length"},
	"DSCP_TO_TC_MAP":                     {"sonic-dscp-tc-map", "DSCP_TO_TC_MAP_LIST", []string{"name"}, "DSCP_TO_TC_MAP", "dscp", "tc"},
	"DOT1P_TO_TC_MAP":                    {"sonic-dot1p-tc-map", "DOT1P_TO_TC_MAP_LIST", []string{"name"}, "DOT1P_TO_TC_MAP", "dot1p", "tc"},
	"TC_TO_QUEUE_MAP":                    {"sonic-tc-queue-map", "TC_TO_QUEUE_MAP_LIST", []string{"name"}, "TC_TO_QUEUE_MAP", "tc", "qindex"},
	"TC_TO_PRIORITY_GROUP_MAP":           {"sonic-tc-priority-group-map", "TC_TO_PRIORITY_GROUP_MAP_LIST", []string{"name"}, "TC_TO_PRIORITY_GROUP_MAP", "tc", "pg"},
	"MAP_PFC_PRIORITY_TO_QUEUE":          {"sonic-pfc-priority-queue-map", "MAP_PFC_PRIORITY_TO_QUEUE_LIST", []string{"name"}, "MAP_PFC_PRIORITY_TO_QUEUE", "pfc_priority", "qindex"},
	"PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": {"sonic-pfc-priority-priority-group-map", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP_LIST", []string{"name"}, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "pfc_priority", "pg"},
	"PORT_QOS_MAP":                       {module: "sonic-port-qos-map", list: "PORT_QOS_MAP_LIST", keys: []string{"ifname"}},
	"WRED_PROFILE":                       {module: "sonic-wred-profile", list: "WRED_PROFILE_LIST", keys: []string{"name"}},
	"SCHEDULER":                          {module: "sonic-scheduler", list: "SCHEDULER_LIST", keys: []string{"name"}},
	"QUEUE":                              {module: "sonic-queue", list: "QUEUE_LIST", keys: []string{"ifname", "qindex"}},
	"PFC_WD":                             {module: "sonic-pfcwd", list: "PFC_WD_LIST", keys: []string{"ifname"}},
	"DEVICE_METADATA":                    {module: "sonic-device_metadata"},
	"BUFFER_POOL":                        {module: "sonic-buffer-pool", list: "BUFFER_POOL_LIST", keys: []string{"name"}},
	"BUFFER_PROFILE":                     {module: "sonic-buffer-profile", list: "BUFFER_PROFILE_LIST", keys: []string{"name"}},
	"BUFFER_PG":                          {module: "sonic-buffer-pg", list: "BUFFER_PG_LIST", keys: []string{"port", "pg_num"}},
	"BUFFER_QUEUE":                       {module: "sonic-buffer-queue", list: "BUFFER_QUEUE_LIST", keys: []string{"port", "qindex"}},
	"ACL_TABLE":                          {module: "sonic-acl", list: "ACL_TABLE_LIST", keys: []string{"ACL_TABLE_NAME"}},
	"ACL_RULE":                           {module: "sonic-acl", list: "ACL_RULE_LIST", keys: []string{"ACL_TABLE_NAME", "RULE_NAME"}},
}

var (
	typedefRe = regexp.MustCompile(`typedef\s+([A-Za-z0-9_-]+)\s*\{`)
	leafRe    = regexp.MustCompile(`leaf\s+([A-Za-z0-9_]+)\s*\{`)
	typeRe    = regexp.MustCompile(`\btype\s+([A-Za-z0-9_:-]+)`)
)

// leafKinds reads a YANG module and returns, per leaf name, how its value
// is written in YANG JSON (RFC 7951): "num" for 8–32-bit integers, "bool",
// or "str" (strings, enums, leafrefs, unions and 64-bit integers).
func leafKinds(t *testing.T, path string) map[string]string {
	t.Helper()
	typedefs := map[string]string{}
	all, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.yang"))
	for _, p := range all {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		for _, m := range typedefRe.FindAllStringSubmatchIndex(src, -1) {
			if tm := typeRe.FindStringSubmatch(src[m[1]:]); tm != nil {
				typedefs[src[m[2]:m[3]]] = baseKind(tm[1], nil)
			}
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	out := map[string]string{}
	for _, m := range leafRe.FindAllStringSubmatchIndex(src, -1) {
		name := src[m[2]:m[3]]
		tm := typeRe.FindStringSubmatch(src[m[1]:])
		kind := "str"
		if tm != nil {
			kind = baseKind(tm[1], typedefs)
		}
		if _, dup := out[name]; !dup {
			out[name] = kind
		}
	}
	return out
}

// baseKind classifies a YANG type name, resolving typedefs by their name
// without prefix.
func baseKind(typ string, typedefs map[string]string) string {
	switch typ {
	case "uint8", "uint16", "uint32", "int8", "int16", "int32":
		return "num"
	case "boolean":
		return "bool"
	}
	if i := strings.IndexByte(typ, ':'); i >= 0 {
		typ = typ[i+1:]
	}
	if k, ok := typedefs[typ]; ok {
		return k
	}
	return "str"
}

// configDBToYANG converts a CONFIG_DB fragment to YANG instance JSON. PORT
// rows get a lanes placeholder (and a speed when the render has none): the
// fragment is merged onto the switch's own PORT rows, which carry them.
func configDBToYANG(t *testing.T, yangDir string, db map[string]map[string]map[string]any) []byte {
	t.Helper()
	kinds := map[string]map[string]string{}
	out := map[string]map[string]any{}
	tables := make([]string, 0, len(db))
	for tn := range db {
		tables = append(tables, tn)
	}
	sort.Strings(tables)
	for _, tn := range tables {
		yt, ok := yangTables[tn]
		if !ok {
			t.Fatalf("no YANG mapping for CONFIG_DB table %s", tn)
		}
		if kinds[yt.module] == nil {
			kinds[yt.module] = leafKinds(t, filepath.Join(yangDir, yt.module+".yang"))
		}
		k := kinds[yt.module]
		conv := func(field string, v any) any {
			switch x := v.(type) {
			case []any:
				return x
			case string:
				switch k[field] {
				case "num":
					n, err := strconv.ParseInt(x, 10, 64)
					if err != nil {
						return x // let yanglint report the bad value
					}
					return n
				case "bool":
					return x == "true"
				}
				return x
			}
			return v
		}
		if tn == "DEVICE_METADATA" {
			// A container, not a list: DEVICE_METADATA/localhost.
			entry := map[string]any{}
			for f, v := range db[tn]["localhost"] {
				entry[f] = conv(f, v)
			}
			out[yt.module+":"+yt.module] = map[string]any{tn: map[string]any{"localhost": entry}}
			continue
		}
		rowKeys := make([]string, 0, len(db[tn]))
		for rk := range db[tn] {
			rowKeys = append(rowKeys, rk)
		}
		sort.Strings(rowKeys)
		var list, prefixes []map[string]any
		for _, rk := range rowKeys {
			fields := db[tn][rk]
			entry := map[string]any{}
			if tn == "INTERFACE" && strings.Contains(rk, "|") {
				// "Ethernet0|10.0.0.0/31": INTERFACE_IPPREFIX_LIST.
				name, prefix, _ := strings.Cut(rk, "|")
				e := map[string]any{"name": name, "ip-prefix": prefix}
				for f, v := range fields {
					e[f] = conv(f, v)
				}
				prefixes = append(prefixes, e)
				continue
			}
			parts := strings.SplitN(rk, "|", len(yt.keys))
			if len(parts) != len(yt.keys) {
				t.Fatalf("%s key %q: want %d parts", tn, rk, len(yt.keys))
			}
			for i, kn := range yt.keys {
				entry[kn] = conv(kn, parts[i])
			}
			if yt.inner != "" {
				ik := make([]string, 0, len(fields))
				for f := range fields {
					ik = append(ik, f)
				}
				sort.Strings(ik)
				var inner []map[string]any
				for _, f := range ik {
					inner = append(inner, map[string]any{yt.innerKey: conv(yt.innerKey, f), yt.innerVal: conv(yt.innerVal, fields[f])})
				}
				entry[yt.inner] = inner
			} else {
				for f, v := range fields {
					entry[f] = conv(f, v)
				}
			}
			if tn == "PORT" {
				entry["lanes"] = "0"
				if _, ok := entry["speed"]; !ok {
					entry["speed"] = 100000
				}
			}
			list = append(list, entry)
		}
		mod := yt.module + ":" + yt.module
		if out[mod] == nil {
			out[mod] = map[string]any{}
		}
		body := map[string]any{yt.list: list}
		if prefixes != nil {
			body["INTERFACE_IPPREFIX_LIST"] = prefixes
		}
		out[mod][tn] = body
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// yanglint validates YANG JSON against every model in yangDir and returns
// the tool's output and whether it accepted the data.
func yanglint(t *testing.T, tool, yangDir string, data []byte) (string, bool) {
	t.Helper()
	models, err := filepath.Glob(filepath.Join(yangDir, "*.yang"))
	if err != nil || len(models) == 0 {
		t.Fatalf("no YANG models in %s (%v)", yangDir, err)
	}
	file := filepath.Join(t.TempDir(), "data.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-p", yangDir, "-t", "config"}, models...)
	args = append(args, file)
	out, err := exec.Command(tool, args...).CombinedOutput()
	text := string(out)
	return text, err == nil && !strings.Contains(text, "err :")
}

// sonicRender is one SONiC render; bracketRefs is true for a release
// before 202111, whose references are written "[TABLE|name]".
type sonicRender struct {
	text        []byte
	bracketRefs bool
}

// plainRefs rewrites "[TABLE|name]" references as "name", the only form the
// YANG models (which describe 202111 and later) accept.
func plainRefs(db map[string]map[string]map[string]any) {
	for _, rows := range db {
		for _, fields := range rows {
			for k, v := range fields {
				if s, ok := v.(string); ok && strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
					if _, name, ok := strings.Cut(s[1:len(s)-1], "|"); ok {
						fields[k] = name
					}
				}
			}
		}
	}
}

// overStock merges a render (whose references are plain names) over the
// SKU's stock buffer pools and profiles (testdata/yang/stock.json), which
// a switch has from its first boot and the render refers to; the render's
// rows win.
func overStock(t *testing.T, db map[string]map[string]map[string]any) map[string]map[string]map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "yang", "stock.json"))
	if err != nil {
		t.Fatal(err)
	}
	var stock map[string]map[string]map[string]any
	if err := json.Unmarshal(b, &stock); err != nil {
		t.Fatalf("testdata/yang/stock.json: %v", err)
	}
	for tn, rows := range db {
		if stock[tn] == nil {
			stock[tn] = map[string]map[string]any{}
		}
		for k, fields := range rows {
			stock[tn][k] = fields
		}
	}
	return stock
}

// sonicRenders reads the golden render of every device of this folder's
// fixture (testdata/golden, which TestPlatformFixtureGoldens in templates
// pins to the render of testdata/fabric): its ports and ACL tables (both
// families, both stages, ranges, DSCP matches), releases and ASICs.
func sonicRenders(t *testing.T) map[string]sonicRender {
	t.Helper()
	fx := platformtest.Of(filepath.Join("..", ".."), sonic.Platform())
	f, err := fx.Load()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]sonicRender{}
	for _, d := range fx.Devices(f) {
		text, err := os.ReadFile(fx.Golden(d.Name))
		if err != nil {
			t.Errorf("%s: %v", d.Name, err)
			continue
		}
		out[d.Name] = sonicRender{text, !d.OSVersion.V.AtLeast(202111)}
	}
	return out
}

// yangModels is the directory of the SONiC YANG models, beside the
// repository (../shared/yang/sonic).
func yangModels() string {
	return filepath.Join("..", "..", "..", "shared", "yang", "sonic")
}

// TestSONiCYANG converts the golden render of every device of this
// folder's fixture to YANG JSON and validates it with yanglint against
// ../shared/yang/sonic (moved from templates/sonicyang_test.go).
func TestSONiCYANG(t *testing.T) {
	tool := testtool.Need(t, "yanglint", "libyang2-tools")
	yangDir := yangModels()
	if _, err := os.Stat(yangDir); err != nil {
		t.Fatalf("SONiC YANG models not found at %s: %v", yangDir, err)
	}
	renders := sonicRenders(t)
	if len(renders) == 0 {
		t.Fatal("the fixture has no device of the platform")
	}
	names := make([]string, 0, len(renders))
	for n := range renders {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var db map[string]map[string]map[string]any
		if err := json.Unmarshal(renders[n].text, &db); err != nil {
			t.Errorf("%s: render is not JSON: %v", n, err)
			continue
		}
		if brackets := strings.Contains(string(renders[n].text), `"[BUFFER_`) || strings.Contains(string(renders[n].text), `"[DSCP_TO_TC_MAP|`); brackets != renders[n].bracketRefs {
			t.Errorf("%s: references written [TABLE|name]: %v, want %v (SONiC before 202111 only)", n, brackets, renders[n].bracketRefs)
		}
		if renders[n].bracketRefs {
			plainRefs(db)
		}
		out, ok := yanglint(t, tool, yangDir, configDBToYANG(t, yangDir, overStock(t, db)))
		if !ok {
			t.Errorf("%s: yanglint rejected the render:\n%s", n, out)
		}
	}
}

// TestSONiCYANGRejectsBrokenRender proves the validation can fail: each
// mutation of a valid render must be rejected by yanglint.
func TestSONiCYANGRejectsBrokenRender(t *testing.T) {
	tool := testtool.Need(t, "yanglint", "libyang2-tools")
	yangDir := yangModels()
	renders := sonicRenders(t)
	tests := []struct {
		name   string
		device string // the fixture device whose render is broken (sonic1 when empty)
		mutate func(db map[string]map[string]map[string]any)
	}{
		{"PFC priority out of range", "", func(db map[string]map[string]map[string]any) {
			for k, row := range db["PORT_QOS_MAP"] {
				if k != "global" {
					row["pfc_enable"] = "9"
					return
				}
			}
		}},
		{"queue references a missing WRED profile", "", func(db map[string]map[string]map[string]any) {
			for _, row := range db["QUEUE"] {
				if _, ok := row["wred_profile"]; ok {
					row["wred_profile"] = "NO_SUCH_PROFILE"
					return
				}
			}
		}},
		{"ECN max below min", "", func(db map[string]map[string]map[string]any) {
			for _, row := range db["WRED_PROFILE"] {
				row["green_max_threshold"] = "1"
				return
			}
		}},
		{"MTU above 9216", "", func(db map[string]map[string]map[string]any) {
			for _, row := range db["PORT"] {
				row["mtu"] = "9300"
				return
			}
		}},
		{"DSCP map to TC 99", "", func(db map[string]map[string]map[string]any) {
			db["DSCP_TO_TC_MAP"][sonic.SONiCMapName]["26"] = "99"
		}},
		{"address on a port without its INTERFACE row", "", func(db map[string]map[string]map[string]any) {
			// A port's row whose address row stays (an unnumbered
			// routed port has no address row).
			for k := range db["INTERFACE"] {
				if port, _, ok := strings.Cut(k, "|"); ok {
					delete(db["INTERFACE"], port)
					return
				}
			}
		}},
		{"INTERFACE on a port that does not exist", "", func(db map[string]map[string]map[string]any) {
			db["INTERFACE"]["Ethernet999"] = map[string]any{}
		}},
		{"lossless PG names a missing profile", "sonic5", func(db map[string]map[string]map[string]any) {
			for _, row := range db["BUFFER_PG"] {
				row["profile"] = "pg_lossless_400000_7m_profile"
				return
			}
		}},
		{"lossless egress queue names a missing profile", "sonic5", func(db map[string]map[string]map[string]any) {
			for _, row := range db["BUFFER_QUEUE"] {
				row["profile"] = "egress_lossless_profil"
				return
			}
		}},
		{"egress queue index out of range", "sonic5", func(db map[string]map[string]map[string]any) {
			for k, row := range db["BUFFER_QUEUE"] {
				port, _, _ := strings.Cut(k, "|")
				db["BUFFER_QUEUE"][port+"|99"] = row
				return
			}
		}},
		{"profile draws on a missing pool", "sonic6", func(db map[string]map[string]map[string]any) {
			for _, row := range db["BUFFER_PROFILE"] {
				row["pool"] = "no_such_pool"
				return
			}
		}},
		{"restoration shorter than the poll interval", "", func(db map[string]map[string]map[string]any) {
			db["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"] = "500"
		}},
		{"unknown buffer model", "", func(db map[string]map[string]map[string]any) {
			db["DEVICE_METADATA"] = map[string]map[string]any{"localhost": {"buffer_model": "static"}}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dev := tc.device
			if dev == "" {
				dev = "sonic1"
			}
			good := renders[dev].text
			if good == nil {
				t.Fatalf("%s has no golden render", dev)
			}
			var db map[string]map[string]map[string]any
			if err := json.Unmarshal(good, &db); err != nil {
				t.Fatal(err)
			}
			before := fmt.Sprint(db)
			tc.mutate(db)
			if fmt.Sprint(db) == before {
				t.Fatal("mutation changed nothing: the render lacks the table it targets")
			}
			if renders[dev].bracketRefs {
				plainRefs(db)
			}
			out, ok := yanglint(t, tool, yangDir, configDBToYANG(t, yangDir, overStock(t, db)))
			if ok {
				t.Errorf("yanglint accepted a broken render:\n%s", out)
			}
		})
	}
}
