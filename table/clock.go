package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Move clocks: with a clock, each player has a fixed time for each move
// (every move starts a fresh one; nothing is banked). When the player to move
// runs out, they lose on time: with two players left the other one wins;
// with more they drop out and the rest play on. Running out is applied as an
// ordinary table save (the same compare-and-swap as any action), so it
// happens exactly once however many processes notice it: the scheduler
// (scheduler.go) when the deadline passes, or the first action after it.

// Clocks are the move clocks /ttt new clock: offers.
var Clocks = []time.Duration{30 * time.Second, time.Minute, 5 * time.Minute, time.Hour, 24 * time.Hour}

// ErrClock is a clock that is not one of Clocks. ErrTimeUp is matched by
// *TimeUpError.
var (
	ErrClock  = errors.New("unknown move clock")
	ErrTimeUp = errors.New("the clock ran out")
)

// TimeUpError says Seat ran out of time at At and lost on time; Out is true
// when the game went on without them (more than two players).
type TimeUpError struct {
	Seat Seat
	At   time.Time
	Out  bool
}

// Error implements error.
func (e *TimeUpError) Error() string {
	return fmt.Sprintf("%s ran out of time at %s", e.Seat.Token, e.At.Format(time.RFC3339))
}

// Is makes errors.Is(err, ErrTimeUp) true.
func (e *TimeUpError) Is(target error) bool { return target == ErrTimeUp }

// clockState is the part of a Table about its clock, kept with the table.
type clockState struct {
	Clock    int       `json:"clock,omitempty"`    // seconds each move may take; 0: no clock
	Deadline time.Time `json:"deadline,omitzero"`  // when the player to move runs out; zero when none is running
	ClockAt  int       `json:"clock_at,omitempty"` // the game's move count when Deadline was set
	TimedOut []Timeout `json:"timed_out,omitempty"`
	Shown    Shown     `json:"shown,omitzero"`
}

// Timeout is one seat that ran out of time, and when.
type Timeout struct {
	Seat int       `json:"seat"`
	At   time.Time `json:"at"`
}

// Shown is the Discord message that last showed a clocked game's board, so
// it can be edited when the clock runs out: through the interaction's token
// while it lives (App and Token, issued At), or by its ID (Message, known
// when the interaction was a click on it).
type Shown struct {
	App     string    `json:"app,omitempty"`
	Token   string    `json:"token,omitempty"`
	At      time.Time `json:"at,omitzero"`
	Message string    `json:"message,omitempty"`
	// Locale is the language the message speaks (the interaction's public
	// locale), so the edit when the clock runs out speaks it too.
	Locale string `json:"locale,omitempty"`
}

// ValidClock checks that d is one of Clocks.
func ValidClock(d time.Duration) error {
	if !slices.Contains(Clocks, d) {
		return fmt.Errorf("%w: %v", ErrClock, d)
	}
	return nil
}

// SetClock gives each move of the game d (one of Clocks); 0 means no clock.
func (t *Table) SetClock(d time.Duration) error {
	if d != 0 {
		if err := ValidClock(d); err != nil {
			return err
		}
	}
	t.Clock = int(d / time.Second)
	return nil
}

// MoveClock is the time each move may take, 0 without a clock.
func (t *Table) MoveClock() time.Duration { return time.Duration(t.Clock) * time.Second }

// ShowBoard records the message that now shows the board.
func (t *Table) ShowBoard(m Shown) { t.Shown = m }

// LastTimeout returns the seat that last ran out of time, if any did.
func (t *Table) LastTimeout() (Timeout, bool) {
	if len(t.TimedOut) == 0 {
		return Timeout{}, false
	}
	return t.TimedOut[len(t.TimedOut)-1], true
}

// ArmClock sets the deadline for the player to move when the turn has
// changed since it was set (a fresh clock each move), and clears it when no
// person is due to move on a clock. Tables calls it on every save; call it
// before laying out a reply that shows the deadline.
func (t *Table) ArmClock(now time.Time) {
	if t.Clock == 0 || t.Phase != Playing || t.game == nil || t.game.Over() || t.Seats[t.game.Turn()].Kind.Computer() {
		t.Deadline, t.ClockAt = time.Time{}, 0
		return
	}
	if t.Deadline.IsZero() || t.ClockAt != t.game.MoveCount() {
		// Rounded up to a whole second: what <t:…:R> shows, and what every
		// store keeps exactly (SQLite in milliseconds, PostgreSQL in
		// microseconds), so the store and the table agree on when it is due.
		due := now.Add(t.MoveClock())
		if whole := due.Truncate(time.Second); !whole.Equal(due) {
			due = whole.Add(time.Second)
		}
		t.Deadline, t.ClockAt = due, t.game.MoveCount()
	}
}

// timeUp takes the player to move out of the game on time: the engine's
// resignation (with two players the other wins), recorded as a timeout. A
// game it ends is Over with EndReason OnTime and its result.
func (t *Table) timeUp() Seat {
	seat := t.game.Turn()
	t.TimedOut = append(t.TimedOut, Timeout{Seat: seat, At: t.Deadline})
	_ = t.game.Resign(seat) // the game is running and seat is in it: Due checked both
	t.Deadline, t.ClockAt = time.Time{}, 0
	t.finishOnTime()
	return t.Seats[seat]
}

// finishOnTime finishes a game that running out of time ended.
func (t *Table) finishOnTime() {
	if t.Phase != Playing || !t.game.Over() {
		return
	}
	t.FinishIfOver()
	t.EndReason = OnTime
	if t.result != nil {
		t.result.Reason = OnTime
	}
}

// RanOutOfTime reports whether seat left the game because its clock ran out
// (the engine records that as the seat's resignation).
func (t *Table) RanOutOfTime(seat int) bool {
	for _, to := range t.TimedOut {
		if to.Seat == seat {
			return true
		}
	}
	return false
}

// timeUpError is why seat, out of the game, may not act: it ran out of time
// (a *TimeUpError), or it resigned (ErrResigned).
func (t *Table) timeUpError(seat int) error {
	for _, to := range t.TimedOut {
		if to.Seat == seat {
			return &TimeUpError{Seat: t.Seats[seat], At: to.At, Out: !t.game.Over()}
		}
	}
	return ErrResigned
}

// TimeUpFunc continues a game after lost ran out of time and was taken out:
// it runs under the channel's lock, before t is saved, and may move on (the
// computer seats now due to move). It returns what to do once the save is
// durable (edit the board message), or nil.
type TimeUpFunc func(ctx context.Context, t *Table, lost Seat) (after func(context.Context), err error)

// clockHooks connect Tables to the clock's other parts: the bot's TimeUpFunc
// and the scheduler's wake-up.
type clockHooks struct {
	mu     sync.Mutex
	timeUp TimeUpFunc
	lapsed ChallengeLapsedFunc      // challenge.go
	saved  func(deadline time.Time) // the scheduler's: a save set this deadline
	bg     sync.WaitGroup           // after-save work started by actions
}

// OnTimeUp sets what runs when a clock runs out (the bot's: play on, edit
// the board message). Call it before the tables are used.
func (ts *Tables) OnTimeUp(f TimeUpFunc) {
	ts.clocks.mu.Lock()
	ts.clocks.timeUp = f
	ts.clocks.mu.Unlock()
}

func (h *clockHooks) hooks() (TimeUpFunc, func(time.Time)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.timeUp, h.saved
}

// deadlineSaved tells the scheduler a save set deadline, so it can wake
// early for it.
func (ts *Tables) deadlineSaved(deadline time.Time) {
	if _, saved := ts.clocks.hooks(); saved != nil && !deadline.IsZero() {
		saved(deadline)
	}
}

// applyTimeUp takes the player to move in t out on time, lets the hook play
// on, and saves. It returns what to run once saved (or nil).
func (ts *Tables) applyTimeUp(ctx context.Context, t *Table) (func(context.Context), error) {
	lost := t.timeUp()
	var after func(context.Context)
	if f, _ := ts.clocks.hooks(); f != nil {
		a, err := f(ctx, t, lost)
		if err != nil {
			return nil, err
		}
		after = a
	}
	t.finishOnTime() // the hook may have played on to the end
	if err := ts.save(ctx, t, nil); err != nil {
		return nil, err
	}
	ts.log.Info("clock ran out", "channel", t.Channel, "player", lost.Player(), "game_over", !t.Phase.Open())
	return after, nil
}

// Wait waits for the after-save work that actions started in the background
// (edits of board messages whose clock ran out): at shutdown, and in tests.
func (ts *Tables) Wait() { ts.clocks.bg.Wait() }
