package bot

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/store"
)

// rawCommand renders command.json for the gateway, as Discord would send it.
func rawCommand(tb testing.TB, id, user, sub string, opts ...option) []byte {
	tb.Helper()
	fields := commandFields(channel, user, sub, 0, opts)
	fields["ID"] = id
	return rawInteraction(tb, "command.json", fields)
}

// TestGatewayEndToEnd runs the real discordgo Session against the fake
// Discord: it registers /ttt, answers new, join and moves from two users,
// and survives a dropped connection.
func TestGatewayEndToEnd(t *testing.T) {
	fake := newFakeDiscord(t)
	api, _ := url.Parse(fake.apiURL())
	b := New(Options{Store: store.NewMemory()})
	gw, err := NewGateway(b, GatewayOptions{Token: "test-token", GuildID: guild, Client: APIClient(api, nil)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := gw.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer gw.Close(context.Background())
	fake.waitReady()
	if got := fake.registered(); len(got) != 1 || got[0] != "ttt" {
		t.Fatalf("registered %v", got)
	}

	step := func(id, user, sub, want string, opts ...option) {
		t.Helper()
		cb := fake.interact(rawCommand(t, id, user, sub, opts...))
		text, eph := cb.content()
		if cb.ID != id || eph || !strings.Contains(text, want) {
			t.Fatalf("%s %s: reply to %s (ephemeral %v):\n%s\nwant %q", user, sub, cb.ID, eph, text, want)
		}
	}
	step("1300000000000000001", alice, "new", "opened a game")
	step("1300000000000000002", bob, "join", "Game on")
	step("1300000000000000003", alice, "move", "played 1,1", opt("position", "1,1"))

	cb := fake.interact(rawCommand(t, "1300000000000000004", alice, "move", opt("position", "0,0")))
	if text, eph := cb.content(); !eph || !strings.Contains(text, "not your turn") {
		t.Fatalf("out-of-turn move: ephemeral %v %q", eph, text)
	}

	fake.drop()
	fake.waitReady() // discordgo reconnects and resumes
	step("1300000000000000005", bob, "move", "played 0,0", opt("position", "0,0"))
	step("1300000000000000006", alice, "move", "played 0,2", opt("position", "0,2"))
	fake.mu.Lock()
	identifies, resumes := fake.identifies, fake.resumes
	fake.mu.Unlock()
	if identifies != 1 || resumes != 1 {
		t.Errorf("identifies %d, resumes %d; want 1 and 1", identifies, resumes)
	}
	gw.Session().ShouldReconnectOnError = false
}
