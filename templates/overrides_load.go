package templates

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/schema"
)

// overridesFolder is an opened --templates folder: DIR/<platform>/*.tmpl.
//
// Its rules (docs/templates.md):
//   - every folder in it is named after a platform: a misnamed one
//     (bogus_os/) is an error naming it, the valid names and, when one is
//     close, the one meant; hidden entries (.git) and files other than
//     *.tmpl (a README) are left alone, a *.tmpl beside the platform
//     folders is an error;
//   - a symlink in it (a platform folder or a template) is followed only
//     when it resolves inside the folder: a template that is a symlink to
//     /etc/shadow would print that file into a device config. Symlinks
//     that stay inside let platforms share a template. Files are read
//     through an os.Root, so a symlink swapped after the check cannot
//     lead out either;
//   - every template is a regular file of at most MaxTemplateFile bytes
//     (a named pipe, a device or a socket is refused, see readlimit).
type overridesFolder struct {
	path string
	// real is path with its symlinks resolved: where "inside" is.
	real string
	root *os.Root
	// folders holds the platforms that have a folder.
	folders map[schema.Platform]bool
}

// openOverrides opens and checks the --templates folder dir.
func openOverrides(dir string) (*overridesFolder, error) {
	ents, err := readlimit.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("--templates %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("--templates %s: %w", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("--templates %s: %w", dir, err)
	}
	o := &overridesFolder{path: dir, real: real, root: root, folders: map[schema.Platform]bool{}}
	known := map[schema.Platform]bool{}
	var names []string
	for _, p := range renderedNames() {
		known[p] = true
		names = append(names, string(p))
	}
	sort.Strings(names)
	var errs []error
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue // .git, editor files
		}
		if err := o.checkLink(name); err != nil {
			errs = append(errs, err)
			continue
		}
		st, err := root.Stat(name)
		if err != nil {
			errs = append(errs, fmt.Errorf("--templates %s: %w", dir, err))
			continue
		}
		switch {
		case st.IsDir() && known[schema.Platform(name)]:
			o.folders[schema.Platform(name)] = true
		case st.IsDir():
			errs = append(errs, fmt.Errorf("template folder %s is not named after a platform, so its templates would never be used.%s Rename it to one of: %s",
				filepath.Join(dir, name), schema.Suggest(name, names), strings.Join(names, ", ")))
		case strings.HasSuffix(name, ".tmpl"):
			errs = append(errs, fmt.Errorf("template %s is not in a platform folder, so it would never be used: move it to %s",
				filepath.Join(dir, name), filepath.Join(dir, "<platform>", name)))
		}
	}
	if len(errs) > 0 {
		_ = root.Close()
		return nil, errors.Join(errs...)
	}
	return o, nil
}

// close releases the folder.
func (o *overridesFolder) close() { _ = o.root.Close() }

// checkLink refuses rel (a path inside the folder) when it is a symlink
// that resolves outside the folder, or to nothing.
func (o *overridesFolder) checkLink(rel string) error {
	full := filepath.Join(o.path, rel)
	st, err := os.Lstat(full)
	if err != nil || st.Mode()&os.ModeSymlink == 0 {
		return nil // not a symlink; a missing file is reported where it is read
	}
	target, err := filepath.EvalSymlinks(full)
	if err != nil {
		return fmt.Errorf("template override %s is a symlink that leads nowhere (%w): replace it with the file", full, err)
	}
	if r, err := filepath.Rel(o.real, target); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return fmt.Errorf("template override %s is a symlink to %s, outside the --templates folder %s: fabricgen follows symlinks there only when they stay inside it (a template linked to a file such as /etc/shadow would print it into a device config). Copy the file into the folder instead",
			full, target, o.path)
	}
	return nil
}

// platformFiles lists the *.tmpl files of platform p's folder, as paths
// relative to the folder's root, sorted.
func (o *overridesFolder) platformFiles(p schema.Platform) ([]string, error) {
	ents, err := readlimit.ReadDir(filepath.Join(o.path, string(p)))
	if err != nil {
		return nil, fmt.Errorf("listing templates: %w", err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmpl") {
			out = append(out, string(p)+"/"+e.Name())
		}
	}
	return out, nil
}

// read reads one template (a path from platformFiles).
func (o *overridesFolder) read(rel string) ([]byte, error) {
	if err := o.checkLink(filepath.FromSlash(rel)); err != nil {
		return nil, err
	}
	full := filepath.Join(o.path, filepath.FromSlash(rel))
	b, err := readlimit.Root(o.root, rel, full, MaxTemplateFile)
	if err != nil && !errors.Is(err, readlimit.ErrTooLarge) && !errors.Is(err, readlimit.ErrNotRegular) {
		// os.Root refused a symlink the check above let through (it
		// changed since): say why.
		return nil, fmt.Errorf("%s: %w (fabricgen reads templates only from inside the --templates folder %s)", full, err, o.path)
	}
	return b, err
}
