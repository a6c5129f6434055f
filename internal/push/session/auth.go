package session

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/fabricgen/fabricgen/internal/readlimit"
	"github.com/fabricgen/fabricgen/schema"
)

// Auth is how to log in to one device. It holds secrets in memory only; it
// has no String or JSON form and errors built from it name environment
// variables and files, never values.
type Auth struct {
	Username string
	password string
	keyFile  string
	// passphrase decrypts keyFile.
	passphrase string
	agent      bool
}

// Secrets returns the secret values in use, so callers can scrub output.
func (a *Auth) Secrets() []string {
	var out []string
	for _, s := range []string{a.password, a.passphrase} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Password returns the login password (empty when none), for the enable
// prompt on platforms that ask for it again.
func (a *Auth) Password() string { return a.password }

// WithUser is c with its username replaced by user, when user is given
// (an inventory's ansible_user overrides the intent's credentials).
func WithUser(c schema.Credentials, user string) schema.Credentials {
	if user != "" {
		c.Username = schema.Value[string]{V: user, Set: true}
	}
	return c
}

// ResolveAuth turns a device's credential references into an Auth: the
// password from the environment variable the intent names, the key file
// and its passphrase (from its variable, or prompt when interactive), the
// agent from SSH_AUTH_SOCK.
func ResolveAuth(dev string, c schema.Credentials, getenv func(string) string, prompt func(msg string) (string, error)) (*Auth, error) {
	a := &Auth{Username: c.Username.V, agent: c.Agent.V, keyFile: ExpandHome(c.KeyFile.V)}
	if a.Username == "" {
		return nil, fmt.Errorf("device %s: credentials set no username; add `username = \"...\"` to its credentials block", dev)
	}
	if env := c.PasswordEnv.V; env != "" {
		a.password = getenv(env)
		if a.password == "" {
			return nil, fmt.Errorf("device %s: environment variable %s (credentials.password_env) is empty or unset; export it before running", dev, env)
		}
	}
	if a.keyFile != "" {
		if env := c.PassphraseEnv.V; env != "" {
			a.passphrase = getenv(env)
		}
	}
	if a.password == "" && a.keyFile == "" && !a.agent {
		return nil, fmt.Errorf("device %s: credentials give no way to log in; set password_env, key_file or agent = true", dev)
	}
	if a.keyFile != "" && a.passphrase == "" {
		pem, err := readKeyFile(a.keyFile)
		if err != nil {
			return nil, fmt.Errorf("device %s: read key file %s: %w", dev, a.keyFile, err)
		}
		if _, err := ssh.ParsePrivateKey(pem); err != nil {
			var missing *ssh.PassphraseMissingError
			if !errors.As(err, &missing) {
				return nil, fmt.Errorf("device %s: key file %s: %w", dev, a.keyFile, err)
			}
			if prompt == nil {
				return nil, fmt.Errorf("device %s: key file %s is passphrase protected; set credentials.passphrase_env to a variable holding the passphrase", dev, a.keyFile)
			}
			p, err := prompt(fmt.Sprintf("Passphrase for %s: ", a.keyFile))
			if err != nil {
				return nil, fmt.Errorf("device %s: read passphrase for %s: %w", dev, a.keyFile, err)
			}
			a.passphrase = p
		}
	}
	return a, nil
}

// MaxKeyFileSize bounds a private key file: real keys are a few KB, and
// a path such as /dev/zero must fail at once, not fill the memory.
const MaxKeyFileSize = 1 << 20

// readKeyFile reads a key file through a bounded reader.
func readKeyFile(path string) ([]byte, error) {
	b, err := readlimit.File(path, MaxKeyFileSize)
	if errors.Is(err, readlimit.ErrTooLarge) {
		return nil, fmt.Errorf("%w; an SSH private key is a few KB", err)
	}
	return b, err
}

// ExpandHome replaces a leading "~/" with the home directory.
func ExpandHome(p string) string {
	rest, ok := strings.CutPrefix(p, "~/")
	if !ok {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return filepath.Join(home, rest)
}

// methods builds the SSH auth methods: agent, key, password, and
// keyboard-interactive answering with the password. The returned closer
// releases the agent connection.
func (a *Auth) methods(getenv func(string) string) ([]ssh.AuthMethod, func(), error) {
	var ms []ssh.AuthMethod
	closer := func() {}
	if a.agent {
		sock := getenv("SSH_AUTH_SOCK")
		if sock == "" {
			return nil, closer, errors.New("credentials ask for the SSH agent but SSH_AUTH_SOCK is not set; start ssh-agent and ssh-add your key")
		}
		conn, err := net.Dial("unix", sock)
		if err != nil {
			return nil, closer, fmt.Errorf("connect to the SSH agent at SSH_AUTH_SOCK: %w", err)
		}
		closer = func() { _ = conn.Close() }
		ms = append(ms, ssh.PublicKeysCallback(agent.NewClient(conn).Signers))
	}
	if a.keyFile != "" {
		pem, err := readKeyFile(a.keyFile)
		if err != nil {
			closer()
			return nil, func() {}, fmt.Errorf("read key file %s: %w", a.keyFile, err)
		}
		var signer ssh.Signer
		if a.passphrase != "" {
			signer, err = ssh.ParsePrivateKeyWithPassphrase(pem, []byte(a.passphrase))
		} else {
			signer, err = ssh.ParsePrivateKey(pem)
		}
		if err != nil {
			closer()
			if errors.Is(err, x509.IncorrectPasswordError) {
				return nil, func() {}, fmt.Errorf("key file %s: the passphrase does not decrypt it", a.keyFile)
			}
			return nil, func() {}, fmt.Errorf("key file %s: %w", a.keyFile, err)
		}
		ms = append(ms, ssh.PublicKeys(signer))
	}
	if a.password != "" {
		pw := a.password
		ms = append(ms, ssh.Password(pw), ssh.KeyboardInteractive(
			func(_, _ string, questions []string, _ []bool) ([]string, error) {
				answers := make([]string, len(questions))
				for i := range answers {
					answers[i] = pw
				}
				return answers, nil
			}))
	}
	return ms, closer, nil
}
