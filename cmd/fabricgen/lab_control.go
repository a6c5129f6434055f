package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/readlimit"
)

// controlTimeout bounds one exchange with a running lab.
const controlTimeout = 30 * time.Second

// labRequest sends one request to the lab serving dir.
func labRequest(ctx context.Context, dir string, req lab.ControlRequest) (lab.ControlReply, error) {
	ctx, cancel := context.WithTimeout(ctx, controlTimeout)
	defer cancel()
	c, err := lab.DialControl(ctx, filepath.Join(dir, lab.ControlSocket))
	if err != nil {
		return lab.ControlReply{}, err
	}
	defer func() { _ = c.Close() }()
	rep, err := c.Do(ctx, req)
	if err != nil {
		return rep, fmt.Errorf("the lab in %s: %w", dir, err)
	}
	return rep, nil
}

func newLabFaultCommand(s *streams) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "fault [--dir D] DEVICE KEY=VALUE...|clear|expire-timers",
		Short: "Change the faults of a device of a running lab",
		Long: `lab fault changes a device's faults in a lab that fabricgen lab up serves
(in another terminal or process), through the control socket in --dir.
Settings add to the device's current faults: drop-after=N drops the
connection after N more configuration commands, reject=REGEXP refuses
matching commands that would change the device (reject= removes it),
delay=DURATION slows every answer (delay=0 removes it). clear removes every
fault; an answer being delayed goes out at once. It prints the device's
faults afterwards.

Data-plane faults change what the device's counters, optics and queue pairs
show (fabricgen check reads them), not its configuration, so they survive
apply: ` + lab.DataFaultForms + `. See docs/check.md.

expire-timers fires the device's pending confirm timers now, as if nobody
confirmed in time: an EOS commit timer, a Junos commit confirmed or an NVUE
apply --confirm rolls back to the configuration from before it (NX-OS,
SONiC and hosts have none). It prints whether the configuration changed.`,
		Example: `  fabricgen lab fault leaf1 'reject=^qos map'
  fabricgen lab fault nic01 drop-after=2 delay=500ms
  fabricgen lab fault leaf1 dirty-optic=Ethernet1/1
  fabricgen lab fault spine2 congest=marks && fabricgen lab fault nic17 np-off
  fabricgen lab fault --dir /tmp/lab leaf1 clear
  fabricgen lab fault spine1 expire-timers`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			device, settings := args[0], args[1:]
			req := lab.ControlRequest{Op: "fault", Device: device}
			switch {
			case len(settings) == 1 && settings[0] == "clear":
				req.Clear = true
			case len(settings) == 1 && settings[0] == "expire-timers":
				req.Op = "expire-timers"
			default:
				for _, kv := range settings {
					var f lab.Fault
					if kv == "clear" || kv == "expire-timers" {
						return withCode(exitFailed, fmt.Errorf("%s goes alone: fabricgen lab fault %s %s, then add settings", kv, device, kv))
					}
					if err := f.Set(kv); err != nil {
						return withCode(exitFailed, err)
					}
				}
				req.Set = settings
			}
			rep, err := labRequest(cmd.Context(), dir, req)
			if err != nil {
				return withCode(exitFailed, err)
			}
			if req.Op == "expire-timers" {
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %s\n", device, rep.Output)
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %s\n", device, rep.Fault)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", defaultLabDir(), "the directory of the running lab (lab up --dir)")
	return cmd
}

func newLabShowCommand(s *streams) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "show [--dir D] DEVICE",
		Short: "Print a device's configuration in a running lab",
		Long: wrapHelp("lab show prints the configuration of a device of a lab that fabricgen lab up "+
			"serves, through the control socket in --dir, in the form lab up "+
			"--running-config reads. Save it as DEVICE.EXT to start a later lab from it; "+
			"fabricgen platforms lists each platform's form and EXT.", 76),
		Example: `  fabricgen lab show leaf1
  fabricgen lab show --dir /tmp/lab leaf3 > saved/leaf3.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rep, err := labRequest(cmd.Context(), dir, lab.ControlRequest{Op: "show", Device: args[0]})
			if err != nil {
				return withCode(exitFailed, err)
			}
			out := rep.Output
			if out != "" && !strings.HasSuffix(out, "\n") {
				out += "\n"
			}
			fmt.Fprint(cmd.OutOrStdout(), out)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", defaultLabDir(), "the directory of the running lab (lab up --dir)")
	return cmd
}

func newLabClockCommand(s *streams) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "clock [--dir D] [advance DURATION]",
		Short: "Read or advance the clock of a running lab's data plane",
		Long: `lab clock prints the clock of a lab that fabricgen lab up serves, through the
control socket in --dir; lab clock advance DURATION moves it forward first.

The lab's counters (bytes, errors, pauses, ECN marks, CNPs, retransmits) are
functions of this clock. It runs on real time (lab up --clock real, the
default), and moves further at once when advanced: by this command, or by
fabricgen check --lab-dir (which advances it by --interval between its two
readings instead of waiting). A lab started with --clock manual moves only
when advanced, as tests and fabricgen demo want. Data-plane faults (lab
fault DEVICE dirty-optic=PORT, …) show in the counters once the clock moves.`,
		Example: `  fabricgen lab clock
  fabricgen lab clock advance 10s
  fabricgen lab clock --dir /tmp/lab advance 1m`,
		Args: cobra.RangeArgs(0, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			req := lab.ControlRequest{Op: "clock"}
			switch {
			case len(args) == 0:
			case len(args) == 2 && args[0] == "advance":
				d, err := time.ParseDuration(args[1])
				if err != nil || d <= 0 {
					return withCode(exitFailed, fmt.Errorf("advance %q: give a positive duration such as 10s", args[1]))
				}
				req.Advance = d.String()
			default:
				return withCode(exitFailed, fmt.Errorf("use fabricgen lab clock, or fabricgen lab clock advance DURATION"))
			}
			rep, err := labRequest(cmd.Context(), dir, req)
			if err != nil {
				return withCode(exitFailed, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "lab clock: %s (%s)\n", rep.Clock, rep.ClockTime)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", defaultLabDir(), "the directory of the running lab (lab up --dir)")
	return cmd
}

func newLabConfigureCommand(s *streams) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "configure [--dir D] DEVICE [FILE]",
		Short: "Change a device of a running lab by hand, as another administrator would",
		Long: `lab configure changes the configuration of a device of a lab that fabricgen
lab up serves, through the control socket in --dir, as someone at the
device's console would: the lines of FILE (standard input without it or
with -) in the platform's configuration syntax (config-mode lines indented
for sub-modes on EOS and NX-OS, set statements on Junos, nv set/unset
commands on Cumulus, a JSON Patch document on SONiC, shell commands on
hosts). The change is not fabricgen's: plan and drift show it, and the lab's
data plane sends traffic through it, so fabricgen check sees its effect.`,
		Example: `  printf 'interface Ethernet1/1\n   no qos trust\n' | fabricgen lab configure core1
  fabricgen lab configure --dir /tmp/lab leaf1 edit.txt`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			src := s.in
			if len(args) == 2 && args[1] != "-" {
				f, err := readlimit.Open(args[1])
				if err != nil {
					return withCode(exitFailed, err)
				}
				defer func() { _ = f.Close() }()
				src = f
			}
			b, err := io.ReadAll(io.LimitReader(src, lab.MaxRunningConfig+1))
			if err != nil {
				return withCode(exitFailed, err)
			}
			if len(b) > lab.MaxRunningConfig {
				return withCode(exitFailed, fmt.Errorf("more than %d bytes of configuration", lab.MaxRunningConfig))
			}
			var lines []string
			for _, l := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n") {
				if strings.TrimSpace(l) != "" {
					lines = append(lines, l)
				}
			}
			if len(lines) == 0 {
				return withCode(exitFailed, fmt.Errorf("no configuration lines to apply"))
			}
			rep, err := labRequest(cmd.Context(), dir, lab.ControlRequest{Op: "configure", Device: args[0], Lines: lines})
			if err != nil {
				return withCode(exitFailed, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %s\n", args[0], rep.Output)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", defaultLabDir(), "the directory of the running lab (lab up --dir)")
	return cmd
}
