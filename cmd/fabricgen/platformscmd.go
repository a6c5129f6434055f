package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

// platformsFormatVersion is the version of `fabricgen platforms -format
// json`; a change that removes or renames a field bumps it.
const platformsFormatVersion = "2"

// platformsFormats are the output formats of fabricgen platforms.
func platformsFormats() []string { return []string{"text", "json"} }

// platformRow is one platform as `fabricgen platforms` shows it.
type platformRow struct {
	// Name is the platform's name in the intent (a device's platform).
	Name string `json:"name"`
	// Kind is "switch", "host" (a host NIC configured by a script) or
	// "managed switch" (an InfiniBand switch the subnet manager
	// configures: nothing is rendered, pushed or read from it).
	Kind string `json:"kind"`
	// LinkLayers are the link layers of the fabrics the platform serves
	// (ethernet, infiniband).
	LinkLayers []string `json:"link_layers"`
	// RenderExt is the extension of the file render writes per device.
	RenderExt string `json:"render_ext"`
	// RunningConfigExt and RunningConfigForm are the file lab up
	// --running-config reads per device and what it holds (lab show
	// prints that form).
	RunningConfigExt  string `json:"running_config_ext"`
	RunningConfigForm string `json:"running_config_form"`
	// Rule is the platform's platform-limit lint rule (PLT001 and on).
	Rule string `json:"rule"`
	// Docs is the vendor documentation the platform's templates follow.
	Docs string `json:"docs"`
}

// platformRows is every platform of the registry, in registry order.
func platformRows(all []platform.Platform) []platformRow {
	out := make([]platformRow, 0, len(all))
	for _, pl := range all {
		out = append(out, platformRow{
			Name: string(pl.Name), Kind: platformKind(pl.Spec), LinkLayers: linkLayers(pl.Spec), RenderExt: pl.Render.Ext,
			RunningConfigExt: pl.RunningConfig.Ext, RunningConfigForm: pl.RunningConfig.Form,
			Rule: lint.PlatformRule(pl.Name), Docs: pl.Render.Docs,
		})
	}
	return out
}

// platformKind is a platform's kind as `fabricgen platforms` shows it.
func platformKind(s schema.PlatformSpec) string {
	switch {
	case s.Managed:
		return "managed switch"
	case s.Host:
		return "host"
	}
	return "switch"
}

// linkLayers are the link layers a platform serves, in a stable order.
func linkLayers(s schema.PlatformSpec) []string {
	var out []string
	for _, ll := range []schema.LinkLayer{schema.LinkEthernet, schema.LinkInfiniBand} {
		if s.SpeaksLinkLayer(ll) {
			out = append(out, string(ll))
		}
	}
	return out
}

// writePlatformsText prints one block per platform.
func writePlatformsText(w io.Writer, rows []platformRow) error {
	var b strings.Builder
	for i, r := range rows {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s (%s, %s)\n", termText(r.Name), r.Kind, strings.Join(r.LinkLayers, " and "))
		if r.RenderExt == "" {
			b.WriteString("  render:          nothing: the subnet manager configures it\n")
			continue
		}
		fmt.Fprintf(&b, "  render:          DEVICE.%s\n", termText(r.RenderExt))
		if r.RunningConfigExt != "" {
			fmt.Fprintf(&b, "  running config:  DEVICE.%s, %s\n", termText(r.RunningConfigExt), termText(r.RunningConfigForm))
		}
		if r.Rule != "" {
			fmt.Fprintf(&b, "  lint rule:       %s\n", r.Rule)
		}
		fmt.Fprintf(&b, "  vendor docs:     %s\n", termText(r.Docs))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write platforms: %w", err)
	}
	return nil
}

// writePlatformsJSON prints {"format_version", "platforms": [...]}.
func writePlatformsJSON(w io.Writer, rows []platformRow) error {
	b, err := json.MarshalIndent(struct {
		FormatVersion string        `json:"format_version"`
		Platforms     []platformRow `json:"platforms"`
	}{platformsFormatVersion, rows}, "", "  ")
	if err != nil {
		return fmt.Errorf("platforms: %w", err)
	}
	if _, err := fmt.Fprintf(w, "%s\n", b); err != nil {
		return fmt.Errorf("write platforms: %w", err)
	}
	return nil
}

func newPlatformsCommand(*streams) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "platforms",
		Short: "List the platforms a device may have, with their files and lint rule",
		Long: `platforms lists every platform a device's platform attribute accepts, in
the order of the registry (platforms/platforms.go), each with:

- whether it is a switch, a host (a NIC configured by a shell script) or a
  managed switch (an InfiniBand switch the subnet manager configures:
  nothing is rendered for it), and the link layers it serves (ethernet,
  infiniband);
- the extension of the file render writes for each device (OUT/DEVICE.EXT);
- the file lab up --running-config reads for a device, and what it holds
  (the form lab show prints);
- its platform-limit lint rule (PLT001 and on: fabricgen explain RULE);
- the vendor documentation its templates follow.

-format text (default) prints one block per platform; -format json prints
{"format_version": "2", "platforms": [{"name", "kind", "link_layers", "render_ext",
"running_config_ext", "running_config_form", "rule", "docs"}]}. The output
is the same for the same build, byte for byte.`,
		Example: `  fabricgen platforms
  fabricgen platforms -format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rows := platformRows(platforms.All())
			switch format {
			case "text":
				if err := writePlatformsText(cmd.OutOrStdout(), rows); err != nil {
					return withCode(exitFailed, err)
				}
			case "json":
				if err := writePlatformsJSON(cmd.OutOrStdout(), rows); err != nil {
					return withCode(exitFailed, err)
				}
			default:
				return withCode(exitFailed, fmt.Errorf("-format %q: use one of %s", format, strings.Join(platformsFormats(), ", ")))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(platformsFormats(), ", "))
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return platformsFormats(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}
