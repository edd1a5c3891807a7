package token_test

import (
	"errors"
	"fmt"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/token"
)

func ExampleParse() {
	tok, _ := token.Parse(" x ", game.Classic(), nil)
	fmt.Println(tok)

	_, err := token.Parse("Х", game.Classic(), []string{"X"}) // Cyrillic Ha next to Latin X
	var e *token.Error
	if errors.As(err, &e) {
		fmt.Printf("%v; suggest %s\n", e.Rule, e.Suggest)
	}
	fmt.Println(err)

	fox, _ := token.Parse("🦊", game.Classic(), []string{"X"})
	_, err = token.Parse("👍🏽", game.Classic(), []string{"👍"})
	fmt.Println(fox, err)
	// Output:
	// X
	// not confusable; suggest O
	// token "Х" looks like X, another player's token (rule: not confusable): try O
	// 🦊 token "👍🏽" is 👍 with another skin tone or style, another player's token (rule: not confusable): try X
}

func ExampleRunes() {
	// The engine keeps a rune a seat: emoji seats get stand-ins.
	fmt.Println(string(token.Runes([]string{"🦊", "<:blob:1234>", "X"})))
	// Output: OAX
}
