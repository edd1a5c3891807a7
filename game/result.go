package game

// Result is how a finished game ended, kept for standings. Players are
// opaque IDs chosen by the caller (the bot uses Discord user IDs) and Scope
// groups results into one table of standings (the bot uses the server ID).
type Result struct {
	Scope   string
	Players []string // in seat order
	Winner  int      // index into Players, or NoPlayer for a draw
	Rules   Rules
	Moves   int // placements made
}

// Outcome returns "win", "loss" or "draw" for the player at index i.
func (r Result) Outcome(i int) string {
	switch {
	case r.Winner == NoPlayer:
		return "draw"
	case r.Winner == i:
		return "win"
	}
	return "loss"
}

// Tally is one player's record within a scope.
type Tally struct {
	Player              string
	Wins, Losses, Draws int
}

// Games is the number of finished games the tally counts.
func (t Tally) Games() int { return t.Wins + t.Losses + t.Draws }
