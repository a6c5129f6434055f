package lab

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// patchOp is one RFC 6902 operation.
type patchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from"`
	Value json.RawMessage `json:"value"`
}

// sonicPatch applies a JSON Patch document to a copy of db.
func sonicPatch(db map[string]any, doc []byte) (map[string]any, error) {
	var ops []patchOp
	if err := json.Unmarshal(doc, &ops); err != nil {
		return nil, fmt.Errorf("the patch is not a JSON Patch array: %w", err)
	}
	root := any(sonicCopy(db))
	for i, op := range ops {
		var err error
		root, err = applyOp(root, op)
		if err != nil {
			return nil, fmt.Errorf("operation %d (%s %s): %w", i, op.Op, op.Path, err)
		}
	}
	m, ok := root.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the patch replaced the whole config with a non-object")
	}
	return m, nil
}

func pointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if !strings.HasPrefix(p, "/") {
		return nil, fmt.Errorf("path %q must start with '/'", p)
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

func applyOp(root any, op patchOp) (any, error) {
	path, err := pointer(op.Path)
	if err != nil {
		return nil, err
	}
	var val any
	if op.Op == "add" || op.Op == "replace" || op.Op == "test" {
		if len(op.Value) == 0 {
			return nil, fmt.Errorf("missing value")
		}
		if err := json.Unmarshal(op.Value, &val); err != nil {
			return nil, fmt.Errorf("bad value: %w", err)
		}
	}
	switch op.Op {
	case "add":
		return setAt(root, path, val, true)
	case "replace":
		if _, err := getAt(root, path); err != nil {
			return nil, err
		}
		return setAt(root, path, val, false)
	case "remove":
		return removeAt(root, path)
	case "test":
		got, err := getAt(root, path)
		if err != nil {
			return nil, err
		}
		if !reflect.DeepEqual(got, val) {
			return nil, fmt.Errorf("test failed: value differs")
		}
		return root, nil
	case "move", "copy":
		from, err := pointer(op.From)
		if err != nil {
			return nil, err
		}
		v, err := getAt(root, from)
		if err != nil {
			return nil, err
		}
		v = sonicCopy(v)
		if op.Op == "move" {
			if root, err = removeAt(root, from); err != nil {
				return nil, err
			}
		}
		return setAt(root, path, v, true)
	}
	return nil, fmt.Errorf("unknown op %q", op.Op)
}

func getAt(root any, path []string) (any, error) {
	cur := root
	for _, p := range path {
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[p]
			if !ok {
				return nil, fmt.Errorf("path does not exist: no key %q", p)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("path does not exist: bad index %q", p)
			}
			cur = x[i]
		default:
			return nil, fmt.Errorf("path does not exist: %q is below a value", p)
		}
	}
	return cur, nil
}

func setAt(root any, path []string, val any, insert bool) (any, error) {
	if len(path) == 0 {
		return val, nil
	}
	parent, err := getAt(root, path[:len(path)-1])
	if err != nil {
		return nil, err
	}
	last := path[len(path)-1]
	switch x := parent.(type) {
	case map[string]any:
		x[last] = val
		return root, nil
	case []any:
		i := len(x)
		if last != "-" {
			if i, err = strconv.Atoi(last); err != nil || i < 0 || i > len(x) {
				return nil, fmt.Errorf("bad array index %q", last)
			}
		}
		if !insert {
			if i >= len(x) {
				return nil, fmt.Errorf("bad array index %q", last)
			}
			x[i] = val
			return root, nil
		}
		x = append(x[:i], append([]any{val}, x[i:]...)...)
		return setAt(root, path[:len(path)-1], x, false)
	}
	return nil, fmt.Errorf("cannot add below a value")
}

func removeAt(root any, path []string) (any, error) {
	if len(path) == 0 {
		return nil, fmt.Errorf("cannot remove the whole config")
	}
	parent, err := getAt(root, path[:len(path)-1])
	if err != nil {
		return nil, err
	}
	last := path[len(path)-1]
	switch x := parent.(type) {
	case map[string]any:
		if _, ok := x[last]; !ok {
			return nil, fmt.Errorf("path does not exist: no key %q", last)
		}
		delete(x, last)
		return root, nil
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i >= len(x) {
			return nil, fmt.Errorf("bad array index %q", last)
		}
		return setAt(root, path[:len(path)-1], append(x[:i:i], x[i+1:]...), false)
	}
	return nil, fmt.Errorf("path does not exist")
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
			port, _, _ := strings.Cut(key, "|")
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
