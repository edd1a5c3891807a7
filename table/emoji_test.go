package table

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/token"
)

// TestEmojiSeatsPlayAndComeBackFromTheStore: emoji seats play, are stored
// as the strings they were given and come back with the same game, and a
// finished game replays from its result.
func TestEmojiSeatsPlayAndComeBackFromTheStore(t *testing.T) {
	r := game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}
	tbl, _ := New(nil, "g", "c", "alice", r, game.Fast, start)
	if err := tbl.Join("alice", "🦊"); err != nil {
		t.Fatal(err)
	}
	var te *token.Error
	if err := tbl.Join("bob", "<:fox:1>"); err != nil {
		t.Fatalf("a custom emoji named like a Unicode one: %v", err)
	}
	if !tbl.HasEmoji() || tbl.Phase != Playing {
		t.Fatalf("phase %v, emoji %v", tbl.Phase, tbl.HasEmoji())
	}
	for i, col := range []string{"0", "1", "0", "1", "0", "1", "0"} {
		if _, _, err := tbl.Move([]string{"alice", "bob"}[i%2], col); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
	}
	data, err := tbl.encode()
	if err != nil {
		t.Fatal(err)
	}
	var stored struct{ Seats []storedSeat }
	if err := json.Unmarshal(data, &stored); err != nil || stored.Seats[0].Token != "🦊" || stored.Seats[1].Token != "<:fox:1>" {
		t.Fatalf("stored seats %+v (%v)", stored.Seats, err)
	}
	back, err := decode(data, 1)
	if err != nil {
		t.Fatal(err)
	}
	if back.Game().State() != game.Won || back.Game().Winner() != 0 {
		t.Fatalf("decoded game %v, winner %d", back.Game().State(), back.Game().Winner())
	}
	f := Finished{Result: Result{Rules: r, Tokens: tbl.Tokens(), Record: back.Game().Moves()}}
	if g, err := f.Game(); err != nil || g.Winner() != 0 {
		t.Fatalf("replayed result: %v", err)
	}
	other, _ := New(nil, "g", "d", "carol", r, game.Fast, start)
	other.Join("carol", "👍🏻")
	if err := other.Join("dan", "👍🏿"); !errors.As(err, &te) || te.Rule != token.NotConfusable {
		t.Fatalf("another skin tone of a seat's emoji: %v", err)
	}
}
