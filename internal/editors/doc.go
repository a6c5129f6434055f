// Package editors holds the tests of the editor integrations under
// editors/ (the VS Code extension in editors/vscode): they are Node.js
// projects, outside the Go build, so their checks live here, where
// go test ./... and make test run them. The package has no API.
package editors
