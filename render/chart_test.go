package render

import (
	"bytes"
	"errors"
	"testing"
)

// The swiss of 8 of the tournament package's tests, final standings.
var swissStandings = StandingsTable{
	Title:    "Swiss, 8 players: final standings after round 3",
	Headings: StandingsHeadings{Rank: "#", Player: "Player", Points: "Points", Games: "Games", TieBreak: "Buchholz"},
	Rows: []StandingsRow{
		{Rank: 1, Player: "Zoë", Points: 2.5, Games: 3, TieBreak: 6},
		{Rank: 2, Player: "alice", Points: 2.5, Games: 3, TieBreak: 4.5},
		{Rank: 3, Player: "Björn Ångström", Points: 2, Games: 3, TieBreak: 5},
		{Rank: 4, Player: "carol", Points: 1.5, Games: 3, TieBreak: 5},
		{Rank: 4, Player: "dave", Points: 1.5, Games: 3, TieBreak: 5},
		{Rank: 6, Player: "erin", Points: 1, Games: 3, TieBreak: 5.5},
		{Rank: 7, Player: "a name far too long to fit the column", Points: 1, Games: 3, TieBreak: 5},
		{Rank: 8, Player: "宮本", Points: 0, Games: 2, TieBreak: 0, Left: true},
	},
}

// The knockout of 6 of the tournament package's tests, finished, with
// its sides as Tournament.Sides gives them.
var knockoutBracket = Bracket{
	Title: "Knockout, 6 players",
	Rounds: []BracketRound{
		{Name: "Quarter-finals", Matches: []BracketMatch{
			{Top: BracketSlot{Name: "b", Seed: 1, Points: 1, Decided: true, Through: true}, Bottom: BracketSlot{}},
			{Top: BracketSlot{Name: "d", Seed: 4, Points: 0.5, Decided: true, Through: true}, Bottom: BracketSlot{Name: "a", Seed: 5, Points: 0.5, Decided: true}},
			{Top: BracketSlot{Name: "f", Seed: 2, Points: 1, Decided: true, Through: true}, Bottom: BracketSlot{}},
			{Top: BracketSlot{Name: "c", Seed: 3, Points: 0, Decided: true}, Bottom: BracketSlot{Name: "e", Seed: 6, Points: 1, Decided: true, Through: true}},
		}},
		{Name: "Semi-finals", Matches: []BracketMatch{
			{Top: BracketSlot{Name: "b", Seed: 1, Points: 0, Decided: true}, Bottom: BracketSlot{Name: "d", Seed: 4, Points: 1, Decided: true, Through: true}},
			{Top: BracketSlot{Name: "f", Seed: 2, Points: 1, Decided: true, Through: true}, Bottom: BracketSlot{Name: "e", Seed: 6, Points: 0, Decided: true}},
		}},
		{Name: "Final", Matches: []BracketMatch{
			{Top: BracketSlot{Name: "d", Seed: 4, Points: 0.5, Decided: true}, Bottom: BracketSlot{Name: "f", Seed: 2, Points: 0.5, Decided: true, Through: true}},
		}},
	},
}

func TestChartGolden(t *testing.T) {
	t.Run("standings_swiss_8", func(t *testing.T) {
		goldenPicture(t, "standings_swiss_8", func(b *bytes.Buffer) error { return StandingsPNG(b, swissStandings) })
	})
	t.Run("standings_no_tiebreak", func(t *testing.T) {
		s := swissStandings
		s.Title, s.Headings.TieBreak = "", ""
		goldenPicture(t, "standings_no_tiebreak", func(b *bytes.Buffer) error { return StandingsPNG(b, s) })
	})
	t.Run("bracket_knockout_6", func(t *testing.T) {
		goldenPicture(t, "bracket_knockout_6", func(b *bytes.Buffer) error { return BracketPNG(b, knockoutBracket) })
	})
	t.Run("bracket_in_progress", func(t *testing.T) {
		b := knockoutBracket
		b.Title = ""
		b.Rounds = []BracketRound{b.Rounds[0], {Name: "Semi-finals", Matches: []BracketMatch{
			{Top: BracketSlot{Name: "b", Seed: 1}, Bottom: BracketSlot{Name: "d", Seed: 4}},
		}}, {Name: "Final"}}
		goldenPicture(t, "bracket_in_progress", func(buf *bytes.Buffer) error { return BracketPNG(buf, b) })
	})
}

// TestBracketShape refuses brackets that do not halve down to one final.
func TestBracketShape(t *testing.T) {
	three := BracketRound{Matches: make([]BracketMatch, 3)}
	two := BracketRound{Matches: make([]BracketMatch, 2)}
	one := BracketRound{Matches: make([]BracketMatch, 1)}
	for name, b := range map[string]Bracket{
		"no rounds":       {},
		"three matches":   {Rounds: []BracketRound{three, two, one}},
		"no final":        {Rounds: []BracketRound{two}},
		"too many rounds": {Rounds: []BracketRound{two, one, one}},
		"later too big":   {Rounds: []BracketRound{two, two}},
	} {
		if err := BracketPNG(new(bytes.Buffer), b); !errors.Is(err, ErrBracketShape) {
			t.Errorf("%s: %v, want ErrBracketShape", name, err)
		}
	}
}

func TestFoldText(t *testing.T) {
	for in, want := range map[string]string{
		"José":            "Jose",
		"Björn Ångström":  "Bjorn Ang.",
		"宮本":              "??",
		"2½":              "2.5",
		"tab\there":       "tab here",
		"abcdefghijklmno": "abcdefghi.",
	} {
		if got := foldText(in, 10); got != want {
			t.Errorf("foldText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestChartsAtTheEdges: an empty table, a one-match bracket and a 64-player
// bracket draw without error, and the same input gives the same bytes.
func TestChartsAtTheEdges(t *testing.T) {
	var a, b bytes.Buffer
	if err := StandingsPNG(&a, StandingsTable{}); err != nil {
		t.Errorf("an empty table: %v", err)
	}
	final := Bracket{Rounds: []BracketRound{{Name: "Final", Matches: []BracketMatch{{Top: BracketSlot{Name: "x", Seed: 1}}}}}}
	if err := BracketPNG(&a, final); err != nil {
		t.Errorf("a bracket of one match: %v", err)
	}
	var rounds []BracketRound
	for m := 32; m >= 1; m /= 2 {
		r := BracketRound{Name: "Round"}
		for i := 0; i < m; i++ {
			r.Matches = append(r.Matches, BracketMatch{
				Top:    BracketSlot{Name: "a player of sixty-four", Seed: i + 1, Decided: true, Points: 1, Through: true},
				Bottom: BracketSlot{Name: "another", Seed: 64 - i, Decided: true}})
		}
		rounds = append(rounds, r)
	}
	big := Bracket{Title: "64 players", Rounds: rounds}
	a.Reset()
	if err := BracketPNG(&a, big); err != nil {
		t.Fatal(err)
	}
	if err := BracketPNG(&b, big); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same bracket drew two different PNGs")
	}
}
