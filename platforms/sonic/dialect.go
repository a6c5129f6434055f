package sonic

import (
	"regexp"

	pushdialect "github.com/fabricgen/fabricgen/internal/push/dialect"
)

// dialect is the push dialect of community SONiC, driven from its Linux
// shell. The running config is CONFIG_DB as `sonic-cfggen -d --print-data`
// prints it; changes are a JSON Patch applied with `sudo config
// apply-patch`. Commands per sonic-utilities doc/Command-Reference.md
// ("Generic Config Updater": apply-patch, checkpoint, rollback,
// delete-checkpoint).
func dialect() *pushdialect.Dialect {
	return &pushdialect.Dialect{
		Platform:           name,
		Driver:             pushdialect.DriverGeneric,
		Prompt:             `(?m)^[\w.\-@:~/\[\]]{1,80}[#$]\s?$`,
		FailedWhenContains: []string{"Error:", "command not found", "Traceback"},
		ShowRunning:        "sonic-cfggen -d --print-data",
		Volatile:           []*regexp.Regexp{},
		Negate:             func(line string) string { return line },
		Transaction:        pushdialect.TxnGCU,
		Lines:              pushdialect.LinesJSONPatch,
		ConfigDB:           true,
		// A port's MTU is 9100 unless configured (sonic-utilities'
		// port_config.ini / platform.json default), and a port without
		// a cable length of its own gets the buffer templates' default
		// of 5m (sonic-buildimage buffers_config.j2, CABLE_LENGTH|AZURE).
		Factory: []pushdialect.FactoryDefault{
			{Key: regexp.MustCompile(`^PORT\|[^|]+\|mtu$`), Value: "9100"},
			{Key: regexp.MustCompile(`^CABLE_LENGTH\|AZURE\|[^|]+$`), Value: "5m"},
		},
		// buffermgrd (traditional model, sonic-swss cfgmgr/buffermgr.cpp
		// doSpeedUpdateTask) writes pg_lossless_<speed>_<cable>_profile and
		// the BUFFER_PG keys naming it into CONFIG_DB whenever a port's
		// speed, cable length or pfc_enable changes.
		Derived: []*regexp.Regexp{
			regexp.MustCompile(`^BUFFER_PROFILE\|pg_lossless_[^|]*_profile\|`),
			regexp.MustCompile(`^BUFFER_PG\|[^|]+\|[0-9-]+\|profile = \[?(BUFFER_PROFILE\|)?pg_lossless_[^|\]]*_profile\]?$`),
		},
		Vet: vet,
	}
}
