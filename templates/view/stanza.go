package view

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"text/template"
)

// StanzaSet runs a platform's named sub-templates ("interface", ...) for
// the Go builders, which store the result in the view (EOSInterface.Text,
// ...) for device.tmpl to print. A stanza of the embedded templates is
// executed once per distinct view: the view's identity fields (the port
// name, description, address), which the embedded sub-templates print
// verbatim, are replaced by marks, the text is cached under the rest of the
// view, and the marks are filled in per port. Override templates may do
// anything with those fields, so they run on the real view every time,
// within the override limits.
type StanzaSet struct {
	// Embedded is the embedded set (nil when the platform's templates are overridden).
	Embedded *template.Template
	// Over runs the override set, or is nil.
	Over Overrides
	// cache holds stanzaKey → string for the embedded set.
	cache sync.Map
	// named holds namedKey → string, the filled text of stanzas whose view
	// is a function of their key and one name (host ports), for the
	// embedded set and an override alike; namedN counts its entries, at
	// most maxNamed.
	named  sync.Map
	namedN atomic.Int64
	// CheckOnly marks the Checker's set: builders run to the end, for every
	// refusal, and stanzas render as nothing (the Checker prints no text).
	CheckOnly bool
}

// Overrides runs a platform's override templates (--templates DIR)
// within the override limits: Execute writes sub-template name, run on
// data, to buf.
type Overrides interface {
	Execute(buf *bytes.Buffer, name string, data any) error
}

// stanzaKey identifies a cached stanza: the sub-template and the view
// without its identity fields (a comparable value).
type stanzaKey struct {
	name string
	key  any
}

// markByte starts a mark in a cached stanza; the byte after it is the index
// of the identity value it stands for. Names, descriptions and addresses
// never contain it (schema.CheckRenderable refuses control characters, and
// descriptions are passed through oneLine).
const markByte = '\x00'

// Mark returns the stand-in of identity value i, or "" when v is "" (an
// empty field prints nothing, and the key records that it is empty).
func Mark(i int, v string) string {
	if v == "" {
		return ""
	}
	return string([]byte{markByte, byte(i)})
}

// RenderStanza executes sub-template name of s for the view *v. marked
// returns a copy of the view with identity value i replaced by
// Mark(i, values[i]), and key is the comparable rest of the view. With the
// embedded set the text is cached under key and the marks are replaced by
// values; an override set runs on the view itself. Copies of the view
// reach the template, so *v does not escape.
func RenderStanza[V any](s *StanzaSet, name string, key any, v *V, marked func(V) V, values ...string) (string, error) {
	if s == nil {
		return "", fmt.Errorf("no template set to render the %q stanza with", name)
	}
	if s.CheckOnly {
		return "", nil
	}
	if s.Over != nil {
		c := *v
		var buf bytes.Buffer
		if err := s.Over.Execute(&buf, name, &c); err != nil {
			return "", fmt.Errorf("executing the %q template: %w", name, err)
		}
		return buf.String(), nil
	}
	k := stanzaKey{name, key}
	var text string
	if c, ok := s.cache.Load(k); ok {
		text, _ = c.(string)
	} else {
		m := marked(*v)
		var b strings.Builder
		if err := s.Embedded.ExecuteTemplate(&b, name, &m); err != nil {
			return "", fmt.Errorf("executing the %q template: %w", name, err)
		}
		text = b.String()
		s.cache.Store(k, text)
	}
	return FillMarks(text, values), nil
}

// namedKey identifies a filled stanza: its stanzaKey and the name its
// identity values derive from.
type namedKey struct {
	stanzaKey
	id string
}

// maxNamed bounds the named cache: fabrics repeat host port names (eth0,
// ens1f0np0), and past this many distinct ones a stanza is filled anew.
const maxNamed = 4096

// CachedNamed returns the text storeNamed kept for sub-template name, key
// and id. Templates are pure functions of their view (their functions
// only format), so a view determined by key and id always renders alike.
func (s *StanzaSet) CachedNamed(name string, key any, id string) (string, bool) {
	if s == nil || s.CheckOnly {
		return "", false
	}
	v, ok := s.named.Load(namedKey{stanzaKey{name, key}, id})
	if !ok {
		return "", false
	}
	text, ok := v.(string)
	return text, ok
}

// StoreNamed keeps text for cachedNamed. Call it only for a view that is
// a function of key and id, and that had no refusal.
func (s *StanzaSet) StoreNamed(name string, key any, id, text string) {
	if s == nil || s.CheckOnly || s.namedN.Load() >= maxNamed {
		return
	}
	if _, loaded := s.named.LoadOrStore(namedKey{stanzaKey{name, key}, id}, text); !loaded {
		s.namedN.Add(1)
	}
}

// Execute runs sub-template name on data without caching (for stanzas
// that are few per device, such as ACLs), within the override limits when
// the set is an override.
func (s *StanzaSet) Execute(name string, data any) (string, error) {
	if s == nil {
		return "", fmt.Errorf("no template set to render the %q stanza with", name)
	}
	if s.CheckOnly {
		return "", nil
	}
	var buf bytes.Buffer
	var err error
	if s.Over != nil {
		err = s.Over.Execute(&buf, name, data)
	} else {
		err = s.Embedded.ExecuteTemplate(&buf, name, data)
	}
	if err != nil {
		return "", fmt.Errorf("executing the %q template: %w", name, err)
	}
	return buf.String(), nil
}

// FillMarks replaces each mark in text by its value.
func FillMarks(text string, values []string) string {
	i := strings.IndexByte(text, markByte)
	if i < 0 {
		return text
	}
	n := len(text)
	for _, v := range values {
		n += len(v)
	}
	var b strings.Builder
	b.Grow(n)
	for i >= 0 && i+1 < len(text) {
		b.WriteString(text[:i])
		if j := int(text[i+1]); j < len(values) {
			b.WriteString(values[j])
		}
		text = text[i+2:]
		i = strings.IndexByte(text, markByte)
	}
	b.WriteString(text)
	return b.String()
}
