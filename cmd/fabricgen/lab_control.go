package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fabricgen/fabricgen/internal/lab"
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

expire-timers fires the device's pending confirm timers now, as if nobody
confirmed in time: an EOS commit timer, a Junos commit confirmed or an NVUE
apply --confirm rolls back to the configuration from before it (NX-OS,
SONiC and hosts have none). It prints whether the configuration changed.`,
		Example: `  fabricgen lab fault leaf1 'reject=^qos map'
  fabricgen lab fault nic01 drop-after=2 delay=500ms
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
			"--running-config reads: "+runningConfigForms()+". Save it as "+
			runningConfigFiles("DEVICE")+" to start a later lab from it.", 76),
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
