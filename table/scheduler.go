package table

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// DeadlineStore is what the scheduler asks the store: the deadlines that
// Store.SaveTable keeps with each table (Save.Deadline, the table's NextDue:
// a move clock's deadline, a thread's archive time).
type DeadlineStore interface {
	// NextDeadline returns the earliest deadline of any table, or
	// ok=false when nothing is due ever.
	NextDeadline(ctx context.Context) (due time.Time, ok bool, err error)
	// DueChannels returns up to limit channels whose deadline is at or
	// before now, earliest first.
	DueChannels(ctx context.Context, now time.Time, limit int) ([]string, error)
}

// Scheduler defaults.
const (
	// DefaultRecheck is how often the scheduler looks at the store even
	// when nothing in this process set an earlier deadline: other replicas'
	// games.
	DefaultRecheck = time.Minute
	// DefaultRetry is how long it waits before looking again at a deadline
	// that is due but was not applied (another process was applying it, or
	// the store failed): a pause, not a spin.
	DefaultRetry = time.Second
	// dueBatch is how many due channels one query fetches.
	dueBatch = 100
)

// SchedulerOptions configure a Scheduler.
type SchedulerOptions struct {
	Store   DeadlineStore // where the Tables' saves keep their deadlines (required)
	Recheck time.Duration // 0: DefaultRecheck
	Retry   time.Duration // 0: DefaultRetry
	Logger  *slog.Logger  // nil discards
	// After is the timer the scheduler sleeps on; nil means time.After.
	// Tests pass their own to fire it when they have moved the clock.
	After func(time.Duration) <-chan time.Time
}

// Scheduler applies what falls due on tables: move clocks that run out,
// threads to archive. It is driven by the store, not by timers of its own
// games: it asks the store for the earliest deadline, sleeps
// until then (or until a save in this process sets an earlier one, or the
// recheck interval passes, for other replicas' games), and applies every
// due deadline through Tables.ApplyDue, an ordinary compare-and-swap save.
// Deadlines that passed while no process ran are applied by the first pass.
type Scheduler struct {
	ts      *Tables
	store   DeadlineStore
	recheck time.Duration
	retry   time.Duration
	after   func(time.Duration) <-chan time.Time
	log     *slog.Logger
	wake    chan struct{}

	mu    sync.Mutex
	armed time.Time // when the current sleep ends (application clock); zero while awake
	run   *running  // the Run in progress, nil before one starts

	stopping chan struct{} // closed by Stop: start no pass, nor apply, after it
	stopOnce sync.Once

	backoff time.Duration // the pause before looking again at a due deadline; doubles while passes fail
}

// running is a Run in progress, as Stop reaches it.
type running struct {
	cancel context.CancelFunc // ends its pass's applies at once
	done   chan struct{}      // closed when Run has returned
}

// ErrNoDeadlines means the scheduler was given no store of deadlines, so
// clocks cannot run.
var ErrNoDeadlines = errors.New("the store keeps no clock deadlines")

// NewScheduler returns a Scheduler for ts; saves through ts wake it when they
// set an earlier deadline.
func NewScheduler(ts *Tables, opt SchedulerOptions) (*Scheduler, error) {
	st := opt.Store
	if st == nil {
		return nil, ErrNoDeadlines
	}
	s := &Scheduler{ts: ts, store: st, recheck: opt.Recheck, retry: opt.Retry, after: opt.After, log: opt.Logger, wake: make(chan struct{}, 1),
		stopping: make(chan struct{})}
	if s.recheck <= 0 {
		s.recheck = DefaultRecheck
	}
	if s.retry <= 0 {
		s.retry = DefaultRetry
	}
	if s.after == nil {
		s.after = time.After
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	ts.clocks.mu.Lock()
	ts.clocks.saved = s.saved
	ts.clocks.mu.Unlock()
	return s, nil
}

// saved is told of every deadline a save in this process set: one earlier
// than the current sleep's end wakes the scheduler.
func (s *Scheduler) saved(deadline time.Time) {
	s.mu.Lock()
	early := !s.armed.IsZero() && deadline.Before(s.armed)
	s.mu.Unlock()
	if early {
		select {
		case s.wake <- struct{}{}:
		default: // already woken
		}
	}
}

// Run enforces clocks until ctx ends, or Stop is called (it then returns
// nil): first whatever is already due (what ran out while no bot ran), then
// each deadline as it comes.
func (s *Scheduler) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &running{cancel: cancel, done: make(chan struct{})}
	defer close(r.done)
	s.mu.Lock()
	s.run = r
	s.mu.Unlock()
	s.backoff = s.retry
	for {
		if s.stopped() {
			return nil
		}
		if _, err := s.RunDue(ctx); err != nil && ctx.Err() == nil {
			// A game that fails every time (a store outage, a table that no
			// longer decodes) must not fill the log once a second forever.
			s.log.Error("clock scheduler", "err", err, "retry_in", s.backoff)
			s.backoff = min(2*s.backoff, s.recheck)
		} else {
			s.backoff = s.retry
		}
		if s.stopped() {
			return nil
		}
		wait := s.nextWait(ctx)
		now := s.ts.now()
		s.mu.Lock()
		s.armed = now.Add(wait)
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.stopping:
			return nil
		case <-s.after(wait):
		case <-s.wake:
		}
		s.mu.Lock()
		s.armed = time.Time{}
		s.mu.Unlock()
	}
}

// Stop ends Run gracefully, for a process that is shutting down: no new
// pass starts, and the pass in flight starts no new apply, but the applies
// it has started complete (each an ordinary save; what was not started
// stays due in the store for the next process). Once ctx ends, what is
// still running is cancelled, and Stop returns an error saying so after Run
// has returned. A Run that had not started yet when Stop was called
// returns at once.
func (s *Scheduler) Stop(ctx context.Context) error {
	s.stopOnce.Do(func() { close(s.stopping) })
	s.mu.Lock()
	r := s.run
	s.mu.Unlock()
	if r == nil {
		return nil
	}
	select {
	case <-r.done:
		return nil
	case <-ctx.Done():
	}
	r.cancel()
	<-r.done
	return fmt.Errorf("clock scheduler: its pass was cancelled, not finished: %w", context.Cause(ctx))
}

// stopped reports whether Stop has been called.
func (s *Scheduler) stopped() bool {
	select {
	case <-s.stopping:
		return true
	default:
		return false
	}
}

// nextWait is how long to sleep: until the earliest deadline, at most the
// recheck interval; the retry pause when that deadline is already due (it
// could not be applied just now) or the store did not answer.
func (s *Scheduler) nextWait(ctx context.Context) time.Duration {
	next, ok, err := s.store.NextDeadline(ctx)
	switch {
	case err != nil:
		if ctx.Err() == nil {
			s.log.Error("clock scheduler: next deadline", "err", err)
		}
		return s.backoff
	case !ok:
		return s.recheck
	}
	d := next.Sub(s.ts.now())
	if d <= 0 {
		return s.backoff
	}
	return min(d, s.recheck)
}

// RunDue applies everything due now (clocks run out, threads to archive)
// and returns how many this call applied (others may have been applied by another process).
func (s *Scheduler) RunDue(ctx context.Context) (int, error) {
	applied := 0
	for {
		due, err := s.store.DueChannels(ctx, s.ts.now(), dueBatch)
		if err != nil {
			return applied, err
		}
		n, errs := s.applyAll(ctx, due)
		applied += n
		// A full batch that moved nothing is another process's work in
		// flight: leave it to the retry rather than spin on it. A stopping
		// scheduler leaves the rest to the next process.
		if len(due) < dueBatch || n == 0 || len(errs) > 0 || s.stopped() {
			return applied, errors.Join(errs...)
		}
	}
}

// dueAtOnce is how many due channels the scheduler applies at once. Each
// is a save of its own; applied one after another, each would wait for its
// own COMMIT, and a bot that starts after an outage with a thousand clocks
// run out took seconds to apply them (docs/store.md, "A year of games").
// At once, the store's group commit shares each COMMIT among them.
const dueAtOnce = 16

// applyAll applies what is due in channels, dueAtOnce at a time, and
// returns how many it applied and the errors of those that failed.
func (s *Scheduler) applyAll(ctx context.Context, channels []string) (applied int, errs []error) {
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		slot = make(chan struct{}, dueAtOnce)
	)
	for _, ch := range channels {
		slot <- struct{}{}
		if s.stopped() { // those started finish; no new one starts
			break
		}
		wg.Go(func() {
			defer func() { <-slot }()
			ok, err := s.ts.ApplyDue(ctx, ch)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			} else if ok {
				applied++
			}
		})
	}
	wg.Wait()
	return applied, errs
}
