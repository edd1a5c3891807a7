package render

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tttbot/tttbot/game"
	goldenfile "github.com/tttbot/tttbot/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name+".golden"), []byte(got), *update)
}

// newGame plays moves (typed as a player would) in turn order.
func newGame(t *testing.T, r game.Rules, tokens string, moves ...string) *game.Game {
	t.Helper()
	g, err := game.New(r, game.Fast, []rune(tokens))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		c, err := game.ParsePosition(r, m)
		if err != nil {
			t.Fatalf("%q: %v", m, err)
		}
		if _, err := g.Play(g.Turn(), c); err != nil {
			t.Fatalf("%q: %v", m, err)
		}
	}
	return g
}

func TestTextGolden(t *testing.T) {
	free := func(rows, cols, win int) game.Rules { return game.Rules{Rows: rows, Cols: cols, Win: win, Players: 2} }
	tests := []struct {
		name string
		g    *game.Game
	}{
		{"classic_empty", newGame(t, game.Classic(), "XO")},
		{"classic_midgame", newGame(t, game.Classic(), "XO", "4", "0", "2")},
		{"classic_won", newGame(t, game.Classic(), "XO", "0", "3", "1", "4", "2")},
		{"free_4x5", newGame(t, free(4, 5, 3), "XO", "0,0", "3,4", "1,2")},
		{"free_12x12_double_digits", newGame(t, free(12, 12, 5), "XO", "10,11", "0,0", "11,10")},
		{"free_won_diagonal", newGame(t, free(5, 5, 4), "XO", "0,0", "0,4", "1,1", "1,4", "2,2", "2,4", "3,3")},
		{"gravity_6x9_k5", newGame(t, game.Rules{Rows: 6, Cols: 9, Win: 5, Gravity: true, Players: 2}, "XO", "3", "3", "3", "3", "3", "3", "4")},
		{"gravity_won", newGame(t, game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}, "XO", "0", "1", "1", "2", "2", "3", "2", "3", "3", "6", "3")},
		{"three_players", newGame(t, game.Rules{Rows: 4, Cols: 4, Win: 3, Players: 3}, "XO#", "0,0", "1,1", "2,2")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden(t, tt.name, String(tt.g, Whole(tt.g.Rules())))
		})
	}
}

func TestViewportGolden(t *testing.T) {
	r := game.Rules{Rows: 100, Cols: 100, Win: 25, Players: 2}
	g := newGame(t, r, "XO", "50,50", "51,51", "0,0", "99,99")
	for _, at := range []game.Coord{{Row: 50, Col: 50}, {Row: 0, Col: 0}, {Row: 99, Col: 99}} {
		t.Run(at.String(), func(t *testing.T) {
			win := Fit(r, 1800, at)
			if !win.Contains(at) {
				t.Fatalf("window %+v does not contain %v", win, at)
			}
			golden(t, fmt.Sprintf("viewport_100x100_%d_%d", at.Row, at.Col), String(g, win))
		})
	}
}

// TestFitNeverExceedsBudget draws windows of every board shape at several
// budgets and checks the drawing fits and is as big as promised.
func TestFitNeverExceedsBudget(t *testing.T) {
	for _, gravity := range []bool{false, true} {
		for _, size := range [][2]int{{3, 4}, {10, 10}, {19, 19}, {3, 100}, {100, 3}, {100, 100}} {
			r := game.Rules{Rows: size[0], Cols: size[1], Win: 3, Gravity: gravity, Players: 2}
			g := newGame(t, r, "XO")
			for _, budget := range []int{200, 1000, 1800, 4000} {
				for _, at := range []game.Coord{{Row: 0, Col: 0}, {Row: size[0] / 2, Col: size[1] / 2}, {Row: size[0] - 1, Col: size[1] - 1}} {
					win := Fit(r, budget, at)
					text := String(g, win)
					if n := utf8.RuneCountInString(text); n > budget {
						t.Errorf("%+v budget %d at %v: %d characters", r, budget, at, n)
					}
					if !win.Contains(at) {
						t.Errorf("%+v budget %d: window %+v misses %v", r, budget, win, at)
					}
					if win.Top < 0 || win.Left < 0 || win.Top+win.Rows > r.Rows || win.Left+win.Cols > r.Cols {
						t.Errorf("%+v: window %+v leaves the board", r, win)
					}
					if lines := strings.Count(text, "\n"); lines != win.Rows+1 {
						t.Errorf("%+v: %d lines for %d rows", r, lines, win.Rows)
					}
				}
			}
		}
	}
	r := game.Rules{Rows: 100, Cols: 100, Win: 25, Players: 2}
	if win := Fit(r, 1800, game.Coord{}); win.Rows*win.Cols < 400 {
		t.Errorf("a 1800-character window of 100×100 shows only %d×%d cells", win.Rows, win.Cols)
	}
}

func TestUserRows(t *testing.T) {
	r := game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}
	lo, hi := Window{Top: 0, Rows: 2, Cols: 7}.UserRows(r)
	if lo != 4 || hi != 5 {
		t.Errorf("top two rows of a gravity board are %d–%d, want 4–5", lo, hi)
	}
}

func BenchmarkText(b *testing.B) {
	for _, size := range []int{3, 19, 100} {
		r := game.Rules{Rows: size, Cols: size, Win: 3, Players: 2}
		g, _ := game.New(r, game.Fast, []rune("XO"))
		g.Play(0, game.Coord{Row: size / 2, Col: size / 2})
		win := Fit(r, 1800, game.Coord{Row: size / 2, Col: size / 2})
		b.Run(fmt.Sprintf("%dx%d", size, size), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = String(g, win)
			}
		})
	}
}

// goldenPNG compares the picture of g with testdata/name.png (goldenPicture).
func goldenPNG(t *testing.T, name string, g *game.Game) {
	t.Helper()
	goldenPicture(t, name, func(b *bytes.Buffer) error { return PNG(b, g) })
}

// goldenPicture compares the PNG that draw writes with testdata/name.png
// pixel by pixel (not byte by byte: PNG compression may differ between Go
// versions), or rewrites it with -update. It returns the PNG drawn.
func goldenPicture(t *testing.T, name string, draw func(*bytes.Buffer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := draw(&buf); err != nil {
		t.Fatal(err)
	}
	goldenfile.CheckWith(t, filepath.Join("testdata", name+".png"), buf.Bytes(), *update, func(wantPNG, gotPNG []byte) error {
		want, got, err := decodeBoth(wantPNG, gotPNG, png.Decode)
		if err == nil && !goldenfile.SamePixels(got, want) {
			err = errors.New("the picture differs from the golden one")
		}
		return err
	})
	return buf.Bytes()
}

// decodeBoth decodes a golden file and the output compared with it.
func decodeBoth[T any](wantData, gotData []byte, decode func(io.Reader) (T, error)) (want, got T, err error) {
	if want, err = decode(bytes.NewReader(wantData)); err != nil {
		return want, got, fmt.Errorf("golden file: %v", err)
	}
	if got, err = decode(bytes.NewReader(gotData)); err != nil {
		return want, got, fmt.Errorf("output: %v", err)
	}
	return want, got, nil
}

func TestPNGGolden(t *testing.T) {
	t.Run("classic_3x3", func(t *testing.T) {
		goldenPNG(t, "classic_3x3", newGame(t, game.Classic(), "XO", "0", "4", "8", "2", "6", "3", "7"))
	})
	t.Run("gravity_6x7_won", func(t *testing.T) {
		r := game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}
		goldenPNG(t, "gravity_6x7_won", newGame(t, r, "XO", "0", "1", "1", "2", "2", "3", "2", "3", "3", "6", "3"))
	})
	t.Run("big_100x100_10_players", func(t *testing.T) {
		r := game.Rules{Rows: 100, Cols: 100, Win: 25, Players: 10}
		g, err := game.New(r, game.Compact, []rune("XOABCDEFGH"))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 600; i++ { // a deterministic scatter of moves
			c := game.Coord{Row: (i * 37) % 100, Col: (i*53 + i/100) % 100}
			g.Play(g.Turn(), c)
		}
		goldenPNG(t, "big_100x100_10_players", g)
	})
}

func BenchmarkPNG(b *testing.B) {
	for _, size := range []int{3, 19, 100} {
		r := game.Rules{Rows: size, Cols: size, Win: 3, Players: 2}
		g, _ := game.New(r, game.Fast, []rune("XO"))
		for i := 0; i < size*size/2; i++ {
			g.Play(g.Turn(), game.Coord{Row: (i * 2 / size) % size, Col: (i*2 + (i*2/size)%2) % size})
		}
		b.Run(fmt.Sprintf("%dx%d", size, size), func(b *testing.B) {
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := PNG(&buf, g); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}

// TestPNGReusesCanvasCleanly: PNG draws on a reused canvas per size; a
// picture drawn after another of the same size must show nothing of it.
func TestPNGReusesCanvasCleanly(t *testing.T) {
	r := game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}
	games := []*game.Game{
		newGame(t, r, "XO", "0", "1", "1", "2", "2", "3", "2", "3", "3", "6", "3"),
		newGame(t, r, "AB", "5"),
		newGame(t, r, "XO"),
	}
	for n, g := range games {
		var buf bytes.Buffer
		if err := PNG(&buf, g); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if !goldenfile.SamePixels(got, Image(g)) {
			t.Fatalf("picture %d differs from Image of its game", n)
		}
	}
}
