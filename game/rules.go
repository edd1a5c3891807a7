package game

import "fmt"

// Bounds of the rules, inclusive.
const (
	MinSize    = 3   // fewest rows or columns
	MaxSize    = 100 // most rows or columns
	MinWin     = 3   // shortest winning run
	MaxWin     = 25  // longest winning run
	MinPlayers = 2   // fewest players
	MaxPlayers = 10  // most players
)

// Rules describe one game: the board size, how many in a row win, whether
// tokens fall under gravity, and how many players take part.
type Rules struct {
	Rows    int  // number of rows, MinSize–MaxSize
	Cols    int  // number of columns, MinSize–MaxSize
	Win     int  // tokens in a row that win, MinWin–MaxWin and at most Rows and Cols
	Gravity bool // tokens drop to the lowest free row of a column
	Players int  // number of players, MinPlayers–MaxPlayers
}

// Classic returns the rules of ordinary tic-tac-toe: 3×3, three in a row, two players.
func Classic() Rules {
	return Rules{Rows: 3, Cols: 3, Win: 3, Players: 2}
}

// IsClassic reports whether r is plain 3×3 tic-tac-toe without gravity, which
// also accepts the single cell numbers 0–8 as positions.
func (r Rules) IsClassic() bool {
	return r.Rows == 3 && r.Cols == 3 && !r.Gravity
}

// Cells is the number of cells on the board.
func (r Rules) Cells() int { return r.Rows * r.Cols }

// Validate reports the first bound r breaks, as a *RulesError that matches
// ErrBadRules, or nil when r is playable.
func (r Rules) Validate() error {
	switch {
	case r.Rows < MinSize || r.Rows > MaxSize:
		return &RulesError{Field: "rows", Value: r.Rows, Reason: fmt.Sprintf("must be %d–%d", MinSize, MaxSize)}
	case r.Cols < MinSize || r.Cols > MaxSize:
		return &RulesError{Field: "columns", Value: r.Cols, Reason: fmt.Sprintf("must be %d–%d", MinSize, MaxSize)}
	case r.Win < MinWin || r.Win > MaxWin:
		return &RulesError{Field: "win", Value: r.Win, Reason: fmt.Sprintf("must be %d–%d", MinWin, MaxWin)}
	case r.Win > r.Rows:
		return &RulesError{Field: "win", Value: r.Win, Reason: fmt.Sprintf("must not be more than the %d rows", r.Rows)}
	case r.Win > r.Cols:
		return &RulesError{Field: "win", Value: r.Win, Reason: fmt.Sprintf("must not be more than the %d columns", r.Cols)}
	case r.Players < MinPlayers || r.Players > MaxPlayers:
		return &RulesError{Field: "players", Value: r.Players, Reason: fmt.Sprintf("must be %d–%d", MinPlayers, MaxPlayers)}
	}
	return nil
}

// UserRow converts an engine row (0 at the top) to the row a person reads:
// the same on free boards, counted from the bottom under gravity.
func (r Rules) UserRow(row int) int {
	if r.Gravity {
		return r.Rows - 1 - row
	}
	return row
}
