package table

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/tttbot/tttbot/game"
)

// Tournament games: a game of a tournament is an ordinary table, opened in
// a thread of its own with both seats taken (each player agreed by joining
// the tournament), so it is rated, kept in history and replayable like any
// game. The table records which tournament game it is, and once the game
// has ended (a move, a resignation, a clock run out, even one enforced at
// start after no bot ran) its result is still to be reported: a due item
// (ReportDue) that the scheduler, or the next action at the table, applies
// through the bot's ReportFunc, which records the result in the tournament
// with its own compare-and-swap, before the table is saved as reported.
// A crash between the two leaves the report due, and it is applied again:
// the tournament's record of a result is idempotent, so it counts once.

// ErrTournamentGame is /ttt end at a tournament game: it ends by play
// (a resignation counts as a loss), never unplayed.
var ErrTournamentGame = errors.New("a tournament game cannot be ended unplayed")

// TournamentGame names the tournament game a table plays.
type TournamentGame struct {
	Channel    string `json:"channel"`    // where the tournament is held
	Tournament string `json:"tournament"` // which of that channel's tournaments
	Game       string `json:"game"`       // the game's key in the tournament
}

// tournamentState is the part of a Table about its tournament.
type tournamentState struct {
	Tournament *TournamentGame `json:"tournament,omitempty"`
	// Reported: the finished game's result is recorded in its tournament.
	Reported bool `json:"reported,omitempty"`
}

// InTournament returns the tournament game t plays, if any (t may be nil:
// a channel without a table plays none).
func (t *Table) InTournament() (TournamentGame, bool) {
	if t == nil || t.Tournament == nil {
		return TournamentGame{}, false
	}
	return *t.Tournament, true
}

// NewTournamentGame opens the two-player game g between first (who moves
// first) and second in channel (a thread started from parent for it, or
// "" when it is played in the channel itself), under rules r with a move
// clock, and starts it: both players agreed by joining the tournament.
func NewTournamentGame(guild, channel, parent string, g TournamentGame, r game.Rules, clock time.Duration, first, second string, now time.Time) (*Table, error) {
	r.Players = 2
	t, err := New(nil, guild, channel, first, r, game.Fast, now)
	if err != nil {
		return nil, err
	}
	if err := t.SetClock(clock); err != nil {
		return nil, err
	}
	for _, p := range []string{first, second} {
		if err := t.Join(p, ""); err != nil {
			return nil, err
		}
	}
	if parent != "" {
		t.PlaceInThread(parent)
	}
	t.Tournament = &g
	return t, nil
}

// Forfeit is how a tournament game that ended unplayed counts (an open
// game idle past the timeout, which a clock normally forestalls): the
// player to move loses. ok is false when the game has no player to move.
func (t *Table) Forfeit() (loser int, ok bool) {
	if t.game == nil || t.Phase != Ended || t.game.Over() {
		return 0, false
	}
	return t.game.Turn(), true
}

// reportAt is when t's result falls due to be reported: at once when a
// tournament game has ended and its result is not recorded yet.
func (t *Table) reportAt() time.Time {
	if t.Tournament == nil || t.Reported || t.Phase.Open() || t.game == nil {
		return time.Time{}
	}
	return t.Updated
}

// ReportFunc records the result of t, a tournament game that has ended, in
// its tournament. It runs under t's channel lock, before t is saved as
// reported; it must be idempotent (it runs again when that save is lost).
// It returns what to do once t's save is durable (open the next round's
// games), or nil.
type ReportFunc func(ctx context.Context, t *Table) (after func(context.Context), err error)

// reportHooks connect Tables to the bot's reporting.
type reportHooks struct {
	mu     sync.Mutex
	report ReportFunc
}

// OnReport sets what reports a tournament game's result. Call it before the
// tables are used; without it the report stays due.
func (ts *Tables) OnReport(f ReportFunc) {
	ts.reports.mu.Lock()
	ts.reports.report = f
	ts.reports.mu.Unlock()
}

// ErrNoReporter: a tournament game's result is due to be reported, but
// nothing reports results in this process.
var ErrNoReporter = errors.New("no tournament reporter")

// applyReport reports t's result through the ReportFunc and saves t as
// reported; the save's loser (another process reported first) changes
// nothing more, since the tournament counted the result once.
func (ts *Tables) applyReport(ctx context.Context, t *Table) (func(context.Context), error) {
	ts.reports.mu.Lock()
	f := ts.reports.report
	ts.reports.mu.Unlock()
	if f == nil {
		return nil, ErrNoReporter
	}
	after, err := f(ctx, t)
	if err != nil {
		return nil, err
	}
	t.Reported = true
	if err := ts.save(ctx, t, nil); err != nil {
		return nil, err
	}
	ts.log.Info("tournament game reported", "channel", t.Channel, "tournament", t.Tournament.Channel, "game", t.Tournament.Game)
	return after, nil
}
