package emulator

import (
	"strings"
	"time"
)

// SyslogPath is where the emulator keeps the messages its daemons log
// (buffermgrd's), as SONiC's rsyslog does.
const SyslogPath = "/var/log/syslog"

// syslogLines bounds the emulator's syslog: older lines are dropped.
const syslogLines = 1000

// lookupPath is where a SONiC switch keeps the SKU's
// pg_profile_lookup.ini (sonic-buildimage's device/<vendor>/<platform>/
// <hwsku>/ is installed as /usr/share/sonic/device/<platform>/<hwsku>/).
func lookupPath(platform, hwsku string) string {
	return "/usr/share/sonic/device/" + platform + "/" + hwsku + "/pg_profile_lookup.ini"
}

// lookupFile is the SKU's pg_profile_lookup.ini in the form
// sonic-buildimage's files have: the "# PG lossless profiles." header,
// the column comment, and one row a line, in the file's order.
func (id identity) lookupFile() string {
	var b strings.Builder
	b.WriteString("# PG lossless profiles.\n# speed cable size xon xoff threshold")
	offset := false
	for _, r := range id.sku.Rows {
		offset = offset || r.XonOffset != ""
	}
	if offset {
		b.WriteString(" xon_offset")
	}
	b.WriteString("\n")
	for _, r := range id.sku.Rows {
		f := []string{r.Speed, r.Cable, r.Size, r.Xon, r.Xoff, r.Threshold}
		if r.XonOffset != "" {
			f = append(f, r.XonOffset)
		}
		b.WriteString("  " + strings.Join(f, " ") + "\n")
	}
	return b.String()
}

// systemFile returns a read-only file of the switch's own: the SKU's
// lookup file and the syslog.
func (s *sonic) systemFile(p string) (string, bool) {
	switch {
	case p == SyslogPath:
		return strings.Join(s.syslog, ""), true
	case s.id.sku != nil && p == lookupPath(s.id.platform, s.id.hwsku):
		return s.id.lookupFile(), true
	}
	return "", false
}

// cat is cat over the switch's own files and the scratch file system.
func (s *sonic) cat(argv []string, stdin string) (string, string, int, bool) {
	mine := false
	for _, p := range argv[1:] {
		if _, ok := s.systemFile(p); ok || strings.HasPrefix(p, "/usr/share/sonic/") || strings.HasPrefix(p, "/var/log/") {
			mine = true
		}
	}
	if !mine {
		return "", "", 0, false
	}
	var out, errOut strings.Builder
	st := 0
	for _, p := range argv[1:] {
		if v, ok := s.systemFile(p); ok {
			out.WriteString(v)
			continue
		}
		if v, ok := s.fs.Read(p); ok {
			out.WriteString(v)
			continue
		}
		errOut.WriteString("cat: " + p + ": No such file or directory\n")
		st = 1
	}
	return out.String(), errOut.String(), st, true
}

// logf appends a daemon's message to the syslog in SONiC's form
// ("Dec  6 03:10:00.000000 HOST ERR swss#buffermgrd: :- MSG").
func (s *sonic) logf(level, msg string) {
	now := time.Unix(0, 0).UTC()
	if s.env.Now != nil {
		now = s.env.Now().UTC()
	}
	s.syslog = append(s.syslog, now.Format("Jan _2 15:04:05.000000")+" "+s.env.Spec.Name+" "+level+" swss#buffermgrd: :- "+msg+"\n")
	if len(s.syslog) > syslogLines {
		s.syslog = s.syslog[len(s.syslog)-syslogLines:]
	}
}
