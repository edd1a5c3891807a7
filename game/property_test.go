package game

import (
	"math/rand/v2"
	"testing"
)

// TestRandomGamesAgree plays random games on random rules with both engines
// side by side. The O(k) check must agree with a full-board scan, and the two
// boards must agree cell by cell.
//
// On boards up to 16×16 the scan runs after every move. On the few big ones
// (up to 100×100) a scan after every move cost most of the package's test
// time, so it runs every Cells()/64 moves and when the game ends: a run,
// once on the board, stays there, so a win the O(k) check missed is still
// found by the next scan, and a win it invented ends the game and meets the
// final scan. Only the move at which a bug shows moves later.
func TestRandomGamesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for game := 0; game < 300; game++ {
		rows, cols := 3+rng.IntN(14), 3+rng.IntN(14)
		if game%50 == 0 {
			rows, cols = 3+rng.IntN(98), 3+rng.IntN(98)
		}
		r := Rules{Rows: rows, Cols: cols, Win: 3 + rng.IntN(min(rows, cols, MaxWin)-2), Gravity: rng.IntN(2) == 0, Players: 2 + rng.IntN(9)}
		tokens := []rune(DefaultTokens[:r.Players])
		fast, compact := mustGame(t, r, Fast, string(tokens)), mustGame(t, r, Compact, string(tokens))
		scanEvery := max(1, r.Cells()/64)
		if r.Cells() <= 16*16 {
			scanEvery = 1
		}
		for moves := 0; !fast.Over(); {
			c := Coord{rng.IntN(r.Rows), rng.IntN(r.Cols)}
			p := fast.Turn()
			at, err1 := fast.Play(p, c)
			at2, err2 := compact.Play(p, c)
			if (err1 == nil) != (err2 == nil) || at != at2 {
				t.Fatalf("%+v: engines disagree on %v: %v/%v, %v/%v", r, c, at, err1, at2, err2)
			}
			if err1 != nil {
				continue
			}
			if moves++; moves%scanEvery == 0 || fast.Over() {
				wantWinner := scanWinner(fast.board, r.Win)
				if fast.Winner() != wantWinner || compact.Winner() != wantWinner {
					t.Fatalf("%+v after %v: O(k) winners %d/%d, scan %d", r, at, fast.Winner(), compact.Winner(), wantWinner)
				}
			}
			if fast.Winner() != compact.Winner() {
				t.Fatalf("%+v after %v: winners %d vs %d", r, at, fast.Winner(), compact.Winner())
			}
			if fast.State() != compact.State() || fast.Turn() != compact.Turn() {
				t.Fatalf("%+v: states differ", r)
			}
			if fast.board.Filled() != compact.board.Filled() {
				t.Fatalf("%+v: filled %d vs %d", r, fast.board.Filled(), compact.board.Filled())
			}
			if a, b := fast.At(at), compact.At(at); a != b || a != p {
				t.Fatalf("%+v: placed cell %v is %d vs %d, want %d", r, at, a, b, p)
			}
			// Cells change only where a token lands, so a whole-board
			// comparison at the end finds any other difference; small
			// boards also get one now and then on the way.
			if (scanEvery == 1 && rng.IntN(20) == 0) || fast.Over() {
				for row := 0; row < r.Rows; row++ {
					for col := 0; col < r.Cols; col++ {
						if a, b := fast.At(Coord{row, col}), compact.At(Coord{row, col}); a != b {
							t.Fatalf("%+v: cell %d,%d is %d vs %d", r, row, col, a, b)
						}
					}
				}
			}
		}
		if fast.State() == Drawn && fast.Filled() != r.Cells() {
			t.Fatalf("%+v: drawn with free cells", r)
		}
	}
}
