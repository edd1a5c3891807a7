package rating

import "errors"

// Errors Rate returns for input it cannot rate, wrapped with details; match
// them with errors.Is.
var (
	// ErrPlayers means fewer than two players were given.
	ErrPlayers = errors.New("rating: a game needs at least two players")
	// ErrRanks means the ranks do not match the players one for one.
	ErrRanks = errors.New("rating: one rank a player is needed")
	// ErrRating means a rating is not finite or has a Sigma that is not positive.
	ErrRating = errors.New("rating: invalid rating")
	// ErrModel means a model parameter is out of range.
	ErrModel = errors.New("rating: invalid model")
)
