package view

import (
	"strings"
)

// Host scripts and NVUE commands run in a POSIX shell. Names reaching them
// are checked when the intent is loaded (schema's naming rules allow only
// plain shell words), and quoted here as well, as defence in depth: a
// Fabric built in Go code, or a name the rules let through by mistake,
// still cannot run a command. The helpers quote only when a character
// needs it, so a plain name (eth0, ens1f0np0) prints as it is.

// shellPlain reports whether c needs no quoting anywhere in a shell word.
func shellPlain(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("_.,/:@%+=-", c) >= 0
}

// isShellWord reports whether s is a non-empty plain shell word.
func isShellWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !shellPlain(s[i]) {
			return false
		}
	}
	return true
}

// ShellWord returns s as one POSIX shell word: s itself when every
// character is plain, otherwise s in single quotes (a quote inside is
// closed, escaped with a backslash and reopened).
func ShellWord(s string) string {
	if isShellWord(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShellString quotes a message for echo: in double quotes when nothing in
// it is special there ($, `, \, " and the interactive shell's !) and it
// holds no control character, otherwise in single quotes.
func ShellString(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || strings.IndexByte("$`\\\"!", c) >= 0 {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return `"` + s + `"`
}

// OneLine makes s safe inside a comment line or a CLI argument: each
// control character (a newline would start a new line) becomes its
// visible escape \xNN. Text without them is returned as is.
func OneLine(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			const hex = "0123456789abcdef"
			b.WriteString(`\x`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
