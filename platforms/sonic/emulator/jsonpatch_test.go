package emulator

import (
	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"strings"
	"testing"
)

func TestJSONPatchOps(t *testing.T) {
	db := map[string]any{"PORT": map[string]any{"Ethernet0": map[string]any{"mtu": "9100"}}, "VLAN": map[string]any{"Vlan10": map[string]any{"members": []any{"Ethernet0"}}}}
	cases := []struct {
		name, patch, want string
	}{
		{"replace", `[{"op":"replace","path":"/PORT/Ethernet0/mtu","value":"9216"}]`, `"mtu": "9216"`},
		{"remove field", `[{"op":"remove","path":"/PORT/Ethernet0/mtu"}]`, `"Ethernet0": {}`},
		{"append", `[{"op":"add","path":"/VLAN/Vlan10/members/-","value":"Ethernet8"}]`, `"Ethernet8"`},
		{"test fails", `[{"op":"test","path":"/PORT/Ethernet0/mtu","value":"1"}]`, "error"},
		{"missing path", `[{"op":"replace","path":"/PORT/Ethernet4/mtu","value":"1"}]`, "error"},
		{"not a patch", `{"op":"add"}`, "error"},
		{"add below a missing parent", `[{"op":"add","path":"/QUEUE/Ethernet0|3/scheduler","value":"s"}]`, "error"},
		{"remove a missing key", `[{"op":"remove","path":"/PORT/Ethernet4"}]`, "error"},
		{"negative index", `[{"op":"remove","path":"/VLAN/Vlan10/members/-1"}]`, "error"},
		{"unknown op", `[{"op":"merge","path":"/PORT","value":{}}]`, "error"},
		{"whole document to a non-object", `[{"op":"replace","path":"","value":[1]}]`, "error"},
		{"a failing op undoes the earlier ones", `[{"op":"replace","path":"/PORT/Ethernet0/mtu","value":"9216"},{"op":"remove","path":"/NOPE"}]`, "error"},
		{"escaped pointer", `[{"op":"add","path":"/PORT/Ethernet0/a~1b~0c","value":"x"}]`, `"a/b~c": "x"`},
		{"insert at index", `[{"op":"add","path":"/VLAN/Vlan10/members/0","value":"Ethernet8"}]`, `"Ethernet8",`},
		{"copy", `[{"op":"copy","from":"/PORT/Ethernet0","path":"/PORT/Ethernet4"}]`, `"Ethernet4": {`},
		{"move", `[{"op":"move","from":"/PORT/Ethernet0/mtu","path":"/PORT/Ethernet0/speed"}]`, `"speed": "9100"`},
		{"test passes", `[{"op":"test","path":"/PORT/Ethernet0/mtu","value":"9100"},{"op":"add","path":"/PORT/Ethernet0/fec","value":"rs"}]`, `"fec": "rs"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := sonicPatch(db, []byte(c.patch))
			if c.want == "error" {
				if err == nil {
					t.Fatalf("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s := cli.JSON(got); !strings.Contains(s, c.want) {
				t.Errorf("got %s, want %q", s, c.want)
			}
		})
	}
	if db["PORT"].(map[string]any)["Ethernet0"].(map[string]any)["mtu"] != "9100" {
		t.Error("sonicPatch modified its input")
	}
}

func FuzzJSONPatch(f *testing.F) {
	f.Add(`[{"op":"add","path":"/PORT/Ethernet0/mtu","value":"9216"}]`)
	f.Add(`[{"op":"move","from":"/PORT/Ethernet0","path":"/PORT/Ethernet4"}]`)
	f.Add(`[{"op":"remove","path":"/VLAN/Vlan10/members/0"}]`)
	f.Fuzz(func(t *testing.T, patch string) {
		db := map[string]any{"PORT": map[string]any{"Ethernet0": map[string]any{"mtu": "9100"}}, "VLAN": map[string]any{"Vlan10": map[string]any{"members": []any{"Ethernet0"}}}}
		next, err := sonicPatch(db, []byte(patch))
		if err == nil {
			_ = sonicValidate(db, next)
		}
	})
}
