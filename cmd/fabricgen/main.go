// Command fabricgen checks, renders and pushes lossless RoCEv2 fabric intent.
package main

import (
	"context"
	"fmt"
	"os"
)

func main() {
	ctx, intr, stop := newInterrupts(context.Background(), func() {
		fmt.Fprintln(os.Stderr, "Error: interrupted twice: exiting at once.")
		os.Exit(exitFailed)
	})
	s := newStreams()
	s.intr = intr
	code := run(ctx, os.Args[1:], s)
	stop()
	os.Exit(code)
}
