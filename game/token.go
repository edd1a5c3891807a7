package game

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultTokens are handed out in order to players who do not pick their own:
// X and O first, as everyone expects, then the alphabet.
const DefaultTokens = "XOABCDEFGHIJKLMNPQRSTUVWYZ"

// ReservedTokens are the characters no token may be: the board drawing uses
// them (".", "|", "[", "]", "*") or Discord's formatting does ("`", "_", "~",
// "\\", "*").
const ReservedTokens = ".|[]`*_~\\"

// ParseToken reads a player's token: one visible, one-column-wide character,
// upper-cased. Surrounding spaces are ignored. It returns a *TokenError
// (matching ErrBadToken) for anything else: blank, more than one character,
// a control or space character, characters the board drawing uses (".", "|",
// "[", "]", "`"), or wide characters and emoji that would break the columns
// of a monospaced board.
//
// ParseToken is the engine's floor, checked again by New and Replay. The
// rule a player's choice must meet (grapheme clusters, visibility, width in
// monospaced fonts, look-alikes of other seats' tokens, digits on the
// numbered board) needs Unicode data beyond the standard library and lives
// in package github.com/tttbot/tttbot/token; its Parse accepts only tokens
// ParseToken accepts.
func ParseToken(s string) (rune, error) {
	t := strings.TrimSpace(s)
	switch n := utf8.RuneCountInString(t); {
	case n == 0:
		return 0, &TokenError{Token: s, Reason: "is blank: pick one character, like X"}
	case n > 1:
		return 0, &TokenError{Token: s, Reason: "is more than one character: pick one, like X"}
	}
	r, _ := utf8.DecodeRuneInString(t)
	switch {
	case r == utf8.RuneError:
		return 0, &TokenError{Token: s, Reason: "is not valid text"}
	case strings.ContainsRune(ReservedTokens, r):
		return 0, &TokenError{Token: s, Reason: "is used to draw the board or format messages: pick a letter, digit or symbol"}
	case !unicode.IsGraphic(r) || unicode.IsSpace(r) || unicode.Is(unicode.Mn, r):
		return 0, &TokenError{Token: s, Reason: "is not a visible character"}
	case isWide(r):
		return 0, &TokenError{Token: s, Reason: "is wider than one column (emoji and CJK break the board's columns): pick a letter, digit or symbol"}
	}
	return unicode.ToUpper(r), nil
}

// isWide reports whether r is usually drawn two columns wide in a monospaced
// font (East Asian wide and full-width forms, emoji blocks). The ranges are
// the broad blocks of Unicode's EastAsianWidth W and F classes; the standard
// library has no width table.
func isWide(r rune) bool {
	switch {
	case r >= 0x1100 && r <= 0x115F, // Hangul Jamo
		r >= 0x2600 && r <= 0x27BF, // miscellaneous symbols and dingbats (emoji presentation)
		r >= 0x2E80 && r <= 0xA4CF, // CJK radicals … Yi
		r >= 0xAC00 && r <= 0xD7A3, // Hangul syllables
		r >= 0xF900 && r <= 0xFAFF, // CJK compatibility ideographs
		r >= 0xFE10 && r <= 0xFE6F, // vertical and small forms
		r >= 0xFF00 && r <= 0xFF60, // full-width forms
		r >= 0xFFE0 && r <= 0xFFE6,
		r >= 0x1F000: // emoji and supplementary ideographs
		return true
	}
	return false
}
