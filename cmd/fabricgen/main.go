// Command fabricgen checks, renders and pushes lossless RoCEv2 fabric intent.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], newStreams())
	stop()
	os.Exit(code)
}
