package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"

	"github.com/fabricgen/fabricgen/diag"
	"github.com/fabricgen/fabricgen/lint"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
	"github.com/fabricgen/fabricgen/templates"
	"github.com/fabricgen/fabricgen/templates/view"
	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"
)

// renderFlags are the render command's options.
type renderFlags struct {
	vf        varFlags
	out       string
	devices   []string
	templates string
	force     bool
}

func newRenderCommand(s *streams) *cobra.Command {
	var rf renderFlags
	cmd := &cobra.Command{
		Use:   "render [DIR] -o OUT",
		Short: "Write each device's configuration from the intent",
		Long: wrapHelp("render loads the fabric in DIR (default: the current directory), runs the "+
			"lint rules, and writes one configuration file per device to OUT as "+
			"OUT/DEVICE.EXT, with EXT by platform (fabricgen platforms lists each platform's). "+
			"docs/templates.md describes each platform's output; host scripts are bash, "+
			"safe to run twice, and executable.", 76) + `

render refuses to write anything when lint reports errors, and lists them;
--force renders anyway. A value a device's platform cannot express stops
that device with an error naming the device, the value and the platform;
the other devices are still written.

Files are never seen half-written: each is written whole in a staging
folder first. A missing or empty OUT gets every file at once (a run that
fails or is interrupted leaves it as it was); in an OUT holding files each
file is replaced as it is written, and files render does not write are
kept.

--templates DIR lays the files DIR/PLATFORM/*.tmpl over the platform's
embedded templates, each replacing the embedded template of its name:
device.tmpl (the entry) or a sub-template such as interface.tmpl, so one
stanza can change alone; docs/templates.md lists the sub-templates and
documents the data the templates receive.

Exit status: 0 every selected device rendered; 1 lint errors (without
--force), a device could not be rendered, or the command failed.`,
		Example: `  fabricgen render examples/ai-training-2subnet -o out/
  fabricgen render . -o out --device 'leaf*' --device spine1
  fabricgen render examples/scale -o /tmp/scale -var leaves=16
  fabricgen render . -o out --templates my-templates --force`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRender(cmd, s, fabricDir(args), &rf)
		},
	}
	rf.vf.register(cmd)
	cmd.Flags().StringVarP(&rf.out, "output", "o", "", "directory to write OUT/DEVICE.EXT into (created if missing)")
	cmd.Flags().StringArrayVar(&rf.devices, "device", nil, "render only devices whose name matches this glob (repeatable)")
	cmd.Flags().StringVar(&rf.templates, "templates", "", "folder of per-platform template overrides (DIR/PLATFORM/*.tmpl; every folder must be a platform, no symlink may lead out of DIR; see docs/templates.md)")
	cmd.Flags().BoolVar(&rf.force, "force", false, "render even when lint reports errors")
	return cmd
}

func runRender(cmd *cobra.Command, s *streams, dir string, rf *renderFlags) error {
	if rf.out == "" {
		return withCode(exitFailed, errors.New("no output folder: pass -o OUT"))
	}
	for _, g := range rf.devices {
		if _, err := path.Match(g, ""); err != nil {
			return withCode(exitFailed, fmt.Errorf("--device %q is not a valid glob: %w", g, err))
		}
	}
	// A fabric of 65,536 NICs holds about half a GiB once loaded, and
	// render allocates four times that. The collector's default pace
	// (GOGC=100) marks that half GiB again every time the heap doubles,
	// from the first device on; a soft limit with a lazier pace collects
	// about a third as often and keeps the whole process within 1 GiB
	// (examples/scale on tmpfs: 5.8-7.4 user CPU-s and at most 873 MiB,
	// against 8.0 and 888 MiB with the default pace and a 768 MiB limit
	// set after lint). GOMEMLIMIT and GOGC override either.
	if s.getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(renderMemoryLimit))
	}
	if s.getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(renderGCPercent))
	}
	r, err := templates.NewRenderer(templates.Options{Dir: rf.templates})
	if err != nil {
		return withCode(exitFailed, fmt.Errorf("--templates: %w", err))
	}
	f, _, err := loadFabric(cmd, s, dir, &rf.vf)
	if err != nil {
		return err
	}
	devices, err := selectDevices(f, rf.devices)
	if err != nil {
		return withCode(exitFailed, err)
	}
	if err := lintGate(cmd, f, dir, devices, rf.force); err != nil {
		return err
	}
	devices, managed := splitManaged(devices)
	rounded := make([][]view.Rounding, len(devices))
	written, rerr, err := writeRendersNoted(cmd.Context(), r, f, devices, rf.out, rounded)
	if err != nil {
		return withCode(exitFailed, err)
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "Rendered %d of %d device(s) of fabric %q to %s (intent digest %s).\n", written, len(devices), f.Name, rf.out, shortDigest(f.Digest))
	if len(managed) > 0 {
		fmt.Fprintf(w, "%d switch(es) (%s) have no file of their own: the subnet manager configures them from its files.\n", len(managed), deviceList(managed, 4))
	}
	writeRoundingNotes(cmd.ErrOrStderr(), rounded)
	if rerr != nil {
		failed := len(devices) - written
		ew := cmd.ErrOrStderr()
		fmt.Fprintf(ew, "%d device(s) could not be rendered:\n", failed)
		if err := writeRenderErrors(ew, f, rerr, s.colour(s.errTTY)); err != nil {
			return withCode(exitFailed, err)
		}
		return withCode(exitFailed, fmt.Errorf("%d device(s) could not be rendered; change the intent for them or their platform", failed))
	}
	return nil
}

// writeRenderErrors prints render failures as lint prints findings: the
// values a platform cannot express through diag's text renderer (line,
// snippet, fix), grouped by cause with the number of devices; any other
// failure (an override template that does not execute) as its message.
func writeRenderErrors(w io.Writer, f *schema.Fabric, rerr error, colour bool) error {
	var refusals []*templates.UnsupportedError
	var other []string
	for _, err := range unjoin(rerr) {
		if ues := templates.AllUnsupported(err); ues != nil {
			refusals = append(refusals, ues...)
		} else {
			other = append(other, err.Error())
		}
	}
	if err := diag.WriteText(w, lint.Diagnostics(lint.RefusalFindings(f, refusals)), f.Files, colour); err != nil {
		return fmt.Errorf("writing render errors: %w", err)
	}
	for _, o := range other {
		if _, err := fmt.Fprintf(w, "%s\n", indent(o)); err != nil {
			return fmt.Errorf("writing render errors: %w", err)
		}
	}
	return nil
}

// unjoin returns the errors an errors.Join holds (one per device), or err
// alone.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func shortDigest(d string) string {
	if len(d) > 12 {
		return d[:12]
	}
	return d
}

// splitManaged splits devices into those render writes files for and the
// managed switches (an InfiniBand fabric's, configured by the subnet
// manager), keeping the order of each.
func splitManaged(devices []*schema.Device) (rendered, managed []*schema.Device) {
	for _, d := range devices {
		if pl, ok := platforms.Get(d.Platform.V); ok && pl.Spec.Managed {
			managed = append(managed, d)
			continue
		}
		rendered = append(rendered, d)
	}
	return rendered, managed
}

// deviceList names up to n devices, then how many more.
func deviceList(devices []*schema.Device, n int) string {
	var names []string
	for i, d := range devices {
		if i == n {
			names = append(names, fmt.Sprintf("and %d more", len(devices)-n))
			break
		}
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}

// selectDevices returns the devices matching any of the globs (all devices
// when there are none), in fabric order. A glob that matches nothing is an error.
func selectDevices(f *schema.Fabric, globs []string) ([]*schema.Device, error) {
	if len(globs) == 0 {
		return f.Devices, nil
	}
	hit := make([]bool, len(globs))
	var out []*schema.Device
	for _, d := range f.Devices {
		match := false
		for i, g := range globs {
			if ok, _ := path.Match(g, d.Name); ok {
				hit[i], match = true, true
			}
		}
		if match {
			out = append(out, d)
		}
	}
	for i, g := range globs {
		if !hit[i] {
			return nil, fmt.Errorf("--device %q matches no device of fabric %q", g, f.Name)
		}
	}
	return out, nil
}

// gateConfig reads the .fabricgen.hcl of dir (or a parent; nil when there
// is none) for the lint gate of render, plan and apply. An invalid one is
// written to ew as lint writes it (file:line:column, snippet) and refused
// with exit 1: a gate must not run with a configuration it could not read.
func gateConfig(ctx context.Context, dir string, ew io.Writer, colour bool) (*lint.Config, error) {
	path, err := lint.FindConfig(ctx, dir)
	if err != nil {
		return nil, withCode(exitFailed, err)
	}
	if path == "" {
		return nil, nil
	}
	cfg, err := lint.LoadConfig(ctx, path)
	var cerr *lint.ConfigError
	if errors.As(err, &cerr) {
		if werr := diag.WriteText(ew, cerr.Diagnostics, map[string][]byte{cerr.Path: cerr.Source}, colour); werr != nil {
			return nil, withCode(exitFailed, werr)
		}
		return nil, withCode(exitFailed, fmt.Errorf("%s is not a valid lint configuration (listed above)", cerr.Path))
	}
	if err != nil {
		return nil, withCode(exitFailed, err)
	}
	return cfg, nil
}

// lintGate runs lint and refuses (exit 1) when it reports errors on the
// selected devices or the fabric as a whole, unless force is set.
func lintGate(cmd *cobra.Command, f *schema.Fabric, dir string, devices []*schema.Device, force bool) error {
	cfg, err := gateConfig(cmd.Context(), dir, cmd.ErrOrStderr(), false)
	if err != nil {
		return err
	}
	findings, err := lint.Run(cmd.Context(), f, lint.Options{Config: cfg})
	if err != nil {
		return withCode(exitFailed, err)
	}
	selected := make(map[string]bool, len(devices))
	for _, d := range devices {
		selected[d.Name] = true
	}
	var errs []lint.Finding
	for _, fd := range findings {
		if fd.Severity == schema.SevError && (fd.Device == "" || selected[fd.Device]) {
			errs = append(errs, fd)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	ew := cmd.ErrOrStderr()
	if err := diag.WriteText(ew, lint.Diagnostics(errs), f.Files, false); err != nil {
		return withCode(exitFailed, err)
	}
	if force {
		fmt.Fprintf(ew, "Rendering anyway (--force) despite %d lint error(s).\n", len(errs))
		return nil
	}
	return withCode(exitFailed, fmt.Errorf("lint reported %d error(s) (listed above); fix them, or pass --force to render anyway", len(errs)))
}

// renderMemoryLimit is the soft memory limit render sets for itself
// (runtime/debug.SetMemoryLimit), so that the whole process stays within
// 1 GiB on examples/scale.
const renderMemoryLimit = 850 << 20

// renderGCPercent is the collector's pace during render
// (runtime/debug.SetGCPercent): the heap may grow to five times what is
// live before a collection, renderMemoryLimit permitting.
const renderGCPercent = 400

// renderQueue bounds the rendered files waiting for a writer, and so the
// renders held in memory at once.
const renderQueue = 64

// writeRenders renders devices and writes each one's file into dir as soon
// as it is rendered, so that only a few renders are held at a time. It
// returns the number of files written, the devices' render failures joined
// in device order, and a write failure, which stops the remaining work
// and leaves dir as it was when dir was missing or empty (renderOutput).
// Each file's bytes are those of its render, whatever the order the files
// are written in. There are as many writers as CPUs: a write is kernel CPU
// work on the page cache, and creations in one folder take its lock, so
// more writers only contend.
func writeRenders(ctx context.Context, r *templates.Renderer, f *schema.Fabric, devices []*schema.Device, dir string) (n int, renderErr, err error) {
	return writeRendersNoted(ctx, r, f, devices, dir, nil)
}

// writeRendersNoted is writeRenders keeping, in rounded[i] (when rounded
// is not nil), the values device i's render rounds to what its platform
// takes.
func writeRendersNoted(ctx context.Context, r *templates.Renderer, f *schema.Fabric, devices []*schema.Device, dir string, rounded [][]view.Rounding) (n int, renderErr, err error) {
	out, err := openRenderOutput(dir)
	if err != nil {
		return 0, nil, err
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, out.abort())
			n = 0
		}
	}()
	g, ctx := errgroup.WithContext(ctx)
	queue := make(chan *templates.Output, renderQueue)
	var written atomic.Int64
	for range runtime.GOMAXPROCS(0) {
		g.Go(func() error {
			for o := range queue {
				if err := ctx.Err(); err != nil {
					return fmt.Errorf("writing %s: %w", o.Filename, err)
				}
				if err := out.write(o.Filename, o.Text); err != nil {
					return err
				}
				for _, x := range o.Extra {
					if err := out.write(x.Name, x.Text); err != nil {
						return err
					}
				}
				written.Add(1) // a device, however many files it has
				o.Release()
			}
			return nil
		})
	}
	errs := make([]error, len(devices))
	g.Go(func() error {
		defer close(queue)
		return r.RenderEach(ctx, f, devices, func(i int, o *templates.Output, err error) error {
			if err != nil {
				errs[i] = err
				return nil
			}
			if rounded != nil {
				rounded[i] = o.Rounded
			}
			select {
			case queue <- o:
				return nil
			case <-ctx.Done():
				return fmt.Errorf("rendering stopped: %w", context.Cause(ctx))
			}
		})
	})
	if err := g.Wait(); err != nil {
		return 0, nil, err
	}
	if err := out.commit(); err != nil {
		return 0, nil, err
	}
	return int(written.Load()), errors.Join(errs...), nil
}

// writeRoundingNotes prints one note per intent value a render wrote
// rounded to what its platform takes, at the value's file:line:col, in
// device order; the ports one value rounds alike (a for_each link) share
// the note: "note: f.fab.hcl:12:18: leaf1:Ethernet0 and 2 more:
// cable_length 3m is rendered as 5m: ...".
func writeRoundingNotes(w io.Writer, rounded [][]view.Rounding) {
	type key struct {
		src, what, from, to, why string
	}
	var order []key
	places := map[key][]string{}
	first := map[key]view.Rounding{}
	for _, rs := range rounded {
		for _, r := range rs {
			k := key{r.Src.String(), r.What, r.From, r.To, r.Why}
			if _, ok := places[k]; !ok {
				order = append(order, k)
				first[k] = r
			}
			place := r.Device
			if r.Port != "" {
				place += ":" + r.Port
			}
			places[k] = append(places[k], place)
		}
	}
	for _, k := range order {
		r, ps := first[k], places[k]
		at := ""
		if !r.Src.IsZero() {
			at = r.Src.String() + ": "
		}
		where := ps[0]
		if len(ps) > 1 {
			where += fmt.Sprintf(" and %d more", len(ps)-1)
		}
		fmt.Fprintf(w, "note: %s%s: %s %s is rendered as %s: %s\n", termLine(at), termLine(where), termLine(r.What), termLine(r.From), termLine(r.To), termLine(r.Why))
	}
}
