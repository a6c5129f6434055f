package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interrupts turns SIGINT/SIGTERM into cancellation the way terraform
// does. By default the first signal cancels the command's context (a
// load, a lint or a render stops) and a second one calls force (exit at
// once: whatever did not stop is only reading). A command that changes
// devices asks for graceful handling first: then the first signal only
// closes the channel Graceful returned (start nothing new, let devices in
// flight finish or roll back) and the second cancels the context (stop
// at once).
type interrupts struct {
	cancel context.CancelFunc
	// force ends the process on a second signal outside graceful mode.
	force func()

	mu       sync.Mutex
	graceful bool
	first    chan struct{}
	closed   bool
	// cancelled is set once a signal cancelled the context.
	cancelled bool
	// onFirst is told about the first signal in graceful mode.
	onFirst func()
}

// newInterrupts returns a context the second signal (or the first, when
// not graceful) cancels, and the interrupts watching for them; force is
// called on a second signal outside graceful mode. stop releases the
// signal handler.
func newInterrupts(parent context.Context, force func()) (context.Context, *interrupts, func()) {
	ctx, cancel := context.WithCancel(parent)
	in := &interrupts{cancel: cancel, force: force, first: make(chan struct{})}
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				in.signal()
			case <-done:
				return
			}
		}
	}()
	return ctx, in, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}

// signal handles one signal.
func (in *interrupts) signal() {
	in.mu.Lock()
	if in.graceful && !in.closed {
		in.closed = true
		close(in.first)
		f := in.onFirst
		in.mu.Unlock()
		if f != nil {
			f()
		}
		return
	}
	again := in.cancelled && !in.graceful
	in.cancelled = true
	in.mu.Unlock()
	if again && in.force != nil {
		in.force()
		return
	}
	in.cancel()
}

// Graceful switches to graceful handling and returns the channel the
// first signal closes; onFirst runs then (to tell the operator).
func (in *interrupts) Graceful(onFirst func()) <-chan struct{} {
	if in == nil {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.graceful = true
	in.onFirst = onFirst
	return in.first
}
