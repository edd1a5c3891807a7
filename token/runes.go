package token

import (
	"slices"

	"github.com/tttbot/tttbot/game"
)

// Runes gives the engine one rune a seat for the stored tokens: a
// character token is its own rune; an emoji seat gets a stand-in, the first
// of game.DefaultTokens that no character seat holds and no earlier emoji
// seat got. The stand-ins depend only on the tokens and their order, so a
// game rebuilt from a store gets the same ones, and tables stored before emoji
// tokens existed (characters only) load unchanged. Callers show tokens from
// the stored strings, never the engine's stand-ins.
func Runes(tokens []string) []rune {
	out := make([]rune, len(tokens))
	used := make([]rune, 0, len(tokens))
	for i, t := range tokens {
		if d := Describe(t); d.Kind == Char && t != "" {
			out[i] = []rune(t)[0]
			used = append(used, out[i])
		}
	}
	next := 0
	for i := range out {
		if out[i] != 0 || tokens[i] == "" {
			continue
		}
		for slices.Contains(used, rune(game.DefaultTokens[next])) {
			next++
		}
		out[i] = rune(game.DefaultTokens[next])
		used = append(used, out[i])
	}
	return out
}
