package token

import (
	"strconv"
	"strings"
)

// Bounds of a custom emoji's markup, <:name:id> or <a:name:id>, as Discord
// names its emoji: a name of 2–32 letters, digits and underscores, and an id
// that is a snowflake (a 64-bit number, at most 20 digits).
const (
	MinEmojiName = 2
	MaxEmojiName = 32
	MaxEmojiID   = 20
)

// checkCustom applies the rule to t, which starts with "<": it must be a
// custom emoji's markup, and no seat may hold an emoji with its id.
func checkCustom(t string, taken []string) (tok string, rule Rule, detail, clash string) {
	c, detail := parseCustom(t)
	if detail != "" {
		return "", CustomEmoji, detail, ""
	}
	tok = c.markup()
	if rule, detail, clash := clashes(tok, taken); rule != 0 {
		if rule == NotConfusable {
			detail = "is the same custom emoji as " + clash + ", another player's token"
		}
		return "", rule, detail, clash
	}
	return tok, 0, "", ""
}

// customEmoji is a custom emoji's parts.
type customEmoji struct {
	name     string
	id       uint64
	animated bool
}

func (c customEmoji) markup() string {
	a := ""
	if c.animated {
		a = "a"
	}
	return "<" + a + ":" + c.name + ":" + strconv.FormatUint(c.id, 10) + ">"
}

// parseCustom reads <:name:id> or <a:name:id>; detail says what is wrong,
// or is "" when t is one.
func parseCustom(t string) (c customEmoji, detail string) {
	inner, ok := strings.CutPrefix(t, "<")
	if ok {
		inner, ok = strings.CutSuffix(inner, ">")
	}
	parts := strings.Split(inner, ":")
	if !ok || len(parts) != 3 || parts[0] != "" && parts[0] != "a" {
		return c, "is not one emoji: a custom emoji is written <:name:id>, as Discord's emoji picker writes it"
	}
	c.animated, c.name = parts[0] == "a", parts[1]
	if len(c.name) < MinEmojiName || len(c.name) > MaxEmojiName || strings.ContainsFunc(c.name, notNameChar) {
		return c, "has a name that is not 2-32 letters, digits or _, as custom emoji names are"
	}
	id := parts[2]
	if id == "" || len(id) > MaxEmojiID || strings.ContainsFunc(id, func(r rune) bool { return r < '0' || r > '9' }) {
		return c, "has an id that is not a number of at most 20 digits, as custom emoji ids are"
	}
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		return c, "has an id that is no Discord id (a number from 1 to 18446744073709551615)"
	}
	c.id = n
	return c, ""
}

func notNameChar(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
}
