package bot

import (
	"io"
	"unicode"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/render"
	"github.com/tttbot/tttbot/tournament"
)

// The standings as a picture: a table of every player (the message may
// not have room for them all), or a knockout's bracket. The picture's font
// draws the Latin alphabet only, so a language written otherwise labels
// the picture in English (latinOr).

// standingsPicture is d's standings picture, in w's words where the
// picture can draw them. The picture is laid out now (d may change after)
// and drawn only when a transport attaches it.
func standingsPicture(w *locales.Speaker, d *tourney) []File {
	if d.T.Format == tournament.Knockout && d.T.Started {
		b := bracketOf(w, d, d.playerName)
		return []File{{Name: "bracket.png", ContentType: "image/png", Write: func(out io.Writer) error { return render.BracketPNG(out, b) }}}
	}
	table := render.StandingsTable{Headings: render.StandingsHeadings{
		Rank:   "#",
		Player: latinOr(w, "tournament.picture.player"),
		Points: latinOr(w, "tournament.picture.points"),
		Games:  latinOr(w, "tournament.picture.games"),
	}}
	switch d.T.Format {
	case tournament.RoundRobin:
		table.Headings.TieBreak = latinOr(w, "tournament.tie.sonneborn_berger")
	case tournament.Swiss:
		table.Headings.TieBreak = latinOr(w, "tournament.tie.buchholz")
	}
	for _, s := range d.T.Standings() {
		table.Rows = append(table.Rows, render.StandingsRow{Rank: s.Rank, Player: d.playerName(s.Player), Points: s.Points, Games: s.Games, TieBreak: s.TieBreak, Left: s.Left})
	}
	return []File{{Name: "standings.png", ContentType: "image/png", Write: func(out io.Writer) error { return render.StandingsPNG(out, table) }}}
}

// bracketOf is a started knockout's bracket: every round, the paired ones
// with their games, each match's top slot the one fed by the upper match
// of the round before.
func bracketOf(w *locales.Speaker, d *tourney, name func(string) string) render.Bracket {
	seeds := map[string]int{}
	for _, p := range d.T.Players {
		seeds[p.ID] = p.Seed
	}
	played := d.T.Bracket()
	b := render.Bracket{Rounds: make([]render.BracketRound, d.T.Rounds)}
	for r := range b.Rounds {
		b.Rounds[r].Name = w.Say("tournament.picture.round", locales.Data{"Round": r + 1})
		if r == d.T.Rounds-1 {
			b.Rounds[r].Name = latinOr(w, "tournament.picture.final")
		} else if !latin(b.Rounds[r].Name) {
			b.Rounds[r].Name = locales.English().Say("tournament.picture.round", locales.Data{"Round": r + 1})
		}
		if r >= len(played) {
			continue
		}
		for m, g := range played[r] {
			first, second := slotOf(g, true, name, seeds), slotOf(g, false, name, seeds)
			top, bottom := first, second
			if r > 0 && m*2 < len(played[r-1]) && played[r-1][m*2].Advances() != g.First {
				top, bottom = second, first // the first mover came up from the lower match
			}
			b.Rounds[r].Matches = append(b.Rounds[r].Matches, render.BracketMatch{Top: top, Bottom: bottom})
		}
	}
	return b
}

// slotOf is the first (or second) player's slot in knockout game g.
func slotOf(g tournament.Game, first bool, name func(string) string, seeds map[string]int) render.BracketSlot {
	id := g.First
	if !first {
		id = g.Second
	}
	if id == "" {
		return render.BracketSlot{} // the missing opponent of a bye
	}
	s := render.BracketSlot{Name: name(id), Seed: seeds[id], Decided: g.Outcome != tournament.Pending, Through: g.Advances() == id && g.Outcome != tournament.Pending}
	if s.Decided {
		switch {
		case g.Outcome == tournament.Draw:
			s.Points = 0.5
		case g.Winner() == id:
			s.Points = 1
		}
	}
	return s
}

// latinOr is key's text in w when the picture's font can draw it, else in
// English.
func latinOr(w *locales.Speaker, key string) string {
	if text := w.Say(key, nil); latin(text) {
		return text
	}
	return locales.English().Say(key, nil)
}

// latin reports whether every letter of s is a Latin one (accents fold
// away in the picture's font; other scripts would not show).
func latin(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) {
			return false
		}
	}
	return true
}
