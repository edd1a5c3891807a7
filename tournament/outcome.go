package tournament

import "fmt"

// Outcome is how a tournament game ended, from its First player's side.
// Its JSON form is a word ("first", "draw"…), so stored documents read
// plainly and survive a reordering of the constants.
type Outcome int

// The outcomes. Pending is a game still being played. A forfeit is a game
// that was not played over the board: its player left the tournament, or
// did not show up (the bot decides what counts as a no-show). A forfeit
// scores like a loss for the one who forfeited and a win for the other,
// but the tie-breaks treat it as unplayed (see Standings).
const (
	Pending       Outcome = iota // not decided yet
	FirstWon                     // First won over the board
	SecondWon                    // Second won over the board
	Draw                         // drawn over the board
	Bye                          // First had no opponent: scores as a win
	FirstForfeit                 // First did not play: Second wins by forfeit
	SecondForfeit                // Second did not play: First wins by forfeit
	DoubleForfeit                // neither played: both score a loss
)

var outcomeWords = [...]string{
	Pending:       "pending",
	FirstWon:      "first",
	SecondWon:     "second",
	Draw:          "draw",
	Bye:           "bye",
	FirstForfeit:  "first-forfeit",
	SecondForfeit: "second-forfeit",
	DoubleForfeit: "double-forfeit",
}

// String is the outcome's word, as in JSON.
func (o Outcome) String() string {
	if o < 0 || int(o) >= len(outcomeWords) {
		return fmt.Sprintf("Outcome(%d)", int(o))
	}
	return outcomeWords[o]
}

// MarshalText writes the outcome's word.
func (o Outcome) MarshalText() ([]byte, error) {
	if o < 0 || int(o) >= len(outcomeWords) {
		return nil, fmt.Errorf("%w: %d", ErrBadOutcome, int(o))
	}
	return []byte(outcomeWords[o]), nil
}

// UnmarshalText reads an outcome's word.
func (o *Outcome) UnmarshalText(text []byte) error {
	for i, w := range outcomeWords {
		if w == string(text) {
			*o = Outcome(i)
			return nil
		}
	}
	return fmt.Errorf("%w: %q", ErrBadOutcome, text)
}

// Decided reports whether the game has its result.
func (o Outcome) Decided() bool { return o != Pending }

// OverTheBoard reports whether the game was played to its result, as
// opposed to a bye or a forfeit.
func (o Outcome) OverTheBoard() bool { return o == FirstWon || o == SecondWon || o == Draw }

// recordable reports whether Record accepts o: a result a game can end
// with. Pending and Bye are the tournament's own to give.
func (o Outcome) recordable() bool {
	switch o {
	case FirstWon, SecondWon, Draw, FirstForfeit, SecondForfeit, DoubleForfeit:
		return true
	}
	return false
}

// halfPoints is what the outcome scores, in half points, for First and for
// Second: a win 2, a draw 1, a loss 0.
func (o Outcome) halfPoints() (first, second int) {
	switch o {
	case FirstWon, Bye, SecondForfeit:
		return 2, 0
	case SecondWon, FirstForfeit:
		return 0, 2
	case Draw:
		return 1, 1
	}
	return 0, 0
}
