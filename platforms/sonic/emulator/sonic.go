package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/internal/lab/shell"
)

// sonic emulates a SONiC switch's CONFIG_DB through its CLI: `sonic-cfggen
// -d --print-data` and `show runningconfiguration all` print it, and the
// generic config updater changes it (`config apply-patch FILE` with an
// RFC 6902 JSON Patch, `config checkpoint`, `config rollback`,
// `config list-checkpoints`, `config delete-checkpoint`), as documented in
// sonic-utilities' Command-Reference ("Generic Config Updater"). YANG
// validation is reduced to the checks listed in docs/lab.md.
type sonic struct {
	env         *cli.Env
	db          map[string]any
	checkpoints map[string]map[string]any
	fs          *shell.MemFS
	// id is the switch the emulator is (SKU, release, buffer model).
	id identity
	// bm is buffermgrd of the traditional buffer model; nil in the
	// dynamic model, whose buffermgrd writes APPL_DB only.
	bm *bufferMgr
	// syslog are the lines of /var/log/syslog.
	syslog []string
	// saved is /etc/sonic/config_db.json: the configuration at start,
	// then what `config save` wrote.
	saved map[string]any
}

// sonicTables are the CONFIG_DB tables with YANG models the lab accepts.
var sonicTables = map[string]bool{
	"DEVICE_METADATA": true, "MGMT_INTERFACE": true, "NTP_SERVER": true, "SYSLOG_SERVER": true, "SNMP_COMMUNITY": true,
	"PORT": true, "CABLE_LENGTH": true, "INTERFACE": true, "LOOPBACK_INTERFACE": true, "VLAN": true, "VLAN_MEMBER": true,
	"DSCP_TO_TC_MAP": true, "DOT1P_TO_TC_MAP": true, "TC_TO_QUEUE_MAP": true, "TC_TO_PRIORITY_GROUP_MAP": true,
	"MAP_PFC_PRIORITY_TO_QUEUE": true, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": true, "TC_TO_DSCP_MAP": true,
	"PORT_QOS_MAP": true, "WRED_PROFILE": true, "SCHEDULER": true, "QUEUE": true, "PFC_WD": true,
	"BUFFER_POOL": true, "BUFFER_PROFILE": true, "BUFFER_PG": true, "BUFFER_QUEUE": true,
	"BUFFER_PORT_INGRESS_PROFILE_LIST": true, "BUFFER_PORT_EGRESS_PROFILE_LIST": true,
	"DEFAULT_LOSSLESS_BUFFER_PARAMETER": true, "LOSSLESS_TRAFFIC_PATTERN": true, "ACL_TABLE": true, "ACL_RULE": true,
	"FEATURE": true, "BGP_NEIGHBOR": true,
}

// sonicMapRefs are PORT_QOS_MAP fields and the tables they reference.
var sonicMapRefs = map[string]string{
	"dscp_to_tc_map": "DSCP_TO_TC_MAP", "dot1p_to_tc_map": "DOT1P_TO_TC_MAP", "tc_to_queue_map": "TC_TO_QUEUE_MAP",
	"tc_to_pg_map": "TC_TO_PRIORITY_GROUP_MAP", "pfc_to_queue_map": "MAP_PFC_PRIORITY_TO_QUEUE",
	"pfc_to_pg_map": "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "tc_to_dscp_map": "TC_TO_DSCP_MAP",
}

// New returns the emulator of a SONiC switch (CONFIG_DB, config apply-
// patch, sonic-db-cli, buffermgrd), started from env.Spec.RunningConfig
// as it is or, when that is empty, from the factory configuration of the
// switch env.Spec describes (asic, hwsku, release, buffer model: see
// factory.go).
func New(env *cli.Env) (cli.Emulator, error) {
	e, err := newSONiC(env)
	if err != nil {
		return nil, err
	}
	return e, nil
}

func newSONiC(env *cli.Env) (*sonic, error) {
	s := &sonic{env: env, checkpoints: map[string]map[string]any{}, fs: shell.NewMemFS(env.Spec.Username)}
	if env.Spec.RunningConfig != "" {
		db, err := sonicLoad(env.Spec.RunningConfig)
		if err != nil {
			return nil, err
		}
		s.db = db
		s.id = runningIdentity(env.Spec, db)
		if s.id.model == "traditional" {
			// A running configuration is a live switch's: its buffermgrd
			// has already acted on every table.
			s.bm = newBufferMgr(s.id, s.logf)
			s.bm.prime(s.db)
		}
		s.saved = copyDB(s.db)
		return s, nil
	}
	id, err := newIdentity(env.Spec)
	if err != nil {
		return nil, err
	}
	s.id = id
	ports := env.Spec.Ports
	if len(ports) == 0 {
		for i := 0; i < 32; i++ {
			ports = append(ports, fmt.Sprintf("Ethernet%d", i*8))
		}
	}
	port := map[string]any{}
	for i, p := range ports {
		if !strings.HasPrefix(p, "Ethernet") {
			return nil, fmt.Errorf("port %q is not a SONiC port name (EthernetN)", p)
		}
		n, err := strconv.Atoi(strings.TrimPrefix(p, "Ethernet"))
		if err != nil {
			return nil, fmt.Errorf("port %q is not a SONiC port name (EthernetN)", p)
		}
		lanes := make([]string, 8)
		for l := range lanes {
			lanes[l] = strconv.Itoa(n*8 + l)
		}
		port[p] = map[string]any{"admin_status": "up", "alias": fmt.Sprintf("etp%d", i+1), "index": strconv.Itoa(i + 1),
			"lanes": strings.Join(lanes, ","), "mtu": "9100", "speed": "400000"}
	}
	meta := map[string]any{
		"hostname": env.Spec.Name, "type": "LeafRouter", "buffer_model": id.model,
		"mac": fmt.Sprintf("1c:34:da:00:%02x:00", cli.MgmtOctet(env.Spec.Name)),
	}
	if id.hwsku != "" {
		meta["hwsku"] = id.hwsku
	}
	if id.platform != "" {
		meta["platform"] = id.platform
	}
	s.db = map[string]any{
		"DEVICE_METADATA": map[string]any{"localhost": meta},
		"MGMT_INTERFACE":  map[string]any{fmt.Sprintf("eth0|192.0.2.%d/24", cli.MgmtOctet(env.Spec.Name)): map[string]any{"gwaddr": "192.0.2.1"}},
		"NTP_SERVER":      map[string]any{"192.0.2.123": map[string]any{}},
		"SYSLOG_SERVER":   map[string]any{"192.0.2.10": map[string]any{}},
		"SNMP_COMMUNITY":  map[string]any{"fabricgen-ro": map[string]any{"TYPE": "RO"}},
		"PORT":            port,
	}
	id.factoryBuffers(s.db, ports)
	if id.model == "traditional" {
		s.bm = newBufferMgr(id, s.logf)
		if id.sku == nil {
			// dockers/docker-orchagent/buffermgrd.sh passes the SKU's
			// file as the container sees it.
			s.logf("WARNING", "readPgProfileLookupFile: PG profile lookup file: /usr/share/sonic/hwsku/pg_profile_lookup.ini is not readable")
		}
		s.bm.run(s.db)
	}
	s.saved = copyDB(s.db)
	return s, nil
}

// commit makes next the running CONFIG_DB, and lets buffermgrd act on
// the change.
func (s *sonic) commit(next map[string]any) {
	s.db = next
	if s.bm != nil {
		s.bm.run(s.db)
	}
}

func (s *sonic) Running() string { return cli.JSON(s.db) }

// Export is config_db.json as `show runningconfiguration all` prints it.
func (s *sonic) Export() string { return s.Running() }

// sonicLoad reads a config_db.json: an object of tables, each an object
// of entries. Every table is kept, known to the lab or not; numbers keep
// their text.
func sonicLoad(text string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("config_db.json: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("config_db.json: more than one JSON value: give one object of tables")
	}
	db, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("config_db.json: the top level is not an object of tables")
	}
	for t, tv := range db {
		if _, ok := tv.(map[string]any); !ok {
			return nil, fmt.Errorf("config_db.json: table %s is not an object of entries", t)
		}
	}
	return db, nil
}

// OutOfBand takes one JSON Patch document (the lines joined).
func (s *sonic) OutOfBand(lines []string) error {
	next, err := sonicPatch(s.db, []byte(strings.Join(lines, "\n")))
	if err != nil {
		return err
	}
	if err := sonicValidate(s.db, next); err != nil {
		return err
	}
	s.commit(next)
	return nil
}

func (s *sonic) ExpireTimers() {}

func (s *sonic) NewSession(t *cli.Term, user string) cli.Session {
	return &shell.LinuxCLI{Host: s.env.Spec.Name, User: user, Sh: s.shell(), IsChange: sonicChanges, Writes: shell.NoFiles}
}

func (s *sonic) shell() *shell.Shell {
	var sh *shell.Shell
	which := func(name string) (string, bool) {
		switch name {
		case "sonic-cfggen", "config", "show", "sonic-db-cli", "sonic-db-dump":
			return "/usr/local/bin/" + name, true
		case "cat", "tee", "rm", "ls", "hostname", "printf", "sudo", "mktemp", "mkdir":
			return "/usr/bin/" + name, true
		}
		return "", false
	}
	run := func(argv []string, stdin string) (string, string, int) {
		// Counters, optics and queues come from the lab's data plane.
		if o, e, st, ok := s.env.DataPlane.Exec(s.env.Spec.Platform, argv); ok {
			return o, e, st
		}
		switch argv[0] {
		case "sonic-cfggen":
			return s.cfggen(argv[1:])
		case "show":
			if strings.Join(argv[1:], " ") == "runningconfiguration all" {
				return s.Running(), "", 0
			}
			return "", "Usage: show [OPTIONS] COMMAND [ARGS]...\nError: No such command \"" + strings.Join(argv[1:], " ") + "\".\n", 2
		case "config":
			return s.config(argv[1:], sh.Elevated)
		case "sonic-db-cli":
			return s.dbCLI(argv[1:], sh.Elevated)
		}
		if argv[0] == "cat" {
			if o, e, st, ok := s.cat(argv, stdin); ok {
				return o, e, st
			}
		}
		if o, e, st, ok := s.fs.Common(s.env.Spec.Name, argv, stdin); ok {
			return o, e, st
		}
		return "", "-bash: " + argv[0] + ": command not found\n", 127
	}
	sh = shell.NewShell(run, s.fs.Write, which)
	sh.Record = s.env.Executed
	return sh
}

// sonicChanges: config subcommands change the switch except
// list-checkpoints and apply-patch --dry-run; sonic-cfggen only with
// --write-to-db; sonic-db-cli only with a writing operation. show and the
// scratch-file tools only read.
func sonicChanges(argv []string) bool {
	switch argv[0] {
	case "config":
		if len(argv) < 2 {
			return false
		}
		switch argv[1] {
		case "list-checkpoints", "-h", "--help":
			return false
		case "apply-patch":
			return !shell.HasOpt(argv[2:], "-n", "--dry-run")
		}
		return true
	case "sonic-cfggen":
		return shell.HasOpt(argv[1:], "-w", "--write-to-db")
	case "sonic-db-cli", "redis-cli":
		return !sonicDBRead(argv[1:])
	}
	return false
}

func (s *sonic) cfggen(args []string) (string, string, int) {
	fromDB, print := false, false
	table := ""
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-d", "--from-db":
			fromDB = true
		case "--print-data":
			print = true
		case "--var-json":
			if i+1 < len(args) {
				table = args[i+1]
				i++
			}
		default:
			return "", "sonic-cfggen: error: unrecognized arguments: " + args[i] + "\n", 2
		}
	}
	if !fromDB {
		return "", "sonic-cfggen: error: the lab reads CONFIG_DB only: add -d\n", 2
	}
	switch {
	case table != "":
		v, ok := s.db[table]
		if !ok {
			v = map[string]any{}
		}
		return cli.JSON(v), "", 0
	case print:
		return s.Running(), "", 0
	}
	return "", "", 0
}

func (s *sonic) config(args []string, root bool) (string, string, int) {
	if len(args) == 0 {
		return "", "Usage: config [OPTIONS] COMMAND [ARGS]...\n", 2
	}
	if !root && args[0] != "list-checkpoints" {
		return "", "Root privileges are required for this operation\n", 1
	}
	switch args[0] {
	case "apply-patch":
		return s.applyPatch(args[1:])
	case "checkpoint":
		if len(args) != 2 {
			return "", "Usage: config checkpoint [OPTIONS] CHECKPOINT_NAME\nError: Missing argument \"CHECKPOINT_NAME\".\n", 2
		}
		s.checkpoints[args[1]] = copyDB(s.db)
		return "Config Checkpoint: Config checkpoint starting.\nConfig Checkpoint: Checkpoint name: " + args[1] +
			".\nConfig Checkpoint: Getting current config db.\nConfig Checkpoint: Getting checkpoint full-path.\n" +
			"Config Checkpoint: Ensuring checkpoint directory exist.\nConfig Checkpoint: Saving config db content to " +
			"/etc/sonic/checkpoints/" + args[1] + ".cp.json.\nConfig Checkpoint: Config checkpoint completed.\nCheckpoint created successfully.\n", "", 0
	case "rollback":
		if len(args) != 2 {
			return "", "Usage: config rollback [OPTIONS] CHECKPOINT_NAME\nError: Missing argument \"CHECKPOINT_NAME\".\n", 2
		}
		cp, ok := s.checkpoints[args[1]]
		if !ok {
			return "", "Config Rollbacker: Config rollbacking starting.\nConfig Rollbacker: Checkpoint name: " + args[1] +
				".\nError: Config rollback failed due to: Checkpoint '" + args[1] + "' does not exist\n", 1
		}
		s.commit(copyDB(cp))
		return "Config Rollbacker: Config rollbacking starting.\nConfig Rollbacker: Checkpoint name: " + args[1] +
			".\nConfig Rollbacker: Verifying '" + args[1] + "' exists.\nConfig Rollbacker: Loading checkpoint into memory.\n" +
			"Config Rollbacker: Replacing config using 'Config Replacer'.\nConfig Rollbacker: Config rollbacking completed.\n" +
			"Config rolled back successfully.\n", "", 0
	case "list-checkpoints":
		names := make([]string, 0, len(s.checkpoints))
		for n := range s.checkpoints {
			names = append(names, n)
		}
		sort.Strings(names)
		return cli.JSON(names), "", 0
	case "delete-checkpoint":
		if len(args) != 2 {
			return "", "Error: Missing argument \"CHECKPOINT_NAME\".\n", 2
		}
		if _, ok := s.checkpoints[args[1]]; !ok {
			return "", "Error: Checkpoint '" + args[1] + "' does not exist\n", 1
		}
		delete(s.checkpoints, args[1])
		return "Checkpoint deleted successfully.\n", "", 0
	case "save":
		s.saved = copyDB(s.db)
		return "Running command: /usr/local/bin/sonic-cfggen -d --print-data > /etc/sonic/config_db.json\n", "", 0
	case "load", "reload":
		return s.load(args[0], args[1:])
	}
	return "", "Usage: config [OPTIONS] COMMAND [ARGS]...\nError: No such command \"" + args[0] + "\".\n", 2
}

// load handles `config load [-y] [FILE]` (sonic-cfggen -j FILE
// --write-to-db: the file's entries are written over CONFIG_DB's) and
// `config reload [-y] [FILE]` (CONFIG_DB flushed and loaded from the file,
// the services restarted: buffermgrd starts again, in the model the new
// DEVICE_METADATA names). FILE defaults to /etc/sonic/config_db.json.
// Without -y click asks, and with no answer aborts.
func (s *sonic) load(cmd string, args []string) (string, string, int) {
	file, yes := "/etc/sonic/config_db.json", false
	for _, a := range args {
		switch {
		case a == "-y" || a == "--yes":
			yes = true
		case strings.HasPrefix(a, "-"):
			return "", "Error: No such option: " + a + "\n", 2
		default:
			file = a
		}
	}
	// sonic-utilities config/main.py: load's and reload's click.confirm
	// questions.
	def := file == "/etc/sonic/config_db.json"
	question := map[bool]string{true: "Load config from the default config file(s) ?", false: "Load config from the file(s) " + file + " ?"}[def]
	if cmd == "reload" {
		question = map[bool]string{true: "Clear current config and reload config in config_db format from the default config file(s) ?",
			false: "Clear current config and reload config in config_db from the file(s) " + file + " ?"}[def]
	}
	if !yes {
		return question + " [y/N]: ", "Aborted!\n", 1
	}
	src := s.saved
	if file != "/etc/sonic/config_db.json" {
		text, ok := s.fs.Read(file)
		if !ok {
			return "", fmt.Sprintf("Error: Invalid value for \"FILENAME\": Path \"%s\" does not exist.\n", file), 2
		}
		db, err := sonicLoad(text)
		if err != nil {
			return "", "Error: " + err.Error() + "\n", 1
		}
		src = db
	}
	out := "Running command: /usr/local/bin/sonic-cfggen -j " + file + " --write-to-db\n"
	if cmd == "reload" {
		out = "Running command: /usr/local/bin/sonic-cfggen  -j /etc/sonic/init_cfg.json  -j " + file + "  --write-to-db\n"
	}
	if cmd == "load" {
		next := copyDB(s.db)
		for t, tv := range src {
			tab, _ := next[t].(map[string]any)
			if tab == nil {
				tab = map[string]any{}
				next[t] = tab
			}
			entries, _ := tv.(map[string]any)
			for k, e := range entries {
				cur, _ := tab[k].(map[string]any)
				fields, _ := e.(map[string]any)
				if cur == nil {
					cur = map[string]any{}
				}
				for f, v := range fields {
					cur[f] = sonicCopy(v)
				}
				tab[k] = cur
			}
		}
		s.commit(next)
		return out, "", 0
	}
	s.db = copyDB(src)
	s.id = runningIdentity(s.env.Spec, s.db)
	s.bm = nil
	if s.id.model == "traditional" {
		s.bm = newBufferMgr(s.id, s.logf)
		s.bm.run(s.db)
	}
	return "Disabling container monitoring ...\nStopping SONiC target ...\n" + out +
		"Restarting SONiC target ...\nEnabling container monitoring ...\nReloading Monit configuration ...\n", "", 0
}

// applyPatch handles `config apply-patch FILE [-n|--dry-run] [-f CONFIGDB]`.
func (s *sonic) applyPatch(args []string) (string, string, int) {
	file, dry := "", false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-n", "--dry-run":
			dry = true
		case "-f", "--format":
			if i+1 >= len(args) || args[i+1] != "CONFIGDB" {
				return "", "Error: the lab accepts only --format CONFIGDB\n", 2
			}
			i++
		case "-v", "--verbose", "-i", "--ignore-non-yang-tables":
		default:
			if strings.HasPrefix(a, "-") || file != "" {
				return "", "Error: No such option: " + a + "\n", 2
			}
			file = a
		}
	}
	if file == "" {
		return "", "Usage: config apply-patch [OPTIONS] PATCH_FILE_PATH\nError: Missing argument \"PATCH_FILE_PATH\".\n", 2
	}
	data, ok := s.fs.Read(file)
	if !ok {
		return "", fmt.Sprintf("Error: Invalid value for \"PATCH_FILE_PATH\": Path \"%s\" does not exist.\n", file), 2
	}
	head := "Patch Applier: localhost: Patch application starting.\nPatch Applier: localhost: Patch: " + strings.TrimSpace(compactJSON(data)) + "\n"
	next, err := sonicPatch(s.db, []byte(data))
	if err == nil {
		err = sonicValidate(s.db, next)
	}
	if err != nil {
		return head, "Failed to apply patch due to: " + err.Error() + "\nUsage: config apply-patch [OPTIONS] PATCH_FILE_PATH\nTry \"config apply-patch -h\" for help.\n\nError: " + err.Error() + "\n", 1
	}
	if !dry {
		s.commit(next)
	}
	return head + "Patch Applier: localhost getting current config db.\n" +
		"Patch Applier: localhost: simulating the target full config after applying the patch.\n" +
		"Patch Applier: localhost: validating all JsonPatch operations are permitted on the specified fields\n" +
		"Patch Applier: localhost: validating target config does not have empty tables, since they do not show up in ConfigDb.\n" +
		"Patch Applier: localhost: verifying patch updates are reflected on ConfigDB.\n" +
		"Patch Applier: localhost patch application completed.\nPatch applied successfully.\n", "", 0
}

func compactJSON(s string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return s
	}
	return b.String()
}

// copyDB returns a deep copy of a CONFIG_DB.
func copyDB(db map[string]any) map[string]any {
	out := make(map[string]any, len(db))
	for k, v := range db {
		out[k] = sonicCopy(v)
	}
	return out
}

func sonicCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = sonicCopy(e)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = sonicCopy(e)
		}
		return out
	}
	return v
}
