package bot

import (
	"testing"

	"github.com/tttbot/tttbot/bot/locales"
)

// BenchmarkMoveReply is the reply to a Connect Four move, from the headline
// to Discord's wire form: what the bot builds for every move once the
// table has taken it (the headline, the board's text, the card and its
// column buttons), without the table's lock, the store or the transport.
func BenchmarkMoveReply(b *testing.B) {
	h := newHarness(b)
	publicText(b, h.as(alice, "new", opt(optGravity, true), opt(optRows, 6), opt(optColumns, 7)))
	publicText(b, h.as(bob, "join"))
	for i, col := range []string{"3", "3", "4", "2", "2", "6"} {
		publicText(b, h.as([]string{alice, bob}[i%2], "move", opt(optPosition, col)))
	}
	t := h.load(channel)
	w := locales.English()
	at, _ := t.Game().LastPlaced()
	seat := int(t.Game().At(at))
	b.ReportAllocs()
	for b.Loop() {
		resp := h.bot.decorate(w, boardReply(w, t, headlineMove(w, t, seat, at)), t, false)
		if resp.InteractionResponse(false).Data == nil {
			b.Fatal("no message")
		}
	}
}
