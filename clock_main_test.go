package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/bot"
	"github.com/tttbot/tttbot/internal/fakediscord"
	"github.com/tttbot/tttbot/internal/testkit"
	"github.com/tttbot/tttbot/store/sqlite"
	"github.com/tttbot/tttbot/table"
)

// TestClockRanOutWhileDown: a game on a one-minute clock is left by a bot
// that stops (its table is written here, at a clock two minutes back, the
// way a killed bot leaves it); the real binary, started later, applies the
// expiry in its first pass, edits the board message on a fake Discord
// through the interaction's webhook, and after a kill -9 and a restart the
// result is there exactly once.
func TestClockRanOutWhileDown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "tttbot.db")
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-2 * time.Minute)
	tables := table.NewTables(table.Options{Store: st, Now: func() time.Time { return then }})
	b := bot.New(bot.Options{Tables: tables})
	challenge := testkit.Interaction(t, "command.json", testkit.CommandFields(chanA, userA, "new", 0,
		[]testkit.Option{testkit.Opt("clock", 60), testkit.UserOpt("opponent", userB, false)}))
	if resp := b.Serve(ctx, challenge); resp.Ephemeral {
		t.Fatalf("new: %+v", resp)
	}
	// userB accepts: the game, and its clock, start with this reply.
	i := testkit.Interaction(t, "command.json", testkit.CommandFields(chanA, userB, "join", 0, nil))
	if resp := b.Serve(ctx, i); resp.Ephemeral || !strings.Contains(resp.Content, "Clock: your time for this move runs out <t:") {
		t.Fatalf("join: %+v", resp)
	}
	st.Close()

	fake := fakediscord.New(t)
	db := "sqlite://" + path
	p := startBot(t, db, "DISCORD_API_URL="+fake.APIURL())
	want := "PATCH /api/v9/webhooks/1000000000000000001/" + i.Token + "/messages/@original"
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		got := calls(fake)
		if len(got) > 0 {
			if len(got) != 1 || !strings.HasPrefix(got[0], want) || !strings.Contains(got[0], "won on time") {
				t.Fatalf("edits %q, want one %s", got, want)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the board message was never edited; logs:\n%s", p.logs)
		}
	}
	if text, _ := p.command(t, chanA, userA, "move", opt("position", "1,1")); !strings.Contains(text, "ran out of time") {
		t.Fatalf("a move after the deadline: %s", text)
	}
	p.kill()
	p = startBot(t, db, "DISCORD_API_URL="+fake.APIURL())
	if text, _ := p.command(t, chanA, userB, "stats"); !strings.Contains(text, "1 win, 0 losses, 0 draws (1 game)") {
		t.Fatalf("bob's record after a restart: %s", text)
	}
	if text, _ := p.command(t, chanA, userA, "stats"); !strings.Contains(text, "0 wins, 1 loss, 0 draws (1 game)") {
		t.Fatalf("alice's record after a restart: %s", text)
	}
}

// calls are the REST calls fake received, each as "METHOD path\ntext" (its
// content, or a card's text displays).
func calls(fake *fakediscord.Server) []string {
	var out []string
	for _, r := range fake.Requests() {
		var body map[string]any
		json.Unmarshal(r.Body, &body)
		out = append(out, r.Method+" "+r.Path+"\n"+fakediscord.Text(body))
	}
	return out
}
