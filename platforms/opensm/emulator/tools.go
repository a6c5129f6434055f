package emulator

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"path"
	"strconv"
	"strings"
)

// runner runs one command of the host.
func (s *sm) runner() func(argv []string, stdin string) (string, string, int) {
	return func(argv []string, stdin string) (string, string, int) {
		args := argv[1:]
		switch argv[0] {
		case "printf":
			out, errOut, st, _ := s.pf.Common(s.env.Spec.Name, argv, stdin)
			return out, errOut, st
		case "hostname":
			return s.env.Spec.Name + "\n", "", 0
		case "id":
			if len(args) == 1 && (args[0] == "-u" || args[0] == "-g") {
				return "0\n", "", 0
			}
			if len(args) == 1 && (args[0] == "-un" || args[0] == "-nu") {
				return "root\n", "", 0
			}
			return "uid=0(root) gid=0(root) groups=0(root)\n", "", 0
		case "base64":
			return s.base64(args, stdin)
		case "sha256sum":
			return s.sha256sum(args, stdin)
		case "cat":
			return s.cat(args, stdin)
		case "cp":
			return s.cp(args)
		case "mv":
			return s.mv(args)
		case "rm":
			return s.rm(args)
		case "mkdir":
			return s.mkdir(args)
		case "mktemp":
			return s.mktemp(args)
		case "stat":
			return s.stat(args)
		case "tail":
			return s.tail(args, stdin)
		case "opensm":
			return s.opensm(args)
		case "pkill":
			return s.pkill(args)
		case "pidof":
			return s.pidof(args)
		case "smpquery":
			return s.smpquery(args)
		}
		return "", "bash: " + argv[0] + ": command not found\n", 127
	}
}

// try is coreutils' hint after a usage error.
func try(tool string) string {
	return "Try '" + tool + " --help' for more information.\n"
}

// splitOpts separates short options (each letter checked against
// allowed) from operands; "--" ends options. An option taking a value
// (in withArg) takes the rest of its word or the next word.
func splitOpts(tool string, args []string, allowed, withArg string) (opts map[byte]string, ops []string, errOut string) {
	opts = map[byte]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return opts, append(ops, args[i+1:]...), ""
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			ops = append(ops, a)
			continue
		}
		if strings.HasPrefix(a, "--") {
			return nil, nil, tool + ": unrecognized option '" + a + "'\n" + try(tool)
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch {
			case strings.IndexByte(withArg, c) >= 0:
				v := a[j+1:]
				if v == "" {
					if i+1 >= len(args) {
						return nil, nil, tool + ": option requires an argument -- '" + string(c) + "'\n" + try(tool)
					}
					i++
					v = args[i]
				}
				opts[c] = v
				j = len(a)
			case strings.IndexByte(allowed, c) >= 0:
				opts[c] = ""
			default:
				return nil, nil, tool + ": invalid option -- '" + string(c) + "'\n" + try(tool)
			}
		}
	}
	return opts, ops, ""
}

// has reports whether option c was given.
func has(opts map[byte]string, c byte) bool {
	_, ok := opts[c]
	return ok
}

// readArg reads a file operand ("-" is standard input) for a tool's
// error message "TOOL: PATH: ERR".
func (s *sm) readArg(p, stdin string) (string, string) {
	if p == "-" {
		return stdin, ""
	}
	return s.fs.read(p)
}

// base64 is GNU coreutils base64: encode (wrapping at 76 columns, -w N,
// -w0 none) or -d decode one file or standard input.
func (s *sm) base64(args []string, stdin string) (string, string, int) {
	var norm []string
	for _, a := range args {
		switch {
		case a == "--decode":
			a = "-d"
		case a == "--ignore-garbage":
			a = "-i"
		case strings.HasPrefix(a, "--wrap="):
			a = "-w" + strings.TrimPrefix(a, "--wrap=")
		}
		norm = append(norm, a)
	}
	opts, ops, e := splitOpts("base64", norm, "di", "w")
	if e != "" {
		return "", e, 1
	}
	if len(ops) > 1 {
		return "", "base64: extra operand '" + ops[1] + "'\n" + try("base64"), 1
	}
	wrap := 76
	if w, ok := opts['w']; ok {
		n, err := strconv.Atoi(w)
		if err != nil || n < 0 {
			return "", "base64: invalid wrap size: '" + w + "'\n", 1
		}
		wrap = n
	}
	in := stdin
	if len(ops) == 1 {
		text, e := s.readArg(ops[0], stdin)
		if e != "" {
			if e == errIsDir {
				return "", "base64: read error: Is a directory\n", 1
			}
			return "", "base64: " + ops[0] + ": " + e + "\n", 1
		}
		in = text
	}
	if has(opts, 'd') {
		return decode64(in, has(opts, 'i'))
	}
	enc := base64.StdEncoding.EncodeToString([]byte(in))
	if wrap == 0 || enc == "" {
		return enc, "", 0
	}
	var b strings.Builder
	for len(enc) > wrap {
		b.WriteString(enc[:wrap] + "\n")
		enc = enc[wrap:]
	}
	b.WriteString(enc + "\n")
	return b.String(), "", 0
}

// decode64 decodes base64 text, newlines ignored (and, with garbage, every
// byte outside the alphabet); invalid input prints what decoded before it
// and fails as GNU base64 does.
func decode64(in string, garbage bool) (string, string, int) {
	var b strings.Builder
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case c == '\n':
		case garbage && (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '+' && c != '/' && c != '=':
		default:
			b.WriteByte(c)
		}
	}
	src := b.String()
	dst := make([]byte, base64.StdEncoding.DecodedLen(len(src)))
	n, err := base64.StdEncoding.Decode(dst, []byte(src))
	if err != nil {
		return string(dst[:n]), "base64: invalid input\n", 1
	}
	return string(dst[:n]), "", 0
}

// cat prints files ("-" or none: standard input).
func (s *sm) cat(args []string, stdin string) (string, string, int) {
	_, ops, e := splitOpts("cat", args, "u", "")
	if e != "" {
		return "", e, 1
	}
	if len(ops) == 0 {
		return stdin, "", 0
	}
	var out, errOut strings.Builder
	st := 0
	for _, p := range ops {
		text, e := s.readArg(p, stdin)
		if e != "" {
			errOut.WriteString("cat: " + p + ": " + e + "\n")
			st = 1
			continue
		}
		out.WriteString(text)
	}
	return out.String(), errOut.String(), st
}

// target returns where cp or mv puts src given dst: into dst when it is a
// directory.
func (s *sm) target(src, dst string) string {
	if _, isDir, _ := s.fs.lookup(dst); isDir {
		return path.Join(clean(dst), path.Base(clean(src)))
	}
	return dst
}

// twoOps checks cp's and mv's operands: SRC... DST, DST a directory when
// there is more than one SRC.
func (s *sm) twoOps(tool string, ops []string) string {
	switch len(ops) {
	case 0:
		return tool + ": missing file operand\n" + try(tool)
	case 1:
		return tool + ": missing destination file operand after '" + ops[0] + "'\n" + try(tool)
	}
	if _, isDir, _ := s.fs.lookup(ops[len(ops)-1]); len(ops) > 2 && !isDir {
		return tool + ": target '" + ops[len(ops)-1] + "' is not a directory\n"
	}
	return ""
}

// cp copies regular files (-p keeps mode and times: the emulated files
// have none to keep).
func (s *sm) cp(args []string) (string, string, int) {
	_, ops, e := splitOpts("cp", args, "pf", "")
	if e != "" {
		return "", e, 1
	}
	if e := s.twoOps("cp", ops); e != "" {
		return "", e, 1
	}
	dst := ops[len(ops)-1]
	var errOut strings.Builder
	st := 0
	for _, src := range ops[:len(ops)-1] {
		isFile, isDir, le := s.fs.lookup(src)
		switch {
		case isDir:
			errOut.WriteString("cp: -r not specified; omitting directory '" + src + "'\n")
			st = 1
			continue
		case !isFile:
			errOut.WriteString("cp: cannot stat '" + src + "': " + le + "\n")
			st = 1
			continue
		}
		to := s.target(src, dst)
		if clean(to) == clean(src) {
			errOut.WriteString("cp: '" + src + "' and '" + to + "' are the same file\n")
			st = 1
			continue
		}
		text, _ := s.fs.read(src)
		if e := s.fs.write(to, text, false); e != "" {
			errOut.WriteString("cp: cannot create regular file '" + to + "': " + e + "\n")
			st = 1
		}
	}
	return "", errOut.String(), st
}

// mv renames files and directories.
func (s *sm) mv(args []string) (string, string, int) {
	_, ops, e := splitOpts("mv", args, "fT", "")
	if e != "" {
		return "", e, 1
	}
	if e := s.twoOps("mv", ops); e != "" {
		return "", e, 1
	}
	dst := ops[len(ops)-1]
	var errOut strings.Builder
	st := 0
	for _, src := range ops[:len(ops)-1] {
		isFile, isDir, le := s.fs.lookup(src)
		if !isFile && !isDir {
			errOut.WriteString("mv: cannot stat '" + src + "': " + le + "\n")
			st = 1
			continue
		}
		if e := s.fs.rename(src, dst); e != "" {
			errOut.WriteString("mv: cannot move '" + src + "' to '" + s.target(src, dst) + "': " + e + "\n")
			st = 1
		}
	}
	return "", errOut.String(), st
}

// rm removes files, directories with -r; -f ignores missing ones.
func (s *sm) rm(args []string) (string, string, int) {
	var norm []string
	for _, a := range args {
		switch a {
		case "--force":
			a = "-f"
		case "--recursive":
			a = "-r"
		}
		norm = append(norm, a)
	}
	opts, ops, e := splitOpts("rm", norm, "frRv", "")
	if e != "" {
		return "", e, 1
	}
	force, recursive := has(opts, 'f'), has(opts, 'r') || has(opts, 'R')
	if len(ops) == 0 {
		if force {
			return "", "", 0
		}
		return "", "rm: missing operand\n" + try("rm"), 1
	}
	var errOut strings.Builder
	st := 0
	for _, p := range ops {
		if recursive && clean(p) == "/" {
			errOut.WriteString("rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n")
			st = 1
			continue
		}
		if e := s.fs.remove(p, recursive); e != "" {
			if e == errNoEnt && force {
				continue
			}
			errOut.WriteString("rm: cannot remove '" + p + "': " + e + "\n")
			st = 1
		}
	}
	return "", errOut.String(), st
}

// mkdir makes directories (-p: parents, and existing ones are fine).
func (s *sm) mkdir(args []string) (string, string, int) {
	opts, ops, e := splitOpts("mkdir", args, "pv", "m")
	if e != "" {
		return "", e, 1
	}
	if len(ops) == 0 {
		return "", "mkdir: missing operand\n" + try("mkdir"), 1
	}
	var errOut strings.Builder
	st := 0
	for _, p := range ops {
		if has(opts, 'p') {
			c := clean(p)
			parts := strings.Split(strings.TrimPrefix(c, "/"), "/")
			cur := ""
			for _, part := range parts {
				cur += "/" + part
				if _, isDir, _ := s.fs.lookup(cur); isDir {
					continue
				}
				if e := s.fs.mkdir(cur); e != "" {
					errOut.WriteString("mkdir: cannot create directory '" + p + "': " + e + "\n")
					st = 1
					break
				}
			}
			continue
		}
		if e := s.fs.mkdir(p); e != "" {
			errOut.WriteString("mkdir: cannot create directory '" + p + "': " + e + "\n")
			st = 1
		}
	}
	return "", errOut.String(), st
}

// mktemp makes a file, or with -d a directory, from a template whose
// trailing X's (at least three) become letters and digits; the names are
// deterministic per host (a hash of the host name and a counter).
func (s *sm) mktemp(args []string) (string, string, int) {
	opts, ops, e := splitOpts("mktemp", args, "dqu", "p")
	if e != "" {
		return "", e, 1
	}
	if len(ops) > 1 {
		return "", "mktemp: too many templates\n" + try("mktemp"), 1
	}
	tmpl := "tmp.XXXXXXXXXX"
	dir, withDir := opts['p']
	if len(ops) == 1 {
		tmpl = ops[0]
	} else if !withDir {
		dir, withDir = "/tmp", true
	}
	x := len(tmpl) - len(strings.TrimRight(tmpl, "X"))
	if x < 3 {
		return "", "mktemp: too few X's in template '" + tmpl + "'\n", 1
	}
	if withDir {
		if strings.Contains(tmpl, "/") {
			return "", "mktemp: invalid template, '" + tmpl + "', contains directory separator\n", 1
		}
		tmpl = strings.TrimSuffix(dir, "/") + "/" + tmpl
	}
	kind := "file"
	if has(opts, 'd') {
		kind = "directory"
	}
	for try := 0; try < 100; try++ {
		s.seq++
		cand := tmpl[:len(tmpl)-x] + s.randomName(x)
		if f, d, _ := s.fs.lookup(cand); f || d {
			continue
		}
		if has(opts, 'u') {
			return cand + "\n", "", 0
		}
		var e string
		if has(opts, 'd') {
			e = s.fs.mkdir(cand)
		} else {
			e = s.fs.write(cand, "", false)
		}
		if e != "" {
			if has(opts, 'q') {
				return "", "", 1
			}
			return "", "mktemp: failed to create " + kind + " via template '" + tmpl + "': " + e + "\n", 1
		}
		return cand + "\n", "", 0
	}
	return "", "mktemp: failed to create " + kind + " via template '" + tmpl + "': " + errExist + "\n", 1
}

// randomName returns n characters of [A-Za-z0-9] from the host name and
// the mktemp counter.
func (s *sm) randomName(n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d", s.env.Spec.Name, s.seq)
	v := h.Sum64()
	b := make([]byte, n)
	for i := range b {
		if v == 0 {
			h.Write([]byte{byte(i)})
			v = h.Sum64()
		}
		b[i] = alphabet[v%uint64(len(alphabet))]
		v /= uint64(len(alphabet))
	}
	return string(b)
}

// stat prints -c FORMAT for each file: %s size, %n name, %F type, %%.
func (s *sm) stat(args []string) (string, string, int) {
	var norm []string
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--format="); ok {
			norm = append(norm, "-c", v)
			continue
		}
		norm = append(norm, a)
	}
	opts, ops, e := splitOpts("stat", norm, "L", "c")
	if e != "" {
		return "", e, 1
	}
	if len(ops) == 0 {
		return "", "stat: missing operand\n" + try("stat"), 1
	}
	format, ok := opts['c']
	if !ok {
		return "", "stat: the lab's stat prints only -c FORMAT (%s, %n, %F)\n", 1
	}
	var out, errOut strings.Builder
	st := 0
	for _, p := range ops {
		isFile, isDir, le := s.fs.lookup(p)
		if !isFile && !isDir {
			errOut.WriteString("stat: cannot statx '" + p + "': " + le + "\n")
			st = 1
			continue
		}
		size, kind := 4096, "directory"
		if isFile {
			text, _ := s.fs.read(p)
			size, kind = len(text), "regular file"
			if size == 0 {
				kind = "regular empty file"
			}
		}
		for i := 0; i < len(format); i++ {
			if format[i] != '%' || i+1 == len(format) {
				out.WriteByte(format[i])
				continue
			}
			i++
			switch format[i] {
			case 's':
				out.WriteString(strconv.Itoa(size))
			case 'n':
				out.WriteString(p)
			case 'F':
				out.WriteString(kind)
			case '%':
				out.WriteByte('%')
			default:
				out.WriteByte('?')
			}
		}
		out.WriteByte('\n')
	}
	return out.String(), errOut.String(), st
}

// tail prints the end of a file: -c +N from byte N on, -c N the last N
// bytes.
func (s *sm) tail(args []string, stdin string) (string, string, int) {
	opts, ops, e := splitOpts("tail", args, "q", "cn")
	if e != "" {
		return "", e, 1
	}
	spec, bytesMode := opts['c']
	if !bytesMode {
		return "", "tail: the lab's tail prints only -c N and -c +N\n", 1
	}
	from := strings.HasPrefix(spec, "+")
	n, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimPrefix(spec, "+"), "-"), 10, 64)
	if err != nil || n < 0 {
		return "", "tail: invalid number of bytes: '" + spec + "'\n", 1
	}
	if len(ops) > 1 {
		return "", "tail: the lab's tail reads one file\n", 1
	}
	text := stdin
	if len(ops) == 1 && ops[0] != "-" {
		t, e := s.fs.read(ops[0])
		switch e {
		case "":
			text = t
		case errIsDir:
			return "", "tail: error reading '" + ops[0] + "': Is a directory\n", 1
		default:
			return "", "tail: cannot open '" + ops[0] + "' for reading: " + e + "\n", 1
		}
	}
	size := int64(len(text))
	if from {
		if n <= 1 {
			return text, "", 0
		}
		if n-1 >= size {
			return "", "", 0
		}
		return text[n-1:], "", 0
	}
	if n >= size {
		return text, "", 0
	}
	return text[size-n:], "", 0
}

// sha256sum is GNU coreutils sha256sum: print "HEX  FILE" for each file
// (standard input for none or "-"), or with -c/--check read such lines
// (from the operand or standard input) and check each file, printing
// "FILE: OK" or "FILE: FAILED" unless --status; the status is 1 when a
// file differs or cannot be read.
func (s *sm) sha256sum(args []string, stdin string) (string, string, int) {
	check, status := false, false
	var ops []string
	for _, a := range args {
		switch a {
		case "-c", "--check":
			check = true
		case "--status":
			status = true
		case "--":
		default:
			if strings.HasPrefix(a, "-") && a != "-" {
				return "", "sha256sum: invalid option -- '" + strings.TrimLeft(a, "-") + "'\nTry 'sha256sum --help' for more information.\n", 1
			}
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		ops = []string{"-"}
	}
	var out, errOut strings.Builder
	st := 0
	if !check {
		for _, p := range ops {
			text, e := s.readArg(p, stdin)
			if e != "" {
				errOut.WriteString("sha256sum: " + p + ": " + e + "\n")
				st = 1
				continue
			}
			sum := sha256.Sum256([]byte(text))
			out.WriteString(hex.EncodeToString(sum[:]) + "  " + p + "\n")
		}
		return out.String(), errOut.String(), st
	}
	failed, unread := 0, 0
	for _, list := range ops {
		text, e := s.readArg(list, stdin)
		if e != "" {
			return "", "sha256sum: " + list + ": " + e + "\n", 1
		}
		for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			want, file, ok := strings.Cut(line, "  ")
			if !ok || len(want) != 64 {
				errOut.WriteString("sha256sum: " + list + ": no properly formatted SHA256 checksum lines found\n")
				return out.String(), errOut.String(), 1
			}
			data, e := s.fs.read(file)
			if e != "" {
				errOut.WriteString("sha256sum: " + file + ": " + e + "\n")
				if !status {
					out.WriteString(file + ": FAILED open or read\n")
				}
				unread++
				continue
			}
			sum := sha256.Sum256([]byte(data))
			good := hex.EncodeToString(sum[:]) == strings.ToLower(want)
			if !good {
				failed++
			}
			if !status {
				out.WriteString(file + map[bool]string{true: ": OK\n", false: ": FAILED\n"}[good])
			}
		}
	}
	if unread > 0 && !status {
		fmt.Fprintf(&errOut, "sha256sum: WARNING: %d listed file could not be read\n", unread)
	}
	if failed > 0 && !status {
		fmt.Fprintf(&errOut, "sha256sum: WARNING: %d computed checksum did NOT match\n", failed)
	}
	if failed > 0 || unread > 0 {
		st = 1
	}
	return out.String(), errOut.String(), st
}
