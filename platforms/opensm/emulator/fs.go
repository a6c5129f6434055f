package emulator

import (
	"path"
	"sort"
	"strings"
)

// Bounds of the emulated file system: a file larger than maxFile, or files
// adding up to more than maxTotal, fail the write with ENOSPC as a full
// tmpfs does, so a hostile or runaway push cannot grow the lab's memory.
const (
	maxFile  = 8 << 20
	maxTotal = 64 << 20
	// maxEntries bounds the number of files and directories.
	maxEntries = 4096
)

// Error texts of the file system (strerror in the C locale).
const (
	errNoEnt  = "No such file or directory"
	errIsDir  = "Is a directory"
	errNotDir = "Not a directory"
	errNoSpc  = "No space left on device"
	errExist  = "File exists"
	errPerm   = "Permission denied"
)

// fileSystem is the host's file system as the push flow sees it: a few
// fixed directories (/, /etc, /etc/opensm, /tmp, /run, /run/lock, /var,
// /var/log, /root, /dev) and the regular files and directories made under
// them. Every user writes as root (the flow runs under sudo). Paths are
// cleaned lexically as the kernel resolves them without symlinks:
// "/etc/opensm/../../etc/passwd" is /etc/passwd.
type fileSystem struct {
	files map[string]string
	dirs  map[string]bool
	total int
}

// fixedDirs are the directories a factory host has.
var fixedDirs = []string{"/", "/etc", "/etc/opensm", "/tmp", "/run", "/run/lock", "/var", "/var/log", "/root", "/dev"}

func newFileSystem() *fileSystem {
	fs := &fileSystem{files: map[string]string{}, dirs: map[string]bool{}}
	for _, d := range fixedDirs {
		fs.dirs[d] = true
	}
	return fs
}

// clean resolves p against the root's home directory (/root) and cleans it.
func clean(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = "/root/" + p
	}
	return path.Clean(p)
}

// lookup reports what p is: a regular file, a directory, or nothing; a
// missing parent or a parent that is a file is errNoEnt or errNotDir.
func (fs *fileSystem) lookup(p string) (isFile, isDir bool, errText string) {
	c := clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		if _, ok := fs.files[c]; ok {
			return false, false, errNotDir
		}
	}
	if fs.dirs[c] {
		return false, true, ""
	}
	if _, ok := fs.files[c]; ok {
		return true, false, ""
	}
	return false, false, errNoEnt
}

// read returns a regular file's text, or the error text.
func (fs *fileSystem) read(p string) (string, string) {
	c := clean(p)
	if c == "/dev/null" {
		return "", ""
	}
	if fs.dirs[c] {
		return "", errIsDir
	}
	if strings.HasSuffix(p, "/") {
		if _, ok := fs.files[c]; ok {
			return "", errNotDir
		}
	}
	v, ok := fs.files[c]
	if !ok {
		return "", errNoEnt
	}
	return v, ""
}

// parentOK returns the error text for creating c: its parent must be a
// directory.
func (fs *fileSystem) parentOK(c string) string {
	dir := path.Dir(c)
	if fs.dirs[dir] {
		return ""
	}
	if _, ok := fs.files[dir]; ok {
		return errNotDir
	}
	return errNoEnt
}

// write writes (or appends to) a regular file, and is the shell's
// FileWriter: it returns bash's error text or "".
func (fs *fileSystem) write(p, data string, appendTo bool) string {
	c := clean(p)
	if c == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(c, "/dev/") || strings.HasPrefix(c, "/proc/") || strings.HasPrefix(c, "/sys/") {
		// No device, proc or sysfs file is emulated: opening one for
		// writing is refused rather than made a regular file.
		return errPerm
	}
	if fs.dirs[c] {
		return errIsDir
	}
	if strings.HasSuffix(p, "/") {
		return errIsDir
	}
	if e := fs.parentOK(c); e != "" {
		return e
	}
	old, exists := fs.files[c]
	next := data
	if appendTo {
		next = old + data
	}
	if len(next) > maxFile || fs.total-len(old)+len(next) > maxTotal {
		return errNoSpc
	}
	if !exists && len(fs.files)+len(fs.dirs) >= maxEntries {
		return errNoSpc
	}
	fs.total += len(next) - len(old)
	fs.files[c] = next
	return ""
}

// mkdir makes one directory.
func (fs *fileSystem) mkdir(p string) string {
	c := clean(p)
	if fs.dirs[c] {
		return errExist
	}
	if _, ok := fs.files[c]; ok {
		return errExist
	}
	if e := fs.parentOK(c); e != "" {
		return e
	}
	if len(fs.files)+len(fs.dirs) >= maxEntries {
		return errNoSpc
	}
	fs.dirs[c] = true
	return ""
}

// fixed reports whether c is the root directory, which neither rm nor mv
// may take (rm refuses it before, rename(2) with EBUSY).
func fixed(c string) bool { return c == "/" }

// remove removes a file, or with recursive a directory and what is under
// it; it returns the error text.
func (fs *fileSystem) remove(p string, recursive bool) string {
	c := clean(p)
	if fs.dirs[c] {
		if !recursive {
			return errIsDir
		}
		if fixed(c) {
			return "Device or resource busy"
		}
		fs.removeTree(c)
		return ""
	}
	old, ok := fs.files[c]
	if !ok {
		return errNoEnt
	}
	fs.total -= len(old)
	delete(fs.files, c)
	return ""
}

func (fs *fileSystem) removeTree(c string) {
	for p, v := range fs.files {
		if strings.HasPrefix(p, c+"/") {
			fs.total -= len(v)
			delete(fs.files, p)
		}
	}
	for p := range fs.dirs {
		if p == c || strings.HasPrefix(p, c+"/") {
			delete(fs.dirs, p)
		}
	}
}

// rename moves src to dst (a file over a file, a directory to a new name,
// or either into an existing directory), as rename(2) does for mv.
func (fs *fileSystem) rename(src, dst string) string {
	s, d := clean(src), clean(dst)
	if fs.dirs[d] {
		d = path.Join(d, path.Base(s))
	}
	if s == d {
		return ""
	}
	if fs.dirs[s] {
		if fixed(s) {
			return "Device or resource busy"
		}
		if strings.HasPrefix(d, s+"/") {
			return "Invalid argument"
		}
		if _, ok := fs.files[d]; ok {
			return errNotDir
		}
		if fs.dirs[d] {
			return "Directory not empty"
		}
		if e := fs.parentOK(d); e != "" {
			return e
		}
		moved := map[string]string{}
		for p, v := range fs.files {
			if strings.HasPrefix(p, s+"/") {
				moved[d+strings.TrimPrefix(p, s)] = v
				delete(fs.files, p)
			}
		}
		var dirs []string
		for p := range fs.dirs {
			if p == s || strings.HasPrefix(p, s+"/") {
				dirs = append(dirs, p)
			}
		}
		for _, p := range dirs {
			delete(fs.dirs, p)
			fs.dirs[d+strings.TrimPrefix(p, s)] = true
		}
		for p, v := range moved {
			fs.files[p] = v
		}
		return ""
	}
	v, ok := fs.files[s]
	if !ok {
		return errNoEnt
	}
	if fs.dirs[d] {
		return errIsDir
	}
	if e := fs.parentOK(d); e != "" {
		return e
	}
	if old, ok := fs.files[d]; ok {
		fs.total -= len(old)
	}
	delete(fs.files, s)
	fs.files[d] = v
	return ""
}

// under returns the regular files directly or indirectly under dir,
// sorted by path.
func (fs *fileSystem) under(dir string) []string {
	var out []string
	for p := range fs.files {
		if strings.HasPrefix(p, dir+"/") {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
