package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// sonicPatch applies an RFC 6902 JSON Patch document to a copy of db, as
// `config apply-patch` does before it validates the result. Like SONiC's
// python jsonpatch, it takes no negative array indices, and an add needs
// its parent to exist.
func sonicPatch(db map[string]any, doc []byte) (map[string]any, error) {
	patch, err := jsonpatch.DecodePatch(doc)
	if err != nil {
		return nil, fmt.Errorf("the patch is not a JSON Patch array: %w", err)
	}
	cur, err := json.Marshal(db)
	if err != nil {
		return nil, fmt.Errorf("encode the running CONFIG_DB: %w", err)
	}
	opts := jsonpatch.NewApplyOptions()
	opts.SupportNegativeIndices = false
	next, err := patch.ApplyWithOptions(cur, opts)
	if err != nil {
		return nil, fmt.Errorf("apply the patch: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(next, &m); err != nil || m == nil {
		return nil, fmt.Errorf("the patch replaced the whole config with a non-object")
	}
	return m, nil
}

// sonicValidate stands in for GCU's YANG validation: known tables, no
// empty tables, no new or deleted PORT keys, port MTU range, and the
// references from port-keyed tables and PORT_QOS_MAP / QUEUE fields. Only
// problems the change brings are reported: a brownfield configuration's
// own tables and oddities stay as they are.
func sonicValidate(old, next map[string]any) error {
	before := map[string]bool{}
	for _, p := range sonicProblems(old, old) {
		before[p] = true
	}
	for _, p := range sonicProblems(old, next) {
		if !before[p] {
			return errors.New(p)
		}
	}
	return nil
}

// sonicProblems lists what the lab's YANG stand-in finds wrong with next
// (old is the configuration before the change), in a fixed order.
func sonicProblems(old, next map[string]any) []string {
	var out []string
	for _, t := range sortedKeys(next) {
		v := next[t]
		if !sonicTables[t] && old[t] == nil {
			out = append(out, fmt.Sprintf("Given patch will produce invalid config. Error: table %s has no YANG model", t))
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			out = append(out, fmt.Sprintf("Given patch will produce invalid config. Error: table %s is not an object", t))
			continue
		}
		if len(m) == 0 {
			out = append(out, fmt.Sprintf("Given patch is not valid because it will result in empty tables which is not allowed in ConfigDb. Table: %s", t))
		}
	}
	oldPorts, _ := old["PORT"].(map[string]any)
	ports, _ := next["PORT"].(map[string]any)
	if len(oldPorts) != len(ports) {
		out = append(out, "Given patch will produce invalid config. Error: PORT keys cannot be added or removed")
	}
	for _, p := range sortedKeys(ports) {
		if _, ok := oldPorts[p]; !ok {
			out = append(out, fmt.Sprintf("Given patch will produce invalid config. Error: PORT %s does not exist on this platform", p))
		}
		if f, ok := ports[p].(map[string]any); ok {
			if _, ok := f["speed"]; !ok { // mandatory in sonic-port.yang
				out = append(out, fmt.Sprintf("Given patch will produce invalid config. Error: PORT|%s speed is mandatory", p))
			}
			if mtu, ok := f["mtu"].(string); ok {
				n, err := strconv.Atoi(mtu)
				if err != nil || n < 68 || n > 9216 {
					out = append(out, fmt.Sprintf("Given patch will produce invalid config. Error: PORT|%s mtu %q is out of range 68..9216", p, mtu))
				}
			}
		}
	}
	table := func(name string) map[string]any { m, _ := next[name].(map[string]any); return m }
	for _, t := range []string{"PORT_QOS_MAP", "QUEUE", "BUFFER_PG", "BUFFER_QUEUE"} {
		for _, key := range sortedKeys(table(t)) {
			port, ids, _ := strings.Cut(key, "|")
			if pat := bufferIDs[t]; pat != "" && !bufferIDRe[t].MatchString(ids) {
				out = append(out, fmt.Sprintf("Given patch will produce invalid config. Error: %s|%s: %q does not match the pattern %s", t, key, ids, pat))
			}
			for _, p := range strings.Split(port, ",") {
				if _, ok := ports[p]; !ok && p != "global" {
					out = append(out, fmt.Sprintf("Given patch will produce invalid config. Error: %s|%s: leafref to PORT %s not satisfied", t, key, p))
				}
			}
			fields, _ := table(t)[key].(map[string]any)
			for _, f := range sortedKeys(fields) {
				target := sonicMapRefs[f]
				switch {
				case t == "QUEUE" && f == "scheduler":
					target = "SCHEDULER"
				case t == "QUEUE" && f == "wred_profile":
					target = "WRED_PROFILE"
				case (t == "BUFFER_PG" || t == "BUFFER_QUEUE") && f == "profile":
					target = "BUFFER_PROFILE"
				}
				if target == "" || t != "PORT_QOS_MAP" && sonicMapRefs[f] != "" {
					continue
				}
				name, _ := fields[f].(string)
				// sonic-buffer-pg.yang (202111 on, sonic-buildimage
				// #10353): a PG's profile is a BUFFER_PROFILE or "NULL",
				// which the dynamic model's buffermgrd fills in. A
				// queue's profile stays a plain leafref.
				if t == "BUFFER_PG" && f == "profile" && name == "NULL" {
					continue
				}
				// Older releases write references as [TABLE|name].
				if inner, ok := strings.CutPrefix(name, "["+target+"|"); ok {
					name = strings.TrimSuffix(inner, "]")
				}
				if _, ok := table(target)[name]; !ok {
					out = append(out, fmt.Sprintf("Given patch will produce invalid config. Error: %s|%s %s: leafref to %s %q not satisfied", t, key, f, target, name))
				}
			}
		}
	}
	return out
}

// bufferIDs are the patterns of the id part of BUFFER_PG and BUFFER_QUEUE
// keys: pg_num in sonic-buffer-pg.yang, qindex in sonic-buffer-queue.yang.
var bufferIDs = map[string]string{
	"BUFFER_PG":    `[0-7]((-)[0-7])?`,
	"BUFFER_QUEUE": `(1[0-5]|[0-9])((-)(1[0-5]|[0-9]))?`,
}

// bufferIDRe are bufferIDs anchored, as YANG patterns are.
var bufferIDRe = map[string]*regexp.Regexp{
	"BUFFER_PG":    regexp.MustCompile("^(?:" + bufferIDs["BUFFER_PG"] + ")$"),
	"BUFFER_QUEUE": regexp.MustCompile("^(?:" + bufferIDs["BUFFER_QUEUE"] + ")$"),
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
