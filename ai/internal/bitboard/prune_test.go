package bitboard

import (
	"testing"

	"github.com/tttbot/tttbot/game"
)

var connectFour = game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}

// TestPruneProvedKnownValue: when p's value is known (the book's deepest
// ply says a draw) but the search for the drawing move ran out, a move
// proved to lose is left out although no move is proved to draw; with
// nothing known of p it stays a candidate.
func TestPruneProvedKnownValue(t *testing.T) {
	geo := NewGeometry(connectFour)
	p := Pos{}
	for _, col := range []int{4, 4, 5, 3, 3, 3, 3, 3} {
		p = p.Play(geo.MoveIn(p, col))
	}
	tt := NewTable(16)
	lost := geo.MoveIn(p, 0) // the opponent is proved to win after column 1
	child := p.Play(lost)
	tt.put(geo.tableKey(child), geo.tag, boundLower, 1, -1, child.Moves)
	for _, tc := range []struct {
		floor int
		want  bool // column 1 still a candidate
	}{{-1, true}, {0, false}} {
		var columns []bool
		if _, win := PruneProved(geo, p, tt, tc.floor, &columns); win {
			t.Fatalf("floor %d: a win reported", tc.floor)
		}
		if columns[0] != tc.want || !columns[1] {
			t.Errorf("floor %d: columns %v, want column 1 %v and column 2 kept", tc.floor, columns, tc.want)
		}
	}
}
