package game

import (
	"errors"
	"fmt"
	"testing"
)

// The original games' board tables (free placement, then Connect-X), run
// against both engines.

func TestBoardConstructor(t *testing.T) {
	for _, e := range engines {
		for _, size := range [][2]int{{100, 100}, {3, 3}, {3, 100}} {
			t.Run(fmt.Sprintf("%v/%dx%d", e, size[0], size[1]), func(t *testing.T) {
				b, err := NewBoard(e, size[0], size[1])
				if err != nil {
					t.Fatal(err)
				}
				if b.Rows() != size[0] || b.Cols() != size[1] || b.Filled() != 0 {
					t.Errorf("got %d×%d with %d filled", b.Rows(), b.Cols(), b.Filled())
				}
			})
		}
		for _, size := range [][2]int{{2, 3}, {3, 101}, {0, 0}, {-1, 5}} {
			if _, err := NewBoard(e, size[0], size[1]); !errors.Is(err, ErrBadRules) {
				t.Errorf("%v %v: err = %v, want ErrBadRules", e, size, err)
			}
		}
	}
}

func TestBoardCheckSpaceAndAt(t *testing.T) {
	const text = "X../.../O../..." // 4 rows × 3 columns
	tests := []struct {
		name string
		at   Coord
		want int
	}{
		{"occupied", Coord{0, 0}, 0},
		{"unoccupied_bottomLeft", Coord{3, 0}, NoPlayer},
		{"unoccupied_topRight", Coord{0, 2}, NoPlayer},
		{"O", Coord{2, 0}, 1},
		{"offBoard", Coord{4, 0}, NoPlayer},
		{"negative", Coord{-1, -1}, NoPlayer},
	}
	for _, e := range engines {
		b := boardFromText(t, e, text, "XO")
		for _, tt := range tests {
			t.Run(e.String()+"/"+tt.name, func(t *testing.T) {
				if got := b.At(tt.at); got != tt.want {
					t.Errorf("At(%v) = %d, want %d", tt.at, got, tt.want)
				}
			})
		}
		if got := boardText(b, "XO"); got != text {
			t.Errorf("%v: board changed to %s", e, got)
		}
	}
}

func TestBoardSet(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			b := boardFromText(t, e, "X../.../...", "XO")
			t.Run("ErrCellTaken", func(t *testing.T) {
				if err := b.Set(Coord{0, 0}, 1); !errors.Is(err, ErrCellTaken) {
					t.Errorf("err = %v", err)
				}
			})
			t.Run("ErrOutOfBounds", func(t *testing.T) {
				for _, c := range []Coord{{3, 0}, {0, 3}, {-1, 0}, {0, -1}} {
					if err := b.Set(c, 1); !errors.Is(err, ErrOutOfBounds) {
						t.Errorf("Set(%v) err = %v", c, err)
					}
				}
			})
			t.Run("ErrNotPlayer", func(t *testing.T) {
				if err := b.Set(Coord{1, 1}, 10); !errors.Is(err, ErrNotPlayer) {
					t.Errorf("err = %v", err)
				}
			})
			if got := boardText(b, "XO"); got != "X../.../..." || b.Filled() != 1 {
				t.Fatalf("failed Sets changed the board: %s (%d filled)", got, b.Filled())
			}
			t.Run("placeMarker", func(t *testing.T) {
				for _, c := range []Coord{{2, 0}, {0, 2}, {1, 1}} {
					if err := b.Set(c, 1); err != nil {
						t.Fatal(err)
					}
				}
				if got := boardText(b, "XO"); got != "X.O/.O./O.." || b.Filled() != 4 {
					t.Errorf("board %s, %d filled", got, b.Filled())
				}
			})
			t.Run("Clone", func(t *testing.T) {
				cp := b.Clone()
				_ = cp.Set(Coord{2, 2}, 0)
				if b.At(Coord{2, 2}) != NoPlayer || cp.At(Coord{2, 2}) != 0 {
					t.Error("Clone shares state with the original")
				}
			})
		})
	}
}

// TestLineThrough holds the original games' horizontal, vertical and
// diagonal tables (k=3 on 4×4 or 4×3 boards, then Connect-X's), checked
// from the last position.
func TestLineThrough(t *testing.T) {
	tests := []struct {
		name  string
		board string
		at    Coord
		k     int
		want  bool
	}{
		{"Horizontal_mid_O_true", "X../.../OOO/...", Coord{2, 1}, 3, true},
		{"Horizontal_Left_O_true", "XOOO/..../O..X/....", Coord{0, 1}, 3, true},
		{"Horizontal_alone_X_false", "XO../OOX./O..X/....", Coord{1, 2}, 3, false},
		{"Horizontal_right_O_true", "XOOO/..../O..X/....", Coord{0, 3}, 3, true},
		{"Vertical_mid_O_true", "XO../.O../.O.X/....", Coord{1, 1}, 3, true},
		{"Vertical_bottom_O_true", "XO../.O../.O.X/....", Coord{2, 1}, 3, true},
		{"Vertical_X_false", "XO../.O../.X.X/.O..", Coord{2, 1}, 3, false},
		{"Vertical_top_O_true", "XO../.O../.O.X/....", Coord{0, 1}, 3, true},
		{"Diagonal_leftdiag_mid_X_true", "X.../.X../..XO/....", Coord{1, 1}, 3, true},
		{"Diagonal_leftdiag_topLeft_X_true", "X.../.X../..XO/....", Coord{0, 0}, 3, true},
		{"Diagonal_leftdiag_bottomRight_X_true", "X.../.X../..XO/....", Coord{2, 2}, 3, true},
		{"Diagonal_X_false", "X.../.O../..XO/....", Coord{2, 2}, 3, false},
		{"Diagonal_rightdiag_mid_X_true", "...X/..X./.X.O/....", Coord{1, 2}, 3, true},
		{"Diagonal_rightdiag_topRight_X_true", "...X/..X./.X.O/....", Coord{0, 3}, 3, true},
		{"Diagonal_rightdiag_bottomLeft_X_true", "...X/..X./.X.O/....", Coord{2, 1}, 3, true},
		{"Diagonal_rightdiag_gap_false", "...X/..../.X.O/X...", Coord{3, 0}, 3, false},
		{"Connect5_horizontal_true", "........./........./........./........./........./XXXXX....", Coord{5, 2}, 5, true},
		{"Connect5_four_false", "........./........./........./........./........./XXXX.X...", Coord{5, 5}, 5, false},
		{"Connect5_vertical_true", "X......../X......../X......../X......../X......../O........", Coord{0, 0}, 5, true},
		{"Connect5_overline_true", "........./........./........./........./........./XXXXXX...", Coord{5, 5}, 5, true},
		{"OtherPlayerBreaks_false", "XXOXX/...../.....", Coord{0, 4}, 3, false},
	}
	for _, e := range engines {
		for _, tt := range tests {
			t.Run(e.String()+"/"+tt.name, func(t *testing.T) {
				b := boardFromText(t, e, tt.board, "XO")
				line := LineThrough(b, tt.at, b.At(tt.at), tt.k)
				if got := line != nil; got != tt.want {
					t.Errorf("LineThrough(%v) = %v, want a line: %v", tt.at, line, tt.want)
				}
				if line != nil && len(line) < tt.k {
					t.Errorf("line %v shorter than %d", line, tt.k)
				}
				if got := boardText(b, "XO"); got != tt.board {
					t.Errorf("board changed: %s", got)
				}
			})
		}
	}
}

// TestEnginesListsEveryEngine: Engines (the /ttt new engine: menu) is every
// engine NewBoard builds, each read back from its name.
func TestEnginesListsEveryEngine(t *testing.T) {
	var built []Engine
	for e := Engine(0); e < 16; e++ {
		if _, err := NewBoard(e, 3, 3); err == nil {
			built = append(built, e)
		}
	}
	if fmt.Sprint(Engines()) != fmt.Sprint(built) {
		t.Errorf("Engines() = %v, NewBoard builds %v", Engines(), built)
	}
	for _, e := range Engines() {
		if got, err := ParseEngine(e.String()); err != nil || got != e {
			t.Errorf("ParseEngine(%q) = %v, %v", e.String(), got, err)
		}
	}
}
