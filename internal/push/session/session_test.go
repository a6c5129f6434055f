package session_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/fabricgen/fabricgen/internal/lab"
	"github.com/fabricgen/fabricgen/internal/platform"
	"github.com/fabricgen/fabricgen/internal/push/dialect"
	"github.com/fabricgen/fabricgen/internal/push/session"
	"github.com/fabricgen/fabricgen/platforms"
	"github.com/fabricgen/fabricgen/schema"
)

func val(s string) schema.Value[string] { return schema.Value[string]{V: s, Set: s != ""} }

// writeKey writes an ed25519 private key (encrypted when passphrase is
// set) and returns its path and public key.
func writeKey(t *testing.T, passphrase string) (string, ssh.PublicKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var blk *pem.Block
	if passphrase != "" {
		blk, err = ssh.MarshalPrivateKeyWithPassphrase(priv, "", []byte(passphrase))
	} else {
		blk, err = ssh.MarshalPrivateKey(priv, "")
	}
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(p, pem.EncodeToMemory(blk), 0o600); err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return p, sp
}

// TestAuthMethods logs in to a lab EOS device with a key file, a
// passphrase-protected key (passphrase from the environment) and the SSH
// agent; scrapligo's own transports support none of the last two.
func TestAuthMethods(t *testing.T) {
	plainKey, plainPub := writeKey(t, "")
	lockedKey, lockedPub := writeKey(t, "key-pass-phrase")
	agentKey, agentPub := writeKey(t, "")

	keyring := agent.NewKeyring()
	raw, _ := os.ReadFile(agentKey)
	k, err := ssh.ParseRawPrivateKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := keyring.Add(agent.AddedKey{PrivateKey: k}); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _ = agent.ServeAgent(keyring, c); _ = c.Close() }()
		}
	}()

	l, err := lab.Start(context.Background(), []lab.DeviceSpec{{Name: "leaf1", Platform: cliPlatform(t).Name, Username: "admin",
		AuthorizedKeys: []ssh.PublicKey{plainPub, lockedPub, agentPub}}}, lab.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	hk, err := session.NewHostKeys([]string{l.KnownHostsPath()}, false)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PASS": "key-pass-phrase", "SSH_AUTH_SOCK": sock}
	getenv := func(k string) string { return env[k] }
	dl := cliPlatform(t).Dialect()

	cases := []struct {
		name string
		cred schema.Credentials
	}{
		{"key file", schema.Credentials{Username: val("admin"), KeyFile: val(plainKey)}},
		{"passphrase key", schema.Credentials{Username: val("admin"), KeyFile: val(lockedKey), PassphraseEnv: val("PASS")}},
		{"agent", schema.Credentials{Username: val("admin"), Agent: schema.Value[bool]{V: true, Set: true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			auth, err := session.ResolveAuth("leaf1", c.cred, getenv, nil)
			if err != nil {
				t.Fatal(err)
			}
			conn, err := session.Open(context.Background(), session.Target{Name: "leaf1", Addr: l.Addr("leaf1"), Dialect: dl, Auth: auth, HostKeys: hk, Timeout: time.Minute, Getenv: getenv})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			out, err := conn.RunningConfig()
			if err != nil || !strings.Contains(out, "hostname leaf1") {
				t.Errorf("show running-config: %v\n%s", err, out)
			}
		})
	}

	// A passphrase-protected key without its passphrase is a clear error
	// naming the variable to set, not a failed login.
	_, err = session.ResolveAuth("leaf1", schema.Credentials{Username: val("admin"), KeyFile: val(lockedKey)}, getenv, nil)
	if err == nil || !strings.Contains(err.Error(), "passphrase_env") {
		t.Errorf("locked key without passphrase: %v", err)
	}
	_, err = session.ResolveAuth("leaf1", schema.Credentials{Username: val("admin"), PasswordEnv: val("UNSET")}, getenv, nil)
	if err == nil || !strings.Contains(err.Error(), "UNSET") {
		t.Errorf("unset password variable: %v", err)
	}
}

// TestHandshakeBounded: a server that accepts TCP and never speaks SSH
// makes Open fail within the timeout instead of hanging.
func TestHandshakeBounded(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // hold the connection open, silent
		}
	}()
	dl := cliPlatform(t).Dialect()
	auth, err := session.ResolveAuth("mute", schema.Credentials{Username: val("admin"), PasswordEnv: val("P")}, func(string) string { return "x" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	hk, _ := session.NewHostKeys(nil, true)
	start := time.Now()
	_, err = session.Open(context.Background(), session.Target{Name: "mute", Addr: ln.Addr().String(), Dialect: dl, Auth: auth, HostKeys: hk, Timeout: 500 * time.Millisecond})
	if err == nil {
		t.Fatal("Open succeeded against a mute server")
	}
	// Open gives up after 1.5 × Timeout; the bound leaves room for a
	// loaded machine while still catching an Open that waits forever.
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("Open took %s with a 500ms timeout", d)
	}
	if !strings.Contains(err.Error(), "did not finish within") {
		t.Errorf("error %q does not say the handshake timed out", err)
	}
}

// cliPlatform is a switch platform of the registry the lab emulates whose
// session is a network CLI (the first such, in registry order): what the
// tests of authentication and of a silent device need of a platform.
func cliPlatform(t *testing.T) platform.Platform {
	t.Helper()
	for _, pl := range platforms.All() {
		if pl.Emulator != nil && !pl.Spec.Host && pl.Dialect().Driver == dialect.DriverNetwork {
			return pl
		}
	}
	t.Fatal("no registry platform the lab emulates with a network CLI")
	return platform.Platform{}
}
