package emulator

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/platforms/sonic/skus"
)

// bufferMgr is buffermgrd of the traditional buffer model, sonic-swss
// cfgmgr/buffermgr.cpp, as the release the switch runs has it. It reacts
// to CONFIG_DB changes as the daemon does to its table notifications
// (all of one change's notifications first, then each port named once),
// and writes CONFIG_DB itself:
//
//   - a PORT entry written (any field) caches the port's speed and
//     admin_status (missing: down) and runs doSpeedUpdateTask;
//   - a CABLE_LENGTH|AZURE field caches the port's cable length, and runs
//     doSpeedUpdateTask when it changed only from 202511 (sonic-swss
//     #4004, 2026-03): before, a new cable length takes effect at the
//     port's next PORT write;
//   - from 202205 (sonic-swss #2171 and #2281, 2022-04/06) a changed
//     PORT_QOS_MAP|<port> pfc_enable runs doSpeedUpdateTask, whose
//     lossless PGs are pfc_enable's ids combined into ranges
//     (Orch::generateIdListFromMap); before, the PGs are always "3-4" and
//     pfc_enable is not read;
//   - doSpeedUpdateTask creates BUFFER_PROFILE
//     pg_lossless_<speed>_<cable>_profile from the SKU's
//     pg_profile_lookup.ini row unless a profile of that name exists, and
//     points each lossless BUFFER_PG key at it; with no row it logs
//     "No PG profile configured for speed … and cable length …" and
//     writes nothing; cable "0m" writes nothing; an admin-down port on
//     mellanox (202111 on, #2011) or barefoot (202211 on) loses the PG
//     keys that point at that profile instead;
//   - DEVICE_METADATA|localhost buffer_model "dynamic" stops it (later
//     changes wait, as they stay in its queue, until it is traditional
//     again).
//
// Tasks that ask to be retried (no cable length yet, no
// ingress_lossless_pool mode) are retried after each change, as the
// daemon retries them every second. In the dynamic model buffermgrdyn
// writes APPL_DB only, so CONFIG_DB never changes: there is no bufferMgr.
type bufferMgr struct {
	asic    string
	release int
	// rows is the lookup file buffermgrd read at start; nil when the
	// switch has none (then PORT changes are ignored, as
	// m_pgfile_processed is false).
	rows []skus.Row
	// cable, speed, admin and pfc are the daemon's caches.
	cable, speed, admin, pfc map[string]string
	// dynamic is doBufferMetaTask's flag.
	dynamic bool
	// seen is the CONFIG_DB the daemon has acted on, as the inputs it
	// reads: its notifications are the differences from it.
	seen bmInputs
	// retry are the ports whose PORT task asked to be retried.
	retry map[string]bool
	// log receives the daemon's NOTICE and ERR messages.
	log func(level, msg string)
}

// bmInputs is the part of CONFIG_DB buffermgrd reads.
type bmInputs struct {
	cable map[string]string
	port  map[string]string // JSON of each PORT entry
	qos   map[string]map[string]any
	meta  map[string]any
	has   bool // DEVICE_METADATA|localhost exists
}

func newBufferMgr(id identity, log func(level, msg string)) *bufferMgr {
	b := &bufferMgr{asic: id.asic, release: id.release, log: log,
		cable: map[string]string{}, speed: map[string]string{}, admin: map[string]string{}, pfc: map[string]string{},
		retry: map[string]bool{}}
	if id.sku != nil {
		b.rows = id.sku.Rows
	}
	return b
}

func readInputs(db map[string]any) bmInputs {
	in := bmInputs{cable: map[string]string{}, port: map[string]string{}, qos: map[string]map[string]any{}}
	for p, v := range entry(db, "CABLE_LENGTH", "AZURE") {
		in.cable[p] = fmt.Sprint(v)
	}
	ports, _ := db["PORT"].(map[string]any)
	for p, v := range ports {
		in.port[p] = cli.JSON(v)
	}
	qos, _ := db["PORT_QOS_MAP"].(map[string]any)
	for p, v := range qos {
		m, _ := v.(map[string]any)
		in.qos[p] = m
	}
	in.meta = entry(db, "DEVICE_METADATA", "localhost")
	in.has = in.meta != nil
	return in
}

// run delivers CONFIG_DB's changes since the last run to the daemon and
// applies what it writes to db.
func (b *bufferMgr) run(db map[string]any) {
	in := readInputs(db)
	old := b.seen
	// doBufferMetaTask: DEVICE_METADATA notifications are handled even
	// while the dynamic flag is set.
	if cli.JSON(in.meta) != cli.JSON(old.meta) || in.has != old.has {
		if !in.has {
			b.dynamic = false
		} else if m, ok := in.meta["buffer_model"]; ok {
			b.dynamic = m == "dynamic"
		}
	}
	if b.dynamic {
		b.seen.meta, b.seen.has = in.meta, in.has
		return
	}
	b.seen = in
	// Every notification of the change updates the caches first; then
	// doSpeedUpdateTask runs once for each port a notification named, on
	// the newest caches (the daemon drains each table's queue; the lab
	// takes all of one change's queues as drained before it acts, so no
	// port acts on a half-applied change).
	todo := map[string]bool{}
	// CABLE_LENGTH: doCableTask for each field of the entry.
	for _, p := range sortedKeys(in.cable) {
		c := in.cable[p]
		if old.cable != nil && old.cable[p] == c {
			continue
		}
		if b.release >= 202511 {
			if c != "None" && b.cable[p] != c {
				b.cable[p] = c
				todo[p] = true
			}
			continue
		}
		b.cable[p] = c
	}
	// PORT: a SET of a changed entry, read only when the lookup file was.
	if b.rows != nil {
		for _, p := range sortedKeys(in.port) {
			if old.port[p] == in.port[p] && !b.retry[p] {
				continue
			}
			f := entry(db, "PORT", p)
			if v, ok := f["speed"]; ok {
				b.speed[p] = fmt.Sprint(v)
			}
			b.admin[p] = "down"
			if v, ok := f["admin_status"]; ok {
				b.admin[p] = fmt.Sprint(v)
			}
			if _, ok := b.speed[p]; ok {
				todo[p] = true
			}
		}
	}
	// PORT_QOS_MAP: a changed pfc_enable (202205 on); a deleted key
	// clears the port's.
	if b.release >= 202205 {
		for _, p := range sortedKeys(old.qos) {
			if _, ok := in.qos[p]; !ok && p != "global" {
				delete(b.pfc, p)
			}
		}
		for _, p := range sortedKeys(in.qos) {
			v, ok := in.qos[p]["pfc_enable"]
			if p == "global" || !ok {
				continue
			}
			if cur, had := b.pfc[p]; !had || cur != fmt.Sprint(v) {
				b.pfc[p] = fmt.Sprint(v)
				todo[p] = true
			}
		}
	}
	for _, p := range sortedKeys(todo) {
		// Only a PORT task is kept for retrying.
		wasPort := b.rows != nil && (old.port[p] != in.port[p] || b.retry[p])
		delete(b.retry, p)
		if b.speedUpdate(db, p) == taskRetry && wasPort {
			b.retry[p] = true
		}
	}
}

type taskStatus int

const (
	taskSuccess taskStatus = iota
	taskRetry
	taskInvalid
)

// lookup returns the lookup file's row for speed and cable.
func (b *bufferMgr) lookup(speed, cable string) (skus.Row, bool) {
	for _, r := range b.rows {
		if r.Speed == speed && r.Cable == cable {
			return r, true
		}
	}
	return skus.Row{}, false
}

// speedUpdate is doSpeedUpdateTask.
func (b *bufferMgr) speedUpdate(db map[string]any, port string) taskStatus {
	cable, ok := b.cable[port]
	if !ok {
		return taskRetry
	}
	if cable == "0m" {
		b.log("NOTICE", fmt.Sprintf("doSpeedUpdateTask: Not creating/updating PG profile for port %s. Cable length is set to %s", port, cable))
		return taskSuccess
	}
	pgs := []string{"3-4"}
	if b.release >= 202205 {
		if _, ok := b.admin[port]; !ok {
			return taskRetry
		}
		pfc, ok := b.pfc[port]
		if !ok {
			return taskSuccess
		}
		pgs = losslessPGs(pfc)
	}
	speed := b.speed[port]
	profile := "pg_lossless_" + speed + "_" + cable + "_profile"
	reclaim := b.release >= 202111 && b.asic == "mellanox" || b.release >= 202211 && b.asic == "barefoot"
	if reclaim && b.admin[port] != "up" {
		for _, pg := range pgs {
			key := port + "|" + pg
			if e := entry(db, "BUFFER_PG", key); e != nil {
				if cur, ok := e["profile"]; ok {
					if cur == profile {
						b.log("NOTICE", fmt.Sprintf("doSpeedUpdateTask: Removing PG %s from port %s which is administrative down", key, port))
						deleteEntry(db, "BUFFER_PG", key)
					} else {
						b.log("NOTICE", fmt.Sprintf("doSpeedUpdateTask: Not default profile %v is configured on PG %s, won't reclaim buffer", cur, key))
					}
				}
			}
		}
		return taskSuccess
	}
	row, ok := b.lookup(speed, cable)
	if !ok {
		b.log("ERR", fmt.Sprintf("doSpeedUpdateTask: Unable to create/update PG profile for port %s. No PG profile configured for speed %s and cable length %s", port, speed, cable))
		return taskInvalid
	}
	if entry(db, "BUFFER_PROFILE", profile) == nil {
		mode, _ := entry(db, "BUFFER_POOL", "ingress_lossless_pool")["mode"].(string)
		if mode == "" {
			return taskRetry
		}
		b.log("NOTICE", fmt.Sprintf("doSpeedUpdateTask: Creating new profile '%s'", profile))
		e := obj("pool", "ingress_lossless_pool", "xon", row.Xon, "xoff", row.Xoff, "size", row.Size, mode+"_th", row.Threshold)
		if row.XonOffset != "" {
			e["xon_offset"] = row.XonOffset
		}
		setEntry(db, "BUFFER_PROFILE", profile, e)
	} else {
		b.log("NOTICE", fmt.Sprintf("doSpeedUpdateTask: Reusing existing profile '%s'", profile))
	}
	for _, pg := range pgs {
		key := port + "|" + pg
		if cur, ok := entry(db, "BUFFER_PG", key)["profile"]; ok && cur == profile {
			b.log("NOTICE", fmt.Sprintf("doSpeedUpdateTask: PG to Buffer Profile Mapping %s already present", key))
			continue
		}
		e := entry(db, "BUFFER_PG", key)
		if e == nil {
			e = map[string]any{}
		}
		e["profile"] = profile
		setEntry(db, "BUFFER_PG", key, e)
	}
	return taskSuccess
}

// losslessPGs turns a pfc_enable list into the PG id ranges buffermgrd
// writes: each item is read as to_uint<uint8_t> does (std::stoul after
// leading blanks; items it cannot read are skipped), set in a bitmap, and
// the bitmap cut into runs by generateIdListFromMap(map, 8), which looks
// at ids 0..8 and ends a run only at a clear bit, so a run through id 8
// is never written. The ranges come out sorted as std::set<string> sorts
// them.
func losslessPGs(pfc string) []string {
	var bits uint64
	for _, item := range strings.Split(pfc, ",") {
		item = strings.TrimLeftFunc(item, unicode.IsSpace)
		end := 0
		for end < len(item) && item[end] >= '0' && item[end] <= '9' {
			end++
		}
		n, err := strconv.Atoi(item[:end])
		if err != nil || n > 31 { // 256 on: to_uint throws; 32 on: past the int shift
			continue
		}
		bits |= 1 << n
	}
	var out []string
	start := -1
	for id := 0; id <= 8; id++ {
		if bits&(1<<id) != 0 {
			if start < 0 {
				start = id
			}
			continue
		}
		if start >= 0 {
			if start == id-1 {
				out = append(out, strconv.Itoa(start))
			} else {
				out = append(out, fmt.Sprintf("%d-%d", start, id-1))
			}
			start = -1
		}
	}
	sort.Strings(out)
	return out
}

// setEntry writes db[table][key].
func setEntry(db map[string]any, table, key string, e map[string]any) {
	t, _ := db[table].(map[string]any)
	if t == nil {
		t = map[string]any{}
		db[table] = t
	}
	t[key] = e
}

// deleteEntry removes db[table][key], and the table when it empties.
func deleteEntry(db map[string]any, table, key string) {
	t, _ := db[table].(map[string]any)
	delete(t, key)
	if t != nil && len(t) == 0 {
		delete(db, table)
	}
}

// prime fills the daemon's caches from db without acting: the state of a
// daemon that has already processed every table of db.
func (b *bufferMgr) prime(db map[string]any) {
	in := readInputs(db)
	b.seen = in
	if m, ok := in.meta["buffer_model"]; ok {
		b.dynamic = m == "dynamic"
	}
	for p, c := range in.cable {
		b.cable[p] = c
	}
	if b.rows != nil {
		for p := range in.port {
			f := entry(db, "PORT", p)
			if v, ok := f["speed"]; ok {
				b.speed[p] = fmt.Sprint(v)
			}
			b.admin[p] = "down"
			if v, ok := f["admin_status"]; ok {
				b.admin[p] = fmt.Sprint(v)
			}
		}
	}
	if b.release >= 202205 {
		for p, q := range in.qos {
			if v, ok := q["pfc_enable"]; ok && p != "global" {
				b.pfc[p] = fmt.Sprint(v)
			}
		}
	}
}
