package progress

import "errors"

// Errors a press or a request can meet.
var (
	// ErrStale is a press on a puzzle message that no longer shows the
	// try as it stands: the try was replaced or is over, or a move was
	// made since (another press, on this message or another).
	ErrStale = errors.New("the puzzle message is out of date")
	// ErrDuplicate is an interaction applied before (a replay).
	ErrDuplicate = errors.New("interaction already applied")
	// ErrNoPuzzle is a kind and difficulty with no puzzle left for the
	// person just now: they have met the whole pool, and no spare made in
	// the background is ready yet (one is being made).
	ErrNoPuzzle = errors.New("no puzzle of that kind and difficulty ready")
)
