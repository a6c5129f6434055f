package emulator

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

// newSwitch starts an emulated switch of the given identity with two
// ports.
func newSwitch(t *testing.T, asic, hwsku, release, model string) *sonic {
	t.Helper()
	env := &cli.Env{Spec: cli.Spec{Name: "sw1", Platform: "sonic", Username: "admin", Password: "pw",
		Ports: []string{"Ethernet0", "Ethernet8"}, ASIC: asic, HWSKU: hwsku, Release: release, BufferModel: model},
		AfterFunc: func(time.Duration, func()) func() { return func() {} }, Now: time.Now}
	s, err := newSONiC(env)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// field returns db[table][key][name] as text; "-" when the entry or field
// is absent.
func field(db map[string]any, table, key, name string) string {
	e := entry(db, table, key)
	if e == nil {
		return "-"
	}
	v, ok := e[name]
	if !ok {
		return "-"
	}
	return fmt.Sprint(v)
}

// check compares "TABLE|key|field" (split at the last two bars) with
// want: "-" is absent.
func check(t *testing.T, db map[string]any, want map[string]string) {
	t.Helper()
	for k, w := range want {
		i := strings.LastIndex(k, "|")
		j := strings.Index(k, "|")
		table, key, name := k[:j], k[j+1:i], k[i+1:]
		if got := field(db, table, key, name); got != w {
			t.Errorf("%s = %q, want %q", k, got, w)
		}
	}
}

func TestFactoryBuffers(t *testing.T) {
	cases := []struct {
		name, asic, hwsku, release, model string
		want                              map[string]string
		tables                            []string // present tables
		absent                            []string
	}{
		{name: "mellanox default is dynamic from 202012", asic: "mellanox", release: "202311",
			want: map[string]string{
				"DEVICE_METADATA|localhost|hwsku": "ACS-MSN4700", "DEVICE_METADATA|localhost|platform": "x86_64-mlnx_msn4700-r0",
				"DEVICE_METADATA|localhost|buffer_model": "dynamic",
				"BUFFER_POOL|ingress_lossless_pool|size": "-", "BUFFER_POOL|egress_lossless_pool|size": "60817392",
				"BUFFER_PG|Ethernet0|3-4|profile": "NULL", "BUFFER_PG|Ethernet8|0|profile": "ingress_lossy_profile",
				"BUFFER_QUEUE|Ethernet0|0-2|profile": "q_lossy_profile", "BUFFER_QUEUE|Ethernet0|3-4|profile": "egress_lossless_profile",
				"BUFFER_QUEUE|Ethernet8|5-6|profile": "q_lossy_profile", "CABLE_LENGTH|AZURE|Ethernet0": "5m",
				"DEFAULT_LOSSLESS_BUFFER_PARAMETER|AZURE|default_dynamic_th": "0",
				"LOSSLESS_TRAFFIC_PATTERN|AZURE|mtu":                         "1024", "LOSSLESS_TRAFFIC_PATTERN|AZURE|small_packet_percentage": "50",
				"BUFFER_PORT_INGRESS_PROFILE_LIST|Ethernet0|profile_list": "ingress_lossless_profile,ingress_lossy_profile",
			}},
		{name: "empty spec is mellanox on the default release", want: map[string]string{
			"DEVICE_METADATA|localhost|hwsku": "ACS-MSN4700", "DEVICE_METADATA|localhost|buffer_model": "dynamic"}},
		{name: "mellanox traditional", asic: "mellanox", release: "202311", model: "traditional",
			want: map[string]string{
				"DEVICE_METADATA|localhost|buffer_model": "traditional",
				"BUFFER_POOL|ingress_lossless_pool|size": "20627456", "BUFFER_POOL|ingress_lossless_pool|mode": "dynamic",
				"BUFFER_PROFILE|egress_lossy_profile|size": "9216",
				"BUFFER_PG|Ethernet0|3-4|profile":          "-", "BUFFER_PG|Ethernet0|0|profile": "ingress_lossy_profile",
				// 202205 on, buffermgrd waits for pfc_enable.
				"BUFFER_PROFILE|pg_lossless_400000_5m_profile|size": "-",
			},
			absent: []string{"DEFAULT_LOSSLESS_BUFFER_PARAMETER", "LOSSLESS_TRAFFIC_PATTERN"}},
		{name: "mellanox 202012 is dynamic", asic: "mellanox", release: "202012",
			want: map[string]string{"DEVICE_METADATA|localhost|buffer_model": "dynamic"}},
		{name: "mellanox 202006 is traditional, buffermgrd makes PGs 3-4 at start", asic: "mellanox", release: "202006",
			want: map[string]string{
				"DEVICE_METADATA|localhost|buffer_model":            "traditional",
				"BUFFER_PROFILE|pg_lossless_400000_5m_profile|xoff": "38912", "BUFFER_PROFILE|pg_lossless_400000_5m_profile|dynamic_th": "0",
				"BUFFER_PROFILE|pg_lossless_400000_5m_profile|pool": "ingress_lossless_pool",
				"BUFFER_PG|Ethernet0|3-4|profile":                   "pg_lossless_400000_5m_profile", "BUFFER_PG|Ethernet8|3-4|profile": "pg_lossless_400000_5m_profile",
			}},
		{name: "broadcom", asic: "broadcom", release: "202311",
			want: map[string]string{
				"DEVICE_METADATA|localhost|hwsku": "DellEMC-Z9332f-O32", "DEVICE_METADATA|localhost|platform": "x86_64-dellemc_z9332f_d1508-r0",
				"DEVICE_METADATA|localhost|buffer_model": "traditional", "CABLE_LENGTH|AZURE|Ethernet8": "300m",
				"BUFFER_POOL|ingress_lossless_pool|xoff": "27200352", "BUFFER_POOL|egress_lossless_pool|mode": "static",
				"BUFFER_PROFILE|egress_lossy_profile|size": "1778", "BUFFER_QUEUE|Ethernet0|0-2|profile": "egress_lossy_profile",
				"BUFFER_QUEUE|Ethernet0|5-6|profile": "egress_lossy_profile", "BUFFER_PG|Ethernet0|0|profile": "ingress_lossy_profile",
			},
			absent: []string{"BUFFER_PORT_INGRESS_PROFILE_LIST", "DEFAULT_LOSSLESS_BUFFER_PARAMETER"}},
		{name: "broadcom 202106 makes lossless PGs with the row's xon_offset", asic: "broadcom", release: "202106",
			want: map[string]string{
				"BUFFER_PROFILE|pg_lossless_400000_300m_profile|xoff": "373888", "BUFFER_PROFILE|pg_lossless_400000_300m_profile|xon_offset": "2540",
				"BUFFER_PROFILE|pg_lossless_400000_300m_profile|dynamic_th": "-2", "BUFFER_PG|Ethernet0|3-4|profile": "pg_lossless_400000_300m_profile",
			}},
		{name: "barefoot", asic: "barefoot", release: "202311",
			want: map[string]string{
				"DEVICE_METADATA|localhost|hwsku": "newport", "DEVICE_METADATA|localhost|platform": "x86_64-accton_as9516_32d-r0",
				"BUFFER_POOL|ingress_lossless_pool|xoff": "-", "BUFFER_QUEUE|Ethernet0|0-2|profile": "q_lossy_profile",
				"BUFFER_QUEUE|Ethernet0|5-6|profile": "-",
			}},
		{name: "barefoot dynamic", asic: "barefoot", release: "202311", model: "dynamic",
			want: map[string]string{"BUFFER_POOL|ingress_lossless_pool|xoff": "3153920", "BUFFER_PG|Ethernet0|3-4|profile": "NULL"}},
		{name: "marvell", asic: "marvell", release: "202311",
			want: map[string]string{
				"DEVICE_METADATA|localhost|hwsku": "wistron_6512_32r", "CABLE_LENGTH|AZURE|Ethernet0": "40m",
				"BUFFER_PG|Ethernet0|3-4|profile": "ingress_lossless_profile", "BUFFER_PG|Ethernet0|5-7|profile": "ingress_lossy_profile",
				"BUFFER_QUEUE|Ethernet0|5-7|profile": "egress_lossy_profile", "BUFFER_POOL|lossy_pool|size": "18874368",
			}},
		{name: "cisco-8000 has no template", asic: "cisco-8000", release: "202311",
			want:   map[string]string{"DEVICE_METADATA|localhost|hwsku": "-", "CABLE_LENGTH|AZURE|Ethernet0": "5m"},
			absent: []string{"BUFFER_POOL", "BUFFER_PROFILE", "BUFFER_PG", "BUFFER_QUEUE"}},
		{name: "named SKU", asic: "mellanox", hwsku: "Mellanox-SN4600C-C64", release: "202311", model: "traditional",
			want: map[string]string{
				"DEVICE_METADATA|localhost|hwsku": "Mellanox-SN4600C-C64", "DEVICE_METADATA|localhost|platform": "x86_64-mlnx_msn4600c-r0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSwitch(t, c.asic, c.hwsku, c.release, c.model)
			check(t, s.db, c.want)
			for _, tab := range c.absent {
				if _, ok := s.db[tab]; ok {
					t.Errorf("table %s is there, want none", tab)
				}
			}
			if err := sonicValidate(map[string]any{}, s.db); err != nil && !strings.Contains(err.Error(), "PORT keys") && !strings.Contains(err.Error(), "does not exist on this platform") {
				t.Errorf("the factory config is not valid: %v", err)
			}
		})
	}
	env := &cli.Env{Spec: cli.Spec{Name: "sw1", HWSKU: "No-Such-SKU"}}
	if _, err := newSONiC(env); err == nil || !strings.Contains(err.Error(), "No-Such-SKU") {
		t.Errorf("an unknown hwsku: error %v, want one naming it", err)
	}
}

func TestDefaultBufferModel(t *testing.T) {
	cases := []struct{ asic, release, want string }{
		{"mellanox", "202012", "dynamic"}, {"mellanox", "202006", "traditional"}, {"mellanox", "202311.3", "dynamic"},
		{"", "", "dynamic"}, {"broadcom", "202311", "traditional"}, {"barefoot", "202405", "traditional"},
	}
	for _, c := range cases {
		if got := DefaultBufferModel(c.asic, c.release); got != c.want {
			t.Errorf("DefaultBufferModel(%q, %q) = %q, want %q", c.asic, c.release, got, c.want)
		}
	}
}

func TestLosslessPGs(t *testing.T) {
	cases := []struct{ pfc, want string }{
		{"3,4", "3-4"}, {"3,5", "3 5"}, {"4,3", "3-4"}, {"3", "3"}, {"", ""}, {"0,1,2,3,4,5,6,7", "0-7"},
		{"3, 4", "3-4"}, {"x,3", "3"}, {"7,8", ""}, {"8", ""}, {"6,7", "6-7"}, {"300", ""}, {"2,5,6", "2 5-6"},
	}
	for _, c := range cases {
		if got := strings.Join(losslessPGs(c.pfc), " "); got != c.want {
			t.Errorf("losslessPGs(%q) = %q, want %q", c.pfc, got, c.want)
		}
	}
}

// patch is a JSON Patch adding or replacing values.
func patch(ops ...string) []string {
	var out []string
	for i := 0; i+1 < len(ops); i += 2 {
		v, _ := json.Marshal(ops[i+1])
		if strings.HasPrefix(ops[i+1], "{") {
			v = []byte(ops[i+1])
		}
		out = append(out, fmt.Sprintf(`{"op":"add","path":%q,"value":%s}`, ops[i], v))
	}
	return []string{"[" + strings.Join(out, ",") + "]"}
}

func TestBufferMgrd(t *testing.T) {
	const p40 = "BUFFER_PROFILE|pg_lossless_400000_40m_profile|"
	cable40 := []string{"/CABLE_LENGTH/AZURE/Ethernet0", "40m"}
	pfc := func(v string) []string { return []string{"/PORT_QOS_MAP", `{"Ethernet0":{"pfc_enable":"` + v + `"}}`} }
	join := func(a ...[]string) []string {
		var out []string
		for _, x := range a {
			out = append(out, x...)
		}
		return out
	}
	cases := []struct {
		name, asic, release, model string
		patches                    [][]string
		want                       map[string]string
		log                        string
	}{
		{name: "cable and pfc_enable make the profile and the PGs", release: "202311", model: "traditional",
			patches: [][]string{join(cable40, pfc("3,4"))},
			want: map[string]string{p40 + "pool": "ingress_lossless_pool", p40 + "xon": "37888", p40 + "xoff": "77824",
				p40 + "size": "124928", p40 + "dynamic_th": "0", p40 + "xon_offset": "-",
				"BUFFER_PG|Ethernet0|3-4|profile": "pg_lossless_400000_40m_profile", "BUFFER_PG|Ethernet8|3-4|profile": "-"},
			log: "Creating new profile 'pg_lossless_400000_40m_profile'"},
		{name: "pfc_enable 3,5 on 202311", release: "202311", model: "traditional",
			patches: [][]string{join(cable40, pfc("3,5"))},
			want: map[string]string{"BUFFER_PG|Ethernet0|3|profile": "pg_lossless_400000_40m_profile",
				"BUFFER_PG|Ethernet0|5|profile": "pg_lossless_400000_40m_profile", "BUFFER_PG|Ethernet0|3-4|profile": "-"}},
		{name: "one change acts on its newest values; dropped PGs stay", release: "202311", model: "traditional",
			patches: [][]string{join(cable40, pfc("3,4")), {`[{"op":"replace","path":"/PORT_QOS_MAP/Ethernet0/pfc_enable","value":"3"},{"op":"add","path":"/PORT/Ethernet0/mtu","value":"9000"},{"op":"replace","path":"/CABLE_LENGTH/AZURE/Ethernet0","value":"300m"}]`}},
			want: map[string]string{"BUFFER_PG|Ethernet0|3|profile": "pg_lossless_400000_300m_profile",
				"BUFFER_PG|Ethernet0|3-4|profile": "pg_lossless_400000_40m_profile"}},
		{name: "pfc_enable 3,5 on 202106: PGs 3-4, after the PORT is written", release: "202106", model: "traditional",
			patches: [][]string{join(cable40, pfc("3,5")), {`[{"op":"add","path":"/PORT/Ethernet0/mtu","value":"9000"}]`}},
			want: map[string]string{"BUFFER_PG|Ethernet0|3-4|profile": "pg_lossless_400000_40m_profile",
				"BUFFER_PG|Ethernet0|5|profile": "-", "BUFFER_PG|Ethernet8|3-4|profile": "pg_lossless_400000_5m_profile"}},
		{name: "202106: a new cable length waits for a PORT write", release: "202106", model: "traditional",
			patches: [][]string{join(cable40, pfc("3,4"))},
			want:    map[string]string{p40 + "xoff": "-", "BUFFER_PG|Ethernet0|3-4|profile": "pg_lossless_400000_5m_profile"}},
		{name: "202311: a cable change alone does nothing", release: "202311", model: "traditional",
			patches: [][]string{join(cable40, pfc("3,4")), {`[{"op":"replace","path":"/CABLE_LENGTH/AZURE/Ethernet0","value":"300m"}]`}},
			want: map[string]string{"BUFFER_PROFILE|pg_lossless_400000_300m_profile|xoff": "-",
				"BUFFER_PG|Ethernet0|3-4|profile": "pg_lossless_400000_40m_profile"}},
		{name: "202511: a cable change updates the PGs", release: "202511", model: "traditional",
			patches: [][]string{join(cable40, pfc("3,4")), {`[{"op":"replace","path":"/CABLE_LENGTH/AZURE/Ethernet0","value":"300m"}]`}},
			want: map[string]string{"BUFFER_PROFILE|pg_lossless_400000_300m_profile|xoff": "373760",
				"BUFFER_PG|Ethernet0|3-4|profile": "pg_lossless_400000_300m_profile", p40 + "xoff": "77824"}},
		{name: "no lookup row: nothing, and the log says so", release: "202311", model: "traditional",
			patches: [][]string{join([]string{"/CABLE_LENGTH/AZURE/Ethernet0", "7m"}, pfc("3,4"))},
			want:    map[string]string{"BUFFER_PROFILE|pg_lossless_400000_7m_profile|xoff": "-", "BUFFER_PG|Ethernet0|3-4|profile": "-"},
			log:     "Unable to create/update PG profile for port Ethernet0. No PG profile configured for speed 400000 and cable length 7m"},
		{name: "an existing profile is reused", release: "202311", model: "traditional",
			patches: [][]string{join([]string{"/BUFFER_PROFILE/pg_lossless_400000_40m_profile", `{"pool":"ingress_lossless_pool","size":"1","xoff":"2","xon":"3","dynamic_th":"1"}`}, cable40, pfc("3,4"))},
			want:    map[string]string{p40 + "xoff": "2", "BUFFER_PG|Ethernet0|3-4|profile": "pg_lossless_400000_40m_profile"},
			log:     "Reusing existing profile 'pg_lossless_400000_40m_profile'"},
		{name: "a PG on another profile is overwritten", release: "202311", model: "traditional",
			patches: [][]string{join([]string{"/BUFFER_PG/Ethernet0|3-4", `{"profile":"ingress_lossless_profile"}`}, cable40, pfc("3,4"))},
			want:    map[string]string{"BUFFER_PG|Ethernet0|3-4|profile": "pg_lossless_400000_40m_profile"}},
		{name: "cable 0m: nothing", release: "202311", model: "traditional",
			patches: [][]string{join([]string{"/CABLE_LENGTH/AZURE/Ethernet0", "0m"}, pfc("3,4"))},
			want:    map[string]string{"BUFFER_PG|Ethernet0|3-4|profile": "-"}},
		{name: "admin down mellanox port: no lossless PG", release: "202311", model: "traditional",
			patches: [][]string{join(cable40, pfc("3,4")), {`[{"op":"replace","path":"/PORT/Ethernet0/admin_status","value":"down"}]`}},
			want:    map[string]string{"BUFFER_PG|Ethernet0|3-4|profile": "-", p40 + "xoff": "77824"},
			log:     "Removing PG Ethernet0|3-4 from port Ethernet0 which is administrative down"},
		{name: "admin down broadcom port keeps its PG", asic: "broadcom", release: "202311",
			patches: [][]string{join([]string{"/CABLE_LENGTH/AZURE/Ethernet0", "40m"}, pfc("3,4")), {`[{"op":"replace","path":"/PORT/Ethernet0/admin_status","value":"down"}]`}},
			want:    map[string]string{"BUFFER_PG|Ethernet0|3-4|profile": "pg_lossless_400000_40m_profile", p40 + "xoff": "201930", p40 + "xon_offset": "2540"}},
		{name: "buffer_model set to dynamic stops buffermgrd", release: "202311", model: "traditional",
			patches: [][]string{{`[{"op":"replace","path":"/DEVICE_METADATA/localhost/buffer_model","value":"dynamic"}]`}, join(cable40, pfc("3,4"))},
			want:    map[string]string{"BUFFER_PG|Ethernet0|3-4|profile": "-"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			asic := c.asic
			if asic == "" {
				asic = "mellanox"
			}
			s := newSwitch(t, asic, "", c.release, c.model)
			for _, p := range c.patches {
				if !strings.HasPrefix(p[0], "[") {
					p = patch(p...)
				}
				if err := s.OutOfBand(p); err != nil {
					t.Fatalf("patch %s: %v", p, err)
				}
			}
			check(t, s.db, c.want)
			if log, _ := s.systemFile(SyslogPath); !strings.Contains(log, c.log) {
				t.Errorf("syslog %q does not say %q", log, c.log)
			}
		})
	}
}

// TestBufferMgrdDynamic: in the dynamic model buffermgrd writes APPL_DB
// only, so CONFIG_DB is what the patch made it.
func TestBufferMgrdDynamic(t *testing.T) {
	s := newSwitch(t, "mellanox", "", "202311", "dynamic")
	doc := patch("/CABLE_LENGTH/AZURE/Ethernet0", "40m", "/PORT_QOS_MAP", `{"Ethernet0":{"pfc_enable":"3,4"}}`)
	want, err := sonicPatch(s.db, []byte(doc[0]))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.OutOfBand(doc); err != nil {
		t.Fatal(err)
	}
	if got := cli.JSON(s.db); got != cli.JSON(want) {
		t.Errorf("CONFIG_DB changed beyond the patch:\n%s", got)
	}
}

// TestBufferMgrdEveryWrite: apply-patch, sonic-db-cli and rollback all
// reach buffermgrd; a dry run does not.
func TestBufferMgrdEveryWrite(t *testing.T) {
	const pg = "BUFFER_PG|Ethernet0|3-4|profile"
	const patchFile = `[{"op":"add","path":"/CABLE_LENGTH/AZURE/Ethernet0","value":"40m"},{"op":"add","path":"/PORT_QOS_MAP","value":{"Ethernet0":{"pfc_enable":"3,4"}}}]`
	const load = `{"CABLE_LENGTH":{"AZURE":{"Ethernet0":"40m"}},"PORT_QOS_MAP":{"Ethernet0":{"pfc_enable":"3,4"}}}`
	cases := []struct {
		name  string
		lines []string
		want  string
		model string
	}{
		{name: "config load", lines: []string{"printf '%s' '" + load + "' > /tmp/c.json", "sudo config load -y /tmp/c.json"}, want: "pg_lossless_400000_40m_profile"},
		// buffermgrd reads the model at start: a reload starts it again.
		{name: "reload into the traditional model", model: "dynamic", lines: []string{
			"sudo sonic-db-cli CONFIG_DB HSET 'DEVICE_METADATA|localhost' buffer_model traditional",
			"sudo sonic-db-cli CONFIG_DB DEL 'BUFFER_PG|Ethernet0|3-4'",
			"sudo sonic-db-cli CONFIG_DB HSET 'CABLE_LENGTH|AZURE' Ethernet0 40m",
			"sudo sonic-db-cli CONFIG_DB HSET 'PORT_QOS_MAP|Ethernet0' pfc_enable 3,4",
			"sudo config save -y", "sudo config reload -y"}, want: "pg_lossless_400000_40m_profile"},
		{name: "still dynamic before the reload", model: "dynamic", lines: []string{
			"sudo sonic-db-cli CONFIG_DB HSET 'DEVICE_METADATA|localhost' buffer_model traditional",
			"sudo sonic-db-cli CONFIG_DB DEL 'BUFFER_PG|Ethernet0|3-4'",
			"sudo sonic-db-cli CONFIG_DB HSET 'CABLE_LENGTH|AZURE' Ethernet0 40m",
			"sudo sonic-db-cli CONFIG_DB HSET 'PORT_QOS_MAP|Ethernet0' pfc_enable 3,4"}, want: "-"},
		{name: "reload into the dynamic model", lines: []string{
			"sudo sonic-db-cli CONFIG_DB HSET 'DEVICE_METADATA|localhost' buffer_model dynamic", "sudo config save -y", "sudo config reload -y",
			"sudo sonic-db-cli CONFIG_DB HSET 'CABLE_LENGTH|AZURE' Ethernet0 40m",
			"sudo sonic-db-cli CONFIG_DB HSET 'PORT_QOS_MAP|Ethernet0' pfc_enable 3,4"}, want: "-"},
		{"apply-patch", []string{"printf '%s' '" + patchFile + "' > /tmp/p.json", "sudo config apply-patch /tmp/p.json"}, "pg_lossless_400000_40m_profile", ""},
		{"dry run", []string{"printf '%s' '" + patchFile + "' > /tmp/p.json", "sudo config apply-patch -n /tmp/p.json"}, "-", ""},
		{"sonic-db-cli", []string{"sudo sonic-db-cli CONFIG_DB HSET 'CABLE_LENGTH|AZURE' Ethernet0 40m", "sudo sonic-db-cli CONFIG_DB HSET 'PORT_QOS_MAP|Ethernet0' pfc_enable 3,4"}, "pg_lossless_400000_40m_profile", ""},
		// The checkpoint has pfc_enable 3,4 without its PG (deleted by
		// hand, which buffermgrd does not notice): rolling back changes
		// pfc_enable, and buffermgrd makes the PG.
		{"rollback", []string{"sudo sonic-db-cli CONFIG_DB HSET 'CABLE_LENGTH|AZURE' Ethernet0 40m",
			"sudo sonic-db-cli CONFIG_DB HSET 'PORT_QOS_MAP|Ethernet0' pfc_enable 3,4",
			"sudo sonic-db-cli CONFIG_DB DEL 'BUFFER_PG|Ethernet0|3-4'", "sudo config checkpoint cp",
			"sudo sonic-db-cli CONFIG_DB HSET 'PORT_QOS_MAP|Ethernet0' pfc_enable 3,5", "sudo config rollback cp"}, "pg_lossless_400000_40m_profile", ""},
		{"hand deletion is not noticed", []string{"sudo sonic-db-cli CONFIG_DB HSET 'CABLE_LENGTH|AZURE' Ethernet0 40m",
			"sudo sonic-db-cli CONFIG_DB HSET 'PORT_QOS_MAP|Ethernet0' pfc_enable 3,4",
			"sudo sonic-db-cli CONFIG_DB DEL 'BUFFER_PG|Ethernet0|3-4'"}, "-", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			model := c.model
			if model == "" {
				model = "traditional"
			}
			s := newSwitch(t, "mellanox", "", "202311", model)
			sh := s.shell()
			for _, l := range c.lines {
				out := sh.Exec(l)
				if sh.Status != 0 {
					t.Fatalf("%s: status %d: %s", l, sh.Status, out)
				}
			}
			check(t, s.db, map[string]string{pg: c.want})
		})
	}
}

// TestConfigLoadConfirm: without -y, config load and reload abort.
func TestConfigLoadConfirm(t *testing.T) {
	for _, cmd := range []string{"load", "reload"} {
		s := newSwitch(t, "mellanox", "", "202311", "traditional")
		before := s.Export()
		sh := s.shell()
		out := sh.Exec("sudo config " + cmd)
		if sh.Status != 1 || !strings.Contains(out, "Aborted!") || s.Export() != before {
			t.Errorf("config %s without -y: status %d, %q", cmd, sh.Status, out)
		}
	}
}

func TestLookupFileCat(t *testing.T) {
	s := newSwitch(t, "broadcom", "", "202311", "")
	path := "/usr/share/sonic/device/x86_64-dellemc_z9332f_d1508-r0/DellEMC-Z9332f-O32/pg_profile_lookup.ini"
	cases := []struct {
		line, want string
		status     int
	}{
		{"cat " + path, "# PG lossless profiles.\n# speed cable size xon xoff threshold xon_offset\n  100000 5m 2540 2540 68580 -2 2540\n", 0},
		{"sudo cat " + path, "  400000 2000m 2540 2540 1498092 -2 2540\n", 0},
		{"cat /usr/share/sonic/device/x86_64-mlnx_msn4700-r0/ACS-MSN4700/pg_profile_lookup.ini",
			"cat: /usr/share/sonic/device/x86_64-mlnx_msn4700-r0/ACS-MSN4700/pg_profile_lookup.ini: No such file or directory\n", 1},
		{"cat /tmp/none " + path, "cat: /tmp/none: No such file or directory\n", 1},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			sh := s.shell()
			out := sh.Exec(c.line)
			if !strings.Contains(out, c.want) || sh.Status != c.status {
				t.Errorf("%s: status %d, output\n%s\nwant status %d and %q", c.line, sh.Status, out, c.status, c.want)
			}
		})
	}
	// Every row of the file reads back as the SKU's rows.
	text, _ := s.systemFile(path)
	if n := strings.Count(text, "\n") - 2; n != len(s.id.sku.Rows) {
		t.Errorf("the file has %d rows, the SKU %d", n, len(s.id.sku.Rows))
	}
}

// TestRunningConfigRoundTrip: a switch started from another's export
// exports the same, with buffermgrd primed and not acting.
func TestRunningConfigRoundTrip(t *testing.T) {
	for _, model := range []string{"traditional", "dynamic"} {
		t.Run(model, func(t *testing.T) {
			a := newSwitch(t, "mellanox", "", "202311", model)
			if err := a.OutOfBand(patch("/CABLE_LENGTH/AZURE/Ethernet0", "40m", "/PORT_QOS_MAP", `{"Ethernet0":{"pfc_enable":"3,4"}}`)); err != nil {
				t.Fatal(err)
			}
			env := &cli.Env{Spec: cli.Spec{Name: "sw1", RunningConfig: a.Export()}}
			b, err := newSONiC(env)
			if err != nil {
				t.Fatal(err)
			}
			if b.Export() != a.Export() {
				t.Errorf("the round trip changed the config:\n%s", b.Export())
			}
			// A PORT write on the copy acts as on the original.
			p := []string{`[{"op":"add","path":"/PORT/Ethernet8/mtu","value":"9000"}]`}
			if err := a.OutOfBand(p); err != nil {
				t.Fatal(err)
			}
			if err := b.OutOfBand(p); err != nil {
				t.Fatal(err)
			}
			if b.Export() != a.Export() {
				t.Errorf("after a PORT write the copy differs:\n%s", b.Export())
			}
		})
	}
}

func TestBufferValidation(t *testing.T) {
	s := newSwitch(t, "mellanox", "", "202311", "traditional")
	cases := []struct{ patch, want string }{
		{`[{"op":"add","path":"/BUFFER_PG/Ethernet0|3-4","value":{"profile":"NULL"}}]`, ""},
		{`[{"op":"add","path":"/BUFFER_QUEUE/Ethernet0|7","value":{"profile":"NULL"}}]`, `leafref to BUFFER_PROFILE "NULL" not satisfied`},
		{`[{"op":"add","path":"/BUFFER_PG/Ethernet0|8","value":{"profile":"ingress_lossy_profile"}}]`, `"8" does not match the pattern`},
		{`[{"op":"add","path":"/BUFFER_QUEUE/Ethernet0|7","value":{"profile":"egress_lossless_profile"}}]`, ""},
		{`[{"op":"add","path":"/BUFFER_PG/Ethernet0|5","value":{"profile":"no_such_profile"}}]`, "leafref to BUFFER_PROFILE"},
	}
	for _, c := range cases {
		t.Run(c.patch, func(t *testing.T) {
			next, err := sonicPatch(s.db, []byte(c.patch))
			if err != nil {
				t.Fatal(err)
			}
			err = sonicValidate(s.db, next)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

// FuzzBufferMgrd: any accepted change leaves buffermgrd's CONFIG_DB
// valid to the lab's checks and the emulator able to export.
func FuzzBufferMgrd(f *testing.F) {
	f.Add(`[{"op":"add","path":"/CABLE_LENGTH/AZURE/Ethernet0","value":"40m"},{"op":"add","path":"/PORT_QOS_MAP","value":{"Ethernet0":{"pfc_enable":"3,5"}}}]`, "202311")
	f.Add(`[{"op":"remove","path":"/PORT/Ethernet0/speed"}]`, "202106")
	f.Add(`[{"op":"add","path":"/PORT_QOS_MAP","value":{"Ethernet8":{"pfc_enable":7}}}]`, "202511")
	f.Fuzz(func(t *testing.T, doc, release string) {
		s := newSwitch(t, "mellanox", "", release, "traditional")
		before := copyDB(s.db)
		if err := s.OutOfBand([]string{doc}); err != nil {
			return
		}
		patched, err := sonicPatch(before, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := sonicValidate(patched, s.db); err != nil {
			t.Errorf("buffermgrd made the config invalid: %v", err)
		}
		_ = s.Export()
	})
}
