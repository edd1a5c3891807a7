package token

import (
	"errors"
	"fmt"

	"github.com/tttbot/tttbot/game"
)

// Rule names the part of the token rule a token breaks.
type Rule int

// The parts of the token rule, in the order Parse checks them.
const (
	OneCharacter  Rule = iota + 1 // blank, or more than one character (grapheme cluster)
	Visible                       // a space, control, format, ignorable or blank-looking character
	NotAMark                      // a combining or enclosing mark, alone or on a letter with no one-character form
	OneColumn                     // wide, extra-wide, emoji, or not drawn one column wide by a monospaced font
	NotReserved                   // a character the board drawing or Discord's formatting uses, or a look-alike
	NoDigits                      // a digit or a digit's look-alike on the numbered 3×3 board
	NotTaken                      // another seat holds this token
	NotConfusable                 // another seat holds a token a reader could take this one for (UTS #39, skin tones, custom emoji ids)
	NotTooLong                    // one character built of more code points than any emoji has
	CustomEmoji                   // starts like a custom emoji but is no <:name:id> with a valid name and id
)

var ruleNames = [...]string{
	OneCharacter:  "one character",
	Visible:       "visible",
	NotAMark:      "not a mark",
	OneColumn:     "one column or one emoji",
	NotReserved:   "not reserved",
	NoDigits:      "no digits on the numbered board",
	NotTaken:      "not taken",
	NotConfusable: "not confusable",
	NotTooLong:    "not too long",
	CustomEmoji:   "custom emoji markup",
}

// String names the rule, e.g. "one column".
func (r Rule) String() string {
	if r > 0 && int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// Sentinel errors, one for each Rule; an *Error matches the one for its Rule
// with errors.Is.
var (
	ErrNotOneCharacter = errors.New("token is not one character")
	ErrInvisible       = errors.New("token is not visible")
	ErrMark            = errors.New("token is a combining or enclosing mark")
	ErrNotOneColumn    = errors.New("token is not one column wide")
	ErrReserved        = errors.New("token is reserved for drawing the board")
	ErrDigit           = errors.New("token looks like a cell number")
	ErrTaken           = errors.New("token is taken")
	ErrConfusable      = errors.New("token looks like a taken token")
	ErrTooLong         = errors.New("token is longer than any emoji")
	ErrCustomEmoji     = errors.New("token is not a custom emoji")
)

var sentinels = [...]error{
	OneCharacter:  ErrNotOneCharacter,
	Visible:       ErrInvisible,
	NotAMark:      ErrMark,
	OneColumn:     ErrNotOneColumn,
	NotReserved:   ErrReserved,
	NoDigits:      ErrDigit,
	NotTaken:      ErrTaken,
	NotConfusable: ErrConfusable,
	NotTooLong:    ErrTooLong,
	CustomEmoji:   ErrCustomEmoji,
}

// Error says which rule a token breaks and suggests a free one. It matches
// the sentinel of its Rule and game.ErrBadToken; NotTaken and NotConfusable
// also match game.ErrTokenTaken. errors.As finds a *game.TokenError in it,
// so callers that know only the engine's error still read a reason.
type Error struct {
	Token   string // what was given
	Rule    Rule   // the rule it breaks
	Detail  string // what about it breaks the rule, e.g. "is 2 columns wide"
	Clash   string // NotTaken, NotConfusable, NotReserved, NoDigits: what it clashes with; else ""
	Suggest string // a token that would be accepted, or "" when none is left
}

// Error is the reason in English, with the suggestion, for logs and the
// terminal; the bot words it from Rule, Clash and Suggest.
func (e *Error) Error() string {
	s := fmt.Sprintf("token %q %s (rule: %s)", e.Token, e.Detail, e.Rule)
	if e.Suggest != "" {
		s += ": try " + e.Suggest
	}
	return s
}

// Is matches the sentinel of e's Rule, game.ErrBadToken, and for NotTaken and
// NotConfusable game.ErrTokenTaken.
func (e *Error) Is(target error) bool {
	if e.Rule > 0 && int(e.Rule) < len(sentinels) && target == sentinels[e.Rule] {
		return true
	}
	switch target {
	case game.ErrBadToken:
		return true
	case game.ErrTokenTaken:
		return e.Rule == NotTaken || e.Rule == NotConfusable
	}
	return false
}

// Unwrap gives the engine's view of the refusal, so errors.As with a
// *game.TokenError works on an *Error.
func (e *Error) Unwrap() error {
	reason := e.Detail
	if e.Suggest != "" {
		reason += ": try " + e.Suggest
	}
	return &game.TokenError{Token: e.Token, Reason: reason}
}
