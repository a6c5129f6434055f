// Package inventory reads the --inventory file of plan, apply, drift,
// check and import: which address (and, from Ansible, which user) reaches
// each device. Three forms are read, told apart by content rather than
// by file name:
//
//   - fabricgen's JSON: {"device": "host:port"} (what lab up writes);
//   - an Ansible inventory in YAML (or its JSON twin, as
//     ansible-inventory --list prints it): groups under all:, each with
//     hosts:, vars: and children:;
//   - an Ansible inventory in INI form: [group], [group:vars],
//     [group:children] sections and "host key=value" lines.
//
// From Ansible, a host's address is ansible_host (else its inventory
// name, as Ansible connects) and ansible_port (else 22), its user
// ansible_user; host variables win over group variables, a child group's
// over its parent's. Hostile input is bounded: nesting depth, the nodes
// an alias may make the walk visit, and the file size (the caller's).
package inventory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricgen/fabricgen/internal/nestlimit"
)

// Inventory is what an --inventory file says about each device.
type Inventory struct {
	// Format is "json", "ansible-yaml" or "ansible-ini".
	Format string
	// Addr maps device names to "host:port".
	Addr map[string]string
	// User maps device names to the SSH user (Ansible's ansible_user).
	User map[string]string
}

// Limits on what an inventory may make the reader do.
const (
	// MaxDepth is how deeply groups may nest (children of children …).
	MaxDepth = 64
	// MaxNodes bounds the YAML nodes visited, aliases followed included:
	// a "billion laughs" of anchors stops here instead of exhausting memory.
	MaxNodes = 1 << 20
)

// ErrTooBig is wrapped by the error for an inventory past MaxNodes.
var ErrTooBig = errors.New("inventory too large")

// Parse reads an inventory's text; name is the file name for messages.
func Parse(name string, b []byte) (*Inventory, error) {
	t := bytes.TrimSpace(b)
	if bytes.HasPrefix(t, []byte("{")) {
		if err := nestlimit.JSON(t, name); err != nil {
			return nil, err
		}
		flat := map[string]string{}
		if err := json.Unmarshal(t, &flat); err == nil {
			// Taken as written, as before: a bad address fails at the
			// connection, naming the device and the address.
			return &Inventory{Format: "json", Addr: flat, User: map[string]string{}}, nil
		}
		// Not fabricgen's flat map: Ansible's JSON form, which YAML reads.
	}
	if looksINI(t) {
		return parseINI(name, b)
	}
	return parseYAML(name, b)
}

// checkAddr accepts "host:port" with a port from 1 to 65535.
func checkAddr(a string) error {
	h, p, err := net.SplitHostPort(a)
	if err != nil || h == "" {
		return fmt.Errorf("address %q: want \"host:port\", e.g. \"192.0.2.10:22\"", a)
	}
	if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("address %q: the port must be a number from 1 to 65535", a)
	}
	return nil
}

// host is one Ansible host's variables while reading.
type host struct {
	addr, port, user string
	// set says which were given, and at which group depth (host vars: -1
	// never lose), so the deepest group wins as in Ansible.
	depth map[string]int
}

// vars is the connection variables fabricgen reads.
var connVars = map[string]bool{"ansible_host": true, "ansible_port": true, "ansible_user": true,
	// Ansible's older spellings.
	"ansible_ssh_host": true, "ansible_ssh_port": true, "ansible_ssh_user": true}

// canonical maps old spellings to the current ones.
func canonical(k string) string {
	return strings.Replace(k, "ansible_ssh_", "ansible_", 1)
}

// set records k = v for h from a group at depth d (hostDepth for the
// host's own variables); a deeper group, or the host, wins.
func (h *host) set(k, v string, d int) {
	k = canonical(k)
	if old, ok := h.depth[k]; ok && old > d {
		return
	}
	h.depth[k] = d
	switch k {
	case "ansible_host":
		h.addr = v
	case "ansible_port":
		h.port = v
	case "ansible_user":
		h.user = v
	}
}

// hostDepth ranks a host's own variables above every group's.
const hostDepth = 1 << 30

// hosts collects hosts by name.
type hosts map[string]*host

func (hs hosts) get(name string) *host {
	h := hs[name]
	if h == nil {
		h = &host{depth: map[string]int{}}
		hs[name] = h
	}
	return h
}

// inventory turns the hosts into an Inventory.
func (hs hosts) inventory(name, format string) (*Inventory, error) {
	inv := &Inventory{Format: format, Addr: map[string]string{}, User: map[string]string{}}
	names := make([]string, 0, len(hs))
	for n := range hs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		h := hs[n]
		a, p := h.addr, h.port
		if a == "" {
			a = n
		}
		if p == "" {
			p = "22"
		}
		addr := net.JoinHostPort(a, p)
		if err := checkAddr(addr); err != nil {
			return nil, fmt.Errorf("%s: host %q: %w (from ansible_host and ansible_port)", name, n, err)
		}
		inv.Addr[n] = addr
		if h.user != "" {
			inv.User[n] = h.user
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no hosts: want fabricgen's JSON {\"device\": \"host:port\"} or an Ansible inventory (all: hosts: / children:)", name)
	}
	return inv, nil
}
