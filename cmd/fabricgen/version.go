package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// releaseVersion is set for releases with
// -ldflags "-X main.releaseVersion=v1.2.3" (scripts/release.sh does); a
// plain build leaves it empty and the version comes from the build info.
var releaseVersion string

// version is the version plan files, SARIF and JSON documents record.
var version = resolveBuild(releaseVersion, debug.ReadBuildInfo).Version

// buildInfo is what `fabricgen version -json` prints.
type buildInfo struct {
	// Version is the release version, else the module version Go
	// stamped from the VCS (a pseudo-version such as
	// v0.0.0-20261201102000-0c4d585abcde+dirty), else "(devel)".
	Version string `json:"fabricgen_version"`
	// Revision, Time and Modified describe the commit the binary was
	// built from; empty when it was built without VCS information
	// (-buildvcs=false, or outside a git checkout).
	Revision string `json:"revision,omitempty"`
	Time     string `json:"revision_time,omitempty"`
	Modified bool   `json:"modified"`
	// GoVersion and Platform are the toolchain and GOOS/GOARCH.
	GoVersion string `json:"go_version"`
	Platform  string `json:"platform"`
}

// develVersion is what a build without release or module version says.
const develVersion = "(devel)"

// resolveBuild combines the release override with the build info.
func resolveBuild(release string, read func() (*debug.BuildInfo, bool)) buildInfo {
	bi := buildInfo{Version: release, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	info, ok := read()
	if ok {
		bi.GoVersion = info.GoVersion
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				bi.Revision = s.Value
			case "vcs.time":
				bi.Time = s.Value
			case "vcs.modified":
				bi.Modified = s.Value == "true"
			}
		}
		if bi.Version == "" && info.Main.Version != "" {
			bi.Version = info.Main.Version
		}
	}
	if bi.Version == "" {
		bi.Version = develVersion
	}
	return bi
}

// text is the human form: the version, then the commit and toolchain.
func (bi buildInfo) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "fabricgen %s\n", bi.Version)
	if bi.Revision != "" {
		fmt.Fprintf(&b, "revision %s", bi.Revision)
		if bi.Time != "" {
			fmt.Fprintf(&b, " (%s)", bi.Time)
		}
		if bi.Modified {
			b.WriteString(", with uncommitted changes")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s %s\n", bi.GoVersion, bi.Platform)
	return b.String()
}

func newVersionCommand(*streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the fabricgen version",
		Long: `version prints the fabricgen version, the commit it was built from and the
Go toolchain. A release build carries its tag (-ldflags
"-X main.releaseVersion=v1.2.3"); "go install ./cmd/fabricgen" in a clone
gets a pseudo-version and the commit from git; a build without VCS
information (-buildvcs=false) says (devel). fabricgen --version prints the
same (-v is no version flag: one shorthand means one flag everywhere).

-json prints {"fabricgen_version", "revision", "revision_time", "modified",
"go_version", "platform"}.`,
		Example: `  fabricgen version
  fabricgen version -json
  fabricgen --version`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bi := resolveBuild(releaseVersion, debug.ReadBuildInfo)
			if !asJSON {
				fmt.Fprint(cmd.OutOrStdout(), bi.text())
				return nil
			}
			b, err := json.MarshalIndent(bi, "", "  ")
			if err != nil {
				return withCode(exitFailed, fmt.Errorf("version: %w", err))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s\n", b)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version as JSON")
	return cmd
}
