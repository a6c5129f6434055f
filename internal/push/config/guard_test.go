package config

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestGuardedPatchDocument: every key the change set touches that the
// device had gets one test operation holding the key's whole object, in
// front of the change; a key the device lacked gets none.
func TestGuardedPatchDocument(t *testing.T) {
	before := `{"PORT": {"Ethernet0": {"mtu": "9100", "speed": "400000"}}, "SCHEDULER": {"s1": {"weight": "50"}}}`
	cs := &ChangeSet{Blocks: []Block{{Lines: []string{
		`{"op":"replace","path":"/PORT/Ethernet0/mtu","value":"9214"}`,
		`{"op":"add","path":"/PORT/Ethernet0/fec","value":"rs"}`,
		`{"op":"add","path":"/SCHEDULER/s2","value":{"weight":"40"}}`,
		`{"op":"remove","path":"/SCHEDULER/s1"}`,
	}}}}
	doc, err := GuardedPatchDocument(cs, before)
	if err != nil {
		t.Fatal(err)
	}
	var ops []PatchOp
	if err := json.Unmarshal([]byte(doc), &ops); err != nil {
		t.Fatalf("%v: %s", err, doc)
	}
	var tests []string
	for _, op := range ops {
		if op.Op == "test" {
			b, _ := json.Marshal(op.Value)
			tests = append(tests, op.Path+" "+string(b))
		}
	}
	want := []string{`/PORT/Ethernet0 {"mtu":"9100","speed":"400000"}`, `/SCHEDULER/s1 {"weight":"50"}`}
	if strings.Join(tests, "\n") != strings.Join(want, "\n") {
		t.Errorf("tests:\n%s\nwant:\n%s", strings.Join(tests, "\n"), strings.Join(want, "\n"))
	}
	if len(ops) != len(want)+4 || ops[0].Op != "test" || ops[len(ops)-1].Op != "remove" {
		t.Errorf("the tests must come first, then the change: %s", doc)
	}
}

// TestPatchTookEffect: whether any operation of the change is in the
// CONFIG_DB now.
func TestPatchTookEffect(t *testing.T) {
	before := `{"PORT": {"Ethernet0": {"mtu": "9100"}}, "SCHEDULER": {"s1": {"weight": "50"}}}`
	cs := &ChangeSet{Blocks: []Block{{Lines: []string{
		`{"op":"replace","path":"/PORT/Ethernet0/mtu","value":"9214"}`,
		`{"op":"remove","path":"/SCHEDULER/s1"}`,
	}}}}
	for _, tc := range []struct {
		name, now string
		want      bool
	}{
		{"nothing", before, false},
		{"theirs only", `{"PORT": {"Ethernet0": {"mtu": "1500"}}, "SCHEDULER": {"s1": {"weight": "50"}}}`, false},
		{"our replace", `{"PORT": {"Ethernet0": {"mtu": "9214"}}, "SCHEDULER": {"s1": {"weight": "50"}}}`, true},
		{"our remove", `{"PORT": {"Ethernet0": {"mtu": "9100"}}, "SCHEDULER": {}}`, true},
	} {
		got, err := PatchTookEffect(cs, before, tc.now)
		if err != nil || got != tc.want {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}
