package osmconf

import (
	"reflect"
	"strings"
	"testing"
)

// checkErr checks a table case's error: with wantErr set, err must contain
// it and the case is over (checkErr returns true); otherwise err must be
// nil.
func checkErr(t *testing.T, err error, wantErr string) bool {
	t.Helper()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("err = %v, want %q", err, wantErr)
		}
		return true
	}
	if err != nil {
		t.Fatal(err)
	}
	return false
}

// parseCase is one case of a parser's table test: the text, and the error
// it must fail with (a part of it) or else the value it must parse to.
type parseCase[T any] struct {
	name, text string
	want       T
	wantErr    string
}

// runParseCases runs each case as a subtest of t.
func runParseCases[T any](t *testing.T, parse func(string) (T, error), cases []parseCase[T]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parse(tc.text)
			if checkErr(t, err, tc.wantErr) {
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n %+v\nwant\n %+v", got, tc.want)
			}
		})
	}
}

// addRenders seeds f with every rendered file of that name, then with
// the texts given.
func addRenders(f *testing.F, name string, texts ...string) {
	f.Helper()
	for _, rd := range renderDirs {
		f.Add(readRender(f, rd.dir, rd.prefix+name))
	}
	for _, text := range texts {
		f.Add(text)
	}
}

// fuzzParse fuzzes parse, seeded by addRenders(f, name, seeds...): badErr,
// when not nil, checks each error and check each value parse returns.
func fuzzParse[T any](f *testing.F, name string, seeds []string, parse func(string) (T, error),
	badErr func(t *testing.T, text string, err error), check func(t *testing.T, v T)) {
	f.Helper()
	addRenders(f, name, seeds...)
	f.Fuzz(func(t *testing.T, text string) {
		v, err := parse(text)
		if err != nil {
			if badErr != nil {
				badErr(t, text, err)
			}
			return
		}
		check(t, v)
	})
}
