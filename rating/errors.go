package rating

import "errors"

// Errors Rate returns for input it cannot rate, wrapped with details; match
// them with errors.Is.
var (
	// ErrPlayers means fewer than two players were given.
	ErrPlayers = errors.New("rating: a game needs at least two players")
	// ErrRanks means the ranks do not match the players one for one.
	ErrRanks = errors.New("rating: one rank a player is needed")
	// ErrRating means a rating is out of range (or NaN): Rate accepts
	// |Mu| < 1e100 and 1e-100 < Sigma < 1e100.
	ErrRating = errors.New("rating: invalid rating")
	// ErrModel means a model parameter is out of range: Mu and Sigma as for
	// ErrRating, 1e-100 < Beta < 1e100, 0 < Kappa ≤ 1, 0 ≤ Tau < 1e100.
	ErrModel = errors.New("rating: invalid model")
)
