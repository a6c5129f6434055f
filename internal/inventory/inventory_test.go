package inventory

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

const ansibleYAML = `# Ansible inventory, as network teams keep one
all:
  vars:
    ansible_user: netops
    ansible_port: 22
  children:
    spines:
      hosts:
        spine1:
          ansible_host: 192.0.2.1
        spine2:
          ansible_host: 2001:db8::2
          ansible_port: 2222
    leaves:
      vars:
        ansible_user: leafops
      hosts:
        leaf1:
          ansible_host: 192.0.2.11
          ansible_user: root
          ansible_network_os: arista.eos.eos
        leaf2:
          ansible_ssh_host: 192.0.2.12
    hosts_by_name:
      hosts:
        nic01.example.net:
`

const ansibleINI = `; the same in INI form
[spines]
spine1 ansible_host=192.0.2.1
spine2 ansible_host=2001:db8::2 ansible_port=2222

[leaves]
leaf1 ansible_host=192.0.2.11 ansible_user=root ansible_network_os=arista.eos.eos
leaf2 ansible_ssh_host=192.0.2.12

[leaves:vars]
ansible_user=leafops

[hosts_by_name]
nic01.example.net

[fabric:children]
spines
leaves
hosts_by_name

[fabric:vars]
ansible_user="netops"
ansible_port=22
`

func TestParse(t *testing.T) {
	wantAddr := map[string]string{"spine1": "192.0.2.1:22", "spine2": "[2001:db8::2]:2222", "leaf1": "192.0.2.11:22",
		"leaf2": "192.0.2.12:22", "nic01.example.net": "nic01.example.net:22"}
	wantUser := map[string]string{"spine1": "netops", "spine2": "netops", "leaf1": "root", "leaf2": "leafops", "nic01.example.net": "netops"}
	tests := []struct {
		name, file, text, format string
		addr, user               map[string]string
	}{
		{"fabricgen JSON", "inventory.json", `{"leaf1": "127.0.0.1:2201", "spine1": "[::1]:2202"}`, "json",
			map[string]string{"leaf1": "127.0.0.1:2201", "spine1": "[::1]:2202"}, map[string]string{}},
		{"Ansible YAML", "hosts.yml", ansibleYAML, "ansible-yaml", wantAddr, wantUser},
		{"Ansible YAML, by content not name", "inventory.json", ansibleYAML, "ansible-yaml", wantAddr, wantUser},
		{"Ansible INI", "hosts", ansibleINI, "ansible-ini", wantAddr, wantUser},
		{"Ansible JSON (ansible-inventory --list shape)", "inv.json", `{"all": {"hosts": {"leaf1": {"ansible_host": "192.0.2.11"}}}}`, "ansible-yaml",
			map[string]string{"leaf1": "192.0.2.11:22"}, map[string]string{}},
		{"INI host:port", "hosts", "[leaves]\nleaf1:2222 ansible_host=192.0.2.11\nleaf2.example.net:2200\n", "ansible-ini",
			map[string]string{"leaf1": "192.0.2.11:2222", "leaf2.example.net": "leaf2.example.net:2200"}, map[string]string{}},
		{"YAML anchors", "hosts.yml", "all:\n  vars: &v\n    ansible_user: a\n  children:\n    g:\n      vars: *v\n      hosts:\n        h1:\n", "ansible-yaml",
			map[string]string{"h1": "h1:22"}, map[string]string{"h1": "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv, err := Parse(tt.file, []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if inv.Format != tt.format {
				t.Errorf("format %s, want %s", inv.Format, tt.format)
			}
			if !reflect.DeepEqual(inv.Addr, tt.addr) {
				t.Errorf("addresses\n got %v\nwant %v", inv.Addr, tt.addr)
			}
			if !reflect.DeepEqual(inv.User, tt.user) {
				t.Errorf("users\n got %v\nwant %v", inv.User, tt.user)
			}
		})
	}
}

// bomb is a "billion laughs" of YAML aliases: 9 levels of 9 aliases each.
func bomb() string {
	var b strings.Builder
	b.WriteString("a0: &a0 {hosts: {h: {ansible_host: x}}}\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "a%d: &a%d {children: {", i, i)
		for j := 0; j < 9; j++ {
			fmt.Fprintf(&b, "c%d: *a%d, ", j, i-1)
		}
		b.WriteString("}}\n")
	}
	return b.String()
}

func TestParseErrors(t *testing.T) {
	var b strings.Builder
	b.WriteString("all:\n")
	ind := "  "
	for i := 0; i < MaxDepth+5; i++ {
		fmt.Fprintf(&b, "%schildren:\n%s  g%d:\n", ind, ind, i)
		ind += "    "
	}
	deep := b.String()
	tests := []struct {
		name, text, want string
		is               error
	}{
		{"bad port", "all:\n  hosts:\n    leaf1:\n      ansible_port: 70000\n", `host "leaf1"`, nil},
		{"unknown group key", "all:\n  host:\n    leaf1:\n", `hosts.yml:2:3: group "all": unknown key "host"`, nil},
		{"a list", "- leaf1\n- leaf2\n", "hosts.yml:1:1: want fabricgen's JSON", nil},
		{"not YAML", "all: [\n", "not fabricgen's JSON inventory", nil},
		{"no hosts", "all:\n  children:\n    empty:\n", "no hosts", nil},
		{"anchor bomb", bomb(), "more than", ErrTooBig},
		{"deep nesting", deep, "nested more than 64 deep", nil},
		{"deep JSON", "{" + strings.Repeat(`"a":{`, 100000), "deep", nil},
		{"INI diamonds", iniDiamonds(), "more than", ErrTooBig},
		{"INI cycle", "[a:children]\nb\n[b:children]\na\n[c]\nh1\n", "cycle", nil},
		{"INI unknown child", "[a:children]\nnope\n", `[nope] is named as a child`, nil},
		{"INI bad section", "[a:hosts]\nh1\n", "want [group], [group:vars] or [group:children]", nil},
		{"INI host var", "[a]\nh1 ansible_host\n", `"ansible_host" is not key=value`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("hosts.yml", []byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{ansibleYAML, ansibleINI, bomb(), `{"a": "b:1"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		inv, err := Parse("fuzz", []byte(s))
		if err == nil && inv.Format != "json" {
			for _, a := range inv.Addr {
				if checkAddr(a) != nil {
					t.Fatalf("accepted address %q", a)
				}
			}
		}
	})
}

// iniDiamonds is 40 levels of two groups, each the child of both groups
// of the level above: 2^40 paths to the bottom.
func iniDiamonds() string {
	var b strings.Builder
	for i := 0; i < 40; i++ {
		for _, x := range "ab" {
			fmt.Fprintf(&b, "[%c%d:children]\na%d\nb%d\n", x, i, i+1, i+1)
		}
	}
	b.WriteString("[a40]\nh1\n[b40]\nh2\n")
	return b.String()
}
