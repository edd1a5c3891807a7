package game

import (
	"errors"
	"testing"
)

// play makes the moves in order, alternating players from the current turn.
func play(tb testing.TB, g *Game, moves ...Coord) {
	tb.Helper()
	for _, m := range moves {
		if _, err := g.Play(g.Turn(), m); err != nil {
			tb.Fatalf("Play(%v): %v", m, err)
		}
	}
}

func TestGameFreePlacement(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			g := mustGame(t, Classic(), e, "XO")
			t.Run("ErrNotYourTurn", func(t *testing.T) {
				if _, err := g.Play(1, Coord{0, 0}); !errors.Is(err, ErrNotYourTurn) {
					t.Errorf("err = %v", err)
				}
			})
			t.Run("ErrNotPlayer", func(t *testing.T) {
				if _, err := g.Play(2, Coord{0, 0}); !errors.Is(err, ErrNotPlayer) {
					t.Errorf("err = %v", err)
				}
			})
			play(t, g, Coord{0, 0})
			t.Run("ErrCellTaken", func(t *testing.T) {
				if _, err := g.Play(1, Coord{0, 0}); !errors.Is(err, ErrCellTaken) {
					t.Errorf("err = %v", err)
				}
				if g.Turn() != 1 {
					t.Error("a refused move lost the turn")
				}
			})
			t.Run("ErrOutOfBounds", func(t *testing.T) {
				if _, err := g.Play(1, Coord{3, 0}); !errors.Is(err, ErrOutOfBounds) {
					t.Errorf("err = %v", err)
				}
			})
			play(t, g, Coord{1, 0})
			t.Run("ColumnFull", func(t *testing.T) {
				// Free placement: only whether the column has a free cell.
				if g.ColumnFull(0) || g.ColumnFull(1) || !g.ColumnFull(-1) || !g.ColumnFull(3) {
					t.Errorf("ColumnFull(0, 1, -1, 3) = %v %v %v %v, want false false true true", g.ColumnFull(0), g.ColumnFull(1), g.ColumnFull(-1), g.ColumnFull(3))
				}
				full := mustGame(t, Classic(), e, "XO")
				play(t, full, Coord{0, 0}, Coord{1, 0}, Coord{2, 0})
				if !full.ColumnFull(0) {
					t.Error("a column with every cell taken is not full")
				}
			})
			play(t, g, Coord{0, 1}, Coord{1, 1}, Coord{0, 2})
			if g.State() != Won || g.Winner() != 0 {
				t.Fatalf("state %v winner %d, want X to win", g.State(), g.Winner())
			}
			if want := []Coord{{0, 0}, {0, 1}, {0, 2}}; !equalCoords(g.WinningLine(), want) {
				t.Errorf("winning line %v, want %v", g.WinningLine(), want)
			}
			t.Run("ErrGameOver", func(t *testing.T) {
				if _, err := g.Play(1, Coord{2, 2}); !errors.Is(err, ErrGameOver) {
					t.Errorf("err = %v", err)
				}
				if err := g.Resign(1); !errors.Is(err, ErrGameOver) {
					t.Errorf("resign err = %v", err)
				}
			})
		})
	}
}

func TestGameDraw(t *testing.T) {
	for _, e := range engines {
		g := mustGame(t, Classic(), e, "XO")
		// X O X / X O O / O X X
		play(t, g, Coord{0, 0}, Coord{0, 1}, Coord{0, 2}, Coord{1, 1}, Coord{1, 0},
			Coord{1, 2}, Coord{2, 1}, Coord{2, 0}, Coord{2, 2})
		if g.State() != Drawn || g.Winner() != NoPlayer {
			t.Errorf("%v: state %v winner %d, want a draw", e, g.State(), g.Winner())
		}
	}
}

func TestGameGravity(t *testing.T) {
	r := Rules{Rows: 6, Cols: 9, Win: 5, Gravity: true, Players: 2} // the original gravity game
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			g := mustGame(t, r, e, "XO")
			for i := 0; i < 6; i++ {
				at, err := g.Play(g.Turn(), Coord{Row: 99, Col: 3}) // Row is ignored
				if err != nil {
					t.Fatal(err)
				}
				if want := (Coord{5 - i, 3}); at != want {
					t.Fatalf("drop %d landed on %v, want %v", i, at, want)
				}
			}
			t.Run("ErrColumnFull", func(t *testing.T) {
				if _, err := g.Play(g.Turn(), Coord{Col: 3}); !errors.Is(err, ErrColumnFull) {
					t.Errorf("err = %v", err)
				}
				if !g.ColumnFull(3) || g.ColumnFull(4) {
					t.Error("ColumnFull wrong")
				}
			})
			t.Run("ErrOutOfBounds", func(t *testing.T) {
				for _, col := range []int{-1, 9, 15} {
					if _, err := g.Play(g.Turn(), Coord{Col: col}); !errors.Is(err, ErrOutOfBounds) {
						t.Errorf("column %d: err = %v", col, err)
					}
				}
			})
			// X (already at the bottom of column 3) fills 4..7 while O stacks on 0.
			for _, c := range []int{4, 0, 5, 0, 6, 0, 7} {
				play(t, g, Coord{Col: c})
			}
			if g.State() != Won || g.Token(g.Winner()) != 'X' {
				t.Fatalf("state %v winner %d, want X", g.State(), g.Winner())
			}
		})
	}
}

func TestGameResign(t *testing.T) {
	r := Rules{Rows: 5, Cols: 5, Win: 4, Players: 3}
	g := mustGame(t, r, Fast, "XOA")
	play(t, g, Coord{0, 0})             // X
	if err := g.Resign(1); err != nil { // O resigns on their own turn
		t.Fatal(err)
	}
	if g.Turn() != 2 || g.State() != Playing {
		t.Fatalf("turn %d state %v, want A to move", g.Turn(), g.State())
	}
	t.Run("ErrNotPlayer", func(t *testing.T) {
		if _, err := g.Play(1, Coord{1, 1}); !errors.Is(err, ErrNotPlayer) {
			t.Errorf("resigned player moved: %v", err)
		}
		if err := g.Resign(1); !errors.Is(err, ErrNotPlayer) {
			t.Errorf("resigned twice: %v", err)
		}
	})
	play(t, g, Coord{1, 1}) // A
	if g.Turn() != 0 {
		t.Fatalf("turn %d, want X (O skipped)", g.Turn())
	}
	if err := g.Resign(2); err != nil { // A resigns out of turn
		t.Fatal(err)
	}
	if g.State() != Won || g.Winner() != 0 || g.WinningLine() != nil {
		t.Errorf("state %v winner %d line %v, want X last standing", g.State(), g.Winner(), g.WinningLine())
	}
}

func TestReplay(t *testing.T) {
	r := Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 3}
	for _, e := range engines {
		g := mustGame(t, r, e, "XOA")
		play(t, g, Coord{Col: 3}, Coord{Col: 3}, Coord{Col: 4})
		if err := g.Resign(0); err != nil {
			t.Fatal(err)
		}
		play(t, g, Coord{Col: 0})
		back, err := Replay(r, e, g.Tokens(), g.Moves())
		if err != nil {
			t.Fatal(err)
		}
		if boardText(back.board, "XOA") != boardText(g.board, "XOA") || back.Turn() != g.Turn() || back.State() != g.State() {
			t.Errorf("%v: replayed game differs", e)
		}
		bad := append(g.Moves(), Move{Player: back.Turn(), At: Coord{0, 0}}) // wrong landing row
		if _, err := Replay(r, e, g.Tokens(), bad); !errors.Is(err, ErrBadMoveOrder) {
			t.Errorf("%v: bad history: %v", e, err)
		}
	}
}

func TestCloneIsIndependent(t *testing.T) {
	g := mustGame(t, Classic(), Compact, "XO")
	play(t, g, Coord{1, 1})
	cp := g.Clone()
	play(t, cp, Coord{0, 0})
	if g.At(Coord{0, 0}) != NoPlayer || g.MoveCount() != 1 || g.Turn() != 1 {
		t.Error("playing on a clone changed the original")
	}
}

func equalCoords(a, b []Coord) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
