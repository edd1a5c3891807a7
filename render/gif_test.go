package render

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tttbot/tttbot/game"
	goldenfile "github.com/tttbot/tttbot/internal/golden"
)

func replayBytes(t testing.TB, g *game.Game) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := ReplayGIF(&buf, g); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decodeGIF(t testing.TB, b []byte) *gif.GIF {
	t.Helper()
	a, err := gif.DecodeAll(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// composite plays the frames of a as a viewer sees them (each left in
// place, transparent pixels keeping what was there) and returns the picture
// after each frame.
func composite(a *gif.GIF) []*image.RGBA {
	canvas := image.NewRGBA(image.Rect(0, 0, a.Config.Width, a.Config.Height))
	var out []*image.RGBA
	for _, f := range a.Image {
		draw.Draw(canvas, f.Bounds(), f, f.Bounds().Min, draw.Over)
		out = append(out, image.NewRGBA(canvas.Bounds()))
		copy(out[len(out)-1].Pix, canvas.Pix)
	}
	return out
}

// replayGames are the games the GIF tests replay: classic, Connect Four,
// three players with a resignation, and a game that ends by resignation.
func replayGames(t *testing.T) map[string]*game.Game {
	c4 := game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}
	three := newGame(t, game.Rules{Rows: 5, Cols: 5, Win: 3, Players: 3}, "XO#", "0,0", "1,1", "2,2", "0,1")
	if err := three.Resign(1); err != nil {
		t.Fatal(err)
	}
	three.Play(three.Turn(), game.Coord{Row: 4, Col: 4})
	three.Play(three.Turn(), game.Coord{Row: 0, Col: 2})
	resigned := newGame(t, game.Classic(), "XO", "4", "0")
	if err := resigned.Resign(1); err != nil {
		t.Fatal(err)
	}
	return map[string]*game.Game{
		"classic_3x3":         newGame(t, game.Classic(), "XO", "0", "4", "8", "2", "6", "3", "7"),
		"connect4_7x6":        newGame(t, c4, "XO", "0", "1", "1", "2", "2", "3", "2", "3", "3", "6", "3"),
		"three_players_5x5":   three,
		"classic_resignation": resigned,
	}
}

// TestReplayFrames checks what a viewer sees: the empty board first, then
// after each placement exactly the picture of the game so far (with an
// optional short frame before it that clears a far-away highlight), and
// finally Image of the whole game, which holds.
func TestReplayFrames(t *testing.T) {
	games := replayGames(t)
	games["100x100_scattered"] = bigGame(t, 40)
	for name, g := range games {
		t.Run(name, func(t *testing.T) {
			a := decodeGIF(t, replayBytes(t, g))
			if a.LoopCount != 0 {
				t.Errorf("LoopCount %d, want 0 (forever)", a.LoopCount)
			}
			shown := composite(a)
			moves := g.Moves()
			placed := 0
			at := 0 // the frame showing the game so far
			if !goldenfile.SamePixels(shown[0], picture(newGame(t, g.Rules(), string(g.Tokens())), Look{}, false)) {
				t.Errorf("the first frame is not the empty board")
			}
			for n, m := range moves {
				if m.Kind != game.Place {
					continue
				}
				placed++
				prefix, err := game.Replay(g.Rules(), game.Fast, g.Tokens(), moves[:n+1])
				if err != nil {
					t.Fatal(err)
				}
				want := picture(prefix, Look{}, false)
				switch {
				case at+1 < len(shown) && goldenfile.SamePixels(shown[at+1], want):
					at++
				case at+2 < len(shown) && goldenfile.SamePixels(shown[at+2], want) && a.Delay[at+1] == unmarkDelay:
					at += 2
				default:
					t.Fatalf("move %d (%v): no frame after frame %d shows the game so far", n+1, m.At, at)
				}
				if a.Delay[at] != moveDelay(g.Filled()) {
					t.Errorf("move %d: delay %d, want %d", n+1, a.Delay[at], moveDelay(g.Filled()))
				}
			}
			if at != len(shown)-2 {
				t.Fatalf("%d frames for %d placements: %d left over after the moves, want 1", len(shown), placed, len(shown)-1-at)
			}
			if !goldenfile.SamePixels(shown[at+1], Image(g)) {
				t.Errorf("the final frame differs from Image(g)")
			}
			if last := a.Delay[at+1]; last != holdDelay || last <= a.Delay[at] {
				t.Errorf("delays %v: the final frame should hold longest", a.Delay)
			}
		})
	}
}

// TestReplayFramesStaySmall: on a big board with moves far apart, no frame
// after the first grows beyond a few cells (the memory a replay holds is
// proportional to the moves, not to moves × picture).
func TestReplayFramesStaySmall(t *testing.T) {
	g := bigGame(t, 300)
	a := decodeGIF(t, replayBytes(t, g))
	cell := layoutFor(g.Rules()).cell + 1
	limit := splitFactor * 2 * cell * cell
	for i, f := range a.Image[1 : len(a.Image)-1] {
		if n := f.Bounds().Dx() * f.Bounds().Dy(); n > limit {
			t.Errorf("frame %d covers %v, %d pixels; limit %d", i+1, f.Bounds(), n, limit)
		}
	}
	if len(a.Image) > 2*g.MoveCount()+2 {
		t.Errorf("%d frames for %d moves", len(a.Image), g.MoveCount())
	}
}

func TestReplayDeterministic(t *testing.T) {
	for name, g := range replayGames(t) {
		if !bytes.Equal(replayBytes(t, g), replayBytes(t, g)) {
			t.Errorf("%s: two replays of one game differ", name)
		}
	}
}

// goldenGIF compares the replay with testdata/name.gif frame by frame
// (bounds, pixels, palette, delay, disposal), not byte by byte, so a change
// in Go's LZW encoder does not fail it; -update rewrites the file.
func goldenGIF(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.CheckWith(t, filepath.Join("testdata", name+".gif"), got, *update, sameGIF)
}

// sameGIF says how two GIFs differ as a viewer sees them; nil when they do
// not.
func sameGIF(wantGIF, gotGIF []byte) error {
	want, have, err := decodeBoth(wantGIF, gotGIF, gif.DecodeAll)
	if err != nil {
		return err
	}
	if len(have.Image) != len(want.Image) {
		return fmt.Errorf("%d frames, want %d", len(have.Image), len(want.Image))
	}
	if have.Config.Width != want.Config.Width || have.Config.Height != want.Config.Height {
		return fmt.Errorf("%dx%d, want %dx%d", have.Config.Width, have.Config.Height, want.Config.Width, want.Config.Height)
	}
	if have.LoopCount != want.LoopCount {
		return fmt.Errorf("loop count %d, want %d", have.LoopCount, want.LoopCount)
	}
	for i := range want.Image {
		h, w := have.Image[i], want.Image[i]
		switch {
		case have.Delay[i] != want.Delay[i]:
			return fmt.Errorf("frame %d: delay %d, want %d", i, have.Delay[i], want.Delay[i])
		case have.Disposal[i] != want.Disposal[i]:
			return fmt.Errorf("frame %d: disposal %d, want %d", i, have.Disposal[i], want.Disposal[i])
		case h.Bounds() != w.Bounds():
			return fmt.Errorf("frame %d: bounds %v, want %v", i, h.Bounds(), w.Bounds())
		case !slices.Equal(h.Palette, w.Palette):
			return fmt.Errorf("frame %d: palette differs", i)
		case !bytes.Equal(h.Pix, w.Pix):
			return fmt.Errorf("frame %d: pixels differ", i)
		}
	}
	return nil
}

func TestReplayGolden(t *testing.T) {
	games := replayGames(t)
	for _, name := range []string{"classic_3x3", "connect4_7x6"} {
		t.Run(name, func(t *testing.T) {
			goldenGIF(t, "replay_"+name, replayBytes(t, games[name]))
		})
	}
}

// bigGame is a 100×100 game between ten players with n moves scattered
// over the board (deterministically; nobody gets 25 in a row).
func bigGame(t testing.TB, n int) *game.Game {
	t.Helper()
	r := game.Rules{Rows: 100, Cols: 100, Win: 25, Players: 10}
	g, err := game.New(r, game.Compact, []rune("XOABCDEFGH"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		c := game.Coord{Row: (i * 37) % 100, Col: (i*53 + i/100) % 100}
		if _, err := g.Play(g.Turn(), c); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestReplaySize keeps replays well inside Discord's 10 MiB upload limit.
// The sizes it logs are the ones quoted in issue 13.
func TestReplaySize(t *testing.T) {
	games := replayGames(t)
	tests := []struct {
		name  string
		g     *game.Game
		limit int
	}{
		{"classic_3x3", games["classic_3x3"], 16 << 10},
		{"connect4_7x6", games["connect4_7x6"], 64 << 10},
		{"100x100_500_moves", bigGame(t, 500), 8 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := len(replayBytes(t, tt.g))
			t.Logf("%s: %d moves, %d bytes", tt.name, tt.g.MoveCount(), n)
			if n > tt.limit {
				t.Errorf("%d bytes, limit %d", n, tt.limit)
			}
		})
	}
}

func BenchmarkReplayGIF(b *testing.B) {
	c4 := game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}
	classic, _ := game.New(game.Classic(), game.Fast, []rune("XO"))
	for _, c := range []int{0, 4, 8, 2, 6, 3, 7} {
		classic.Play(classic.Turn(), game.Coord{Row: c / 3, Col: c % 3})
	}
	connect, _ := game.New(c4, game.Fast, []rune("XO"))
	for _, col := range []int{0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3} {
		connect.Play(connect.Turn(), game.Coord{Col: col})
	}
	for _, bc := range []struct {
		name string
		g    *game.Game
	}{{"3x3", classic}, {"7x6", connect}, {"100x100_500_moves", bigGame(b, 500)}} {
		b.Run(bc.name, func(b *testing.B) {
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := ReplayGIF(&buf, bc.g); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}
