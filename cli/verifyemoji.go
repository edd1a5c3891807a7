package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rivo/uniseg"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/token"
)

// verifyTokens are the players of `tttbot verify --tokens`: each token as
// written and the rune game.CheckBoard knows it by. A character is its own
// rune; a Unicode emoji (many runes) gets a stand-in from the private use
// area, which no character token and no word of a verdict can be.
type verifyTokens struct {
	texts []string
	runes []rune
	emoji bool // some token is an emoji: boards are read a grapheme cluster a cell
}

// openRules is a board on which every emoji Twemoji draws is a token (no
// numbered cells).
var openRules = game.Rules{Rows: game.MaxSize, Cols: game.MaxSize, Win: game.MinWin, Players: game.MaxPlayers}

// parseVerifyTokens reads --tokens a grapheme cluster at a time: a character
// by the engine's floor (game.ParseToken), or one Unicode emoji.
func parseVerifyTokens(list string) (verifyTokens, error) {
	var v verifyTokens
	state := -1
	for rest := list; rest != ""; {
		var c string
		c, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if r := []rune(c); len(r) == 1 {
			if t, err := game.ParseToken(c); err == nil {
				v.texts, v.runes = append(v.texts, string(t)), append(v.runes, t)
				continue
			}
		}
		e, err := token.Parse(c, openRules, nil)
		if err != nil || token.Describe(e).Kind != token.Unicode {
			if _, engineErr := game.ParseToken(c); engineErr != nil {
				return v, engineErr
			}
			return v, err
		}
		v.texts, v.runes, v.emoji = append(v.texts, e), append(v.runes, 0xE000+rune(len(v.runes))), true
	}
	return v, nil
}

// board rewrites a written board with emoji tokens a rune a cell, as
// game.CheckBoard reads boards; invalid is a verdict's reason when a cell is
// neither . nor a token, in the engine's words.
func (v verifyTokens) board(text string) (board, invalid string) {
	if !v.emoji {
		return text, ""
	}
	var sb strings.Builder
	for r, row := range strings.Split(strings.TrimSpace(text), "/") {
		if r > 0 {
			sb.WriteByte('/')
		}
		state, col := -1, 0
		for rest := strings.TrimSpace(row); rest != ""; col++ {
			var c string
			c, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
			if c == "." {
				sb.WriteByte('.')
				continue
			}
			at := v.index(c)
			if at < 0 {
				return "", fmt.Sprintf("%q at %d,%d is neither . nor one of %s", c, r, col, strings.Join(v.texts, ""))
			}
			sb.WriteRune(v.runes[at])
		}
	}
	return sb.String(), ""
}

// index is the token the cluster c is, or -1: a character compared
// upper-cased, an emoji whatever its variation selectors.
func (v verifyTokens) index(c string) int {
	want := strings.ToUpper(c)
	if e, err := token.Parse(c, openRules, nil); err == nil {
		want = e
	}
	return slices.Index(v.texts, want)
}

// verdict writes a verdict with each stand-in rune as its emoji.
func (v verifyTokens) verdict(s string) string {
	if !v.emoji {
		return s
	}
	var pairs []string
	for i, r := range v.runes {
		if v.texts[i] != string(r) {
			pairs = append(pairs, string(r), v.texts[i])
		}
	}
	return strings.NewReplacer(pairs...).Replace(s)
}
