package token

import (
	"strconv"
	"unicode/utf8"

	"github.com/tttbot/tttbot/internal/twemoji"
)

// Kind is what a token is.
type Kind uint8

// The kinds of token.
const (
	// Char is one character, drawn in a monospaced code block.
	Char Kind = iota
	// Unicode is one Unicode emoji.
	Unicode
	// Custom is one of Discord's custom emoji, <:name:id>.
	Custom
)

var kindNames = [...]string{Char: "character", Unicode: "emoji", Custom: "custom emoji"}

// String names the kind: "character", "emoji", "custom emoji".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Info is a stored token taken apart.
type Info struct {
	Kind Kind
	// Text is the token as stored: the character, the emoji, or the custom
	// emoji's markup <:name:id>.
	Text string
	// Name, ID and Animated are a custom emoji's parts; "", "", false
	// otherwise.
	Name     string
	ID       string
	Animated bool
}

// Emoji reports whether the token is an emoji, Unicode or custom.
func (i Info) Emoji() bool { return i.Kind != Char }

// Describe takes apart a token Parse returned (as a table stores it). A
// stored token of one code point is a character unless it is a
// fully-qualified emoji by itself (🦊; no character token is one, as they are
// wide); custom emoji markup is a custom emoji; anything else is a Unicode
// emoji.
func Describe(tok string) Info {
	switch {
	case len(tok) == 1 && tok[0] < utf8.RuneSelf:
		// An ASCII character is never an emoji on its own (the ones Unicode
		// lists, # * and the digits, are emoji only with U+FE0F after
		// them): the common tokens, X and O, need no emoji table, and every
		// reply asks about its seats' tokens.
		return Info{Kind: Char, Text: tok}
	case utf8.RuneCountInString(tok) <= 1:
		if q, ok := twemoji.Qualified(tok); ok && q == tok {
			return Info{Kind: Unicode, Text: tok}
		}
		return Info{Kind: Char, Text: tok}
	case tok[0] == '<':
		if c, detail := parseCustom(tok); detail == "" {
			return Info{Kind: Custom, Text: tok, Name: c.name, ID: strconv.FormatUint(c.id, 10), Animated: c.animated}
		}
	}
	return Info{Kind: Unicode, Text: tok}
}

// AnyEmoji reports whether any of the tokens is an emoji.
func AnyEmoji(tokens []string) bool {
	for _, t := range tokens {
		if Describe(t).Emoji() {
			return true
		}
	}
	return false
}
