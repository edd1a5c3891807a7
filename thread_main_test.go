package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/bot"
	"github.com/tttbot/tttbot/bot/discordrest"
	"github.com/tttbot/tttbot/internal/fakediscord"
	"github.com/tttbot/tttbot/internal/testkit"
	"github.com/tttbot/tttbot/store/sqlite"
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
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-2 * time.Hour)
	tables := table.NewTables(table.Options{Store: st, Now: func() time.Time { return then }})
	rest := discordrest.New(discordrest.Options{BaseURL: fake.APIURL(), BotToken: "test-token", HTTP: fake.Client()})
	b := bot.New(bot.Options{Tables: tables, Editor: rest, Threads: rest})
	command := func(ch, user, sub string, opts ...testkit.Option) bot.Response {
		t.Helper()
		return b.Serve(ctx, testkit.Interaction(t, "command.json", testkit.CommandFields(ch, user, sub, 0, opts)))
	}
	command(chanA, userA, "new")
	command(chanA, userB, "join")
	if resp := command(chanA, userB, "new"); resp.Ephemeral || !strings.Contains(resp.Content, "<#") {
		t.Fatalf("second game: %+v", resp)
	}
	threads := fake.Threads()
	if len(threads) != 1 {
		t.Fatalf("threads %+v", threads)
	}
	thread := threads[0].ID
	if resp := command(thread, userA, "join"); resp.Ephemeral {
		t.Fatalf("join in the thread: %s", resp.Content)
	}
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
	st, err = sqlite.Open(ctx, path)
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

// TestThreadThroughBinary: the real binary, with its token and its
// embedded SQLite (a sole writer, deduping HTTP deliveries), opens a busy
// channel's second game in a thread on a fake Discord; killed with SIGKILL
// right after and restarted, it still knows the thread's game, which is
// played there, and the interaction, replayed, makes no second thread.
func TestThreadThroughBinary(t *testing.T) {
	fake := fakediscord.New(t)
	db, env := "sqlite://"+filepath.Join(t.TempDir(), "tttbot.db"), []string{"DISCORD_API_URL=" + fake.APIURL(), "DISCORD_TOKEN=test-token"}
	p := startBot(t, db, env...)
	if text, ok := threadCommand(t, p, "1190000000000100001", chanA, userA, "new"); !ok {
		t.Fatalf("first game: %s", text)
	}
	text, ok := threadCommand(t, p, "1190000000000100002", chanA, userB, "new")
	threads := fake.Threads()
	if !ok || len(threads) != 1 || !strings.Contains(text, "<#"+threads[0].ID+">") {
		t.Fatalf("second game: %s (threads %+v)\nlogs:\n%s", text, threads, p.logs)
	}
	p.kill() // the thread was just made: its game and the interaction's record must both be durable
	p = startBot(t, db, env...)
	if text, ok := threadCommand(t, p, "1190000000000100002", chanA, userB, "new"); ok || len(fake.Threads()) != 1 {
		t.Fatalf("the replayed interaction: %s, threads %+v", text, fake.Threads())
	}
	if text, ok := threadCommand(t, p, "1190000000000100003", threads[0].ID, userA, "join"); !ok || !strings.Contains(text, "Game on") {
		t.Fatalf("join in the thread: %s", text)
	}
}

// threadCommand posts /ttt sub as user in channel to p's interactions
// endpoint, signed, as Discord sends it with the bot's permissions in the
// channel (app_permissions) and the app installed in the server; it
// returns the reply's content and whether it was public.
func threadCommand(tb testing.TB, p *proc, id, channel, user, sub string) (string, bool) {
	tb.Helper()
	fields := testkit.CommandFields(channel, user, sub, 0, nil)
	fields["ID"] = id
	text, public, err := p.send(testkit.Raw(tb, "command.json", fields))
	if err != nil {
		tb.Fatalf("%s %s: %v\nlogs:\n%s", user, sub, err, p.logs)
	}
	return text, public
}
