// Package token holds the token rule (docs/rules.md): a player's token is one
// character a reader tells apart at a glance in a monospaced code block.
//
// A token is one grapheme cluster (github.com/rivo/uniseg) that has a
// one-code-point form (NFC, golang.org/x/text/unicode/norm, because the
// engine stores a token as a rune); visible (not a space, control, format,
// default-ignorable or blank-looking character); not a combining or enclosing
// mark; one column wide (uniseg's width is 1 and the Go Mono font,
// golang.org/x/image/font/gofont/gomono, draws it in one cell: its WGL4
// repertoire is what monospaced fonts, Discord's included, commonly carry, and
// a character outside it falls back to a proportional font of unknown width,
// as U+FDFD and U+A9C1 do); upper-cased; no character the board drawing or
// Discord's formatting uses, nor a look-alike of one; on the numbered 3×3
// board no digit or digit look-alike; and no token another seat holds or a
// reader could confuse with one (equal confusable skeletons, Unicode
// Technical Standard #39, from Unicode's confusables.txt).
//
// The package is apart from game so that game stays standard library only;
// every token Parse accepts is also accepted by game.ParseToken and game.New.
package token

//go:generate go run ./internal/confusablesgen -out confusables_table.go

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
	"github.com/tttbot/tttbot/game"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/text/unicode/norm"
)

// Parse reads a player's token for a game with rules r, where the seats
// already hold the tokens in taken. Surrounding spaces are ignored and the
// token is upper-cased. A token that breaks the rule gets an *Error naming
// the Rule and suggesting a free token.
func Parse(s string, r game.Rules, taken []rune) (rune, error) {
	tok, rule, detail, clash := check(s, r, taken)
	if rule != 0 {
		return 0, &Error{Token: s, Rule: rule, Detail: detail, Clash: clash, Suggest: Suggest(r, taken)}
	}
	return tok, nil
}

// Suggest returns the first of game.DefaultTokens that Parse would accept
// next to taken, or 0 when none is left.
func Suggest(r game.Rules, taken []rune) rune {
	for _, t := range game.DefaultTokens {
		if _, rule, _, _ := check(string(t), r, taken); rule == 0 {
			return t
		}
	}
	return 0
}

// Skeleton is s's confusable skeleton (UTS #39): NFD, each code point
// replaced by its prototype from confusables.txt, NFD again. Two strings a
// reader could take for each other have equal skeletons.
func Skeleton(s string) string {
	var b strings.Builder
	for _, c := range norm.NFD.String(s) {
		if p, ok := prototypes[c]; ok {
			b.WriteString(p)
		} else {
			b.WriteRune(c)
		}
	}
	return norm.NFD.String(b.String())
}

// UnicodeVersion is the version of Unicode's confusables data the skeletons
// come from.
const UnicodeVersion = confusablesVersion

// blank lists characters Unicode calls visible symbols that draw nothing;
// no property marks them (they are not White_Space nor
// Default_Ignorable_Code_Point), so they are named here.
var blank = map[rune]string{
	0x2800:  "BRAILLE PATTERN BLANK",
	0x1D159: "MUSICAL SYMBOL NULL NOTEHEAD",
}

// check applies the rule; rule is 0 when s is a good token tok.
func check(s string, r game.Rules, taken []rune) (tok rune, rule Rule, detail string, clash rune) {
	t := strings.TrimSpace(s)
	if !utf8.ValidString(t) {
		return 0, OneCharacter, "is not valid text", 0
	}
	// Only the first cluster is read, so a long input costs no more than a
	// short one.
	switch first, rest, _, _ := uniseg.FirstGraphemeClusterInString(t, -1); {
	case first == "":
		return 0, OneCharacter, "is blank: pick one character, like X", 0
	case rest != "":
		return 0, OneCharacter, "is more than one character: pick one, like X", 0
	}
	if rule, detail := unseen(t); rule != 0 {
		return 0, rule, detail, 0
	}
	if w := uniseg.StringWidth(t); w != 1 {
		return 0, OneColumn, fmt.Sprintf("is %d columns wide in a monospaced font (emoji and East Asian wide characters are)", w), 0
	}
	t = norm.NFC.String(t)
	if utf8.RuneCountInString(t) != 1 {
		for _, c := range t {
			if unicode.IsMark(c) {
				return 0, NotAMark, fmt.Sprintf("carries the mark %U and has no one-character form", c), 0
			}
		}
		return 0, OneCharacter, "has no one-character form", 0
	}
	c, _ := utf8.DecodeRuneInString(t)
	tok = unicode.ToUpper(c)
	if w := uniseg.StringWidth(string(tok)); w != 1 {
		return 0, OneColumn, fmt.Sprintf("is %d columns wide in a monospaced font (emoji and East Asian wide characters are)", w), 0
	}
	if !monospaced(tok) {
		return 0, OneColumn, "is not drawn one column wide by monospaced fonts", 0
	}
	skel := Skeleton(string(tok))
	for _, res := range game.ReservedTokens {
		if res == tok || skel == Skeleton(string(res)) {
			return 0, NotReserved, fmt.Sprintf("looks like %c, which the board or Discord's formatting uses", res), res
		}
	}
	if r.IsClassic() {
		if unicode.IsNumber(tok) {
			return 0, NoDigits, "is a number, and the numbered 3×3 board shows empty cells as 0-8", tok
		}
		for d := '1'; d <= '8'; d++ { // 0 is left out: O is the classic token, and monospaced fonts tell 0 from O
			if skel == Skeleton(string(d)) {
				return 0, NoDigits, fmt.Sprintf("looks like %c, which the numbered 3×3 board shows in an empty cell", d), d
			}
		}
	}
	for _, o := range taken {
		if o == tok {
			return 0, NotTaken, "is taken by another player", o
		}
	}
	for _, o := range taken {
		if skel == Skeleton(string(o)) {
			return 0, NotConfusable, fmt.Sprintf("looks like %c, another player's token", o), o
		}
	}
	if _, err := game.ParseToken(string(tok)); err != nil {
		// The engine's own floor (its width blocks); a one-column
		// character it refuses is one Discord may draw as an emoji.
		return 0, OneColumn, "may be drawn as an emoji, wider than one column", 0
	}
	return tok, 0, "", 0
}

// unseen checks one grapheme cluster t: every code point of it must be
// visible, and only its first may be a non-mark. rule is 0 when t passes.
func unseen(t string) (rule Rule, detail string) {
	for i, c := range t {
		switch {
		case unicode.IsControl(c) || unicode.Is(unicode.Cs, c) || unicode.Is(unicode.Co, c):
			return Visible, fmt.Sprintf("holds the control or private character %U", c)
		case unicode.Is(unicode.White_Space, c) || unicode.Is(unicode.Zs, c):
			return Visible, fmt.Sprintf("holds the space %U", c)
		case defaultIgnorable(c):
			return Visible, fmt.Sprintf("holds the invisible character %U", c)
		case blank[c] != "":
			return Visible, fmt.Sprintf("is %U %s, which draws nothing", c, blank[c])
		case !unicode.IsGraphic(c):
			return Visible, fmt.Sprintf("holds %U, which is not a character Unicode assigns", c)
		case i == 0 && unicode.IsMark(c):
			return NotAMark, fmt.Sprintf("is the mark %U, which draws on another character", c)
		}
	}
	return 0, ""
}

// defaultIgnorable approximates Unicode's derived Default_Ignorable_Code_Point
// from the properties the standard library carries: Other_DICP, format
// characters (Cf, e.g. U+200B, U+00AD) and variation selectors. It refuses
// a few more than the derived property (prepended concatenation marks), which
// are no tokens either.
func defaultIgnorable(c rune) bool {
	return unicode.Is(unicode.Other_Default_Ignorable_Code_Point, c) ||
		unicode.Is(unicode.Cf, c) ||
		unicode.Is(unicode.Variation_Selector, c)
}

// monoFont is Go Mono, parsed once.
var monoFont = sync.OnceValues(func() (*sfnt.Font, error) { return sfnt.Parse(gomono.TTF) })

// monospaced reports whether Go Mono has a glyph for c with the font's one
// advance width (that of X).
func monospaced(c rune) bool {
	f, err := monoFont()
	if err != nil {
		return false // the embedded font is known good; refuse rather than guess
	}
	var buf sfnt.Buffer
	adv := func(r rune) (int, bool) {
		i, err := f.GlyphIndex(&buf, r)
		if err != nil || i == 0 {
			return 0, false
		}
		a, err := f.GlyphAdvance(&buf, i, 1000, font.HintingNone)
		return int(a), err == nil
	}
	x, _ := adv('X')
	a, ok := adv(c)
	return ok && a == x && a > 0
}
