package game

import "fmt"

// NoPlayer is what Board.At returns for an empty cell or a cell off the board.
const NoPlayer = -1

// Board stores which player holds each cell. It knows nothing of turns or
// winning; Game enforces the rules on top of it.
type Board interface {
	// Rows and Cols give the board's size.
	Rows() int
	Cols() int
	// At returns the player (0-based, join order) holding c, or NoPlayer
	// when c is empty or off the board.
	At(c Coord) int
	// Set gives c to player. It returns an error matching ErrOutOfBounds or
	// ErrCellTaken, and changes nothing, when c is off the board or taken.
	Set(c Coord, player int) error
	// Filled counts the cells that hold a token.
	Filled() int
	// Clone returns an independent copy.
	Clone() Board
}

// Engine chooses the Board implementation for a game: the original game's
// trade-off between speed and memory.
type Engine int

const (
	// Fast is a dense grid of half a byte a cell: quickest lookups, memory
	// proportional to the board's area.
	Fast Engine = iota
	// Compact stores only the placed tokens: an empty board holds no cells,
	// and memory grows with the number of moves.
	Compact
)

// Engines returns every engine, in the order menus show them.
func Engines() []Engine { return []Engine{Fast, Compact} }

// String returns "fast" or "compact".
func (e Engine) String() string {
	switch e {
	case Fast:
		return "fast"
	case Compact:
		return "compact"
	}
	return fmt.Sprintf("Engine(%d)", int(e))
}

// ParseEngine reads "fast" or "compact" (also the original terminal game's
// f/F and m/M, and "memory").
func ParseEngine(s string) (Engine, error) {
	switch s {
	case "fast", "f", "F", "":
		return Fast, nil
	case "compact", "memory", "m", "M":
		return Compact, nil
	}
	return Fast, fmt.Errorf("engine %q: want fast or compact", s)
}

// NewBoard returns an empty rows×cols board of the given engine. It returns an
// error matching ErrBadRules when the size is out of bounds.
func NewBoard(e Engine, rows, cols int) (Board, error) {
	if rows < MinSize || rows > MaxSize || cols < MinSize || cols > MaxSize {
		return nil, fmt.Errorf("%w: board %d×%d must be %d–%d each way", ErrBadRules, rows, cols, MinSize, MaxSize)
	}
	switch e {
	case Fast:
		return newDense(rows, cols), nil
	case Compact:
		return newSparse(rows, cols), nil
	}
	return nil, fmt.Errorf("%w: unknown engine %d", ErrBadRules, int(e))
}

// checkSet is the shared precondition of Set for both boards.
func checkSet(b Board, c Coord, player int) error {
	if !c.in(b.Rows(), b.Cols()) {
		return fmt.Errorf("%w: %v on a %d×%d board", ErrOutOfBounds, c, b.Rows(), b.Cols())
	}
	if player < 0 || player >= MaxPlayers {
		return fmt.Errorf("%w: player %d", ErrNotPlayer, player)
	}
	if b.At(c) != NoPlayer {
		return fmt.Errorf("%w: %v", ErrCellTaken, c)
	}
	return nil
}
