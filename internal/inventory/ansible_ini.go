package inventory

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// looksINI reports whether an inventory's first significant line is an
// INI section header ([group]) or a "host key=value" line.
func looksINI(b []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";") || l == "---" {
			continue
		}
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") && !strings.Contains(l, ",") {
			return true
		}
		f := strings.Fields(l)
		return len(f) > 1 && strings.Contains(f[1], "=") && !strings.Contains(f[0], ":")
	}
	return false
}

// iniGroup is one INI group while reading.
type iniGroup struct {
	hosts    []string
	hostVars map[string][][2]string
	vars     [][2]string
	children []string
}

// parseINI reads Ansible's INI inventory: "host k=v …" lines under
// [group] (or before any section: ungrouped), "k=v" under [group:vars],
// group names under [group:children].
func parseINI(name string, b []byte) (*Inventory, error) {
	groups := map[string]*iniGroup{}
	get := func(g string) *iniGroup {
		if groups[g] == nil {
			groups[g] = &iniGroup{hostVars: map[string][][2]string{}}
		}
		return groups[g]
	}
	section, kind := "ungrouped", ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	ln := 0
	for sc.Scan() {
		ln++
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";") {
			continue
		}
		if strings.HasPrefix(l, "[") {
			if !strings.HasSuffix(l, "]") {
				return nil, fmt.Errorf("%s:%d:1: section %q has no closing ]", name, ln, l)
			}
			section, kind, _ = strings.Cut(l[1:len(l)-1], ":")
			if kind != "" && kind != "vars" && kind != "children" {
				return nil, fmt.Errorf("%s:%d:1: section [%s:%s]: want [group], [group:vars] or [group:children]", name, ln, section, kind)
			}
			get(section)
			continue
		}
		g := get(section)
		switch kind {
		case "vars":
			k, v, ok := strings.Cut(l, "=")
			if !ok {
				return nil, fmt.Errorf("%s:%d:1: [%s:vars] wants key=value lines, got %q", name, ln, section, l)
			}
			g.vars = append(g.vars, [2]string{strings.TrimSpace(k), unquote(strings.TrimSpace(v))})
		case "children":
			g.children = append(g.children, strings.Fields(l)[0])
		default:
			f := strings.Fields(l)
			h := f[0]
			// "name:port", as Ansible's INI form allows: the port is the host's.
			if n, p, ok := strings.Cut(h, ":"); ok && !strings.Contains(p, ":") && isPort(p) {
				h = n
				g.hostVars[h] = append(g.hostVars[h], [2]string{"ansible_port", p})
			}
			g.hosts = append(g.hosts, h)
			for _, kv := range f[1:] {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					return nil, fmt.Errorf("%s:%d:1: host %s: %q is not key=value", name, ln, h, kv)
				}
				g.hostVars[h] = append(g.hostVars[h], [2]string{k, unquote(v)})
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// Groups that are nobody's child are roots; walk down from them.
	isChild := map[string]bool{}
	for _, g := range groups {
		for _, c := range g.children {
			isChild[c] = true
		}
	}
	if err := iniCycle(name, groups); err != nil {
		return nil, err
	}
	hs := hosts{}
	budget := MaxNodes
	var walk func(name string, inherited []groupVar, depth int, path map[string]bool) error
	walk = func(gname string, inherited []groupVar, depth int, path map[string]bool) error {
		if depth > MaxDepth || path[gname] {
			return fmt.Errorf("%s: group %q: children nest more than %d deep or in a cycle", name, gname, MaxDepth)
		}
		if budget -= 1 + len(groups[gname].hostsOrNil()); budget < 0 {
			return fmt.Errorf("%s: %w: more than %d group and host visits (groups that share children many times over?)", name, ErrTooBig, MaxNodes)
		}
		g := groups[gname]
		if g == nil {
			return fmt.Errorf("%s: [%s] is named as a child but has no section", name, gname)
		}
		vars := inherited
		for _, kv := range g.vars {
			if connVars[kv[0]] {
				vars = append(vars[:len(vars):len(vars)], groupVar{key: kv[0], value: kv[1], depth: depth})
			}
		}
		for _, h := range g.hosts {
			hh := hs.get(h)
			for _, gv := range vars {
				hh.set(gv.key, gv.value, gv.depth)
			}
			for _, kv := range g.hostVars[h] {
				if connVars[kv[0]] {
					hh.set(kv[0], kv[1], hostDepth)
				}
			}
		}
		path[gname] = true
		defer delete(path, gname)
		for _, c := range g.children {
			if err := walk(c, vars, depth+1, path); err != nil {
				return err
			}
		}
		return nil
	}
	var roots []string
	for g := range groups {
		if !isChild[g] {
			roots = append(roots, g)
		}
	}
	sort.Strings(roots)
	for _, r := range roots {
		if err := walk(r, nil, 0, map[string]bool{}); err != nil {
			return nil, err
		}
	}
	return hs.inventory(name, "ansible-ini")
}

// unquote strips one pair of matching quotes.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// iniCycle refuses groups that are their own descendants (Ansible does).
func iniCycle(name string, groups map[string]*iniGroup) error {
	done := map[string]bool{}
	var visit func(g string, path map[string]bool) error
	visit = func(g string, path map[string]bool) error {
		if path[g] {
			return fmt.Errorf("%s: group %q is its own descendant (a cycle of :children)", name, g)
		}
		if done[g] || groups[g] == nil {
			return nil
		}
		path[g] = true
		for _, c := range groups[g].children {
			if err := visit(c, path); err != nil {
				return err
			}
		}
		delete(path, g)
		done[g] = true
		return nil
	}
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		if err := visit(g, map[string]bool{}); err != nil {
			return err
		}
	}
	return nil
}

// hostsOrNil is g's hosts; nil for a group named but not defined.
func (g *iniGroup) hostsOrNil() []string {
	if g == nil {
		return nil
	}
	return g.hosts
}

// isPort reports whether s is all digits (checkAddr checks the range).
func isPort(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
