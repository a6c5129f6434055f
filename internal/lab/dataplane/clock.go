package dataplane

import (
	"sync"
	"time"
)

// Epoch is the lab clock's zero: lab time t is Epoch + t on the wall.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Clock is a lab clock: it starts at 0 and moves when advanced, and, for a
// real-time clock (NewRealClock), with the wall clock too. It is safe for
// concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Duration
	// wall and start are a real-time clock's source and its reading when
	// the clock was made; wall is nil for a manual clock.
	wall  func() time.Time
	start time.Time
	// last is the latest reading, so the clock never goes back.
	last time.Duration
}

// NewClock returns a manual clock at 0: it moves only when advanced, so
// tests never sleep.
func NewClock() *Clock { return &Clock{} }

// NewRealClock returns a clock at 0 that moves with wall (time.Now in
// fabricgen lab up), plus whatever Advance adds, so that a check that
// waits its interval on the wall sees the lab's counters move.
func NewRealClock(wall func() time.Time) *Clock {
	return &Clock{wall: wall, start: wall()}
}

// Real reports whether the clock moves with the wall clock.
func (c *Clock) Real() bool { return c.wall != nil }

// Now is the time since the lab started, on the lab clock.
func (c *Clock) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *Clock) nowLocked() time.Duration {
	if c.wall == nil {
		return c.now
	}
	c.last = max(c.last, c.now+c.wall().Sub(c.start))
	return c.last
}

// Time is Now as a wall time (Epoch + Now), for snapshots.
func (c *Clock) Time() time.Time { return Epoch.Add(c.Now()) }

// MaxAdvance bounds one Advance.
const MaxAdvance = 24 * time.Hour

// Advance moves the clock forward by d (0 < d <= MaxAdvance) and
// returns the new time.
func (c *Clock) Advance(d time.Duration) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d > 0 {
		c.now += min(d, MaxAdvance)
	}
	return c.nowLocked()
}
