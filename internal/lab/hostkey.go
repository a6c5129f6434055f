package lab

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"

	"golang.org/x/crypto/ssh"

	"github.com/fabricgen/fabricgen/internal/readlimit"
)

// newHostKey generates an ed25519 host key.
func newHostKey() (ssh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate ed25519 key: %w", err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		return nil, fmt.Errorf("host key signer: %w", err)
	}
	return s, nil
}

// loadOrCreateHostKey reads an OpenSSH private key from path, or creates
// and writes a new ed25519 key there when the file does not exist.
func loadOrCreateHostKey(path string) (ssh.Signer, error) {
	data, err := readlimit.File(path, 1<<20)
	if err == nil {
		s, perr := ssh.ParsePrivateKey(data)
		if perr != nil {
			return nil, fmt.Errorf("host key %s is not an unencrypted OpenSSH private key (delete it to get a new one): %w", path, perr)
		}
		return s, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read host key: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate ed25519 key: %w", err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "fabricgen lab host key")
	if err != nil {
		return nil, fmt.Errorf("encode host key: %w", err)
	}
	if err := readlimit.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		return nil, fmt.Errorf("write host key: %w", err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		return nil, fmt.Errorf("host key signer: %w", err)
	}
	return s, nil
}
