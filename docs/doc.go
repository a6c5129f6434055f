// Package docs embeds the user documentation that programs show as help:
// the intent language reference, whose attribute tables the language
// server reads for hover and completion text.
package docs

import _ "embed"

// Language is docs/language.md, the reference of the intent language: one
// table row per attribute, under a "### `BLOCK "NAME"`" heading (nested
// blocks under a bold "**`TYPE`**" line).
//
//go:embed language.md
var Language string
