package table

import (
	"slices"
	"strings"

	"github.com/tttbot/tttbot/game"
)

// Suggest lists up to limit legal moves of the running game in game.Typed
// notation that begin with typed: the free cells nearest the last move (or
// the centre), ring by ring, or under gravity the columns that are not full,
// nearest first. It is what autocomplete offers.
func (t *Table) Suggest(typed string, limit int) []string {
	g := t.game
	if g == nil || g.Over() {
		return nil
	}
	r := g.Rules()
	focus, ok := g.LastPlaced()
	if !ok {
		focus = game.Coord{Row: r.Rows / 2, Col: r.Cols / 2}
	}
	var out []string
	add := func(label string) {
		if strings.HasPrefix(label, typed) && len(out) < limit {
			out = append(out, label)
		}
	}
	if r.Gravity {
		cols := make([]int, 0, r.Cols)
		for c := 0; c < r.Cols; c++ {
			if !g.ColumnFull(c) {
				cols = append(cols, c)
			}
		}
		slices.SortStableFunc(cols, func(a, b int) int { return abs(a-focus.Col) - abs(b-focus.Col) })
		for _, c := range cols {
			add(game.Typed{}.Encode(g, game.Move{Kind: game.Place, At: game.Coord{Col: c}}))
		}
		return out
	}
	// Free cells in square rings of growing distance around the focus, each
	// ring nearest first: the closest matches without sorting a
	// 10,000-cell board.
	var ring []game.Coord
	for d := 0; d < max(r.Rows, r.Cols) && len(out) < limit; d++ {
		ring = ring[:0]
		for row := focus.Row - d; row <= focus.Row+d; row++ {
			for col := focus.Col - d; col <= focus.Col+d; col++ {
				c := game.Coord{Row: row, Col: col}
				onRing := abs(row-focus.Row) == d || abs(col-focus.Col) == d
				if onRing && row >= 0 && row < r.Rows && col >= 0 && col < r.Cols && g.At(c) == game.NoPlayer {
					ring = append(ring, c)
				}
			}
		}
		slices.SortStableFunc(ring, func(a, b game.Coord) int { return dist2(a, focus) - dist2(b, focus) })
		for _, c := range ring {
			add(game.Typed{}.Encode(g, game.Move{Kind: game.Place, At: c}))
		}
	}
	return out
}

func dist2(a, b game.Coord) int {
	dr, dc := a.Row-b.Row, a.Col-b.Col
	return dr*dr + dc*dc
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
