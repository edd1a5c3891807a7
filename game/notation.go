package game

import (
	"fmt"
	"strconv"
	"strings"
)

// A Notation writes a move as text and reads it back against a game's
// position. Decode judges the text, not the move: Game.Play does that.
type Notation interface {
	// Encode writes m as text.
	Encode(g *Game, m Move) string
	// Decode reads s as a move in g. Errors match ErrBadPosition
	// (unreadable) or ErrOutOfBounds.
	Decode(g *Game, s string) (Move, error)
}

// Typed is the notation players type (what /ttt move takes): "row,col" with
// 0,0 the top-left cell on a free board ("1 2" and "(1, 2)" read too, and on
// the classic 3×3 board a cell number 0–8); one column number under gravity.
// Decode gives a placement by the player to move; under gravity its Row is 0,
// since the token drops. Typed writes placements only: a resignation has no
// typed form and encodes as "".
type Typed struct{}

// Encode implements Notation.
func (Typed) Encode(g *Game, m Move) string {
	if m.Kind != Place {
		return ""
	}
	if g.Rules().Gravity {
		return strconv.Itoa(m.At.Col)
	}
	return strconv.Itoa(m.At.Row) + "," + strconv.Itoa(m.At.Col)
}

// Decode implements Notation.
func (Typed) Decode(g *Game, s string) (Move, error) {
	c, err := ParsePosition(g.Rules(), s)
	if err != nil {
		return Move{}, err
	}
	return Move{Kind: Place, Player: g.Turn(), At: c}, nil
}

// Record is the notation a game's history is stored in: "seat.row.col" for a
// placement (the cell the token landed on) and "seat!" for a resignation,
// seats and rows counted from 0 as the engine counts them. It is compact
// because a stored table is rewritten on every move, and it stays readable in
// a database. Record does not need the game: g may be nil.
type Record struct{}

// Encode implements Notation.
func (Record) Encode(_ *Game, m Move) string {
	return string(appendRecord(nil, m))
}

// appendRecord appends m in Record notation to b.
func appendRecord(b []byte, m Move) []byte {
	b = strconv.AppendInt(b, int64(m.Player), 10)
	if m.Kind == Resign {
		return append(b, '!')
	}
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(m.At.Row), 10)
	b = append(b, '.')
	return strconv.AppendInt(b, int64(m.At.Col), 10)
}

// Decode implements Notation.
func (Record) Decode(_ *Game, s string) (Move, error) {
	if p, ok := strings.CutSuffix(s, "!"); ok {
		n, err := strconv.Atoi(p)
		if err != nil {
			return Move{}, fmt.Errorf("%w: bad resignation %q", ErrBadPosition, s)
		}
		return Move{Kind: Resign, Player: n}, nil
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return Move{}, fmt.Errorf("%w: bad move %q", ErrBadPosition, s)
	}
	var nums [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return Move{}, fmt.Errorf("%w: bad move %q", ErrBadPosition, s)
		}
		nums[i] = n
	}
	return Move{Kind: Place, Player: nums[0], At: Coord{Row: nums[1], Col: nums[2]}}, nil
}
