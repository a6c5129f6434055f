package push

import (
	"errors"
	"fmt"
	"strings"

	"github.com/scrapli/scrapligo/response"

	"github.com/fabricgen/fabricgen/internal/push/session"
)

// shell runs one shell command and turns a non-zero exit status or a
// failure string into an error naming the command and its output.
func (a *applier) shell(cmd string) (string, error) {
	out, status, failed, err := a.conn.Run(cmd)
	switch {
	case err != nil:
		return out, err
	case failed || status < 0:
		return out, fmt.Errorf("the device rejected %q: %s", cmd, strings.TrimSpace(out))
	case status != 0:
		return out, fmt.Errorf("%q exited with status %d: %s", cmd, status, strings.TrimSpace(out))
	}
	return out, nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// firstErr is the session error, else the device's rejection.
func firstErr(err error, rej *session.Rejected) error {
	if err != nil {
		return err
	}
	if rej != nil {
		return rej
	}
	return errors.New("the device gave no reason")
}

// firstErrOrNil is the session error, else the device's rejection, else
// nil.
func firstErrOrNil(err error, rej *session.Rejected) error {
	if err != nil {
		return err
	}
	if rej != nil {
		return rej
	}
	return nil
}

// rejection is a response's rejection, or nil.
func rejection(r *response.Response) *session.Rejected {
	if r == nil || r.Failed == nil {
		return nil
	}
	return &session.Rejected{Input: r.Input, Output: r.Result}
}
