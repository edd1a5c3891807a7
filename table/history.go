package table

import (
	"time"

	"github.com/tttbot/tttbot/game"
)

// Finished is a finished game as the store keeps it: its result, when it
// ended, and the ID /ttt history shows and /ttt replay takes.
type Finished struct {
	ID     int64
	At     time.Time
	Result Result
}

// Game rebuilds the finished game move by move, for a replay.
func (f Finished) Game() (*game.Game, error) {
	tokens := make([]rune, len(f.Result.Tokens))
	for i, t := range f.Result.Tokens {
		r := []rune(t)
		if len(r) == 0 {
			return nil, game.ErrBadRules
		}
		tokens[i] = r[0]
	}
	return game.Replay(f.Result.Rules, game.Fast, tokens, f.Result.Record)
}

// Seat returns the index of player in the game, or -1.
func (f Finished) Seat(player string) int {
	for i, p := range f.Result.Players {
		if p == player {
			return i
		}
	}
	return -1
}

// VisibleTo returns nil when user, acting in guild ("" in a DM) and
// channel, may see the game (in history, or replayed), else
// ErrPrivateGame. The rule: a game belongs to the server it was played in
// and to its players. Anyone in that server (or that DM channel) may see it;
// its players may see it anywhere; nobody else. A game played in a DM
// belongs to its channel and players only.
func (f Finished) VisibleTo(guild, channel, user string) error {
	r := f.Result
	if r.Scope != "" && r.Scope == guild || r.Channel == channel || f.Seat(user) >= 0 {
		return nil
	}
	return ErrPrivateGame
}

// HistoryQuery asks for one page of a player's finished games, newest first.
type HistoryQuery struct {
	Player string
	// Scope limits the games to one server's; Everywhere means all of them.
	Scope  string
	Offset int // games to skip, newest first
	Limit  int
}

// newResult is the result of the table's game, which has just ended: who
// played, how it ended for each, and how they place for rating.
func (t *Table) newResult() *Result {
	g := t.game
	n := len(t.Seats)
	r := &Result{
		Scope: t.Guild, Channel: t.Channel,
		Players: make([]string, n), Tokens: make([]string, n),
		Winner: g.Winner(), Rules: t.Rules, Moves: g.Filled(),
		Record: game.History(g.Moves()), Reason: t.EndReason,
	}
	for i, s := range t.Seats {
		r.Players[i], r.Tokens[i] = s.Player(), s.Token
		if !s.Kind.Computer() && !s.Agreed && !moved(g, i) {
			r.Unconsenting = append(r.Unconsenting, i)
		}
	}
	r.Places, r.Finishes = placesOf(g, n, t.EndReason == OnTime)
	return r
}

// moved reports whether seat placed a token in g: playing is agreeing to play.
func moved(g *game.Game, seat int) bool {
	for _, m := range g.Moves() {
		if m.Player == seat && m.Kind != game.Resign {
			return true
		}
	}
	return false
}

// placesOf ranks a finished game's n players for rating, and says how it
// ended for each. The winner is first; players still in at the end are next
// (all first in a draw); players who left follow, the later they left the
// better. onTime means the last player to leave ran out of time (and so the
// winner, if that made one, won on time).
func placesOf(g *game.Game, n int, onTime bool) ([]int, []Finish) {
	places, finishes := make([]int, n), make([]Finish, n)
	var left []int
	for _, m := range g.Moves() {
		if m.Kind == game.Resign {
			left = append(left, m.Player)
		}
	}
	for i := range n {
		switch {
		case g.Resigned(i):
		case g.Winner() == i:
			places[i], finishes[i] = 0, FinishWon
		case g.Winner() == game.NoPlayer:
			places[i], finishes[i] = 0, FinishDraw
		default:
			places[i], finishes[i] = 1, FinishLost
		}
	}
	for i, p := range left {
		places[p], finishes[p] = 1+len(left)-i, FinishResigned
	}
	if onTime && len(left) > 0 {
		finishes[left[len(left)-1]] = FinishLostOnTime
		if w := g.Winner(); w != game.NoPlayer && g.WinningLine() == nil {
			finishes[w] = FinishWonOnTime
		}
	}
	return places, finishes
}
