package emulator

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
)

// sonic-db-cli on CONFIG_DB: the Redis view of the same tables the JSON
// view shows. A CONFIG_DB key is "TABLE|key"; a list field of
// config_db.json is the hash field "name@" holding the items joined by
// commas (SONiC's ConfigDBConnector convention).

// sonicDBReads are the Redis operations that only read.
var sonicDBReads = map[string]bool{
	"HGET": true, "HGETALL": true, "HMGET": true, "KEYS": true, "EXISTS": true, "HEXISTS": true, "HKEYS": true,
	"HVALS": true, "HLEN": true, "TYPE": true, "SCAN": true, "HSCAN": true, "GET": true, "PING": true, "INFO": true,
	"TTL": true, "DBSIZE": true,
}

// sonicDBRead reports whether sonic-db-cli arguments only read.
func sonicDBRead(args []string) bool {
	rest := sonicDBArgs(args)
	if len(rest) < 2 {
		return true
	}
	return sonicDBReads[strings.ToUpper(rest[1])]
}

// sonicDBArgs drops sonic-db-cli's options: -s, -n NAMESPACE, -h.
func sonicDBArgs(args []string) []string {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if args[0] == "-n" || args[0] == "--namespace" {
			args = args[1:]
		}
		args = args[1:]
	}
	return args
}

// dbCLI runs `sonic-db-cli [-n NS] DB OP ARGS...` against CONFIG_DB.
func (s *sonic) dbCLI(args []string, root bool) (string, string, int) {
	rest := sonicDBArgs(args)
	if len(rest) < 2 {
		return "", "usage: sonic-db-cli [-h] [-s] [-n NAMESPACE] db_or_op [cmd ...]\n", 2
	}
	if rest[0] != "CONFIG_DB" {
		return "", fmt.Sprintf("Invalid database name input : '%s' (the lab keeps CONFIG_DB only)\n", rest[0]), 1
	}
	op, a := strings.ToUpper(rest[1]), rest[2:]
	if !sonicDBReads[op] && !root {
		return "", "Root privileges are required for this operation\n", 1
	}
	switch op {
	case "PING":
		return "True\n", "", 0
	case "KEYS", "EXISTS":
		return s.dbKeys(op, a)
	case "HGETALL", "HGET", "HEXISTS", "HKEYS", "HLEN":
		return s.dbHash(op, a)
	case "HSET", "HMSET":
		return s.dbHSet(a)
	case "HDEL", "DEL":
		return s.dbDel(op, a)
	}
	return "", fmt.Sprintf("ERR unknown command '%s' (the lab emulates HGET, HGETALL, HEXISTS, HKEYS, HLEN, KEYS, EXISTS, HSET, HDEL, DEL)\n", rest[1]), 1
}

// dbKeys answers KEYS PATTERN and EXISTS KEY....
func (s *sonic) dbKeys(op string, a []string) (string, string, int) {
	if len(a) < 1 {
		return "", "ERR wrong number of arguments for '" + strings.ToLower(op) + "' command\n", 1
	}
	if op == "EXISTS" {
		n := 0
		for _, k := range a {
			if s.dbEntry(k) != nil {
				n++
			}
		}
		return strconv.Itoa(n) + "\n", "", 0
	}
	var keys []string
	for t, v := range s.db {
		m, _ := v.(map[string]any)
		for k := range m {
			full := t + "|" + k
			if ok, _ := path.Match(a[0], full); ok {
				keys = append(keys, full)
			}
		}
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return "", "", 0
	}
	return strings.Join(keys, "\n") + "\n", "", 0
}

// dbHash answers the hash reads HGETALL, HGET, HEXISTS, HKEYS and HLEN.
func (s *sonic) dbHash(op string, a []string) (string, string, int) {
	need := 1
	if op == "HGET" || op == "HEXISTS" {
		need = 2
	}
	if len(a) < need {
		switch op {
		case "HKEYS", "HLEN":
			return "", "ERR wrong number of arguments\n", 1
		}
		return "", "ERR wrong number of arguments for '" + strings.ToLower(op) + "' command\n", 1
	}
	h := sonicHash(s.dbEntry(a[0]))
	switch op {
	case "HGETALL":
		return pyDict(h) + "\n", "", 0
	case "HLEN":
		return strconv.Itoa(len(h)) + "\n", "", 0
	case "HKEYS":
		keys := make([]string, 0, len(h))
		for k := range h {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return pyList(keys) + "\n", "", 0
	}
	v, ok := h[a[1]]
	switch {
	case op == "HEXISTS" && ok:
		return "1\n", "", 0
	case op == "HEXISTS":
		return "0\n", "", 0
	case !ok:
		return "\n", "", 0
	}
	return v + "\n", "", 0
}

// dbHSet runs HSET TABLE|key FIELD VALUE...; a FIELD ending in @ takes a
// comma-separated list.
func (s *sonic) dbHSet(a []string) (string, string, int) {
	if len(a) < 3 || len(a)%2 != 1 {
		return "", "ERR wrong number of arguments for 'hset' command\n", 1
	}
	table, key, ok := strings.Cut(a[0], "|")
	if !ok {
		return "", "Error: CONFIG_DB keys are TABLE|key\n", 1
	}
	next := copyDB(s.db)
	t, _ := next[table].(map[string]any)
	if t == nil {
		t = map[string]any{}
		next[table] = t
	}
	e, _ := t[key].(map[string]any)
	if e == nil {
		e = map[string]any{}
		t[key] = e
	}
	added := 0
	for i := 1; i+1 < len(a); i += 2 {
		f, v := a[i], a[i+1]
		name := strings.TrimSuffix(f, "@")
		if _, had := e[name]; !had {
			added++
		}
		if strings.HasSuffix(f, "@") {
			var items []any
			for _, x := range strings.Split(v, ",") {
				items = append(items, x)
			}
			e[name] = items
		} else {
			e[name] = v
		}
	}
	if err := sonicValidate(s.db, next); err != nil {
		return "", err.Error() + "\n", 1
	}
	s.commit(next)
	return strconv.Itoa(added) + "\n", "", 0
}

// dbDel runs DEL KEY... and HDEL KEY FIELD...; it prints how many keys or
// fields went.
func (s *sonic) dbDel(op string, a []string) (string, string, int) {
	if len(a) < 1 || (op == "HDEL" && len(a) < 2) {
		return "", "ERR wrong number of arguments\n", 1
	}
	next := copyDB(s.db)
	n := 0
	keys := a
	if op == "HDEL" {
		keys = a[:1]
	}
	for _, k := range keys {
		table, key, _ := strings.Cut(k, "|")
		t, _ := next[table].(map[string]any)
		e, ok := t[key].(map[string]any)
		if !ok {
			continue
		}
		if op == "DEL" {
			delete(t, key)
			n++
		} else {
			n += deleteFields(e, a[1:])
			if len(e) == 0 {
				delete(t, key)
			}
		}
		if len(t) == 0 {
			delete(next, table)
		}
	}
	if err := sonicValidate(s.db, next); err != nil {
		return "", err.Error() + "\n", 1
	}
	s.commit(next)
	return strconv.Itoa(n) + "\n", "", 0
}

// deleteFields removes the named fields (a trailing @ ignored) from e and
// returns how many there were.
func deleteFields(e map[string]any, fields []string) int {
	n := 0
	for _, f := range fields {
		f = strings.TrimSuffix(f, "@")
		if _, had := e[f]; had {
			delete(e, f)
			n++
		}
	}
	return n
}

// dbEntry returns the CONFIG_DB entry of a "TABLE|key" Redis key.
func (s *sonic) dbEntry(k string) map[string]any {
	table, key, ok := strings.Cut(k, "|")
	if !ok {
		return nil
	}
	t, _ := s.db[table].(map[string]any)
	e, _ := t[key].(map[string]any)
	return e
}

// sonicHash is an entry as Redis holds it: strings, lists as "name@".
func sonicHash(e map[string]any) map[string]string {
	h := map[string]string{}
	for k, v := range e {
		switch x := v.(type) {
		case []any:
			items := make([]string, len(x))
			for i, it := range x {
				items[i] = fmt.Sprint(it)
			}
			h[k+"@"] = strings.Join(items, ",")
		case string:
			h[k] = x
		default:
			h[k] = fmt.Sprint(x)
		}
	}
	return h
}

// pyDict prints a map as Python prints a dict of strings.
func pyDict(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = pyStr(k) + ": " + pyStr(m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func pyList(items []string) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = pyStr(it)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func pyStr(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
