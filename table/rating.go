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

// NewRating is a player's rating before their first rated game.
func NewRating() rating.Rating { return ratingModel().New() }

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

// Rate returns the players' ratings after the game r, from their ratings
// before it (cur, in seat order). A store calls it inside the transaction
// that records r, having read cur in that transaction, so each rating moves
// exactly once a game.
func (r Result) Rate(cur []rating.Rating) ([]rating.Rating, error) {
	return ratingModel().Rate(cur, r.Places)
}
