package game_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/tttbot/tttbot/game"
)

// families are one rule set of each kind the bot offers.
var families = []struct {
	name  string
	rules game.Rules
	moves []string // typed moves, played in turn
}{
	{"classic", game.Classic(), []string{"1,1", "0,0", "2", "6", "3", "5", "7", "1", "8"}},
	{"gravity", game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}, []string{"3", "3", "4", "4", "5", "5", "6"}},
	{"big", game.Rules{Rows: 100, Cols: 100, Win: 5, Players: 2}, []string{"50,50", "99,0", "50,51", "0,99", "50,52"}},
	{"three_players", game.Rules{Rows: 5, Cols: 5, Win: 3, Players: 3}, []string{"0,0", "4,4", "2,2", "0,1", "4,3", "1,1"}},
}

func TestNotationsRoundTrip(t *testing.T) {
	for _, f := range families {
		t.Run(f.name, func(t *testing.T) {
			tokens := []rune("XOABCDEFGH")[:f.rules.Players]
			g, err := game.New(f.rules, game.Fast, tokens)
			if err != nil {
				t.Fatal(err)
			}
			for _, typed := range f.moves {
				m, err := game.Typed{}.Decode(g, typed)
				if err != nil {
					t.Fatalf("Typed.Decode(%q): %v", typed, err)
				}
				again, err := game.Typed{}.Decode(g, game.Typed{}.Encode(g, m))
				if err != nil || again != m {
					t.Fatalf("Typed: %q → %+v → %q → %+v (%v)", typed, m, game.Typed{}.Encode(g, m), again, err)
				}
				if _, err := g.Play(m.Player, m.At); err != nil {
					t.Fatalf("play %q: %v", typed, err)
				}
			}
			for _, m := range g.Moves() {
				back, err := game.Record{}.Decode(g, game.Record{}.Encode(g, m))
				if err != nil || back != m {
					t.Fatalf("Record: %+v → %+v (%v)", m, back, err)
				}
			}
			var h game.History
			text, _ := game.History(g.Moves()).MarshalText()
			if err := h.UnmarshalText(text); err != nil || !slices.Equal(h, g.Moves()) {
				t.Fatalf("History %q read back as %v (%v)", text, h, err)
			}
			replayed, err := game.Replay(f.rules, game.Compact, tokens, h)
			if err != nil || replayed.State() != g.State() || replayed.MoveCount() != g.MoveCount() {
				t.Fatalf("replay: %v", err)
			}
		})
	}
}

func TestTypedDecodeErrors(t *testing.T) {
	g, _ := game.New(game.Classic(), game.Fast, []rune("XO"))
	gravity, _ := game.New(game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}, game.Fast, []rune("XO"))
	for _, tc := range []struct {
		name string
		g    *game.Game
		text string
		want error
	}{
		{"ErrBadPosition", g, "a,b", game.ErrBadPosition},
		{"ErrOutOfBounds", g, "3,0", game.ErrOutOfBounds},
		{"ErrOutOfBounds/cell", g, "9", game.ErrOutOfBounds},
		{"ErrBadPosition/gravity", gravity, "1,2", game.ErrBadPosition},
		{"ErrOutOfBounds/gravity", gravity, "7", game.ErrOutOfBounds},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := (game.Typed{}).Decode(tc.g, tc.text); !errors.Is(err, tc.want) {
				t.Fatalf("Decode(%q) = %v, want %v", tc.text, err, tc.want)
			}
		})
	}
}

// TestStoredHistory reads a table stored by the bot before History moved
// into game: the stored format must not change.
func TestStoredHistory(t *testing.T) {
	raw, err := os.ReadFile("testdata/stored_table.json")
	if err != nil {
		t.Fatal(err)
	}
	var stored struct {
		Moves game.History `json:"moves"`
	}
	if err := json.Unmarshal(raw, &stored); err != nil {
		t.Fatal(err)
	}
	want := game.History{
		{Kind: game.Place, Player: 0, At: game.Coord{Row: 1, Col: 1}},
		{Kind: game.Place, Player: 1, At: game.Coord{Row: 0, Col: 0}},
		{Kind: game.Place, Player: 0, At: game.Coord{Row: 0, Col: 2}},
		{Kind: game.Resign, Player: 1},
	}
	if !slices.Equal(stored.Moves, want) {
		t.Fatalf("read %v, want %v", stored.Moves, want)
	}
	out, _ := json.Marshal(stored)
	if string(out) != `{"moves":"0.1.1 1.0.0 0.0.2 1!"}` {
		t.Fatalf("wrote %s", out)
	}
}

func FuzzRecord(f *testing.F) {
	for _, s := range []string{"0.1.1", "1!", "9.99.99", "-1.0.0", "a.b.c", "0..1", "!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := game.Record{}.Decode(nil, s)
		if err != nil {
			return
		}
		back, err := game.Record{}.Decode(nil, game.Record{}.Encode(nil, m))
		if err != nil || back != m {
			t.Fatalf("%q → %+v → %q → %+v (%v)", s, m, game.Record{}.Encode(nil, m), back, err)
		}
	})
}

func FuzzTyped(f *testing.F) {
	for _, s := range []string{"1,1", "(2, 0)", "4", "7", "x", ",", "1,,2", "[0 0]"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	classic, _ := game.New(game.Classic(), game.Fast, []rune("XO"))
	gravity, _ := game.New(game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}, game.Fast, []rune("XO"))
	f.Fuzz(func(t *testing.T, s string, drop bool) {
		g := classic
		if drop {
			g = gravity
		}
		m, err := game.Typed{}.Decode(g, s)
		if err != nil {
			if !errors.Is(err, game.ErrBadPosition) && !errors.Is(err, game.ErrOutOfBounds) {
				t.Fatalf("Decode(%q): unexpected error %v", s, err)
			}
			return
		}
		back, err := game.Typed{}.Decode(g, game.Typed{}.Encode(g, m))
		if err != nil || back != m {
			t.Fatalf("%q → %+v → %+v (%v)", s, m, back, err)
		}
	})
}

func ExampleTyped() {
	g, _ := game.New(game.Classic(), game.Fast, []rune("XO"))
	m, _ := game.Typed{}.Decode(g, "(1, 2)")
	fmt.Println(m.At.Row, m.At.Col, game.Typed{}.Encode(g, m))
	m, _ = game.Typed{}.Decode(g, "4") // the classic board's cell number
	fmt.Println(game.Typed{}.Encode(g, m))
	// Output:
	// 1 2 1,2
	// 1,1
}

func ExampleRecord() {
	g, _ := game.New(game.Classic(), game.Fast, []rune("XO"))
	g.Play(0, game.Coord{Row: 1, Col: 1})
	g.Resign(1)
	text, _ := game.History(g.Moves()).MarshalText()
	fmt.Println(string(text))
	// Output: 0.1.1 1!
}
