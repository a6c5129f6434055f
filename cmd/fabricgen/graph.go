package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/internal/graph"
	"github.com/fabricgen/fabricgen/internal/readlimit"
)

func newGraphCommand(s *streams) *cobra.Command {
	var vf varFlags
	var format, out string
	var maxSwitches int
	cmd := &cobra.Command{
		Use:   "graph [DIR]",
		Short: "Draw the fabric's devices by tier and their links (Mermaid, DOT, SVG)",
		Long: `graph loads the fabric in DIR (default: the current directory) and draws its
devices by tier, NICs at the bottom, then leaves, spines, superspines and
cores, with one edge per pair of connected devices (labelled "N links" when
there are several).

Up to --max-switches switches (default 64) every switch is drawn; NICs too,
up to 64 of them; with more, the NICs on the same switches are one node
("NICs on leaf1 ×32"). Above it devices are grouped by role and pod (a
connected set of leaves and spines), so a fabric of thousands of devices is
a picture of a few nodes ("leaf ×2048", with its platforms). A tier of
more than 8 nodes is wrapped into rows of at most 8 in every format, each
row of leaves with its NICs just below it, so 36 switches and 256 NICs are
four bands of 8 leaves and 8 NIC groups (an SVG 1744 px wide).

-format mermaid prints a Mermaid flowchart (GitHub renders it in a
` + "```mermaid" + ` block), dot a Graphviz graph, svg a self-contained SVG laid
out by fabricgen (no Graphviz needed). Output is the same for the same
intent, byte for byte.

Exit status: 0 drawn, 1 the intent is not valid or the output could not be
written.`,
		Example: `  fabricgen graph examples/roce-storage
  fabricgen graph examples/scale -format svg -o scale.svg
  fabricgen graph . -format dot | dot -Tpng > fabric.png`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !validGraphFormat(format) {
				return withCode(exitFailed, fmt.Errorf("-format %q: use one of %s", format, strings.Join(graph.Formats, ", ")))
			}
			f, _, err := loadFabric(cmd, s, fabricDir(args), &vf)
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := graph.Build(f, graph.Options{MaxSwitches: maxSwitches}).Write(&b, format); err != nil {
				return withCode(exitFailed, err)
			}
			if out == "" || out == "-" {
				_, err = cmd.OutOrStdout().Write(b.Bytes())
			} else {
				err = readlimit.WriteFile(out, b.Bytes(), 0o644)
			}
			if err != nil {
				return withCode(exitFailed, fmt.Errorf("write graph: %w", err))
			}
			return nil
		},
	}
	vf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "mermaid", "output format: "+strings.Join(graph.Formats, ", "))
	fl.StringVarP(&out, "output", "o", "", "write to FILE instead of standard output")
	fl.IntVar(&maxSwitches, "max-switches", graph.DefaultMaxSwitches, "draw switches one by one up to this many; group by role and pod above")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return graph.Formats, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func validGraphFormat(f string) bool {
	for _, g := range graph.Formats {
		if f == g {
			return true
		}
	}
	return false
}
