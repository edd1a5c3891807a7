package render

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/tttbot/tttbot/game"
	goldenfile "github.com/tttbot/tttbot/internal/golden"
)

// Faces the emoji tests draw with.
var (
	faceFox    = Face{Kind: Unicode, Text: "🦊", Grid: "🦊"}
	faceFamily = Face{Kind: Unicode, Text: "👨\u200D👩\u200D👧", Grid: "👨\u200D👩\u200D👧"}
	faceBlob   = Face{Kind: Custom, Text: "<:blob:123456789012345678>", Grid: "<:blob:123456789012345678>", Name: "blob", ID: "123456789012345678"}
	faceLost   = Face{Kind: Custom, Text: "<a:gone:42>", Grid: "<a:gone:42>", Name: "gone", ID: "42", Animated: true}
	faceX      = Face{Kind: Char, Text: "X", Grid: "❌"}
	faceA      = Face{Kind: Char, Text: "A", Grid: "🇦"}
	faceFlag   = Face{Kind: Unicode, Text: "🇫🇷", Grid: "🇫🇷"}
	faceHash   = Face{Kind: Char, Text: "Ж"} // no emoji form
)

// fakeImages is a CDN in memory: a purple blob for id 123456789012345678,
// and nothing for any other id.
type fakeImages struct{ asked []string }

func (f *fakeImages) Image(_ context.Context, id string, _ bool) (image.Image, error) {
	f.asked = append(f.asked, id)
	if id != "123456789012345678" {
		return nil, errors.New("404 Not Found")
	}
	img := image.NewNRGBA(image.Rect(0, 0, 48, 48))
	for y := range 48 {
		for x := range 48 {
			dx, dy := x-24, y-24
			if d := dx*dx + dy*dy; d < 22*22 {
				img.SetNRGBA(x, y, color.NRGBA{uint8(0x80 + x), 0x30, uint8(0xc0 - y), 0xff})
				if dx > 2 && dx < 10 && dy > -10 && dy < -2 || dx < -2 && dx > -10 && dy > -10 && dy < -2 {
					img.SetNRGBA(x, y, color.NRGBA{0xff, 0xff, 0xff, 0xff})
				}
			}
		}
	}
	return img, nil
}

// connectFour is a Connect Four game 🦊 won against a custom emoji.
func connectFour(t *testing.T) *game.Game {
	return newGame(t, game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}, "OA",
		"3", "3", "4", "4", "6", "5", "2", "5", "1")
}

func TestEmojiGridGolden(t *testing.T) {
	free := game.Rules{Rows: 5, Cols: 5, Win: 3, Players: 3}
	tests := []struct {
		name  string
		g     *game.Game
		faces []Face
	}{
		{"emoji_connect4_fox_custom", connectFour(t), []Face{faceFox, faceBlob}},
		{"emoji_classic_family", newGame(t, game.Classic(), "OX", "4", "0", "8"), []Face{faceFamily, faceX}},
		{"emoji_free_flags", newGame(t, free, "ABC", "0,0", "0,1", "0,2", "1,1"), []Face{faceA, faceFlag, faceFox}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			grid, ok := Look{Faces: tt.faces}.EmojiGrid(tt.g)
			if !ok {
				t.Fatal("no emoji grid")
			}
			golden(t, tt.name, grid)
		})
	}
}

// TestEmojiGridNeverPairsFlags: a lone regional indicator next to another
// never forms a flag: a zero-width space stands between them.
func TestEmojiGridNeverPairsFlags(t *testing.T) {
	g := newGame(t, game.Rules{Rows: 3, Cols: 4, Win: 3, Players: 2}, "AB", "0,0", "0,1")
	grid, _ := Look{Faces: []Face{faceA, {Kind: Char, Text: "B", Grid: "🇧"}}}.EmojiGrid(g)
	if strings.Contains(grid, "🇦🇧") || !strings.Contains(grid, "🇦\u200B🇧") {
		t.Errorf("grid %+q pairs the regional indicators", grid)
	}
}

func TestEmojiGridRefuses(t *testing.T) {
	if _, ok := (Look{Faces: []Face{faceFox, faceHash}}).EmojiGrid(newGame(t, game.Classic(), "OЖ")); ok {
		t.Error("a grid for a character with no emoji form")
	}
	big := newGame(t, game.Rules{Rows: 11, Cols: 5, Win: 3, Players: 2}, "OX")
	if _, ok := (Look{Faces: []Face{faceFox, faceX}}).EmojiGrid(big); ok {
		t.Error("a grid for 11 rows, past the keycap labels")
	}
}

// discordLength is the length Discord counts a message by (UTF-16 code
// units, as its clients do; never less than the code points).
func discordLength(s string) int { return len(utf16.Encode([]rune(s))) }

// TestEmojiGridLengths: the emoji grid of a full 7×6 board with two emoji
// tokens, the longest custom emoji markup among them, fits a message (2000)
// with room for the status; a 10×10 board of two custom emoji does not, and
// the bot draws the picture instead.
func TestEmojiGridLengths(t *testing.T) {
	// A full board, 21 cells each: seat (col/2+level)%2 holds each cell, so
	// no run is longer than two and the game never ends early.
	r := game.Rules{Rows: 6, Cols: 7, Win: 6, Gravity: true, Players: 2}
	g, _ := game.New(r, game.Fast, []rune("OA"))
	height := make([]int, 7)
	for g.State() == game.Playing {
		best := -1 // the emptiest column whose next cell is the mover's
		for col := range 7 {
			if height[col] < 6 && (col/2+height[col])%2 == g.Turn() && (best < 0 || height[col] < height[best]) {
				best = col
			}
		}
		if best < 0 {
			t.Fatalf("no column for seat %d at %v", g.Turn(), height)
		}
		g.Play(g.Turn(), game.Coord{Col: best})
		height[best]++
	}
	if g.State() != game.Drawn {
		t.Fatalf("the board ended %v", g.State())
	}
	longest := Face{Kind: Custom, Name: strings.Repeat("n", 32), ID: "18446744073709551615", Animated: true}
	longest.Text = "<a:" + longest.Name + ":" + longest.ID + ">"
	longest.Grid = longest.Text
	for _, tt := range []struct {
		name  string
		faces []Face
		max   int
	}{
		{"fox_and_blob", []Face{faceFox, faceBlob}, 1000},
		{"fox_and_longest_custom", []Face{faceFox, longest}, 1500},
	} {
		grid, ok := Look{Faces: tt.faces}.EmojiGrid(g)
		n := discordLength(grid)
		t.Logf("full 7×6 emoji grid, %s: %d characters (UTF-16), %d bytes", tt.name, n, len(grid))
		if !ok || n > tt.max {
			t.Errorf("%s: %d characters, want at most %d", tt.name, n, tt.max)
		}
	}
}

// goldenLookPNG compares the picture of g drawn with look with
// testdata/name.png (goldenPicture), and with the same picture drawn on a
// fresh canvas.
func goldenLookPNG(t *testing.T, name string, g *game.Game, look Look) {
	t.Helper()
	drawn := goldenPicture(t, name, func(b *bytes.Buffer) error { return look.PNG(b, g) })
	if !goldenfile.SamePixels(mustDecodePNG(t, drawn), picture(g, look, true)) {
		t.Error("PNG differs from the picture drawn on a fresh canvas")
	}
}

func mustDecodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestEmojiPNGGolden(t *testing.T) {
	cdn := &fakeImages{}
	t.Run("connect4_fox_custom", func(t *testing.T) {
		goldenLookPNG(t, "emoji_connect4_fox_custom", connectFour(t), Look{Faces: []Face{faceFox, faceBlob}, Images: cdn})
	})
	t.Run("connect4_fox_custom_by_name", func(t *testing.T) {
		goldenLookPNG(t, "emoji_connect4_fox_custom_by_name", connectFour(t), Look{Faces: []Face{faceFox, faceLost}, Images: cdn})
	})
	t.Run("connect4_custom_without_cdn", func(t *testing.T) {
		goldenLookPNG(t, "emoji_connect4_fox_custom_by_name", connectFour(t), Look{Faces: []Face{faceFox, faceLost}})
	})
	t.Run("classic_family", func(t *testing.T) {
		goldenLookPNG(t, "emoji_classic_family", newGame(t, game.Classic(), "OX", "4", "0", "8", "2", "6"), Look{Faces: []Face{faceFamily, faceX}})
	})
	t.Run("big_100x100", func(t *testing.T) {
		r := game.Rules{Rows: 100, Cols: 100, Win: 25, Players: 3}
		g, err := game.New(r, game.Compact, []rune("OAX"))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 600 { // a deterministic scatter of moves
			g.Play(g.Turn(), game.Coord{Row: (i * 37) % 100, Col: (i*53 + i/100) % 100})
		}
		goldenLookPNG(t, "emoji_big_100x100", g, Look{Faces: []Face{faceFox, faceBlob, faceX}, Images: cdn})
	})
	if len(cdn.asked) == 0 {
		t.Error("the CDN was never asked")
	}
}

// TestEmojiReplayEndsOnThePicture: a replay of an emoji game ends on the
// picture PNG draws.
func TestEmojiReplayEndsOnThePicture(t *testing.T) {
	g := connectFour(t)
	look := Look{Faces: []Face{faceFox, faceBlob}, Images: &fakeImages{}}
	var buf bytes.Buffer
	if err := look.ReplayGIF(&buf, g); err != nil {
		t.Fatal(err)
	}
	shown := composite(decodeGIF(t, buf.Bytes()))
	if !goldenfile.SamePixels(shown[len(shown)-1], picture(g, look, true)) {
		t.Error("the replay's last frame differs from the picture")
	}
}

func TestEmojiTerminalTextGolden(t *testing.T) {
	golden(t, "emoji_terminal_connect4", Look{Faces: []Face{faceFox, faceX}}.String(connectFour(t), Whole(connectFour(t).Rules())))
	golden(t, "emoji_terminal_classic", Look{Faces: []Face{faceFamily, faceX}}.String(newGame(t, game.Classic(), "OX", "4", "0"), Whole(game.Classic())))
}
