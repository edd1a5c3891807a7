package puzzle

import "context"

// Parse returns the puzzle an ID names: from the pool at once, else (a
// puzzle generated on demand) rebuilt from the position the ID encodes and
// proved again with the exact solver, which ctx bounds. It returns an
// error matching ErrUnknown for an ID that names no position, and
// ErrNotPuzzle for a position that is not a puzzle.
func Parse(ctx context.Context, id string) (Puzzle, error) {
	if p, ok := lookup(id); ok {
		return p, nil
	}
	k, r, moves, err := decodeID(id)
	if err != nil {
		return Puzzle{}, err
	}
	p, err := build(ctx, k, r, moves)
	if err != nil {
		return Puzzle{}, err
	}
	return p, nil
}
