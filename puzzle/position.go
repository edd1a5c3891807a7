package puzzle

import (
	"strings"

	"github.com/tttbot/tttbot/game"
)

// positionKey names a puzzle's position up to the board's symmetries (the
// mirror under gravity; the eight rotations and reflections of a square
// free board), whatever the order of the moves that reached it: two
// puzzles with one key are one puzzle, and a pool keeps only one of them.
// The side to move follows from the number of stones.
func positionKey(r game.Rules, moves []game.Coord) string {
	best := ""
	for _, t := range symmetries(r) {
		if s := board(r, t.apply(moves)); best == "" || s < best {
			best = s
		}
	}
	return best
}

// transform maps a board's cells onto themselves.
type transform func(game.Coord) game.Coord

// apply returns moves with each cell mapped by t.
func (t transform) apply(moves []game.Coord) []game.Coord {
	out := make([]game.Coord, len(moves))
	for i, m := range moves {
		out[i] = t(m)
	}
	return out
}

// symmetries lists the transforms that keep r's game the same, the
// identity first: under gravity the mirror; on a free board also the
// flips, and on a square one the rotations and diagonal reflections.
func symmetries(r game.Rules) []transform {
	last := game.Coord{Row: r.Rows - 1, Col: r.Cols - 1}
	ts := []transform{
		func(c game.Coord) game.Coord { return c },
		func(c game.Coord) game.Coord { return game.Coord{Row: c.Row, Col: last.Col - c.Col} },
	}
	if !r.Gravity {
		ts = append(ts,
			func(c game.Coord) game.Coord { return game.Coord{Row: last.Row - c.Row, Col: c.Col} },
			func(c game.Coord) game.Coord { return game.Coord{Row: last.Row - c.Row, Col: last.Col - c.Col} },
		)
		if r.Rows == r.Cols {
			ts = append(ts,
				func(c game.Coord) game.Coord { return game.Coord{Row: c.Col, Col: c.Row} },
				func(c game.Coord) game.Coord { return game.Coord{Row: c.Col, Col: last.Row - c.Row} },
				func(c game.Coord) game.Coord { return game.Coord{Row: last.Col - c.Col, Col: c.Row} },
				func(c game.Coord) game.Coord { return game.Coord{Row: last.Col - c.Col, Col: last.Row - c.Row} },
			)
		}
	}
	return ts
}

// images returns the moves of p's position turned by the board's
// symmetries, one a board that differs from p's and from each other: the
// same puzzle to a solver, another board to a person.
func images(p Puzzle) [][]game.Coord {
	boards := map[string]bool{board(p.Rules, p.Moves): true}
	var out [][]game.Coord
	for _, t := range symmetries(p.Rules)[1:] {
		moves := t.apply(p.Moves)
		if b := board(p.Rules, moves); !boards[b] {
			boards[b] = true
			out = append(out, moves)
		}
	}
	return out
}

// board writes the position after moves as one string, row by row.
func board(r game.Rules, moves []game.Coord) string {
	b := []byte(strings.Repeat(".", r.Cells()))
	for i, m := range moves {
		b[m.Row*r.Cols+m.Col] = "XO"[i%2]
	}
	return string(b)
}
