package inventory

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// yamlWalk reads Ansible's YAML inventory structure with a node budget.
type yamlWalk struct {
	name   string
	budget int
	hosts  hosts
}

// errAt is an error at a node's line and column.
func (w *yamlWalk) errAt(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", w.name, n.Line, n.Column, fmt.Sprintf(format, args...))
}

// visit spends one node of the budget and resolves an alias.
func (w *yamlWalk) visit(n *yaml.Node) (*yaml.Node, error) {
	for n != nil && n.Kind == yaml.AliasNode {
		w.budget--
		n = n.Alias
	}
	w.budget--
	if w.budget < 0 {
		return nil, fmt.Errorf("%s: %w: more than %d YAML nodes to visit (aliases of aliases?)", w.name, ErrTooBig, MaxNodes)
	}
	return n, nil
}

func parseYAML(name string, b []byte) (*Inventory, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: not fabricgen's JSON inventory, an Ansible YAML inventory, nor an INI one: %w", name, err)
	}
	w := &yamlWalk{name: name, budget: MaxNodes, hosts: hosts{}}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, fmt.Errorf("%s: the inventory is empty", name)
		}
		root = root.Content[0]
	}
	root, err := w.visit(root)
	if err != nil {
		return nil, err
	}
	if root.Kind != yaml.MappingNode {
		return nil, w.errAt(root, "want fabricgen's JSON {\"device\": \"host:port\"} or an Ansible inventory, a mapping of groups (all: hosts: / children:)")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if err := w.group(root.Content[i], root.Content[i+1], nil, 0); err != nil {
			return nil, err
		}
	}
	return w.hosts.inventory(name, "ansible-yaml")
}

// groupVar is one connection variable a group sets.
type groupVar struct {
	key, value string
	depth      int
}

// group reads one group: its vars apply (below the group's own and its
// hosts') to its hosts and its children's.
func (w *yamlWalk) group(key, body *yaml.Node, inherited []groupVar, depth int) error {
	if depth > MaxDepth {
		return w.errAt(key, "groups nested more than %d deep", MaxDepth)
	}
	body, err := w.visit(body)
	if err != nil {
		return err
	}
	if body.Kind == yaml.ScalarNode && (body.Tag == "!!null" || body.Value == "") {
		return nil // an empty group
	}
	if body.Kind != yaml.MappingNode {
		return w.errAt(body, "group %q: want a mapping with hosts:, vars: or children:", key.Value)
	}
	var hostsNode, childrenNode *yaml.Node
	vars := inherited
	for i := 0; i+1 < len(body.Content); i += 2 {
		k, v := body.Content[i], body.Content[i+1]
		switch k.Value {
		case "hosts":
			hostsNode = v
		case "children":
			childrenNode = v
		case "vars":
			own, err := w.vars(v, depth)
			if err != nil {
				return err
			}
			vars = append(vars[:len(vars):len(vars)], own...)
		default:
			return w.errAt(k, "group %q: unknown key %q: an Ansible group holds hosts:, vars: and children:", key.Value, k.Value)
		}
	}
	if hostsNode != nil {
		hn, err := w.visit(hostsNode)
		if err != nil {
			return err
		}
		switch {
		case hn.Kind == yaml.MappingNode:
		case hn.Kind == yaml.ScalarNode && hn.Tag == "!!null":
		default:
			return w.errAt(hn, "group %q: hosts: wants a mapping of host names (each with its variables, or empty)", key.Value)
		}
		for i := 0; i+1 < len(hn.Content); i += 2 {
			hk := hn.Content[i]
			h := w.hosts.get(hk.Value)
			for _, gv := range vars {
				h.set(gv.key, gv.value, gv.depth)
			}
			own, err := w.vars(hn.Content[i+1], hostDepth)
			if err != nil {
				return err
			}
			for _, gv := range own {
				h.set(gv.key, gv.value, hostDepth)
			}
		}
	}
	if childrenNode != nil {
		cn, err := w.visit(childrenNode)
		if err != nil {
			return err
		}
		if cn.Kind == yaml.ScalarNode && cn.Tag == "!!null" {
			return nil
		}
		if cn.Kind != yaml.MappingNode {
			return w.errAt(cn, "group %q: children: wants a mapping of groups", key.Value)
		}
		for i := 0; i+1 < len(cn.Content); i += 2 {
			if err := w.group(cn.Content[i], cn.Content[i+1], vars, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// vars reads the connection variables of a vars: mapping (or a host's
// variables); other variables are skipped.
func (w *yamlWalk) vars(n *yaml.Node, depth int) ([]groupVar, error) {
	n, err := w.visit(n)
	if err != nil {
		return nil, err
	}
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == "") {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, w.errAt(n, "want a mapping of variables (ansible_host: …)")
	}
	var out []groupVar
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !connVars[k.Value] {
			continue
		}
		v, err := w.visit(n.Content[i+1])
		if err != nil {
			return nil, err
		}
		if v.Kind != yaml.ScalarNode {
			return nil, w.errAt(v, "%s: want a single value", k.Value)
		}
		out = append(out, groupVar{key: k.Value, value: v.Value, depth: depth})
	}
	return out, nil
}
