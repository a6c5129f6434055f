package sonic

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/platforms/sonic/skus"
)

// vetNameRe is what a DEVICE_METADATA platform or hwsku must look like to
// become a path element: letters, digits and . _ + - only, never "." or
// "..", so the lookup file's path never leaves /usr/share/sonic/device.
var vetNameRe = regexp.MustCompile(`^[A-Za-z0-9_+-][A-Za-z0-9._+-]{0,127}$`)

// vetLookupDir is where a SONiC image keeps each platform's SKU files.
const vetLookupDir = "/usr/share/sonic/device"

// vet checks a SONiC switch before its plan, against what the render
// leaves to the switch:
//   - the buffer model: buffermgrd reads DEVICE_METADATA buffer_model
//     only when it starts (sonic-swss cfgmgr/buffermgrd.cpp), so a render
//     for the other model is refused, never switched on a running box;
//   - the SKU: an intent's hwsku must be the switch's;
//   - in the traditional model, the switch's own pg_profile_lookup.ini must
//     have a row for every lossless port's speed and cable length, or
//     buffermgrd creates no lossless priority group ("No PG profile
//     configured for speed … and cable length …") and the class is lossy
//     on the port.
func vet(v pushdialect.Vetting) error {
	run, err := parseVetDB(v.Running, "the running CONFIG_DB")
	if err != nil {
		return err
	}
	want, err := parseVetDB(v.Rendered, "the render")
	if err != nil {
		return err
	}
	meta := run["DEVICE_METADATA"]["localhost"]
	model := meta["buffer_model"]
	if model == "" {
		model = "traditional" // buffermgrd's default (cfgmgr/buffermgrd.cpp)
	}
	d := v.Device
	if d.BufferModel.V != "" && model != d.BufferModel.V {
		how := fmt.Sprintf("buffer_model = %q is the intent's", d.BufferModel.V)
		if !d.BufferModel.Set {
			how = fmt.Sprintf("%q is the default for asic %q at release %s; set buffer_model on the device to say otherwise", d.BufferModel.V, d.ASIC.V, d.OSVersion.V)
		}
		return fmt.Errorf("the switch runs SONiC's %s buffer model (DEVICE_METADATA|localhost|buffer_model) and the render is for the %s model (%s). buffermgrd reads the model only when it starts, so fabricgen never changes it on a running switch: set buffer_model = %q on device %s, or move the switch to the %s model yourself (set DEVICE_METADATA|localhost|buffer_model, then sudo config reload, which restarts buffermgrd)",
			model, d.BufferModel.V, how, model, d.Name, d.BufferModel.V)
	}
	hwsku, platform := meta["hwsku"], meta["platform"]
	if d.HWSKU.Set && hwsku != "" && hwsku != d.HWSKU.V {
		return fmt.Errorf("the switch's hwsku is %q (DEVICE_METADATA|localhost|hwsku) and the intent's %q: the lossless rows fabricgen checked are another SKU's; set hwsku = %q on device %s", hwsku, d.HWSKU.V, hwsku, d.Name)
	}
	if model != "traditional" {
		return nil
	}
	ports := vetLosslessPorts(want, run)
	if len(ports) == 0 {
		return nil
	}
	if !vetNameRe.MatchString(platform) || !vetNameRe.MatchString(hwsku) {
		return fmt.Errorf("the switch's DEVICE_METADATA|localhost platform %q and hwsku %q do not name a SKU directory under %s, so fabricgen cannot read the pg_profile_lookup.ini buffermgrd sizes lossless ports from", platform, hwsku, vetLookupDir)
	}
	path := vetLookupDir + "/" + platform + "/" + hwsku + "/pg_profile_lookup.ini"
	out, status, err := v.Run("cat " + path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if status != 0 {
		return fmt.Errorf("the switch has no %s (cat exited %d: %s): in the traditional buffer model buffermgrd sizes a lossless port from that file, and without it creates no lossless priority group", path, status, firstLine(out))
	}
	rows, err := skus.ParseLookup(out)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	have := map[string]map[string]bool{}
	for _, r := range rows {
		if have[r.Speed] == nil {
			have[r.Speed] = map[string]bool{}
		}
		have[r.Speed][r.Cable] = true
	}
	var bad []string
	for _, p := range ports {
		if have[p.speed][p.cable] {
			continue
		}
		var cables []string
		for c := range have[p.speed] {
			cables = append(cables, c)
		}
		sort.Strings(cables)
		list := "none"
		if len(cables) > 0 {
			list = strings.Join(cables, ", ")
		}
		bad = append(bad, fmt.Sprintf("%s (speed %s, cable %s; the file's cables at that speed: %s)", p.name, p.speed, p.cable, list))
	}
	if len(bad) > 0 {
		return fmt.Errorf("the switch's %s has no row for lossless port(s) %s: buffermgrd would create no lossless priority group (\"No PG profile configured for speed … and cable length …\"), so the class would be lossy there. Set the link's cable_length to a length the file has, or set hwsku = %q on the device so lint checks the SKU's rows offline",
			path, strings.Join(bad, "; "), hwsku)
	}
	return nil
}

// vetPort is one lossless port of a render: its speed (PORT speed, the
// render's or else the switch's) and the CABLE_LENGTH the render gives it.
type vetPort struct{ name, speed, cable string }

// vetLosslessPorts lists the render's lossless ports (PORT_QOS_MAP
// pfc_enable not empty) that it gives a cable length, sorted by name.
func vetLosslessPorts(want, run map[string]map[string]map[string]string) []vetPort {
	var out []vetPort
	for port, f := range want["PORT_QOS_MAP"] {
		if port == "global" || strings.TrimSpace(f["pfc_enable"]) == "" {
			continue
		}
		cable := want["CABLE_LENGTH"]["AZURE"][port]
		if cable == "" {
			continue
		}
		speed := want["PORT"][port]["speed"]
		if speed == "" {
			speed = run["PORT"][port]["speed"]
		}
		out = append(out, vetPort{port, speed, cable})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// parseVetDB reads a CONFIG_DB document keeping its string fields.
func parseVetDB(text, what string) (map[string]map[string]map[string]string, error) {
	var raw map[string]map[string]map[string]any
	if strings.TrimSpace(text) == "" {
		return map[string]map[string]map[string]string{}, nil
	}
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, fmt.Errorf("%s is not CONFIG_DB JSON: %w", what, err)
	}
	out := make(map[string]map[string]map[string]string, len(raw))
	for t, keys := range raw {
		out[t] = make(map[string]map[string]string, len(keys))
		for k, fields := range keys {
			out[t][k] = make(map[string]string, len(fields))
			for f, val := range fields {
				if s, ok := val.(string); ok {
					out[t][k][f] = s
				}
			}
		}
	}
	return out, nil
}

// firstLine is the first line of a command's output, for a message.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
