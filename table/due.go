package table

import (
	"context"
	"errors"
	"time"
)

// What falls due on a table at a time of its own, with nobody acting: a
// move clock that runs out, a challenge left unanswered, a thread to
// archive. The store keeps the
// earliest such time with the table (Save.Deadline is NextDue), the
// scheduler wakes for it, and ApplyDue applies whichever has come, as one
// compare-and-swap save, so it happens once across restarts and replicas.
// A new kind is one entry in dues.

// DueKind is what has fallen due on a table.
type DueKind uint8

// What falls due.
const (
	NothingDue DueKind = iota
	// ClockDue: the player to move has run out of time (clock.go).
	ClockDue
	// ArchiveDue: the thread's game ended ArchiveAfter ago (archive.go).
	ArchiveDue
	// ChallengeDue: a challenge went unanswered until it lapsed
	// (challenge.go).
	ChallengeDue
	// ReportDue: a tournament game ended and its result is still to be
	// recorded in its tournament (tournament.go).
	ReportDue
)

// String names the kind for logs.
func (k DueKind) String() string {
	for _, d := range dues {
		if d.kind == k {
			return d.name
		}
	}
	return "nothing"
}

// due is one kind of thing that falls due: when it does on a table (zero:
// not on this one), and how Tables applies it, under the channel's lock,
// saving the table and returning what to do once the save is durable.
type due struct {
	kind  DueKind
	name  string
	at    func(t *Table) time.Time
	apply func(ts *Tables, ctx context.Context, t *Table) (after func(context.Context), err error)
	// first: an action that finds it due applies it before acting, as if
	// the scheduler had been quicker (a move after the deadline loses on
	// time; an answer after the lapse finds the challenge over).
	first bool
}

// dues are the kinds, most urgent first: when two are due at once, the
// first applies first (and the next pass applies the other).
var dues []due

// init fills dues: in a function, because applying one saves the table,
// whose save asks dues for NextDue, which a package-level initializer
// cannot refer back to.
func init() {
	dues = []due{
		{ClockDue, "clock", func(t *Table) time.Time {
			if t.Phase != Playing {
				return time.Time{}
			}
			return t.Deadline
		}, (*Tables).applyTimeUp, true},
		{ChallengeDue, "challenge", func(t *Table) time.Time {
			if !t.Challenging() {
				return time.Time{}
			}
			return t.InviteExpires
		}, (*Tables).applyLapse, true},
		// A tournament game's result reaches its tournament before anything
		// else is done at the table (a rematch would replace it).
		{ReportDue, "report", (*Table).reportAt, (*Tables).applyReport, true},
		// Archiving waits for the scheduler: it is a call to Discord, and
		// an action in the thread (a rematch) may cancel it.
		{ArchiveDue, "archive", func(t *Table) time.Time { return t.ArchiveAt }, (*Tables).applyArchive, false},
	}
}

// NextDue is the earliest time something falls due on t, zero when nothing
// will: what the store keeps as the table's deadline (Save.Deadline) for
// the scheduler.
func (t *Table) NextDue() time.Time {
	var next time.Time
	for _, d := range dues {
		if at := d.at(t); !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	return next
}

// DueNow returns what has fallen due on t at now, the most urgent first.
func (t *Table) DueNow(now time.Time) DueKind {
	if d := t.dueNow(now); d != nil {
		return d.kind
	}
	return NothingDue
}

func (t *Table) dueNow(now time.Time) *due {
	for i := range dues {
		if at := dues[i].at(t); !at.IsZero() && !now.Before(at) {
			return &dues[i]
		}
	}
	return nil
}

// ApplyDue applies whatever has fallen due in channel (a clock run out, a
// challenge lapsed, a thread to archive), if it still has: another process may have applied it,
// or an action may have beaten it (a move, a rematch). It is one table save
// like any action's, so when several processes race it exactly one applies
// it; the others find it applied, or lose the compare-and-swap and report
// applied=false. What is to be done after the save (the board message's
// edit, the thread's archiving) runs before it returns, outside the lock.
// What falls due through another's applying (a clock run out ends a
// tournament game, whose report is then due) is applied in the same call.
func (ts *Tables) ApplyDue(ctx context.Context, channel string) (applied bool, err error) {
	if f := ts.documentDue(channel); f != nil {
		return f(ctx, channel) // a document's deadline (document.go), not a table's
	}
	for range dues { // each kind at most once a call
		ok, err := ts.applyDueOnce(ctx, channel)
		if err != nil || !ok {
			return applied, err
		}
		applied = true
	}
	return applied, nil
}

// applyDueOnce applies the most urgent of what has fallen due in channel.
func (ts *Tables) applyDueOnce(ctx context.Context, channel string) (applied bool, err error) {
	var after func(context.Context)
	err = func() error {
		defer ts.lock(channel)()
		cur, err := ts.load(ctx, channel, nil)
		if err != nil || cur == nil {
			return err
		}
		d := cur.dueNow(ts.now())
		if d == nil {
			ts.remember(cur)
			return nil
		}
		if after, err = d.apply(ts, ctx, cur); err != nil {
			ts.forget(channel)
			return err
		}
		applied = true
		return nil
	}()
	if errors.Is(err, ErrConflict) {
		return false, nil // another process wrote first: it applied this, or an action beat it
	}
	if err != nil {
		return false, err
	}
	if after != nil {
		after(ctx)
	}
	return applied, nil
}

// applyBeforeAction applies what has fallen due on t that an action must
// not act past (see due.first), and reports whether it saved. The
// after-save work (an old message's edit) runs in the background: it must
// not hold up the action's reply. Wait waits for it.
func (ts *Tables) applyBeforeAction(ctx context.Context, t *Table) (saved bool, err error) {
	d := t.dueNow(ts.now())
	if d == nil || !d.first {
		return false, nil
	}
	after, err := d.apply(ts, ctx, t)
	if err != nil || after == nil {
		return err == nil, err
	}
	ts.clocks.bg.Add(1)
	go func() {
		defer ts.clocks.bg.Done()
		after(context.WithoutCancel(ctx))
	}()
	return true, nil
}
