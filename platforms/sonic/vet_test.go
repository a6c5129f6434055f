package sonic

import (
	"errors"
	"strings"
	"testing"

	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/schema"
)

func TestVet(t *testing.T) {
	const lookup = "# PG lossless profiles.\n# speed cable size xon xoff threshold xon_offset\n400000 5m 18796 0 236880 -2 4470\n400000 40m 18796 0 275634 -2 4470\n100000 5m 18796 0 100000 -2 4470\n"
	const path = "/usr/share/sonic/device/x86_64-dellemc_z9332f_d1508-r0/DellEMC-Z9332f-O32/pg_profile_lookup.ini"
	meta := func(model string) string {
		m := `"hwsku": "DellEMC-Z9332f-O32", "platform": "x86_64-dellemc_z9332f_d1508-r0"`
		if model != "" {
			m += `, "buffer_model": "` + model + `"`
		}
		return `{"DEVICE_METADATA": {"localhost": {` + m + `}}, "PORT": {"Ethernet8": {"speed": "100000"}}}`
	}
	render := func(cable string) string {
		return `{"PORT": {"Ethernet0": {"speed": "400000"}}, "CABLE_LENGTH": {"AZURE": {"Ethernet0": "` + cable + `", "Ethernet8": "5m"}},
 "PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": "3"}, "Ethernet8": {"pfc_enable": "3,5"}, "Ethernet16": {"pfc_enable": ""}, "global": {"dscp_to_tc_map": "FABRICGEN"}}}`
	}
	dev := func(model string, set bool, hwsku string) *schema.Device {
		d := &schema.Device{Name: "leaf1", ASIC: schema.Value[string]{V: "broadcom", Set: true},
			BufferModel: schema.Value[string]{V: model, Set: set}}
		if hwsku != "" {
			d.HWSKU = schema.Value[string]{V: hwsku, Set: true}
		}
		return d
	}
	tests := []struct {
		name     string
		dev      *schema.Device
		running  string
		rendered string
		files    map[string]string
		runErr   error
		want     string // "" = no error; else a piece of the message
		reads    int    // commands the check runs
	}{
		{"traditional, every lossless port has a row", dev("traditional", false, ""), meta(""), render("5m"), map[string]string{path: lookup}, nil, "", 1},
		{"explicit traditional, model field set", dev("traditional", true, ""), meta("traditional"), render("40m"), map[string]string{path: lookup}, nil, "", 1},
		{"no row for the cable", dev("traditional", false, ""), meta(""), render("300m"), map[string]string{path: lookup}, nil, "Ethernet0 (speed 400000, cable 300m; the file's cables at that speed: 40m, 5m)", 1},
		{"switch runs dynamic, render is traditional by default", dev("traditional", false, ""), meta("dynamic"), render("5m"), nil, nil, `is the default for asic "broadcom"`, 0},
		{"switch runs traditional, intent says dynamic", dev("dynamic", true, ""), meta("traditional"), render("5m"), nil, nil, `buffer_model = "dynamic" is the intent's`, 0},
		{"dynamic on both sides reads nothing", dev("dynamic", false, ""), meta("dynamic"), render("300m"), nil, nil, "", 0},
		{"intent hwsku is another SKU", dev("traditional", false, "Arista-7060X6-64PE"), meta(""), render("5m"), nil, nil, `the switch's hwsku is "DellEMC-Z9332f-O32"`, 0},
		{"the SKU has no lookup file", dev("traditional", false, ""), meta(""), render("5m"), map[string]string{}, nil, "has no " + path, 1},
		{"the session fails", dev("traditional", false, ""), meta(""), render("5m"), nil, errors.New("EOF"), "EOF", 1},
		{"no lossless port reads nothing", dev("traditional", false, ""), meta(""), `{"PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": ""}}}`, nil, nil, "", 0},
		{"a hostile platform never becomes a path", dev("traditional", false, ""),
			`{"DEVICE_METADATA": {"localhost": {"hwsku": "x", "platform": "../../../etc"}}}`, render("5m"), nil, nil, "do not name a SKU directory", 0},
		{"a hostile hwsku never becomes a path", dev("traditional", false, ""),
			`{"DEVICE_METADATA": {"localhost": {"hwsku": "a; reboot", "platform": "p"}}}`, render("5m"), nil, nil, "do not name a SKU directory", 0},
		{"a malformed lookup file", dev("traditional", false, ""), meta(""), render("5m"), map[string]string{path: "400000 5m x\n"}, nil, path, 1},
		{"a running config that is not JSON", dev("traditional", false, ""), "interface Ethernet1", render("5m"), nil, nil, "not CONFIG_DB JSON", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reads := 0
			run := func(cmd string) (string, int, error) {
				reads++
				if tc.runErr != nil {
					return "", 0, tc.runErr
				}
				file, ok := strings.CutPrefix(cmd, "cat ")
				if !ok {
					t.Fatalf("unexpected command %q", cmd)
				}
				if text, ok := tc.files[file]; ok {
					return text, 0, nil
				}
				return "cat: " + file + ": No such file or directory", 1, nil
			}
			err := vet(pushdialect.Vetting{Device: tc.dev, Rendered: tc.rendered, Running: tc.running, Run: run})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want != "" && err == nil:
				t.Fatalf("no error, want one with %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
			if reads != tc.reads {
				t.Errorf("ran %d command(s), want %d", reads, tc.reads)
			}
		})
	}
}
