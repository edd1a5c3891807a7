package table

import (
	"github.com/tttbot/tttbot/rating"
)

// Everywhere is the scope of standings and ratings over every server and DM.
// Servers' scopes are their IDs, which are numbers, so it never collides.
const Everywhere = "*"

// ratingModel is the model every game is rated with: OpenSkill's defaults
// with LimitSigma, so that a win never lowers the figure players see
// (without it, a settled player who beats a far weaker one can lose a point
// of Display to the uncertainty Tau adds before each game).
func ratingModel() rating.Model {
	m := rating.Default()
	m.LimitSigma = true
	return m
}

// Standing is a player's rating in one kind of game within one scope.
type Standing struct {
	Scope  string // a server's ID, or Everywhere
	Kind   Kind
	Player string
	Rating rating.Rating
	Games  int // rated games it counts
}

// Display is the figure players see, "rating N": 1000 for a new player.
func (s Standing) Display() int { return rating.Display(s.Rating) }

// RatingScopes are the scopes a rated result counts in: its server and
// everywhere (a DM's game only everywhere).
func (r Result) RatingScopes() []string {
	if r.Scope == "" {
		return []string{Everywhere}
	}
	return []string{r.Scope, Everywhere}
}

// NewStanding is a player's standing before their first rated game of kind
// in scope.
func NewStanding(scope string, kind Kind, player string) Standing {
	return Standing{Scope: scope, Kind: kind, Player: player, Rating: ratingModel().New()}
}

// Rate returns the players' standings after the game r, from their
// standings before it (cur, in seat order): new ratings, one more game. A
// store calls it inside the transaction that records r, having read cur in
// that transaction, so each rating moves exactly once a game.
func (r Result) Rate(cur []Standing) ([]Standing, error) {
	before := make([]rating.Rating, len(cur))
	for i, st := range cur {
		before[i] = st.Rating
	}
	after, err := ratingModel().Rate(before, r.Places)
	if err != nil {
		return nil, err
	}
	out := make([]Standing, len(cur))
	for i, st := range cur {
		st.Rating, st.Games = after[i], st.Games+1
		out[i] = st
	}
	return out, nil
}
