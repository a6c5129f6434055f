package session

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/fabricgen/fabricgen/internal/readlimit"
)

// HostKeys decides which server host keys are accepted.
type HostKeys struct {
	// Files are known_hosts files; the default is ~/.ssh/known_hosts.
	Files []string
	// Insecure accepts any host key. Only --insecure-ignore-host-key sets
	// it, and the command prints a warning.
	Insecure bool

	callback ssh.HostKeyCallback
}

// NewHostKeys loads known_hosts files (default ~/.ssh/known_hosts). A
// missing file is an error naming it, unless insecure.
func NewHostKeys(files []string, insecure bool) (*HostKeys, error) {
	h := &HostKeys{Files: files, Insecure: insecure}
	if insecure {
		return h, nil
	}
	if len(h.Files) == 0 {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("find ~/.ssh/known_hosts: %w; pass --known-hosts FILE", err)
		}
		h.Files = []string{filepath.Join(home, ".ssh", "known_hosts")}
	}
	cb, err := knownHostsCallback(h.Files)
	if err != nil {
		return nil, err
	}
	h.callback = cb
	return h, nil
}

// MaxKnownHostsSize bounds one known_hosts file: a line is a few hundred
// bytes, so this holds hundreds of thousands of hosts.
const MaxKnownHostsSize = 64 << 20

// knownHostsCallback reads each known_hosts file with the bounded reader
// (a regular file of at most MaxKnownHostsSize; a named pipe or device is
// refused, never waited on) and parses private copies of what it read:
// x/crypto's knownhosts opens files by name itself, so handing it the
// user's paths would let a file swapped for a pipe after the check block
// the command. Errors name the user's file, not the copy.
func knownHostsCallback(files []string) (ssh.HostKeyCallback, error) {
	tmp, err := os.MkdirTemp("", "fabricgen-known-hosts-")
	if err != nil {
		return nil, fmt.Errorf("read known_hosts: %w", err)
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	copies := make([]string, len(files))
	names := make(map[string]string, len(files))
	for i, f := range files {
		b, err := readlimit.File(f, MaxKnownHostsSize)
		if err != nil {
			return nil, fmt.Errorf("known_hosts file %s: %w; pass --known-hosts FILE with the devices' host keys (fabricgen lab up writes one), or --insecure-ignore-host-key to skip verification", f, err)
		}
		copies[i] = filepath.Join(tmp, fmt.Sprintf("%d", i))
		if err := readlimit.WriteFile(copies[i], b, 0o600); err != nil {
			return nil, fmt.Errorf("read known_hosts %s: %w", f, err)
		}
		names[copies[i]] = f
	}
	cb, err := knownhosts.New(copies...)
	if err != nil {
		msg := err.Error()
		for c, f := range names {
			msg = strings.ReplaceAll(msg, c, f)
		}
		return nil, fmt.Errorf("read known_hosts %v: %s", files, msg)
	}
	return cb, nil
}

// HostKeyError is an unknown or changed host key; it carries the
// fingerprint the server offered so a person can verify it.
type HostKeyError struct {
	Addr        string
	Fingerprint string
	KeyType     string
	// Changed is true when known_hosts has a different key for the host.
	Changed bool
	Files   []string
}

// Error says which key was offered and what to do about it.
func (e *HostKeyError) Error() string {
	if e.Changed {
		return fmt.Sprintf("host key for %s does not match known_hosts (%v): the server offered %s %s; "+
			"this may be a man-in-the-middle attack or a re-installed device: verify the fingerprint with the device's owner, then replace its line in known_hosts",
			e.Addr, e.Files, e.KeyType, e.Fingerprint)
	}
	return fmt.Sprintf("host key for %s is not in known_hosts (%v): the server offered %s %s; "+
		"verify the fingerprint with the device's owner, then add it to known_hosts (for example `ssh-keyscan -p PORT HOST`) or pass --known-hosts FILE",
		e.Addr, e.Files, e.KeyType, e.Fingerprint)
}

// Callback returns the ssh.HostKeyCallback for the configured policy.
func (h *HostKeys) Callback() ssh.HostKeyCallback {
	if h.Insecure {
		return ssh.InsecureIgnoreHostKey() //nolint:gosec // explicit --insecure-ignore-host-key
	}
	return func(hostname string, remote net.Addr, key ssh.PublicKey) error {
		err := h.callback(hostname, remote, key)
		if err == nil {
			return nil
		}
		var ke *knownhosts.KeyError
		if errors.As(err, &ke) {
			return &HostKeyError{
				Addr:        hostname,
				Fingerprint: ssh.FingerprintSHA256(key),
				KeyType:     key.Type(),
				Changed:     len(ke.Want) > 0,
				Files:       h.Files,
			}
		}
		return fmt.Errorf("check host key of %s: %w", hostname, err)
	}
}

// Algorithms returns the host key algorithms known_hosts holds for addr,
// so the handshake asks for a key type we can verify (x/crypto otherwise
// prefers ECDSA and reports a mismatch when only ed25519 is pinned). Nil
// means no preference.
func (h *HostKeys) Algorithms(addr string) []string {
	if h.Insecure {
		return nil
	}
	probe := probeKey{}
	err := h.callback(knownhosts.Normalize(addr), &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}, probe)
	var ke *knownhosts.KeyError
	if !errors.As(err, &ke) || len(ke.Want) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, k := range ke.Want {
		for _, a := range algorithmsFor(k.Key.Type()) {
			if !seen[a] {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	sort.Strings(out)
	return out
}

func algorithmsFor(keyType string) []string {
	if keyType == ssh.KeyAlgoRSA {
		return []string{ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA}
	}
	return []string{keyType}
}

// probeKey is a key no known_hosts line holds, used to list the keys that are there.
type probeKey struct{}

// Type, Marshal and Verify make probeKey an ssh.PublicKey.
func (probeKey) Type() string                        { return "fabricgen-probe" }
func (probeKey) Marshal() []byte                     { return []byte("fabricgen-probe") }
func (probeKey) Verify([]byte, *ssh.Signature) error { return errors.New("probe key") }
