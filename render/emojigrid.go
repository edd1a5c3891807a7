package render

import (
	"strings"
	"unicode/utf8"

	"github.com/tttbot/tttbot/game"
)

// The emoji the emoji grid draws with besides the seats' tokens (the token
// rule keeps tokens from looking like them): an empty cell, the corner where
// the row labels meet the column labels, and the keycaps 0️⃣–9️⃣ that label
// rows and columns and number the classic board's empty cells.
const (
	EmojiEmpty  = "⬛"
	EmojiCorner = "▪️"
)

var emojiKeycaps = [10]string{"0️⃣", "1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"}

// MaxEmojiSide is the most rows or columns an emoji grid has: each label is
// one keycap, 0️⃣ to 9️⃣.
const MaxEmojiSide = len(emojiKeycaps)

// zeroWidthSpace separates two regional indicators that would otherwise pair up
// into a flag: 🇦 next to 🇫🇷 must not read as 🇦🇫 then 🇷.
const zeroWidthSpace = "\u200B"

// EmojiGrid draws g as a grid of emoji for a message outside a code block,
// where emoji do not share a monospaced font's columns: one emoji a cell,
// ⬛ for an empty one, each seat's token as its face's Grid (a character as
// the emoji that reads as it, a custom emoji as its markup). Free boards get
// a corner ▪️, keycap column labels along the top and keycap row labels down
// the left; gravity boards the keycap column numbers a player types; the
// classic numbered board no labels, and each empty cell its number as a
// keycap. The last move and the winning run are not marked (no emoji can
// mark a cell and keep it readable); the status line says them.
//
// ok is false, and nothing is drawn, when a seat's face has no Grid form or
// the board has more than MaxEmojiSide rows or columns.
func (k Look) EmojiGrid(g *game.Game) (grid string, ok bool) {
	r := g.Rules()
	if r.Rows > MaxEmojiSide || r.Cols > MaxEmojiSide {
		return "", false
	}
	faces := make([]string, r.Players)
	for p := range faces {
		if faces[p] = k.face(g, p).Grid; faces[p] == "" {
			return "", false
		}
	}
	var sb strings.Builder
	line := emojiLine{w: &sb}
	switch {
	case r.IsClassic():
	case r.Gravity:
		for col := range r.Cols {
			line.add(emojiKeycaps[col])
		}
		line.end()
	default:
		line.add(EmojiCorner)
		for col := range r.Cols {
			line.add(emojiKeycaps[col])
		}
		line.end()
	}
	for row := range r.Rows {
		if !r.Gravity && !r.IsClassic() {
			line.add(emojiKeycaps[r.UserRow(row)])
		}
		for col := range r.Cols {
			c := game.Coord{Row: row, Col: col}
			switch p := g.At(c); {
			case p != game.NoPlayer:
				line.add(faces[p])
			case r.IsClassic():
				line.add(emojiKeycaps[row*3+col])
			default:
				line.add(EmojiEmpty)
			}
		}
		line.end()
	}
	return sb.String(), true
}

// emojiLine writes one line of emoji, keeping regional indicators of
// neighbouring cells from pairing into a flag.
type emojiLine struct {
	w      *strings.Builder
	prevRI bool // the last emoji written ends with a regional indicator
}

func (l *emojiLine) add(e string) {
	if l.prevRI && startsRI(e) {
		l.w.WriteString(zeroWidthSpace)
	}
	l.w.WriteString(e)
	l.prevRI = endsRI(e)
}

func (l *emojiLine) end() {
	l.w.WriteByte('\n')
	l.prevRI = false
}

func isRI(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

func startsRI(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isRI(r)
}

// endsRI reads only the last rune: the grid is drawn on every reply of
// an emoji game, a cell at a time.
func endsRI(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return isRI(r)
}
