// Package session opens one SSH session per device with scrapligo v1.4
// over fabricgen's own x/crypto transport (agent and passphrase keys,
// known_hosts verification with fingerprints, a bounded handshake), and
// runs commands and configuration lines on it. A device rejecting a line
// is reported as data (Rejected), a broken session as an error.
package session

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/scrapli/scrapligo/driver/generic"
	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/opoptions"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/response"
	"github.com/scrapli/scrapligo/util"
	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/push/config"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/units"
)

// Target is one device to open a session to.
type Target struct {
	// Name is the device name, used in messages.
	Name string
	// Addr is host or host:port (port 22 when absent).
	Addr     string
	Dialect  *dialect.Dialect
	Auth     *Auth
	HostKeys *HostKeys
	// Timeout bounds the handshake and each operation.
	Timeout time.Duration
	// MaxOutput bounds the bytes the device may send in answer to one
	// command, or before its first prompt (0: DefaultMaxOutput). Past it
	// the session is closed and the operation fails with ErrOutputLimit.
	MaxOutput int64
	// Getenv reads SSH_AUTH_SOCK for agent auth.
	Getenv func(string) string
	// ReadDelay is how long scrapligo sleeps between polls of its read
	// buffer (default DefaultReadDelay).
	ReadDelay time.Duration
	// TrailingPrompt strips only the prompt that ends each output.
	// scrapligo otherwise removes every line of the output that matches
	// the prompt pattern, a regexp pass over the whole output that costs
	// more CPU than anything else on the client for large outputs (the
	// JSON of check's show commands).
	TrailingPrompt bool
}

// DefaultReadDelay is scrapligo's read-poll interval (its own default).
// A longer one saves client CPU when many sessions are in flight (7.3 →
// 6.4 ms per device planned at 1ms) but every poll can oversleep on a busy
// machine: the lab tests took 26 s instead of 4 s at 1ms.
const DefaultReadDelay = 250 * time.Microsecond

// Conn is an open session to one device. It is not safe for concurrent
// use: one goroutine per device.
type Conn struct {
	t       Target
	tr      *sshTransport
	net     *network.Driver
	gen     *generic.Driver
	release func()
	stop    func() bool
}

// Rejected is a line the device refused, with its error output.
type Rejected struct {
	Input  string
	Output string
}

// Error is the rejected line and the device's message on one line.
func (r *Rejected) Error() string {
	var parts []string
	for _, l := range strings.Split(r.Output, "\n") {
		// Junos and IOS-style errors point at the token with a caret line;
		// Junos prints its edit level ("[edit]") before the prompt.
		l = strings.TrimSpace(l)
		if l != "" && strings.Trim(l, "^ ") != "" && (!strings.HasPrefix(l, "[edit") || !strings.HasSuffix(l, "]")) {
			parts = append(parts, l)
		}
	}
	return fmt.Sprintf("the device rejected %q: %s", r.Input, strings.Join(parts, " "))
}

// Open connects, authenticates, verifies the host key, and gets to the
// platform's operational prompt with paging off. It gives up when ctx ends
// or Timeout passes, however far the handshake got.
func Open(ctx context.Context, t Target) (*Conn, error) {
	if t.Timeout <= 0 {
		t.Timeout = 30 * time.Second
	}
	if t.Getenv == nil {
		t.Getenv = func(string) string { return "" }
	}
	if t.ReadDelay <= 0 {
		t.ReadDelay = DefaultReadDelay
	}
	if t.MaxOutput <= 0 {
		t.MaxOutput = DefaultMaxOutput
	}
	host, port, err := splitAddr(t.Addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	methods, release, err := t.Auth.methods(t.Getenv)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	cfg := &ssh.ClientConfig{
		User:              t.Auth.Username,
		Auth:              methods,
		HostKeyCallback:   t.HostKeys.Callback(),
		HostKeyAlgorithms: t.HostKeys.Algorithms(net.JoinHostPort(host, strconv.Itoa(port))),
		Timeout:           t.Timeout,
	}
	c := &Conn{t: t, tr: &sshTransport{config: cfg, handshake: t.Timeout, maxOutput: t.MaxOutput}, release: release}
	opts := []util.Option{
		options.WithCustomTransport(c.tr),
		options.WithPort(port),
		options.WithAuthUsername(t.Auth.Username),
		options.WithTimeoutOps(t.Timeout),
		options.WithTermWidth(511),
		options.WithReadDelay(t.ReadDelay),
	}
	switch t.Dialect.Driver {
	case dialect.DriverNetwork:
		if pw := t.Auth.Password(); pw != "" {
			opts = append(opts, options.WithAuthSecondary(pw))
		}
		p, err := platform.NewPlatform(t.Dialect.Scrapli, host, opts...)
		if err != nil {
			release()
			return nil, fmt.Errorf("%s: scrapligo platform %s: %w", t.Name, t.Dialect.Scrapli, err)
		}
		if c.net, err = p.GetNetworkDriver(); err != nil {
			release()
			return nil, fmt.Errorf("%s: scrapligo driver: %w", t.Name, err)
		}
		if len(t.Dialect.PromptNotContains) > 0 {
			for level, nc := range t.Dialect.PromptNotContains {
				if pl := c.net.PrivilegeLevels[level]; pl != nil {
					pl.NotContains = append([]string(nil), nc...)
				}
			}
			c.net.UpdatePrivileges()
		}
	default:
		opts = append(opts,
			options.WithPromptPattern(regexp.MustCompile(t.Dialect.Prompt)),
			options.WithFailedWhenContains(t.Dialect.FailedWhenContains),
		)
		if c.gen, err = generic.NewDriver(host, opts...); err != nil {
			release()
			return nil, fmt.Errorf("%s: scrapligo driver: %w", t.Name, err)
		}
	}
	c.stop = context.AfterFunc(ctx, func() { _ = c.tr.Close() })

	// The open runs in its own goroutine so a device that never shows a
	// prompt can be cut off; once the transport is closed the open
	// returns, and the timeout (or cancellation) is the error reported.
	var openErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if c.net != nil {
			openErr = c.net.Open()
			return
		}
		openErr = c.gen.Open()
		for _, cmd := range t.Dialect.OnOpen {
			if openErr != nil {
				break
			}
			c.tr.beginAnswer(cmd)
			_, openErr = c.gen.SendCommand(cmd)
		}
	}()
	timer := time.NewTimer(t.Timeout + t.Timeout/2)
	defer timer.Stop()
	select {
	case <-done:
		err = openErr
	case <-timer.C:
		_ = c.tr.Close()
		<-done
		err = fmt.Errorf("no prompt within %s", t.Timeout)
	case <-ctx.Done():
		_ = c.tr.Close()
		<-done
		err = ctx.Err()
	}
	if oe := c.tr.overflowErr(); oe != nil {
		err = oe
	}
	if err != nil {
		c.stop()
		_ = c.tr.Close()
		release()
		if hk, ok := errors.AsType[*HostKeyError](err); ok {
			return nil, fmt.Errorf("%s: %w", t.Name, hk)
		}
		return nil, fmt.Errorf("%s: open session to %s: %w", t.Name, t.Addr, err)
	}
	c.tr.endAnswer()
	return c, nil
}

func splitAddr(addr string) (string, int, error) {
	if addr == "" {
		return "", 0, errors.New("no management address: set mgmt_address in the intent or pass --inventory")
	}
	host, portS, err := net.SplitHostPort(addr)
	if err != nil {
		return strings.Trim(addr, "[]"), 22, nil
	}
	port, err := strconv.Atoi(portS)
	if err != nil || port <= 0 || port > 65535 {
		return "", 0, fmt.Errorf("management address %q: port must be 1-65535", addr)
	}
	return host, port, nil
}

// Close ends the session without waiting on the device. The transport is
// closed first: scrapligo's read loop is blocked in a read, and
// Channel.Close would otherwise wait 62.5ms for it before forcing it.
func (c *Conn) Close() error {
	c.stop()
	defer c.release()
	_ = c.tr.Close()
	if c.net != nil {
		return c.net.Channel.Close()
	}
	return c.gen.Channel.Close()
}

// Alive reports whether the connection is still up.
func (c *Conn) Alive() bool { return c.tr.IsAlive() }

// Command runs one operational command and returns the response; a device
// rejection is in resp.Failed, a broken session in err.
func (c *Conn) Command(cmd string) (*response.Response, error) { return c.command(cmd, cmd) }

// ErrUnsafeInput is returned, before anything is sent, for a command or
// configuration line holding a character the device's terminal would act
// on (a control character: a newline sends a second command, ^C or a
// backspace edits the line) or an invisible one.
var ErrUnsafeInput = errors.New("unsafe input")

// sendable refuses a line a terminal would not take as that one line.
func (c *Conn) sendable(line string) error {
	if err := config.CheckTerminalSafe(line); err != nil {
		return fmt.Errorf("%s: refusing to send %q: %w: %w; nothing was sent", c.t.Name, line, ErrUnsafeInput, err)
	}
	return nil
}

// command sends cmd and names it label in errors.
func (c *Conn) command(cmd, label string) (*response.Response, error) {
	if err := c.sendable(cmd); err != nil {
		return nil, err
	}
	var r *response.Response
	var err error
	opts := []util.Option{opoptions.WithTimeoutOps(c.t.Timeout)}
	if c.t.TrailingPrompt {
		opts = append(opts, opoptions.WithNoStripPrompt())
	}
	c.tr.beginAnswer(label)
	if c.net != nil {
		r, err = c.net.SendCommand(cmd, opts...)
	} else {
		r, err = c.gen.SendCommand(cmd, opts...)
	}
	if err != nil {
		return nil, c.wrap(label, err)
	}
	c.tr.endAnswer()
	if c.t.TrailingPrompt {
		r.Result = c.stripPrompt(r.Result)
	}
	return r, nil
}

// stripPrompt removes the prompt line that ends out: the only place a
// prompt can be once the command's output is complete.
func (c *Conn) stripPrompt(out string) string {
	pat := c.prompt()
	i := strings.LastIndexByte(out, '\n')
	if pat == nil || !pat.MatchString(out[i+1:]) {
		return out
	}
	return strings.Trim(out[:max(i, 0)], "\n")
}

// prompt is the pattern the session's driver reads the prompt with.
func (c *Conn) prompt() *regexp.Regexp {
	if c.net != nil {
		return c.net.Channel.PromptPattern
	}
	if c.gen != nil {
		return c.gen.Channel.PromptPattern
	}
	return nil
}

// Show runs a command whose output is wanted; a rejection is an error.
func (c *Conn) Show(cmd string) (string, error) {
	r, err := c.Command(cmd)
	if err != nil {
		return "", err
	}
	if r.Failed != nil {
		return "", fmt.Errorf("%s: %w", c.t.Name, &Rejected{Input: cmd, Output: r.Result})
	}
	return r.Result, nil
}

// RunningConfig prints the platform's running config.
func (c *Conn) RunningConfig() (string, error) {
	return c.Show(c.t.Dialect.ShowRunning)
}

// Configure sends config lines in the given privilege level ("" for
// configuration), stopping at the first rejected line, which it returns as
// *Rejected (with err nil: the session is fine). It returns the joined
// output of the lines sent.
func (c *Conn) Configure(lines []string, level string) (string, *Rejected, error) {
	return c.ConfigureAcked(lines, level, nil)
}

// ConfigureAcked is Configure, calling ack with each line the device has
// answered without rejecting it, as it goes: when the session ends half
// way, the lines acked are exactly those the device took.
func (c *Conn) ConfigureAcked(lines []string, level string, ack func(line string)) (string, *Rejected, error) {
	if c.net == nil {
		return "", nil, fmt.Errorf("%s: platform %s has no configuration mode", c.t.Name, c.t.Dialect.Platform)
	}
	for _, l := range lines {
		if err := c.sendable(l); err != nil {
			return "", nil, err
		}
	}
	if len(lines) == 0 {
		return "", nil, nil
	}
	if level == "" {
		level = "configuration"
	}
	c.tr.beginAnswer("entering " + level + " mode")
	if err := c.net.AcquirePriv(level); err != nil {
		if err := c.modeRefused(level, err); err != nil {
			return "", nil, err
		}
	}
	c.tr.endAnswer()
	var out strings.Builder
	for _, l := range lines {
		// The generic driver's SendCommand sends in the privilege level
		// just acquired, as SendConfigs does line after line.
		c.tr.beginAnswer(l)
		r, err := c.net.Driver.SendCommand(l, opoptions.WithTimeoutOps(c.t.Timeout))
		if err != nil {
			return out.String(), nil, c.wrap("configuration", err)
		}
		c.tr.endAnswer()
		out.WriteString(r.Result)
		if r.Failed != nil {
			return out.String(), &Rejected{Input: r.Input, Output: r.Result}, nil
		}
		if r.Result != "" {
			out.WriteByte('\n')
		}
		if ack != nil {
			ack(l)
		}
	}
	return out.String(), nil, nil
}

// AddPrivilege registers a privilege level (a configuration session's
// prompt) with the network driver.
func (c *Conn) AddPrivilege(p *network.PrivilegeLevel) {
	if c.net == nil {
		return
	}
	c.net.PrivilegeLevels[p.Name] = p
	c.net.UpdatePrivileges()
}

// endlessAfter is how much output a command that timed out must have
// had to be reported as output without an end rather than no answer
// (more than the echo of any command fabricgen sends).
const endlessAfter = 4096

func (c *Conn) wrap(what string, err error) error {
	if oe := c.tr.overflowErr(); oe != nil {
		return fmt.Errorf("%s: %s: %w", c.t.Name, what, oe)
	}
	if errors.Is(err, ErrConnectionLost) || !c.tr.IsAlive() {
		return fmt.Errorf("%s: %s: %w", c.t.Name, what, ErrConnectionLost)
	}
	if errors.Is(err, util.ErrTimeoutError) {
		// The device may still answer: a late answer would be read as the
		// next command's. The session is done; callers reconnect.
		n := c.tr.answered()
		_ = c.tr.Close()
		if n > endlessAfter {
			return fmt.Errorf("%s: %s: no end of output after %s (%s received in answer to %q, and no prompt): %w", c.t.Name, what, c.t.Timeout, units.ApproxSize(float64(n)), c.tr.what(), err)
		}
		return fmt.Errorf("%s: %s: no answer within %s: %w", c.t.Name, what, c.t.Timeout, err)
	}
	return fmt.Errorf("%s: %s: %w", c.t.Name, what, err)
}

// ErrModeRefused is a configuration mode the device would not enter (its
// command answered with an error and left the prompt where it was): a
// Junos `configure exclusive` while another session holds the lock.
// Nothing of the lines meant for the mode was sent.
var ErrModeRefused = errors.New("the device refused to enter the configuration mode")

// modeRefused finds out why level could not be entered: when the device
// answered the mode's command with a refusal (the prompt stayed where it
// was), the command is sent once more to keep that answer, and the error
// is ErrModeRefused with it. When the mode can be entered now (it was
// refused only for a moment), it returns nil and the session is in it.
// Other failures are wrapped as they are.
func (c *Conn) modeRefused(level string, err error) error {
	pl, ok := c.net.PrivilegeLevels[level]
	if !errors.Is(err, util.ErrPrivilegeError) || !ok || pl.Escalate == "" || !c.tr.IsAlive() {
		return c.wrap("configuration", err)
	}
	c.tr.beginAnswer(pl.Escalate)
	r, serr := c.net.Driver.SendCommand(pl.Escalate, opoptions.WithTimeoutOps(c.t.Timeout))
	if serr != nil {
		return c.wrap("configuration", fmt.Errorf("%w (sending %q again: %w)", err, pl.Escalate, serr))
	}
	c.tr.endAnswer()
	if c.net.AcquirePriv(level) == nil {
		return nil
	}
	answer := strings.TrimSpace(r.Result)
	if answer == "" {
		return c.wrap("configuration", err)
	}
	return fmt.Errorf("%s: entering %s mode: %q answered %q: %w", c.t.Name, level, pl.Escalate, answer, ErrModeRefused)
}

// shellMarker precedes the exit status Run appends to a shell command.
const shellMarker = "__fabricgen_exit="

var reShellStatus = regexp.MustCompile(`(?m)^` + shellMarker + `(\d+)\s*$`)

// Run runs one command on a POSIX shell (hosts, Cumulus, SONiC) in a
// single round trip: the command, then `echo` of its exit status. It
// returns the output without the status line, the status (-1 when the
// shell printed none), and whether a failure string appeared; a broken
// session is err.
func (c *Conn) Run(cmd string) (string, int, bool, error) {
	r, err := c.command(cmd+"; echo "+shellMarker+"$?", cmd)
	if err != nil {
		return "", 0, false, err
	}
	// The status line is the last line that starts with the marker; only
	// that line is matched (a pass of the multi-line pattern over a large
	// output costs more than the command).
	at := strings.LastIndex(r.Result, shellMarker)
	for at > 0 && r.Result[at-1] != '\n' {
		at = strings.LastIndex(r.Result[:at], shellMarker)
	}
	if at < 0 {
		return r.Result, -1, r.Failed != nil, nil
	}
	end := strings.IndexByte(r.Result[at:], '\n')
	if end < 0 {
		end = len(r.Result) - at
	}
	m := reShellStatus.FindStringSubmatch(r.Result[at : at+end])
	if m == nil {
		return r.Result, -1, r.Failed != nil, nil
	}
	status, _ := strconv.Atoi(m[1])
	out := strings.TrimRight(r.Result[:at], "\n")
	return out, status, r.Failed != nil, nil
}
