package ai

import (
	"context"
	"testing"

	"github.com/tttbot/tttbot/ai/internal/bitboard"
	"github.com/tttbot/tttbot/game"
)

// fromMoves plays a Connect Four game written as Pons writes positions:
// the columns played, 1 to 7.
func fromMoves(tb testing.TB, moves string) *game.Game {
	tb.Helper()
	g := newGame(tb, connectFour)
	for _, ch := range moves {
		play(tb, g, game.Coord{Col: int(ch - '1')})
	}
	return g
}

// TestKnownScores: exact scores of Connect Four positions. The first two
// are the worked examples of Pons' "Solving Connect 4" (part 2), the
// others were made with this solver, frozen here so a change to it that
// alters a value fails.
func TestKnownScores(t *testing.T) {
	for _, tt := range []struct {
		moves string
		score int
	}{
		{"4455", 18},
		{"44455554221", -15},
		{"2457221144", 11},
		{"443476157215", -10},
		{"361453455474527", 9},
		{"1262551475512532", -4},
		{"2122147147643332", -4},
		{"77732571633557617", 3},
		{"72467442331437167", 3},
		{"514457724225475332", 10},
		{"1242121621672552557", -3},
		{"4761627553552577177", -10},
		{"226555757373563267651", 6},
	} {
		t.Run(tt.moves, func(t *testing.T) {
			geo := bitboard.NewGeometry(connectFour)
			p := geo.FromGame(fromMoves(t, tt.moves))
			s := &bitboard.Solver{G: geo, TT: bitboard.NewTable(16), Ctx: context.Background()}
			got, ok := s.Solve(p, false)
			if !ok || got != tt.score {
				t.Fatalf("score %d (finished %v), want %d", got, ok, tt.score)
			}
			weak, _ := s.Solve(p, true)
			if weak != bitboard.Sign(tt.score) {
				t.Fatalf("weak score %d, want %d", weak, bitboard.Sign(tt.score))
			}
		})
	}
}
