package gateway

import (
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/testkit"

	"github.com/tttbot/tttbot/bot"
	"github.com/tttbot/tttbot/bot/discordrest"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

// TestThreadThroughGateway: with its token, the bot behind the real
// discordgo Session opens a busy channel's second game in a thread (the
// permissions and installation it reads are decoded discordgo's way), and
// the game is played there.
func TestThreadThroughGateway(t *testing.T) {
	fake := newFakeDiscord(t)
	rest := discordrest.New(discordrest.Options{BaseURL: fake.apiURL(), BotToken: "test-token", HTTP: fake.Client()})
	connect(t, fake, bot.New(bot.Options{Tables: table.NewTables(table.Options{Store: store.NewMemory()}), Threads: rest}))
	fake.opened(t, channel).mustBe(t, 4, false).mustShowBoard(t)
	if text, _ := fake.command(t, channel, bob, "new").mustBe(t, 4, false).content(); !strings.Contains(text, "<#") {
		t.Fatalf("the second game's reply names no thread: %q", text)
	}
	threads := fake.Threads()
	if len(threads) != 1 || threads[0].Parent != channel {
		t.Fatalf("threads %+v", threads)
	}
	thread := threads[0].ID
	if msgs := fake.Messages(thread); len(msgs) != 1 {
		t.Fatalf("the thread's messages %+v", msgs)
	}
	fake.command(t, thread, alice, "join").mustBe(t, 4, false).mustShowBoard(t)
	fake.command(t, thread, bob, "move", testkit.Opt("position", "1,1")).mustBe(t, 4, false).mustHold(t, ":1:1", "X")
	fake.command(t, channel, alice, "move", testkit.Opt("position", "0,0")).mustBe(t, 4, false).mustHold(t, ":0:0", "X")
}
