package emulator

import (
	"testing"
	"time"

	"github.com/fabricgen/fabricgen/internal/lab/cli"
	"github.com/fabricgen/fabricgen/schema"
)

func FuzzJunosStatement(f *testing.F) {
	for _, s := range []string{
		`set interfaces et-0/0/1 description "a b"`, "set interfaces et-0/0/1 unit 0 family inet filter input-list [ A B ]",
		"delete class-of-service", "set class-of-service schedulers S transmit-rate percent 5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		env := &cli.Env{Spec: cli.Spec{Name: "j", Platform: schema.Platform("juniper_junos"), Username: "u"}, Now: time.Now,
			AfterFunc: func(time.Duration, func()) func() { return func() {} }}
		j, err := newJunos(env)
		if err != nil {
			t.Fatal(err)
		}
		cand := j.active.Clone()
		_ = j.Apply(cand, line)
		_ = junosCompare(j.active, cand)
	})
}
