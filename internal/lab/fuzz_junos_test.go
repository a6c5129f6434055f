package lab

import (
	"testing"
	"time"

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
		env := &deviceEnv{spec: emuSpec{Name: "j", Platform: schema.JuniperJunos, Username: "u"}, now: time.Now,
			afterFunc: func(time.Duration, func()) func() { return func() {} }}
		j, err := newJunos(env)
		if err != nil {
			t.Fatal(err)
		}
		cand := j.active.clone()
		_ = j.apply(cand, line)
		_ = junosCompare(j.active, cand)
	})
}
