package render

import (
	"errors"
	"io"
	"strconv"
)

// Bracket is what BracketPNG draws: a knockout, round by round.
type Bracket struct {
	// Title is drawn above the bracket ("" for none).
	Title string
	// Rounds run from the first to the final, all of them: the first has
	// 2^(len(Rounds)−1) matches and each later round half as many. A
	// round's matches not yet paired may be missing (a round not yet
	// paired has none) and are drawn as empty boxes. Match m of a round is
	// fed by matches 2m and 2m+1 of the round before.
	Rounds []BracketRound
}

// BracketRound is one round: its name in the caller's words ("Final")
// and its matches in bracket order.
type BracketRound struct {
	Name    string
	Matches []BracketMatch
}

// BracketMatch is one game between two slots.
type BracketMatch struct{ Top, Bottom BracketSlot }

// BracketSlot is a player's place in a match. An empty Name is an empty
// slot: the missing opponent of a bye, or a player not yet known.
type BracketSlot struct {
	Name string
	// Seed is drawn before the name when above 0.
	Seed int
	// Points the player scored in the match, drawn when Decided.
	Points  float64
	Decided bool
	// Through marks the player who went on to the next round.
	Through bool
}

// ErrBracketShape is returned for a bracket that does not run to a final:
// its first round must have 2^(rounds−1) matches, and no later round more
// than half the round before.
var ErrBracketShape = errors.New("a bracket's rounds must halve down to one final")

// Bracket metrics: the longest name drawn, a slot's height, the gap
// between first-round matches and between rounds.
const (
	bracketNameMax = 16
	slotH          = lineH + 5
	matchGap       = 10
	roundGap       = 28
)

// BracketPNG writes b as a PNG bracket: a column a round with its name on
// top, each match a box of two slots (seed, name, points), the player who
// went through highlighted, lines joining each match to the one it feeds,
// and the winner of the final in a box of its own at the end. The output
// depends only on b.
func BracketPNG(w io.Writer, b Bracket) error {
	if len(b.Rounds) == 0 {
		return ErrBracketShape
	}
	first := len(b.Rounds[0].Matches)
	if first != 1<<(len(b.Rounds)-1) {
		return ErrBracketShape
	}
	for r, round := range b.Rounds {
		if len(round.Matches) > first>>r {
			return ErrBracketShape
		}
	}
	seedW := 0
	for _, m := range b.Rounds[0].Matches {
		for _, s := range []BracketSlot{m.Top, m.Bottom} {
			if s.Seed > 0 {
				seedW = max(seedW, chartWidth(strconv.Itoa(s.Seed))+charW)
			}
		}
	}
	scoreW := chartWidth("0.5")
	boxW := 6 + seedW + bracketNameMax*charW + charW + scoreW + 6
	matchH := 2 * slotH
	pitch := matchH + matchGap

	title := foldText(b.Title, 0)
	top := chartPad
	if title != "" {
		top += lineH + 8
	}
	top += lineH + 6 // the rounds' names
	columns := len(b.Rounds) + 1
	width := 2*chartPad + columns*boxW + (columns-1)*roundGap
	height := top + first*pitch - matchGap + chartPad
	img := newChart(width, height)
	if title != "" {
		text(img, title, chartPad, chartPad+lineH-2, chartText)
	}

	x := func(round int) int { return chartPad + round*(boxW+roundGap) }
	centre := func(round, match int) int { return top + (2*match+1)*pitch<<round/2 - matchGap/2 }
	drawSlot := func(sx, sy int, s BracketSlot) {
		if s.Through {
			fill(img, rect(sx+1, sy+1, boxW-1, slotH-1), chartIdxMark)
		}
		if s.Name == "" {
			text(img, "-", sx+6+seedW, sy+slotH-4, chartFaded)
			return
		}
		if s.Seed > 0 {
			text(img, strconv.Itoa(s.Seed), sx+6, sy+slotH-4, chartFaded)
		}
		text(img, foldText(s.Name, bracketNameMax), sx+6+seedW, sy+slotH-4, chartText)
		if s.Decided {
			p := points(s.Points)
			text(img, p, sx+boxW-6-chartWidth(p), sy+slotH-4, chartText)
		}
	}
	box := func(bx, cy, h int) {
		y := cy - h/2
		fill(img, rect(bx, y, boxW+1, 1), chartIdxRule)
		fill(img, rect(bx, y+h, boxW+1, 1), chartIdxRule)
		fill(img, rect(bx, y, 1, h+1), chartIdxRule)
		fill(img, rect(bx+boxW, y, 1, h+1), chartIdxRule)
	}
	last := len(b.Rounds) - 1
	for r, round := range b.Rounds {
		name := foldText(round.Name, (boxW-6)/charW)
		text(img, name, x(r)+3, top-8, chartText)
		for m := 0; m < first>>r; m++ {
			var match BracketMatch
			if m < len(round.Matches) {
				match = round.Matches[m]
			}
			cy := centre(r, m)
			box(x(r), cy, matchH)
			fill(img, rect(x(r), cy, boxW+1, 1), chartIdxRule)
			drawSlot(x(r), cy-slotH, match.Top)
			drawSlot(x(r), cy, match.Bottom)
			// The line to the match this one feeds: right, then along
			// to that match's centre, then into it.
			mid := x(r) + boxW + roundGap/2
			fill(img, rect(x(r)+boxW, cy, roundGap/2, 1), chartIdxRule)
			next := cy // the final feeds the winner's box beside it
			if r < last {
				next = centre(r+1, m/2)
			}
			fill(img, rect(mid, min(cy, next), 1, abs(next-cy)+1), chartIdxRule)
			if m%2 == 0 {
				fill(img, rect(mid, next, roundGap/2, 1), chartIdxRule)
			}
		}
	}
	// The winner: whoever went through from the final.
	var champion BracketSlot
	if len(b.Rounds[last].Matches) == 1 {
		final := b.Rounds[last].Matches[0]
		switch {
		case final.Top.Through:
			champion = final.Top
		case final.Bottom.Through:
			champion = final.Bottom
		}
	}
	cy := centre(last, 0)
	box(x(last+1), cy, slotH)
	champion.Through, champion.Decided = champion.Name != "", false
	drawSlot(x(last+1), cy-slotH/2, champion)
	return encoder.Encode(w, img)
}
