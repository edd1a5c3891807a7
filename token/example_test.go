package token_test

import (
	"errors"
	"fmt"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/token"
)

func ExampleParse() {
	tok, _ := token.Parse(" x ", game.Classic(), nil)
	fmt.Printf("%c\n", tok)

	_, err := token.Parse("Х", game.Classic(), []rune{'X'}) // Cyrillic Ha next to Latin X
	var e *token.Error
	if errors.As(err, &e) {
		fmt.Printf("%v; suggest %c\n", e.Rule, e.Suggest)
	}
	fmt.Println(err)
	// Output:
	// X
	// not confusable; suggest O
	// token "Х" looks like X, another player's token (rule: not confusable): try O
}
