package table

import (
	"fmt"

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

// Result is how a finished game ended, kept for standings. Players are
// opaque IDs (Discord user IDs, or "ai:<level>" for the computer) and Scope
// groups results into one table of standings (the server's ID; "" in DMs).
type Result struct {
	Scope   string
	Players []string // in seat order
	Winner  int      // index into Players, or game.NoPlayer for a draw
	Rules   game.Rules
	Moves   int       // placements made
	Reason  EndReason // OnTime: the loser ran out of time; NotEnded: played out
}

// Outcome returns the outcome for the player at index i.
func (r Result) Outcome(i int) Outcome {
	switch {
	case r.Winner == game.NoPlayer:
		return Draw
	case r.Winner == i:
		return Win
	}
	return Loss
}

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
