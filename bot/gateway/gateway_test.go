package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/bot"
	"github.com/tttbot/tttbot/internal/testkit"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

// TestGatewayEndToEnd runs the real discordgo Session against the fake
// Discord: it registers /ttt, answers new, join and moves from two users,
// and survives a dropped connection.
func TestGatewayEndToEnd(t *testing.T) {
	fake := startGateway(t)
	if got := fake.registered(); len(got) != 1 || got[0] != "ttt" {
		t.Fatalf("registered %v", got)
	}
	fake.command(t, channel, alice, "new").mustBe(t, 4, false)
	fake.command(t, channel, bob, "join").mustBe(t, 4, false).mustShowBoard(t)
	fake.command(t, channel, alice, "move", testkit.Opt("position", "1,1")).mustBe(t, 4, false).mustHold(t, ":1:1", "X")
	fake.command(t, channel, alice, "move", testkit.Opt("position", "0,0")).mustBe(t, 4, true) // not her turn

	fake.drop()
	fake.waitReady() // discordgo reconnects and resumes
	fake.command(t, channel, bob, "move", testkit.Opt("position", "0,0")).mustBe(t, 4, false).mustHold(t, ":0:0", "O")
	fake.command(t, channel, alice, "move", testkit.Opt("position", "0,2")).mustBe(t, 4, false).mustHold(t, ":0:2", "X")
	identifies, resumes := fake.Handshakes()
	if identifies != 1 || resumes != 1 {
		t.Errorf("identifies %d, resumes %d; want 1 and 1", identifies, resumes)
	}
}

// startGateway connects a Bot to a fake Discord through the real Session.
func startGateway(t *testing.T) *fakeDiscord {
	t.Helper()
	fake := newFakeDiscord(t)
	st := store.NewMemory()
	connect(t, fake, bot.New(bot.Options{Tables: table.NewTables(table.Options{Store: st}), Records: st}))
	return fake
}

// connect runs b behind a gateway on fake through the real Session, until
// the test ends.
func connect(t *testing.T, fake *fakeDiscord, b *bot.Bot) {
	t.Helper()
	api, _ := url.Parse(fake.apiURL())
	gw, err := New(b, Options{Token: "test-token", GuildID: guild, APIURL: api})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := gw.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		gw.session.ShouldReconnectOnError = false
		gw.Close(context.Background())
	})
	fake.waitReady()
}

var interactionSeq atomic.Int64

func nextID() string { return fmt.Sprintf("13%017d", interactionSeq.Add(1)) }

// opened has alice open a game in ch with opts that bob joins at once, and
// returns the reply that starts it (the board).
func (f *fakeDiscord) opened(t *testing.T, ch string, opts ...testkit.Option) callback {
	t.Helper()
	f.command(t, ch, alice, "new", opts...).mustBe(t, 4, false)
	return f.command(t, ch, bob, "join")
}

func (f *fakeDiscord) command(t *testing.T, ch, user, sub string, opts ...testkit.Option) callback {
	t.Helper()
	fields := testkit.CommandFields(ch, user, sub, 0, opts)
	fields["ID"] = nextID()
	return f.interact(testkit.Raw(t, "command.json", fields))
}

func (f *fakeDiscord) click(t *testing.T, ch, user, customID string) callback {
	t.Helper()
	fields := testkit.ComponentFields(ch, user, customID)
	fields["ID"] = nextID()
	return f.interact(testkit.Raw(t, "component.json", fields))
}

// mustBe checks a reply's type (4 new message, 7 update) and whether it is
// ephemeral: what the transport carries. What the bot says is the
// transcripts' to check (bot/testdata), in every language.
func (c callback) mustBe(t *testing.T, kind int, ephemeral bool) callback {
	t.Helper()
	text, eph := c.content()
	if c.kind() != kind || eph != ephemeral {
		t.Fatalf("reply type %d (ephemeral %v):\n%s\nwant type %d (ephemeral %v)", c.kind(), eph, text, kind, ephemeral)
	}
	return c
}

// mustShowBoard checks the reply shows a board: a code block, and buttons.
func (c callback) mustShowBoard(t *testing.T) callback {
	t.Helper()
	if text, _ := c.content(); strings.Count(text, "```") != 2 || len(c.buttons()) == 0 {
		t.Fatalf("no board with buttons in:\n%s\nbuttons %v", text, c.buttons())
	}
	return c
}

// mustHold checks the reply's board shows token on the cell whose button's
// custom_id ends in cell (":1:1" for the cell 1,1).
func (c callback) mustHold(t *testing.T, cell, token string) {
	t.Helper()
	c.mustShowBoard(t)
	if label := c.buttons()[c.button(t, cell)]; label != token {
		t.Fatalf("cell %s shows %q, want %q", cell, label, token)
	}
}

// rematchButton is the custom_id of the reply's rematch button.
func (c callback) rematchButton(t *testing.T) string {
	t.Helper()
	for id := range c.buttons() {
		if strings.HasPrefix(id, "ttt:rematch:") {
			return id
		}
	}
	t.Fatalf("no rematch button in %v", c.buttons())
	return ""
}

// TestButtonsThroughGateway plays a whole 3×3 game by clicking buttons, with
// an out-of-turn click, a stale click and a rematch click, then a gravity
// game's full column, all through the real discordgo Session.
func TestButtonsThroughGateway(t *testing.T) {
	fake := startGateway(t)
	board := fake.opened(t, channel)
	board.mustBe(t, 4, false).mustShowBoard(t)
	if n := len(board.buttons()); n != 9 {
		t.Fatalf("%d buttons on a 3×3 board", n)
	}
	first := board
	for i, m := range []struct{ user, cell string }{{alice, ":1:1"}, {bob, ":0:0"}, {alice, ":0:2"}, {bob, ":1:0"}} {
		board = fake.click(t, channel, m.user, board.button(t, m.cell))
		board.mustBe(t, 7, false).mustHold(t, m.cell, []string{"X", "O"}[i%2])
		if i == 0 {
			t.Run("StaleClick", func(t *testing.T) {
				fake.click(t, channel, bob, first.button(t, ":0:1")).mustBe(t, 4, true)
			})
			t.Run("DoubleClick", func(t *testing.T) {
				fake.click(t, channel, alice, first.button(t, ":1:1")).mustBe(t, 4, true)
			})
		}
		if i == 1 {
			t.Run("OutOfTurnClick", func(t *testing.T) {
				fake.click(t, channel, bob, board.button(t, ":2:2")).mustBe(t, 4, true)
			})
		}
	}
	won := fake.click(t, channel, alice, board.button(t, ":2:0"))
	won.mustBe(t, 7, false).mustHold(t, ":2:0", "X")
	rematch := won.rematchButton(t) // the game is over
	t.Run("RematchClick", func(t *testing.T) {
		fake.click(t, channel, bob, rematch).mustBe(t, 4, false).mustShowBoard(t)
		fake.click(t, channel, alice, rematch).mustBe(t, 4, true) // that game has had its rematch
	})

	// Gravity: a button per open column; a full column's button is gone, and
	// an old one is refused.
	const ch2 = "920000000000000009"
	g := fake.opened(t, ch2, testkit.Opt("gravity", true), testkit.Opt("rows", 3), testkit.Opt("columns", 4), testkit.Opt("win", 3))
	if n := len(g.buttons()); n != 4 {
		t.Fatalf("%d column buttons, want 4", n)
	}
	var beforeFull callback
	for _, user := range []string{alice, bob, alice} {
		beforeFull = g
		g = fake.click(t, ch2, user, g.button(t, "0"))
		g.mustBe(t, 7, false).mustShowBoard(t)
	}
	if _, ok := g.buttons()[beforeFull.button(t, "0")]; ok || len(g.buttons()) != 3 {
		t.Fatalf("full column still has a button: %v", g.buttons())
	}
	fake.click(t, ch2, bob, beforeFull.button(t, "0")).mustBe(t, 4, true)
}

// TestAutocompleteAndPicturesThroughGateway checks autocomplete results and
// a board picture attached as a file through the real Session.
func TestAutocompleteAndPicturesThroughGateway(t *testing.T) {
	fake := startGateway(t)
	fake.opened(t, channel, testkit.Opt("gravity", true))
	ac := fake.interact(testkit.Raw(t, "autocomplete.json", map[string]any{"Guild": guild, "Channel": channel, "User": alice, "Permissions": "0", "Typed": ""}))
	data, _ := ac.Body["data"].(map[string]any)
	choices, _ := data["choices"].([]any)
	if ac.kind() != 8 || len(choices) != 7 {
		t.Fatalf("autocomplete: type %d, %d choices", ac.kind(), len(choices))
	}
	pic := fake.command(t, channel, bob, "board", testkit.Opt("image", true))
	png := pic.Files["board.png"]
	if len(png) < 8 || string(png[1:4]) != "PNG" {
		t.Fatalf("no PNG attached: files %v", len(pic.Files))
	}
	// A card: content null, the V2 flag, the picture in its media gallery
	// (the fake checks the gallery names the attached file).
	picData, _ := pic.Body["data"].(map[string]any)
	flags, _ := picData["flags"].(float64)
	if picData["content"] != nil || int(flags)&(1<<15) == 0 {
		t.Fatalf("the board is not a card: %v", picData)
	}
	if raw, _ := json.Marshal(picData); !strings.Contains(string(raw), `"url":"attachment://board.png"`) {
		t.Fatalf("the card does not show its picture: %s", raw)
	}
	big := fake.opened(t, "920000000000000010", testkit.Opt("rows", 60), testkit.Opt("columns", 60))
	if _, ok := big.Files["board.png"]; !ok {
		t.Fatal("a board too big for text came without a picture")
	}
}

const (
	guild   = testkit.Guild
	channel = testkit.Channel
	alice   = testkit.Alice
	bob     = testkit.Bob
)
