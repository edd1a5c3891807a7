package table

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tttbot/tttbot/game"
)

// Outcome is how a finished game went for one player.
type Outcome uint8

// Outcomes; their String is what the store keeps.
const (
	Win Outcome = iota
	Loss
	Draw
)

// String returns "win", "loss" or "draw".
func (o Outcome) String() string {
	switch o {
	case Win:
		return "win"
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// NoWinner is Result.Winner of a draw.
const NoWinner = game.NoPlayer

// Result is how a finished game ended, kept for standings, ratings, history
// and replays. Players are opaque IDs (Discord user IDs, or "ai:<level>" for
// the computer) and Scope groups results into one table of standings (the
// server's ID; "" in DMs).
type Result struct {
	Scope   string
	Channel string   // where it was played: /ttt replay's default is the channel's last game
	Players []string // in seat order
	Tokens  []string // the seats' tokens, in seat order
	Winner  int      // index into Players, or NoWinner for a draw
	Rules   game.Rules
	Moves   int          // placements made
	Record  game.History // every move, resignations included, to replay the game
	// Places ranks the players for rating: 0 is first, lower is better,
	// equal places tie. The winner is first; players still in at the end
	// come next (all first in a draw); players who left come after them,
	// the earlier they left the lower. Nil in results stored before places
	// were kept.
	Places []int
	// Finishes says how the game ended for each player, in seat order; read
	// them through Finish, which applies Reason.
	Finishes []Finish
	// Reason is how the game finished: NotEnded when played to its end (a
	// line, a full board, the last one standing), OnTime when the last
	// player to leave ran out of time.
	Reason EndReason
	// Unconsenting are the players (indexes into Players) who never chose to
	// play this game: they did not create, join or accept it, and made no
	// move in it. Nobody is rated for a game that had one, so no one can
	// lower another's rating by seating them in a game they never played.
	Unconsenting []int
}

// Outcome returns the outcome for the player at index i: a player who left
// (resigned, or ran out of time) lost, even when the others then drew.
func (r Result) Outcome(i int) Outcome {
	if i < len(r.Finishes) && r.Finishes[i].Left() {
		return Loss
	}
	switch {
	case r.Winner == game.NoPlayer:
		return Draw
	case r.Winner == i:
		return Win
	}
	return Loss
}

// Finish says how the game ended for the player at index i. With Reason
// OnTime (which may be set after Finishes were written) the game ended
// because the last player to leave ran out of time: they lost on time and
// the winner won on time.
func (r Result) Finish(i int) Finish {
	if i < 0 || i >= len(r.Finishes) {
		return FinishLost
	}
	f := r.Finishes[i]
	if r.Reason != OnTime || slices.Contains(r.Finishes, FinishLostOnTime) { // not on time, or already said
		return f
	}
	switch f {
	case FinishWon:
		return FinishWonOnTime
	case FinishResigned: // the last to leave has the best place of those who left
		for j, g := range r.Finishes {
			if g == FinishResigned && j < len(r.Places) && i < len(r.Places) && r.Places[j] < r.Places[i] {
				return f
			}
		}
		return FinishLostOnTime
	}
	return f
}

// Kind is the kind of game the result is rated under.
func (r Result) Kind() Kind { return KindOf(r.Rules) }

// Rated reports whether the game counts for ratings: a game between people
// only (no computer seat), every one of whom chose to play it, with a place
// for every player.
func (r Result) Rated() bool {
	if len(r.Players) < 2 || len(r.Places) != len(r.Players) || len(r.Unconsenting) > 0 {
		return false
	}
	for _, p := range r.Players {
		if IsComputer(p) {
			return false
		}
	}
	return true
}

// IsComputer reports whether a result's player ID is the computer's.
func IsComputer(player string) bool { return strings.HasPrefix(player, computerPrefix) }

// ComputerPlayer is the player ID of a computer seat at level ("ai:hard"),
// as results and standings keep it.
func ComputerPlayer(level string) string { return computerPrefix + level }

// ComputerLevel reads the level off a computer's player ID ("ai:hard" gives
// "hard"); ok is false for a person's ID.
func ComputerLevel(player string) (level string, ok bool) {
	return strings.CutPrefix(player, computerPrefix)
}

// computerPrefix starts the player ID of a computer seat. Stored results
// hold it: never change it.
const computerPrefix = "ai:"

// Finish is how a finished game ended for one player: more than the
// Outcome a tally counts, for history.
type Finish uint8

// Finishes. Their keys (String) are what the store keeps: never change one,
// only add.
const (
	FinishLost Finish = iota
	FinishWon
	FinishDraw
	FinishResigned
	// FinishWonOnTime: won because the last opponent ran out of time.
	FinishWonOnTime
	// FinishLostOnTime: left the game because their clock ran out.
	FinishLostOnTime
)

var finishKeys = [...]string{FinishLost: "lost", FinishWon: "won", FinishDraw: "draw", FinishResigned: "resigned",
	FinishWonOnTime: "won_on_time", FinishLostOnTime: "lost_on_time"}

// String returns the finish's stable key: "won", "lost", "draw", "resigned",
// "won_on_time" or "lost_on_time".
func (f Finish) String() string {
	if int(f) < len(finishKeys) {
		return finishKeys[f]
	}
	return fmt.Sprintf("Finish(%d)", uint8(f))
}

// ParseFinish reads a finish's key.
func ParseFinish(key string) (Finish, bool) {
	for i, k := range finishKeys {
		if k == key {
			return Finish(i), true
		}
	}
	return FinishLost, false
}

// Left reports whether the player left before the end: resigned, or ran out
// of time.
func (f Finish) Left() bool { return f == FinishResigned || f == FinishLostOnTime }

// Tally is one player's record within a scope.
type Tally struct {
	Player              string
	Wins, Losses, Draws int
}

// Games is the number of finished games the tally counts.
func (t Tally) Games() int { return t.Wins + t.Losses + t.Draws }

// Add counts one more game with outcome o.
func (t *Tally) Add(o Outcome) {
	switch o {
	case Win:
		t.Wins++
	case Loss:
		t.Losses++
	default:
		t.Draws++
	}
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
