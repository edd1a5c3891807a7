package gateway

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/bot"
	"github.com/tttbot/tttbot/bot/bottest"
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
	fake.command(t, channel, alice, "new").mustSay(t, 4, false, "opened a game")
	fake.command(t, channel, bob, "join").mustSay(t, 4, false, "Game on")
	fake.command(t, channel, alice, "move", opt("position", "1,1")).mustSay(t, 4, false, "played 1,1")
	fake.command(t, channel, alice, "move", opt("position", "0,0")).mustSay(t, 4, true, "not your turn")

	fake.drop()
	fake.waitReady() // discordgo reconnects and resumes
	fake.command(t, channel, bob, "move", opt("position", "0,0")).mustSay(t, 4, false, "played 0,0")
	fake.command(t, channel, alice, "move", opt("position", "0,2")).mustSay(t, 4, false, "played 0,2")
	fake.mu.Lock()
	identifies, resumes := fake.identifies, fake.resumes
	fake.mu.Unlock()
	if identifies != 1 || resumes != 1 {
		t.Errorf("identifies %d, resumes %d; want 1 and 1", identifies, resumes)
	}
}

// startGateway connects a Bot to a fake Discord through the real Session.
func startGateway(t *testing.T) *fakeDiscord {
	t.Helper()
	fake := newFakeDiscord(t)
	api, _ := url.Parse(fake.apiURL())
	st := store.NewMemory()
	b := bot.New(bot.Options{Tables: table.NewTables(table.Options{Store: st}), Records: st})
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
		gw.Session().ShouldReconnectOnError = false
		gw.Close(context.Background())
	})
	fake.waitReady()
	return fake
}

var interactionSeq atomic.Int64

func nextID() string { return fmt.Sprintf("13%017d", interactionSeq.Add(1)) }

func (f *fakeDiscord) command(t *testing.T, ch, user, sub string, opts ...option) callback {
	t.Helper()
	fields := commandFields(ch, user, sub, 0, opts)
	fields["ID"] = nextID()
	return f.interact(rawInteraction(t, "command.json", fields))
}

func (f *fakeDiscord) click(t *testing.T, ch, user, customID string) callback {
	t.Helper()
	return f.interact(rawInteraction(t, "component.json", map[string]any{
		"ID": nextID(), "Guild": guild, "Channel": ch, "User": user, "CustomID": customID,
	}))
}

// mustSay checks a reply's type (4 new message, 7 update), whether it is
// ephemeral, and that it says want.
func (c callback) mustSay(t *testing.T, kind int, ephemeral bool, want string) {
	t.Helper()
	text, eph := c.content()
	if c.kind() != kind || eph != ephemeral || !strings.Contains(text, want) {
		t.Fatalf("reply type %d (ephemeral %v):\n%s\nwant type %d (ephemeral %v) saying %q", c.kind(), eph, text, kind, ephemeral, want)
	}
}

// TestButtonsThroughGateway plays a whole 3×3 game by clicking buttons, with
// an out-of-turn click, a stale click and a rematch click, then a gravity
// game's full column, all through the real discordgo Session.
func TestButtonsThroughGateway(t *testing.T) {
	fake := startGateway(t)
	board := fake.command(t, channel, alice, "new", userOpt("opponent", bob, false))
	board.mustSay(t, 4, false, "Game on")
	if n := len(board.buttons()); n != 9 {
		t.Fatalf("%d buttons on a 3×3 board", n)
	}
	first := board
	for i, m := range []struct{ user, cell string }{{alice, ":1:1"}, {bob, ":0:0"}, {alice, ":0:2"}, {bob, ":1:0"}} {
		board = fake.click(t, channel, m.user, board.button(t, m.cell))
		board.mustSay(t, 7, false, "played")
		if i == 0 {
			t.Run("StaleClick", func(t *testing.T) {
				cb := fake.click(t, channel, bob, first.button(t, ":0:1"))
				cb.mustSay(t, 4, true, "out of date")
			})
			t.Run("DoubleClick", func(t *testing.T) {
				cb := fake.click(t, channel, alice, first.button(t, ":1:1"))
				cb.mustSay(t, 4, true, "out of date")
			})
		}
		if i == 1 {
			t.Run("OutOfTurnClick", func(t *testing.T) {
				cb := fake.click(t, channel, bob, board.button(t, ":2:2"))
				cb.mustSay(t, 4, true, "not your turn")
			})
		}
	}
	won := fake.click(t, channel, alice, board.button(t, ":2:0"))
	won.mustSay(t, 7, false, "Player X (<@"+alice+">) won!")
	rematch := won.button(t, "Rematch")
	t.Run("RematchClick", func(t *testing.T) {
		cb := fake.click(t, channel, bob, rematch)
		cb.mustSay(t, 4, false, "Rematch #2")
		again := fake.click(t, channel, alice, rematch)
		again.mustSay(t, 4, true, "out of date")
	})

	// Gravity: a button per open column; a full column's button is gone, and
	// an old one is refused.
	const ch2 = "920000000000000009"
	g := fake.command(t, ch2, alice, "new", opt("gravity", true), opt("rows", 3), opt("columns", 4), opt("win", 3), userOpt("opponent", bob, false))
	if n := len(g.buttons()); n != 4 {
		t.Fatalf("%d column buttons, want 4", n)
	}
	var beforeFull callback
	for i, user := range []string{alice, bob, alice} {
		beforeFull = g
		g = fake.click(t, ch2, user, g.button(t, "0"))
		g.mustSay(t, 7, false, "column 0 (row "+fmt.Sprint(i)+")")
	}
	if _, ok := g.buttons()[beforeFull.button(t, "0")]; ok || len(g.buttons()) != 3 {
		t.Fatalf("full column still has a button: %v", g.buttons())
	}
	cb := fake.click(t, ch2, bob, beforeFull.button(t, "0"))
	cb.mustSay(t, 4, true, "out of date")
}

// TestAutocompleteAndPicturesThroughGateway checks autocomplete results and
// a board picture attached as a file through the real Session.
func TestAutocompleteAndPicturesThroughGateway(t *testing.T) {
	fake := startGateway(t)
	fake.command(t, channel, alice, "new", opt("gravity", true), userOpt("opponent", bob, false))
	ac := fake.interact(rawInteraction(t, "autocomplete.json", map[string]any{"Guild": guild, "Channel": channel, "User": alice, "Permissions": "0", "Typed": ""}))
	data, _ := ac.Body["data"].(map[string]any)
	choices, _ := data["choices"].([]any)
	if ac.kind() != 8 || len(choices) != 7 {
		t.Fatalf("autocomplete: type %d, %d choices", ac.kind(), len(choices))
	}
	pic := fake.command(t, channel, bob, "board", opt("image", true))
	png := pic.Files["board.png"]
	if len(png) < 8 || string(png[1:4]) != "PNG" {
		t.Fatalf("no PNG attached: files %v", len(pic.Files))
	}
	big := fake.command(t, "920000000000000010", alice, "new", opt("rows", 60), opt("columns", 60), userOpt("opponent", bob, false))
	if _, ok := big.Files["board.png"]; !ok {
		t.Fatal("a board too big for text came without a picture")
	}
}

const (
	guild   = bottest.Guild
	channel = bottest.Channel
	alice   = bottest.Alice
	bob     = bottest.Bob
)

type option = bottest.Option

var (
	opt            = bottest.Opt
	userOpt        = bottest.UserOpt
	rawInteraction = bottest.Raw
	commandFields  = bottest.CommandFields
)
