package gateway

import (
	"bytes"
	"image/gif"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/testkit"
)

// TestReplayThroughGateway: /ttt replay's GIF arrives as a file through the
// real Session, a frame a move plus the empty board first and the final
// frame that holds; and history lists the game it came from.
func TestReplayThroughGateway(t *testing.T) {
	fake := startGateway(t)
	fake.opened(t, channel).mustBe(t, 4, false).mustShowBoard(t)
	moves := []string{"0", "3", "1", "4", "2"} // alice wins along the top row
	for i, cell := range moves {
		user := alice
		if i%2 == 1 {
			user = bob
		}
		fake.command(t, channel, user, "move", testkit.Opt("position", cell)).mustBe(t, 4, false).mustShowBoard(t)
	}
	history := fake.command(t, channel, bob, "history").mustBe(t, 4, false)
	if text, _ := history.content(); !strings.Contains(text, "<@"+alice+">") {
		t.Errorf("bob's history does not name the game's other player:\n%s", text)
	}
	for _, game := range []string{"", "1"} {
		var opts []testkit.Option
		if game != "" {
			opts = append(opts, testkit.Opt("game", game))
		}
		cb := fake.command(t, channel, bob, "replay", opts...)
		cb.mustBe(t, 4, false)
		data, ok := cb.Files["game-1.gif"]
		if !ok {
			t.Fatalf("no GIF attached: files %d", len(cb.Files))
		}
		g, err := gif.DecodeAll(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("not a GIF: %v", err)
		}
		if len(g.Image) != len(moves)+2 {
			t.Fatalf("%d frames for %d moves, want %d", len(g.Image), len(moves), len(moves)+2)
		}
	}
	fake.command(t, channel, bob, "replay", testkit.Opt("game", "7")).mustBe(t, 4, true) // no such game
}
