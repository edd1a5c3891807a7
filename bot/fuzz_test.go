package bot

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

// FuzzHandle feeds the bot arbitrary interactions (anything that decodes as
// one). Serve recovers nothing, so a panic fails the target. Every reply must
// hold the invariants: within 2000 characters, a refusal (ephemeral) changes
// nothing stored, and a change is announced publicly.
func FuzzHandle(f *testing.F) {
	seed := func(file string, fields map[string]any) { f.Add(rawInteraction(f, file, fields)) }
	for _, sub := range []string{"new", "join", "move", "board", "rematch", "resign", "end", "stats", "leaderboard", "help"} {
		seed("command.json", commandFields(channel, alice, sub, 0, []option{opt("position", "1,1"), opt("rows", 4)}))
	}
	seed("command.json", commandFields(channel, alice, "check", 0, []option{opt("board", "XO./.X./..O")}))
	seed("autocomplete.json", map[string]any{"Guild": guild, "Channel": channel, "User": alice, "Permissions": "0", "Typed": "1,"})
	seed("component.json", map[string]any{"ID": "1", "Guild": guild, "Channel": channel, "User": alice, "CustomID": "ttt:cell:1.0:1:1"})
	seed("ping.json", nil)
	f.Add([]byte(`{"type":2,"channel_id":"1","member":{"user":{"id":"2"}},"data":{"name":"ttt","options":[{"type":1,"name":"new","options":[{"type":4,"name":"rows","value":1e300}]}]}}`))
	f.Add([]byte(`{"type":3,"channel_id":"1","user":{"id":"2"},"data":{"custom_id":"ttt:col:1.0:-5"}}`))

	st := store.NewMemory()
	b := New(Options{Tables: table.NewTables(table.Options{Store: st}), Records: st, AIBudget: 20 * time.Millisecond})
	// Open a game so moves, clicks and autocomplete reach the engine.
	b.Serve(context.Background(), interaction(f, "command.json", commandFields(channel, alice, "new", 0, []option{userOpt("opponent", bob, false)})))
	b.Serve(context.Background(), interaction(f, "command.json", commandFields(channel, bob, "join", 0, nil)))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var i discordgo.Interaction
		if err := json.Unmarshal(raw, &i); err != nil {
			return
		}
		_, before, _, _ := st.LoadTable(context.Background(), i.ChannelID)
		resp := b.Serve(context.Background(), &i)
		_, after, _, _ := st.LoadTable(context.Background(), i.ChannelID)
		if n := len([]rune(resp.Content)); n > MaxContent {
			t.Fatalf("reply of %d characters", n)
		}
		switch {
		case resp.Ephemeral && after != before:
			t.Fatalf("an ephemeral reply changed the table (version %d → %d): %s", before, after, resp.Content)
		case after != before && resp.Kind != Message && resp.Kind != Update:
			t.Fatalf("a change answered with a %v", resp.Kind)
		case (resp.Kind == Message || resp.Kind == Update) && resp.Content == "":
			t.Fatalf("an empty message")
		}
	})
}
