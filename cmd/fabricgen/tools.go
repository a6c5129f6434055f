//go:build tools

// Package main pins module dependencies that later stages import.
package main

import (
	_ "github.com/fatih/color"
	_ "github.com/hashicorp/hcl/v2"
	_ "github.com/hashicorp/hcl/v2/ext/dynblock"
	_ "github.com/hashicorp/hcl/v2/ext/tryfunc"
	_ "github.com/hashicorp/hcl/v2/ext/typeexpr"
	_ "github.com/hashicorp/hcl/v2/hclwrite"
	_ "github.com/mattn/go-isatty"
	_ "github.com/owenrumney/go-sarif/v2/sarif"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/scrapli/scrapligo/driver/network"
	_ "github.com/sergi/go-diff/diffmatchpatch"
	_ "github.com/spf13/cobra"
	_ "github.com/vbauerster/mpb/v8"
	_ "github.com/zclconf/go-cty/cty/function/stdlib"
	_ "golang.org/x/crypto/ssh/agent"
	_ "golang.org/x/crypto/ssh/knownhosts"
	_ "golang.org/x/sync/errgroup"
	_ "golang.org/x/term"
)
