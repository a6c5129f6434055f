package lab

import (
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/schema"
)

func testEnv(name string, p schema.Platform) *cli.Env {
	return &cli.Env{Spec: cli.Spec{Name: name, Platform: p, Username: testUser, Password: testPass},
		AfterFunc: func(time.Duration, func()) func() { return func() {} }, Now: time.Now}
}
