package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/bot"
	"github.com/tttbot/tttbot/bot/bottest"
	"github.com/tttbot/tttbot/bot/discordrest"
	"github.com/tttbot/tttbot/internal/fakediscord"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

// TestThreadArchivedWhileDown: a game opened in a thread (a busy channel's
// second game) ends, and its bot stops; the real binary, started with its
// token more than an hour later, archives the thread on a fake Discord in
// its first pass, and after a kill -9 nothing is left to archive again.
func TestThreadArchivedWhileDown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "tttbot.db")
	ctx := context.Background()
	fake := fakediscord.New(t)
	st, err := store.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-2 * time.Hour)
	tables := table.NewTables(table.Options{Store: st, Now: func() time.Time { return then }})
	rest := discordrest.New(discordrest.Options{BaseURL: fake.APIURL(), BotToken: "test-token", HTTP: fake.Client()})
	b := bot.New(bot.Options{Tables: tables, Editor: rest, Threads: rest})
	command := func(ch, user, sub string, opts ...bottest.Option) bot.Response {
		t.Helper()
		return b.Serve(ctx, bottest.Interaction(t, "command.json", bottest.CommandFields(ch, user, sub, 0, opts)))
	}
	command(chanA, userA, "new", bottest.UserOpt("opponent", userB, false))
	if resp := command(chanA, userB, "new", bottest.UserOpt("opponent", userA, false)); resp.Ephemeral || !strings.Contains(resp.Content, "<#") {
		t.Fatalf("second game: %+v", resp)
	}
	threads := fake.Threads()
	if len(threads) != 1 {
		t.Fatalf("threads %+v", threads)
	}
	thread := threads[0].ID
	if resp := command(thread, userA, "resign"); resp.Ephemeral {
		t.Fatalf("resign in the thread: %s", resp.Content)
	}
	st.Close()
	fake.TakeRequests()

	db := "sqlite://" + path
	env := []string{"DISCORD_API_URL=" + fake.APIURL(), "DISCORD_TOKEN=test-token"}
	p := startBot(t, db, env...)
	want := "PATCH /api/v9/channels/" + thread
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var got []string
		for _, r := range fake.Requests() {
			if r.Method == "PATCH" {
				got = append(got, r.Method+" "+r.Path+" "+string(r.Body))
			}
		}
		if len(got) > 0 {
			if len(got) != 1 || got[0] != want+` {"archived":true}` {
				t.Fatalf("calls %q, want one %s archiving it", got, want)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the thread was never archived; logs:\n%s", p.logs)
		}
	}
	p.kill()
	// The archiving was saved before the call: nothing is due any more,
	// so no restart archives it again.
	st, err = store.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if due, ok, err := st.NextDeadline(ctx); ok || err != nil {
		t.Fatalf("still due at %v (%v) after archiving", due, err)
	}
	if !fake.Threads()[0].Archived {
		t.Fatal("the fake's thread is not archived")
	}
}
