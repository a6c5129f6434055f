package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fabricgen/fabricgen/internal/push/dialect"
)

// A change set's lines are typed into a device's CLI or shell. Nothing in
// one may make the device run anything but that one line: a control
// character edits the line the terminal holds (^C drops it, a backspace
// deletes what came before, ^U kills it) or ends it, an invisible Unicode
// character makes two different lines look alike, and each platform has
// its own characters that start another command. CheckSendable checks
// every line before any is sent; push sends nothing from a change set it
// refuses.

// CheckSendable returns an error naming the first line of cs that may not
// be sent to a device of d as it stands, and why.
func CheckSendable(cs *ChangeSet, d *dialect.Dialect) error {
	for _, line := range cs.Commands() {
		if err := checkLine(line, d); err != nil {
			return fmt.Errorf("refusing to send %s to the device: %w; nothing was sent (the rendered config or the device's running config holds it: fix the template or the intent)", quoteLine(line), err)
		}
	}
	return nil
}

func checkLine(line string, d *dialect.Dialect) error {
	if d.Lines == dialect.LinesFiles {
		// A file's lines travel as base64 data, never through a
		// terminal: a tab is a tab. What a reader of the diff would not
		// see is still refused.
		line = strings.ReplaceAll(line, "\t", " ")
	}
	if err := CheckTerminalSafe(line); err != nil {
		return err
	}
	switch d.Lines {
	case dialect.LinesCLI:
		if i := strings.IndexAny(line, d.Unsafe); i >= 0 {
			return fmt.Errorf("it holds %q (column %d): %s", line[i:i+1], i+1, d.UnsafeWhy)
		}
	case dialect.LinesShellWords:
		if _, err := ShellWordsCommand(line, d); err != nil {
			return err
		}
	}
	return nil
}

// CheckTerminalSafe returns an error when s holds a character a terminal
// or a reader of the line would act on or not see: an ASCII control
// character (newline, carriage return, tab, ESC, NUL, ^C, ^U, DEL, …),
// a Unicode control, format (zero-width, bidirectional override), line or
// paragraph separator, private-use or unassigned character, or invalid
// UTF-8.
func CheckTerminalSafe(s string) error {
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			return fmt.Errorf("it holds invalid UTF-8 at byte %d", i+1)
		case r < 0x20 || r == 0x7f:
			return fmt.Errorf("it holds the control character %U at byte %d, which the terminal would act on", r, i+1)
		case r >= utf8.RuneSelf && !unicode.IsGraphic(r):
			return fmt.Errorf("it holds the invisible or control character %U at byte %d", r, i+1)
		}
	}
	return nil
}

// ShellWordsCommand parses a shell command line made only of words
// (with POSIX quoting) for a device of d, and returns it re-quoted, each
// word as one safe shell word: what is sent is exactly the words the line
// shows. A line the shell would expand or interpret anywhere ($,
// backquotes, globs, operators such as ; | & > <), that is none of d's
// Commands, or that holds one of d's Unsafe characters, is refused.
func ShellWordsCommand(line string, d *dialect.Dialect) (string, error) {
	toks, err := shellWords(line)
	if errors.Is(err, errShellVar) {
		return "", errors.New("it holds an unquoted $, which the shell would expand (a variable or $(command))")
	}
	if err != nil {
		return "", fmt.Errorf("as a shell command line: %w", err)
	}
	words, plain := wordsOnly(toks)
	if !plain {
		return "", fmt.Errorf("it holds a shell operator (; | & < > ( )), which would run or redirect another command")
	}
	if !isCommand(words, d.Commands) {
		return "", fmt.Errorf("it is not an %s command", strings.Join(d.Commands, " or "))
	}
	if i := strings.IndexAny(line, d.Unsafe); i >= 0 {
		return "", fmt.Errorf("it holds %q (column %d): %s", line[i:i+1], i+1, d.UnsafeWhy)
	}
	return quoteWords(words...), nil
}

// isCommand reports whether words start with the words of one of
// commands and go on after them.
func isCommand(words, commands []string) bool {
	for _, c := range commands {
		cw := strings.Fields(c)
		if len(cw) > 0 && len(words) > len(cw) && slices.Equal(words[:len(cw)], cw) {
			return true
		}
	}
	return false
}

// quoteLine quotes a line for a message: control characters escaped,
// long lines cut.
func quoteLine(line string) string {
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return fmt.Sprintf("%q", line)
}
