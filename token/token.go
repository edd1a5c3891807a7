// Package token holds the token rule (docs/rules.md): a player's token is
// something a reader tells apart at a glance on the board. It is one of three
// kinds (Kind): one character, drawn in a monospaced code block; one Unicode
// emoji; or one of Discord's custom emoji, written <:name:id>.
//
// A character token is one grapheme cluster (github.com/rivo/uniseg) that has
// a one-code-point form (NFC, golang.org/x/text/unicode/norm); visible (not a
// space, control, format, default-ignorable or blank-looking character); not a
// combining or enclosing mark; one column wide (uniseg's width is 1 and the Go
// Mono font, golang.org/x/image/font/gofont/gomono, draws it in one cell: its
// WGL4 repertoire is what monospaced fonts, Discord's included, commonly
// carry, and a character outside it falls back to a proportional font of
// unknown width, as U+FDFD and U+A9C1 do); upper-cased; no character the
// board drawing or Discord's formatting uses, nor a look-alike of one; on the
// numbered 3×3 board no digit or digit look-alike.
//
// An emoji token is one emoji of Unicode's recommended set that Twemoji (the
// set Discord draws) has a picture of (internal/twemoji), stored fully
// qualified: ❤ and ❤️ are one token, and so is ❤︎, whose text-presentation
// selector U+FE0E is dropped, because the emoji board and the picture always
// draw emoji as emoji. It is at most MaxEmojiCodePoints code points long, is
// not a square the emoji board draws empty cells with nor *️⃣ (whose asterisk
// is Discord's formatting), and on the numbered board is no keycap digit.
//
// A custom emoji token is <:name:id> or <a:name:id> (animated): a name of 2–32
// letters, digits and underscores, and a snowflake id of at most 20 digits
// within 64 bits. Nothing else in it is allowed, so no mention, link or
// markdown can ride in one.
//
// No seat may hold a token another seat holds or a reader could confuse with
// one: characters with equal confusable skeletons (Unicode Technical Standard
// #39, from Unicode's confusables.txt); emoji that differ only in skin tone or
// variation selectors; custom emoji with the same id (their names may repeat
// across servers, and a custom emoji never clashes with a Unicode one by name);
// and a character with the emoji the emoji board shows it as (X and ❌).
//
// The package is apart from game so that game stays standard library only.
// The engine keeps one rune a seat: Runes gives it a stand-in rune for each
// emoji seat, so game.New accepts every set of tokens Parse accepts.
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
// already hold the tokens in taken (as Parse returned them). Surrounding
// spaces are ignored; a character is upper-cased, an emoji fully qualified, a
// custom emoji's id written without leading zeros. A token that breaks the
// rule gets an *Error naming the Rule and suggesting a free token.
func Parse(s string, r game.Rules, taken []string) (string, error) {
	tok, rule, detail, clash := check(s, r, taken)
	if rule != 0 {
		return "", &Error{Token: s, Rule: rule, Detail: detail, Clash: clash, Suggest: Suggest(r, taken)}
	}
	return tok, nil
}

// Suggest returns the first of game.DefaultTokens that Parse would accept
// next to taken, or "" when none is left.
func Suggest(r game.Rules, taken []string) string {
	for _, t := range game.DefaultTokens {
		if tok, rule, _, _ := check(string(t), r, taken); rule == 0 {
			return tok
		}
	}
	return ""
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

// maxInput bounds what check reads: the longest custom emoji markup is 58
// bytes and the longest emoji 10 code points of at most 4 bytes; anything far
// longer is refused before any Unicode work.
const maxInput = 256

// check applies the rule; rule is 0 when s is a good token tok.
func check(s string, r game.Rules, taken []string) (tok string, rule Rule, detail, clash string) {
	t := strings.TrimSpace(s)
	switch {
	case len(t) > maxInput:
		return "", OneCharacter, "is more than one character: pick one, like X", ""
	case !utf8.ValidString(t):
		return "", OneCharacter, "is not valid text", ""
	case len(t) > 1 && t[0] == '<':
		return checkCustom(t, taken)
	}
	// Only the first cluster is read, so a long input costs no more than a
	// short one.
	switch first, rest, _, _ := uniseg.FirstGraphemeClusterInString(t, -1); {
	case first == "":
		return "", OneCharacter, "is blank: pick one character, like X", ""
	case rest != "":
		return "", OneCharacter, "is more than one character: pick one, like X", ""
	}
	if n := utf8.RuneCountInString(t); n > MaxEmojiCodePoints {
		return "", NotTooLong, fmt.Sprintf("is one character built of %d code points; the longest emoji has %d", n, MaxEmojiCodePoints), ""
	}
	tok, rule, detail, clash = checkChar(t, r, taken)
	switch rule {
	case OneCharacter, Visible, NotAMark, OneColumn: // not a character token: maybe an emoji
		if q, ok := qualified(t); ok {
			return checkEmoji(q, r, taken)
		}
	}
	return tok, rule, detail, clash
}

// checkChar applies the rule for a character token to one grapheme cluster t.
func checkChar(t string, r game.Rules, taken []string) (tok string, rule Rule, detail, clash string) {
	if rule, detail := unseen(t); rule != 0 {
		return "", rule, detail, ""
	}
	if w := uniseg.StringWidth(t); w != 1 {
		return "", OneColumn, fmt.Sprintf("is %d columns wide in a monospaced font and is no emoji Discord draws", w), ""
	}
	t = norm.NFC.String(t)
	if utf8.RuneCountInString(t) != 1 {
		for _, c := range t {
			if unicode.IsMark(c) {
				return "", NotAMark, fmt.Sprintf("carries the mark %U and has no one-character form", c), ""
			}
		}
		return "", OneCharacter, "has no one-character form", ""
	}
	c, _ := utf8.DecodeRuneInString(t)
	c = unicode.ToUpper(c)
	tok = string(c)
	if w := uniseg.StringWidth(tok); w != 1 {
		return "", OneColumn, fmt.Sprintf("is %d columns wide in a monospaced font and is no emoji Discord draws", w), ""
	}
	if !monospaced(c) {
		return "", OneColumn, "is not drawn one column wide by monospaced fonts", ""
	}
	skel := Skeleton(tok)
	for _, res := range game.ReservedTokens {
		if res == c || skel == Skeleton(string(res)) {
			return "", NotReserved, fmt.Sprintf("looks like %c, which the board or Discord's formatting uses", res), string(res)
		}
	}
	if r.IsClassic() {
		if unicode.IsNumber(c) {
			return "", NoDigits, "is a number, and the numbered 3×3 board shows empty cells as 0-8", tok
		}
		for d := '1'; d <= '8'; d++ { // 0 is left out: O is the classic token, and monospaced fonts tell 0 from O
			if skel == Skeleton(string(d)) {
				return "", NoDigits, fmt.Sprintf("looks like %c, which the numbered 3×3 board shows in an empty cell", d), string(d)
			}
		}
	}
	if _, err := game.ParseToken(tok); err != nil {
		// The engine's own floor (its width blocks); a one-column
		// character it refuses is one Discord may draw as an emoji.
		return "", OneColumn, "may be drawn as an emoji, wider than one column", ""
	}
	if rule, detail, clash := clashes(tok, taken); rule != 0 {
		return "", rule, detail, clash
	}
	return tok, 0, "", ""
}

// clashes checks tok against the seats' tokens: NotTaken when a seat holds
// it, NotConfusable when a seat holds one a reader could take it for.
func clashes(tok string, taken []string) (rule Rule, detail, clash string) {
	for _, o := range taken {
		if o == tok {
			return NotTaken, "is taken by another player", o
		}
	}
	mine := looks(tok)
	for _, o := range taken {
		for _, a := range looks(o) {
			for _, b := range mine {
				if a == b {
					return NotConfusable, fmt.Sprintf("looks like %s, another player's token", o), o
				}
			}
		}
	}
	return 0, "", ""
}

// looks lists what a reader sees in a stored token, so that two tokens with a
// look in common clash: a character's skeleton (and the emoji the emoji
// board shows it as), an emoji's skeleton without skin tones and variation
// selectors, a custom emoji's id.
func looks(tok string) []string {
	switch d := Describe(tok); d.Kind {
	case Custom:
		return []string{"<" + d.ID}
	case Unicode:
		return []string{Skeleton(bareEmoji(tok))}
	default:
		l := []string{Skeleton(tok)}
		if f, ok := gridFaces[tok]; ok {
			l = append(l, Skeleton(bareEmoji(f)))
		}
		return l
	}
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
