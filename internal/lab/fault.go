package lab

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/dataplane"
)

// Fault is what a device does wrong on purpose, for tests. The zero Fault
// does nothing.
type Fault struct {
	// DropAfter, when positive, drops the SSH connection right after the
	// device has applied its DropAfter-th configuration command (counted
	// from SetFault, across connections), before it answers. It fires
	// once; the device keeps whatever that platform keeps on a disconnect.
	DropAfter int
	// Reject is a regular expression; a command line matching it (the
	// whole line, as typed) that would change the device is refused with
	// the platform's error and not applied. Lines that only read (show
	// commands, read-backs) and navigation are never refused: which lines
	// change the device is each emulator's decision (see docs/lab.md).
	Reject string
	// Delay is added before every response; changing the fault ends a
	// delay in progress.
	Delay time.Duration
	// Stream is a regular expression; a command line matching it (the
	// whole line, as typed; show commands too) gets output that never
	// ends, with no prompt after it: StreamLine again and again until the
	// client disconnects or the fault changes.
	Stream string
	// Data are data-plane faults (dataplane.Kinds: a dirty optic, a pause
	// storm, a DSCP rewrite, …): they change the counters, optics and
	// queue pairs the device reports, not its configuration, so they
	// survive apply.
	Data []dataplane.Fault
}

// Validate reports whether the fault is usable: DropAfter and Delay must
// not be negative and Reject must compile.
func (f Fault) Validate() error {
	if f.DropAfter < 0 {
		return fmt.Errorf("fault: DropAfter %d is negative: use 0 to disable", f.DropAfter)
	}
	if f.Delay < 0 {
		return fmt.Errorf("fault: Delay %s is negative: use 0 to disable", f.Delay)
	}
	if f.Reject != "" {
		if _, err := regexp.Compile(f.Reject); err != nil {
			return fmt.Errorf("fault: Reject %q is not a regular expression: %w", f.Reject, err)
		}
	}
	if f.Stream != "" {
		if _, err := regexp.Compile(f.Stream); err != nil {
			return fmt.Errorf("fault: Stream %q is not a regular expression: %w", f.Stream, err)
		}
	}
	return nil
}

// StreamLine is what a device under the stream fault writes, again and
// again: a line no platform's prompt pattern or failure string matches.
const StreamLine = "   description stream fault: this output never ends\n"

// compileReject compiles the Reject pattern; a pattern that is not a valid
// regular expression matches its literal text instead.
func compileReject(s string) *regexp.Regexp {
	if s == "" {
		return nil
	}
	if re, err := regexp.Compile(s); err == nil {
		return re
	}
	return regexp.MustCompile(regexp.QuoteMeta(s))
}

// FaultForms names the fault settings ParseFault, Fault.Set and `fabricgen
// lab up --fault` / `lab fault` take.
const FaultForms = "drop-after=N (N >= 0 configuration commands), reject=REGEXP (Go syntax; empty clears it), stream=REGEXP (endless output for a matching command line; empty clears it), delay=DURATION (e.g. 500ms, 2s; at most 1h), or a data-plane fault"

// DataFaultForms names the data-plane faults (dataplane.Forms).
var DataFaultForms = dataplane.Forms()

// maxFaultDelay bounds Delay from a setting.
const maxFaultDelay = time.Hour

// Set applies one KEY=VALUE setting (the value is what follows the first
// '='): drop-after=N, reject=REGEXP, stream=REGEXP or delay=DURATION. Setting drop-after
// counts from the moment the fault is installed.
func (f *Fault) Set(setting string) error {
	if dataplane.IsKind(setting) {
		df, err := dataplane.Parse(setting)
		if err != nil {
			return err
		}
		// The same kind on the same port (or the same valueless kind)
		// replaces the earlier one; remark and congest take one value.
		kept := f.Data[:0:0]
		for _, o := range f.Data {
			same := o.Kind == df.Kind && (o.Value == df.Value || df.Kind == dataplane.Remark || df.Kind == dataplane.Congest || df.Kind == dataplane.QPError)
			if !same {
				kept = append(kept, o)
			}
		}
		f.Data = append(kept, df)
		return nil
	}
	key, val, ok := strings.Cut(setting, "=")
	if !ok {
		return fmt.Errorf("%q has no '=': use KEY=VALUE with %s (%s)", setting, FaultForms, DataFaultForms)
	}
	switch key {
	case "drop-after":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return fmt.Errorf("%q: drop-after takes a whole number of configuration commands, 0 or more (0 turns it off)", setting)
		}
		f.DropAfter = n
	case "reject":
		if _, err := regexp.Compile(val); err != nil {
			return fmt.Errorf("%q: reject takes a regular expression (Go syntax): %w", setting, err)
		}
		f.Reject = val
	case "stream":
		if _, err := regexp.Compile(val); err != nil {
			return fmt.Errorf("%q: stream takes a regular expression (Go syntax): %w", setting, err)
		}
		f.Stream = val
	case "delay":
		d, err := time.ParseDuration(val)
		if err != nil || d < 0 || d > maxFaultDelay {
			return fmt.Errorf("%q: delay takes a duration from 0 to 1h, such as 500ms or 2s", setting)
		}
		f.Delay = d
	default:
		return fmt.Errorf("%q: unknown key %q: use %s (%s)", setting, key, FaultForms, DataFaultForms)
	}
	return nil
}

// ParseFault reads a DEVICE:KEY=VALUE (or DEVICE:KIND[=VALUE] for a
// data-plane fault) flag value: the device is what precedes the first
// ':', the setting what follows it.
func ParseFault(flag string) (device, setting string, err error) {
	device, setting, ok := strings.Cut(flag, ":")
	if !ok || device == "" || setting == "" {
		return "", "", fmt.Errorf("fault %q: use DEVICE:KEY=VALUE with %s", flag, FaultForms)
	}
	var f Fault
	if err := f.Set(setting); err != nil {
		return "", "", fmt.Errorf("fault %q: %w", flag, err)
	}
	return device, setting, nil
}

// String prints the fault as its settings ("drop-after=3 delay=2s"), or
// "none".
func (f Fault) String() string {
	var parts []string
	if f.DropAfter > 0 {
		parts = append(parts, "drop-after="+strconv.Itoa(f.DropAfter))
	}
	if f.Reject != "" {
		parts = append(parts, "reject="+f.Reject)
	}
	if f.Stream != "" {
		parts = append(parts, "stream="+f.Stream)
	}
	if f.Delay > 0 {
		parts = append(parts, "delay="+f.Delay.String())
	}
	for _, d := range f.Data {
		parts = append(parts, d.String())
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}
