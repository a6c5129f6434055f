package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/nestlimit"
	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/internal/units"
	"github.com/fabricgen/fabricgen/schema"
)

// loadRunningConfigs reads CFGDIR/<device>.cfg|.json|.sh into the specs
// of the devices that have one (the lab starts them from it) and returns
// which file each came from. Every file must name a device of the fabric
// with the extension of its platform; subdirectories and hidden files are
// skipped. A device the lab does not run (--device) ignores its file.
func loadRunningConfigs(ctx context.Context, dir string, fabric []*schema.Device, specs []lab.DeviceSpec) (map[string]string, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("--running-config %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("--running-config %s is not a directory: give the directory that holds %s files", dir, runningConfigExts("<device>", ", "))
	}
	entries, err := readlimit.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("--running-config %s: %w", dir, err)
	}
	platform := map[string]schema.Platform{}
	var names []string
	for _, d := range fabric {
		platform[d.Name] = d.Platform.V
		names = append(names, d.Name)
	}
	sort.Strings(names)
	index := map[string]int{}
	for i, sp := range specs {
		index[sp.Name] = i
	}
	sources := map[string]string{}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("--running-config %s: %w", dir, err)
		}
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		file := filepath.Join(dir, e.Name())
		ext := filepath.Ext(e.Name())
		name := strings.TrimSuffix(e.Name(), ext)
		p, ok := platform[name]
		if !ok {
			return nil, fmt.Errorf("--running-config: %s names no device of the fabric (devices: %s): name each file %s",
				file, strings.Join(names, ", "), runningConfigFiles("<device>"))
		}
		if want := lab.RunningConfigFile(name, p); e.Name() != want {
			return nil, fmt.Errorf("--running-config: %s: device %s is %s, whose running config is %s", file, name, p, want)
		}
		i, run := index[name]
		if !run {
			continue
		}
		text, err := readBounded(file, lab.MaxRunningConfig)
		if err != nil {
			return nil, fmt.Errorf("--running-config: %w", err)
		}
		// A SONiC config_db.json is JSON: its nesting is bounded before
		// the lab decodes it, so a deep one is refused at its line.
		if ext == ".json" {
			if err := nestlimit.JSON([]byte(text), file); err != nil {
				return nil, fmt.Errorf("--running-config: %w", err)
			}
		}
		sp := specs[i]
		sp.RunningConfig = text
		if err := lab.CheckRunningConfig(sp); err != nil {
			return nil, fmt.Errorf("--running-config: %s: %w", file, err)
		}
		specs[i].RunningConfig = text
		sources[name] = file
	}
	return sources, nil
}

// readBounded reads a regular file of at most limit bytes (readlimit
// refuses anything else).
func readBounded(path string, limit int) (string, error) {
	b, err := readlimit.File(path, int64(limit))
	if errors.Is(err, readlimit.ErrTooLarge) {
		return "", fmt.Errorf("%w: the lab reads at most %s of configuration per device", err, units.Size(int64(limit)))
	}
	return string(b), err
}
