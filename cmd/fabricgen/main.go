// Command fabricgen checks, renders and pushes lossless RoCEv2 fabric intent.
package main

import (
	"context"
	"os"
)

func main() {
	ctx, intr, stop := newInterrupts(context.Background())
	s := newStreams()
	s.intr = intr
	code := run(ctx, os.Args[1:], s)
	stop()
	os.Exit(code)
}
