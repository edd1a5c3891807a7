package locales

import (
	"strings"
	"testing"
)

// sample has a value for every placeholder any sentence uses.
var sample = Data{
	"Token": "X", "Who": "<@1>", "Level": "hard", "Rows": 3, "Cols": 3, "Win": 3, "Players": 2, "Row": 1, "Col": 2,
	"MaxRow": 2, "MaxCol": 2, "Rules": "3×3", "N": 1, "Seat": "**X** <@1>", "Count": 2, "Creator": "<@1>", "Seats": "a vs b",
	"Where": "1,2", "User": "<@1>", "Number": 2, "Moves": 5, "RowLo": 0, "RowHi": 9, "ColLo": 0, "ColHi": 9, "Shown": 3,
	"Wins": 1, "WinsWord": "win", "Losses": 0, "LossesWord": "losses", "Draws": 0, "DrawsWord": "draws", "Games": 1, "GamesWord": "game",
	"Player": "<@1>", "Verdict": "The Winner is X", "Field": "rows", "Reason": "must be 3–100", "Free": "O", "Option": "rows", "Hint": "…",
	"Deadline": "<t:1:R>", "When": "<t:1:R>", "Lost": "**X** <@1>",
}

// TestEveryKeyRenders: every sentence parses and fills from named data.
func TestEveryKeyRenders(t *testing.T) {
	for _, key := range Keys() {
		got := Say(key, sample)
		if got == key || strings.Contains(got, "{{") || strings.Contains(got, "<no value>") {
			t.Errorf("%s renders as %q", key, got)
		}
	}
	if got := Say("no.such.key", nil); got != "no.such.key" {
		t.Errorf("an unknown key renders as %q", got)
	}
}

func TestSayN(t *testing.T) {
	if got := SayN("lobby.waiting", 1, nil); got != "Waiting for 1 more player: `/ttt join` to take a seat." {
		t.Errorf("one: %q", got)
	}
	if got := SayN("lobby.waiting", 3, nil); got != "Waiting for 3 more players: `/ttt join` to take a seat." {
		t.Errorf("other: %q", got)
	}
}

func TestCode(t *testing.T) {
	if got := Code("a`b"); got != "`a'b`" {
		t.Errorf("Code = %q", got)
	}
}
