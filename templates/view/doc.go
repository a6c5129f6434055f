// Package view is the kit of the render layer: what every platform's view
// builder (platforms/<name>/view.go) builds on. Base and the shared view
// types are the data every platform's templates receive; BuildBase fills
// them; UnsupportedError, Refusals and Collector carry what a platform
// cannot express; StanzaSet runs a platform's sub-templates for its
// builder; Funcs are the helpers templates may call. It imports no
// platform and no engine: package templates (the engine) and the
// platform folders import it.
package view
