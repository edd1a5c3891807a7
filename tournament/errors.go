package tournament

import "errors"

// Errors a caller can cause. Each is returned as is, or wrapped with detail;
// match them with errors.Is. The bot turns each into words in one place.
var (
	ErrBadFormat       = errors.New("unknown tournament format")
	ErrBadSize         = errors.New("size must be 3–64 players")
	ErrBadRounds       = errors.New("rounds out of bounds")
	ErrRoundsOnlySwiss = errors.New("rounds can be chosen for a swiss tournament only")
	ErrBadPlayer       = errors.New("a player needs an id")
	ErrFull            = errors.New("the tournament is full")
	ErrStarted         = errors.New("the tournament has started")
	ErrFinished        = errors.New("the tournament is over")
	ErrAlreadyJoined   = errors.New("already in the tournament")
	ErrNotJoined       = errors.New("not in the tournament")
	ErrAlreadyLeft     = errors.New("already left the tournament")
	ErrTooFew          = errors.New("too few players to start")
	ErrNoGame          = errors.New("no such tournament game")
	ErrBadOutcome      = errors.New("not an outcome a game can be given")
	ErrAlreadyRecorded = errors.New("the game already has a different result")
)
