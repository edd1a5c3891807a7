package token

import (
	"fmt"
	"strings"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/internal/twemoji"
)

// MaxEmojiCodePoints is the most code points an emoji token may have: the
// longest emoji of Unicode's recommended set (a kiss or a couple with two skin
// tones) has 10. A longer cluster, such as forty emoji glued with zero-width
// joiners, is no emoji any client draws as one.
const MaxEmojiCodePoints = 10

// EmptyCell is what the emoji board (render's emoji grid) draws for an
// empty cell; no token may be it, nor look like it.
const EmptyCell = "⬛"

// reservedEmoji are the squares the emoji board draws with (⬛ for an empty
// cell, ▪️ in the corner of the labels) and the squares a reader could take
// for them, by their bare form (bareEmoji).
var reservedEmoji = []string{"⬛", "◼", "◾", "▪"}

// keycaps are the keycap emoji 0️⃣–9️⃣ by digit: the emoji board labels rows
// and columns with them and numbers the classic board's empty cells.
var keycaps = [10]string{"0️⃣", "1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"}

// gridFaces are the emoji the emoji board shows a character token as, where
// one reads as the character: ❌ and ⭕ for the classic X and O, keycaps for
// digits and #, and the regional indicator letters 🇦–🇿 for other Latin
// capitals. A character token without one is drawn in the picture instead.
var gridFaces = func() map[string]string {
	m := map[string]string{"X": "❌", "O": "⭕", "#": "#️⃣"}
	for d, k := range keycaps {
		m[string(rune('0'+d))] = k
	}
	for c := 'A'; c <= 'Z'; c++ {
		if _, ok := m[string(c)]; !ok {
			m[string(c)] = string(0x1F1E6 + c - 'A')
		}
	}
	return m
}()

// GridFace returns how the emoji board writes the stored token tok: an emoji
// as itself, a custom emoji as its markup, a character as the emoji that reads
// as it (❌ for X, 🇦 for A, …); ok is false for a character with none.
func GridFace(tok string) (face string, ok bool) {
	if Describe(tok).Kind != Char {
		return tok, true
	}
	face, ok = gridFaces[tok]
	return face, ok
}

// qualified reads one grapheme cluster t as an emoji: its fully-qualified
// form, with any text-presentation selector U+FE0E dropped (a token is always
// drawn as an emoji), when Twemoji draws it.
func qualified(t string) (string, bool) {
	return twemoji.Qualified(strings.ReplaceAll(t, "\uFE0E", ""))
}

// bareEmoji is an emoji without its skin tones (U+1F3FB–U+1F3FF) and
// variation selectors: the emoji a reader recognizes whatever its tone.
func bareEmoji(s string) string {
	return strings.Map(func(c rune) rune {
		if c >= 0x1F3FB && c <= 0x1F3FF || c == 0xFE0F || c == 0xFE0E {
			return -1
		}
		return c
	}, s)
}

// checkEmoji applies the rule to the fully-qualified emoji q.
func checkEmoji(q string, r game.Rules, taken []string) (tok string, rule Rule, detail, clash string) {
	bare := bareEmoji(q)
	for _, res := range reservedEmoji {
		if bare == res {
			return "", NotReserved, "is or looks like " + EmptyCell + ", which the emoji board draws for an empty cell", EmptyCell
		}
	}
	if i := strings.IndexAny(q, game.ReservedTokens); i >= 0 {
		// *️⃣: its asterisk could start Discord's italics in the emoji
		// board, which is written outside a code block.
		return "", NotReserved, fmt.Sprintf("holds %c, which Discord's formatting uses", q[i]), q[i : i+1]
	}
	if r.IsClassic() {
		for d, k := range keycaps {
			if q == k {
				return "", NoDigits, fmt.Sprintf("is the keycap %d, and the numbered 3×3 board shows empty cells as 0️⃣-8️⃣", d), k
			}
		}
		if q == "🔟" {
			return "", NoDigits, "is a number, and the numbered 3×3 board shows empty cells as 0️⃣-8️⃣", q
		}
	}
	if rule, detail, clash := clashes(q, taken); rule != 0 {
		if rule == NotConfusable && Describe(clash).Kind == Unicode {
			detail = fmt.Sprintf("is %s with another skin tone or style, another player's token", clash)
		}
		return "", rule, detail, clash
	}
	return q, 0, "", ""
}
