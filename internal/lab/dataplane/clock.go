package dataplane

import (
	"sync"
	"time"
)

// Epoch is the lab clock's zero: lab time t is Epoch + t on the wall.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Clock is a lab clock: it starts at 0 and moves only when advanced.
// It is safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Duration
}

// NewClock returns a clock at 0.
func NewClock() *Clock { return &Clock{} }

// Now is the time since the lab started, on the lab clock.
func (c *Clock) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Time is Now as a wall time (Epoch + Now), for snapshots.
func (c *Clock) Time() time.Time { return Epoch.Add(c.Now()) }

// MaxAdvance bounds one Advance.
const MaxAdvance = 24 * time.Hour

// Advance moves the clock forward by d (0 < d <= MaxAdvance) and
// returns the new time.
func (c *Clock) Advance(d time.Duration) time.Duration {
	if d <= 0 {
		return c.Now()
	}
	d = min(d, MaxAdvance)
	c.mu.Lock()
	c.now += d
	now := c.now
	c.mu.Unlock()
	return now
}
