package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// ansibleInventories turns a lab's JSON inventory into the same inventory
// in Ansible's YAML and INI forms: every host with ansible_user user, or
// with the user users names for it, when users names one.
func ansibleInventories(t *testing.T, jsonPath, user string, users map[string]string) (yamlText, iniText string) {
	t.Helper()
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	inv := map[string]string{}
	if err := json.Unmarshal(b, &inv); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(inv))
	for n := range inv {
		names = append(names, n)
	}
	sort.Strings(names)
	var y, ini strings.Builder
	fmt.Fprintf(&y, "all:\n  vars:\n    ansible_user: %s\n  children:\n    fabric:\n      hosts:\n", user)
	ini.WriteString("[fabric]\n")
	for _, n := range names {
		h, p, err := net.SplitHostPort(inv[n])
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&y, "        %s:\n          ansible_host: %s\n          ansible_port: %s\n", n, h, p)
		fmt.Fprintf(&ini, "%s ansible_host=%s ansible_port=%s", n, h, p)
		if u := users[n]; u != "" {
			fmt.Fprintf(&y, "          ansible_user: %s\n", u)
			fmt.Fprintf(&ini, " ansible_user=%s", u)
		}
		ini.WriteString("\n")
	}
	fmt.Fprintf(&ini, "\n[fabric:vars]\nansible_user=%s\n", user)
	return y.String(), ini.String()
}

// TestAnsibleInventory: plan, drift and check take an Ansible inventory
// (YAML or INI, whatever the file is called) as they take the lab's JSON
// one, and its ansible_user is the user they log in as.
func TestAnsibleInventory(t *testing.T) {
	r := newPushRig(t, "ai-training-2subnet")
	jsonInv, known := r.common[1], r.common[3]
	f, err := readInventoryFile(jsonInv)
	if err != nil {
		t.Fatal(err)
	}
	yml, ini := ansibleInventories(t, jsonInv, "fabricgen-ansible", nil)
	for name, text := range map[string]string{"hosts.yml": yml, "hosts": ini, "inventory.json": yml} {
		p := filepath.Join(r.dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		inv, err := readInventoryFile(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for dev, a := range f.Addr {
			if inv.Addr[dev] != a || inv.User[dev] != "fabricgen-ansible" {
				t.Errorf("%s: %s = %q as %q, want %q as fabricgen-ansible", name, dev, inv.Addr[dev], inv.User[dev], a)
			}
		}
	}
	// The lab accepts the intent's users: the same inventory with them
	// plans, a group's user overridden by each host's.
	fab, diags := schema.Load("fabric", schema.Options{Getenv: func(string) string { return "" }, Platforms: platforms.Catalog()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	users := map[string]string{}
	for _, d := range fab.Devices {
		users[d.Name] = d.Credentials.Username.V
	}
	yml, ini = ansibleInventories(t, jsonInv, "nobody", users)
	for name, text := range map[string]string{"good.yml": yml, "good.ini": ini} {
		if err := os.WriteFile(filepath.Join(r.dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range [][]string{{"plan", "fabric", "-detailed-exitcode"}, {"drift", "fabric"}} {
			s, out, errb := pushStreams("")
			code := run(r.ctx, append(cmd, "--inventory", filepath.Join(r.dir, name), "--known-hosts", known), s)
			if code == exitFailed {
				t.Errorf("%s --inventory %s: exit %d\n%s%s", cmd[0], name, code, out, errb)
			}
		}
	}
	// ansible_user reaches the SSH login: another user than the lab's is
	// refused by the device.
	s, out, errb := pushStreams("")
	code := run(r.ctx, []string{"plan", "fabric", "--inventory", filepath.Join(r.dir, "hosts.yml"), "--known-hosts", known}, s)
	if code != exitFailed || !strings.Contains(out.String()+errb.String(), "unable to authenticate") ||
		!strings.Contains(out.String()+errb.String(), `as user "fabricgen-ansible"`) {
		t.Errorf("plan as ansible_user fabricgen-ansible: exit %d, want %d, the login refused\n%s%s", code, exitFailed, out, errb)
	}
}
