package sshserver

import (
	"io"
	"net"
	"strings"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
)

// writeCRLF writes text with CRLF line ends, as a terminal expects.
func writeCRLF(w io.Writer, text string) {
	if text == "" {
		return
	}
	_, _ = io.WriteString(w, strings.ReplaceAll(text, "\n", "\r\n"))
}

// stream writes text again and again until stop is closed or a write
// fails (the client went away): a reply whose output never ends.
func stream(w io.Writer, text string, stop <-chan struct{}, crlf bool) {
	if crlf {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	b := []byte(text)
	for {
		select {
		case <-stop:
			return
		default:
		}
		if _, err := w.Write(b); err != nil {
			return
		}
	}
}

// serveShell runs an interactive CLI on rw until the user exits or the
// connection ends; it returns the last exit status.
func (s *Server) serveShell(nc net.Conn, rw io.ReadWriter, rows int) int {
	t := &cli.Term{Length: rows, Width: 80}
	l := s.dev.Login(t)
	end := endOnce(l)
	defer end()
	writeCRLF(rw, l.Greeting())

	var (
		line    []byte
		lastCR  bool
		secret  bool
		pending []string // pages still to show
		tail    string   // printed after the last page
		status  int
	)
	buf := make([]byte, 4096)
	// The echo of typed characters goes out as one write per read (one
	// SSH packet, not one per character), always before anything else
	// the shell writes, so the client sees the same byte stream.
	w := &echoWriter{w: rw}
	for {
		n, err := rw.Read(buf)
		if err != nil {
			return status
		}
		for _, b := range buf[:n] {
			if len(pending) > 0 {
				// Pager: 'q' quits, anything else shows the next page.
				writeCRLF(w, "\r"+strings.Repeat(" ", len(t.More))+"\r")
				if b == 'q' || b == 'Q' {
					pending = nil
					writeCRLF(w, tail)
					continue
				}
				pending = showPage(w, t, pending, tail)
				continue
			}
			switch b {
			case '\n':
				if lastCR {
					lastCR = false
					continue
				}
				fallthrough
			case '\r':
				lastCR = b == '\r'
				writeCRLF(w, "\n")
				r, drop := l.Handle(string(line))
				line = line[:0]
				if drop {
					end()
					_ = nc.Close()
					return 255
				}
				status = r.Status
				secret = r.Secret
				if r.Endless != nil {
					w.flush()
					stream(w, r.Out, r.Endless, true)
					writeCRLF(w, "\n"+l.Prompt())
					continue
				}
				if r.Exit {
					writeCRLF(w, r.Out)
					return status
				}
				tail = l.Prompt()
				if t.More != "" && t.Length > 0 {
					pages := paginate(r.Out, t.Length-1)
					if len(pages) > 1 {
						pending = showPage(w, t, pages, tail)
						continue
					}
				}
				writeCRLF(w, r.Out+tail)
			case 0x7f, 0x08:
				lastCR = false
				if len(line) > 0 {
					line = line[:len(line)-1]
					if !secret {
						writeCRLF(w, "\b \b")
					}
				}
			case 0x04:
				// ^D on an empty line ends `load ... terminal` input.
				if len(line) > 0 {
					continue
				}
				writeCRLF(w, "\n")
				r, drop := l.Handle("\x04")
				if drop {
					end()
					_ = nc.Close()
					return 255
				}
				status = r.Status
				p := l.Prompt()
				writeCRLF(w, r.Out+p)
			case 0x15:
				// ^U kills the line typed so far, as the vendors'
				// CLIs and bash do.
				lastCR = false
				line = line[:0]
			case 0x03:
				lastCR = false
				line = line[:0]
				secret = false
				p := l.Prompt()
				writeCRLF(w, "^C\n"+p)
			default:
				lastCR = false
				line = append(line, b)
				if !secret {
					w.echo = append(w.echo, b)
				}
			}
		}
		w.flush()
	}
}

// echoWriter holds the echo of typed characters until the shell writes
// anything else or the read is done.
type echoWriter struct {
	w    io.Writer
	echo []byte
}

func (e *echoWriter) flush() {
	if len(e.echo) > 0 {
		_, _ = e.w.Write(e.echo)
		e.echo = e.echo[:0]
	}
}

func (e *echoWriter) Write(b []byte) (int, error) {
	e.flush()
	return e.w.Write(b)
}

// showPage writes the first page and the pager prompt, or the last page
// and tail; it returns the pages still to show.
func showPage(w io.Writer, t *cli.Term, pages []string, tail string) []string {
	writeCRLF(w, pages[0])
	if len(pages) == 1 {
		writeCRLF(w, tail)
		return nil
	}
	writeCRLF(w, t.More)
	return pages[1:]
}

// paginate splits text into pages of n lines.
func paginate(text string, n int) []string {
	if n < 1 {
		return []string{text}
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		// text ends with a newline: no line follows it.
		lines = lines[:len(lines)-1]
	}
	var pages []string
	for len(lines) > n {
		pages = append(pages, strings.Join(lines[:n], ""))
		lines = lines[n:]
	}
	return append(pages, strings.Join(lines, ""))
}
