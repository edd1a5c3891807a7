package bot

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/discordrest"
	"github.com/tttbot/tttbot/internal/fakediscord"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

var _ Threads = (*discordrest.Client)(nil)

// withThreads gives h's bot its token: its threads go through the real
// REST client to a fake Discord on 127.0.0.1.
func (h *harness) withThreads(tb testing.TB) *fakediscord.Server {
	tb.Helper()
	if h.discord == nil {
		h.discord = fakediscord.New(tb)
	}
	h.bot.threads = discordrest.New(discordrest.Options{BaseURL: h.discord.APIURL(), BotToken: "bot-token", HTTP: h.discord.Client()})
	h.tables.OnArchive(h.bot.archiveThread)
	return h.discord
}

// fakeOps are the fake's switchable calls by the names scripts use.
var fakeOps = map[string]fakediscord.Op{
	"start_thread": fakediscord.StartThread, "post_message": fakediscord.PostMessage,
	"archive_thread": fakediscord.ArchiveThread, "delete_thread": fakediscord.DeleteThread,
}

// discordSwitch runs a script's "discord …" line.
func (h *harness) discordSwitch(tb testing.TB, args []string) error {
	if args[0] == "threads" {
		h.withThreads(tb)
		return nil
	}
	if args[0] == "off" {
		h.bot.threads = nil
		return nil
	}
	if h.discord == nil || len(args) < 2 {
		return fmt.Errorf("discord %v: say \"discord threads\" first, and name a call", args)
	}
	op, ok := fakeOps[args[1]]
	if !ok {
		return fmt.Errorf("unknown call %q", args[1])
	}
	switch args[0] {
	case "forbid":
		h.discord.MissingPermissions(op)
	case "allow":
		h.discord.Allow(op)
	case "ratelimit":
		d, err := time.ParseDuration(args[2])
		if err != nil {
			return err
		}
		h.discord.RateLimited(op, 1, d)
	default:
		return fmt.Errorf("unknown switch %q", args[0])
	}
	return nil
}

// newestThread is the newest thread the fake Discord holds.
func (h *harness) newestThread(tb testing.TB) string {
	tb.Helper()
	if h.discord != nil {
		threads := h.discord.Threads()
		for i := len(threads) - 1; i >= 0; i-- {
			if !threads[i].Deleted {
				return threads[i].ID
			}
		}
	}
	tb.Fatal("no thread to act in")
	return ""
}

// discordCalls transcribes the REST calls the fake Discord received since
// the last line: each call and Discord's answer, a thread's start with its
// body, a message posted with its content and buttons (which become the
// newest board, for clicks).
func (h *harness) discordCalls(board **WireResponse) string {
	if h.discord == nil {
		return ""
	}
	var sb strings.Builder
	for _, r := range h.discord.TakeRequests() {
		path := strings.TrimPrefix(r.Path, "/api/v9")
		fmt.Fprintf(&sb, "< discord %s %s → %d", r.Method, path, r.Status)
		switch {
		case r.Method == "POST" && strings.HasSuffix(path, "/messages") && r.Status == 200:
			resp := &WireResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: decodeMessage(r.Body)}
			if len(replyButtons(resp)) > 0 {
				*board = resp
			}
			var files []string
			for name := range r.Files {
				files = append(files, name)
			}
			sb.WriteString("\n" + transcribeMessage("message, public", resp.Data, files))
		case len(r.Body) > 0:
			fmt.Fprintf(&sb, " %s\n", r.Body)
		default:
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// TestThreadsPlayLikeChannels: a thread's ID keys its game, so commands,
// buttons, the clock, rematch, history and replay act in it as in any
// channel, while the channel it came from plays its own game.
func TestThreadsPlayLikeChannels(t *testing.T) {
	h := newHarness(t)
	fake := h.withThreads(t)
	h.challenge(t, channel, alice, bob)
	line := publicText(t, h.as(carol, "new", opt(optClock, 60), userOpt(optOpponent, "800000000000000004", false)))
	threads := fake.Threads()
	if len(threads) != 1 || threads[0].Parent != channel || threads[0].AutoArchive != threadAutoArchive {
		t.Fatalf("threads %+v", threads)
	}
	th := threads[0].ID
	if !strings.Contains(line, "<#"+th+">") {
		t.Fatalf("the channel's line %q does not link the thread", line)
	}
	if msgs := fake.Messages(th); len(msgs) != 1 || !strings.Contains(string(msgs[0].Body), "ttt:accept:") {
		t.Fatalf("the thread's messages %+v: want the challenge, with its buttons", msgs)
	}
	tbl := h.load(th)
	if parent, ok := tbl.InThread(); !ok || parent != channel || !tbl.Challenging() || tbl.Shown.Message == "" {
		t.Fatalf("the thread's challenge: parent %q (%v), shown %+v", parent, ok, tbl.Shown)
	}
	if text := publicText(t, h.in(th, "800000000000000004", "join")); !strings.Contains(text, "Game on") {
		t.Fatalf("accepting in the thread: %s", text)
	}
	tbl = h.load(th) // the board is now the accepting reply, edited through its token
	if parent, ok := tbl.InThread(); !ok || parent != channel || tbl.Shown.Token == "" {
		t.Fatalf("the thread's table: parent %q (%v), shown %+v", parent, ok, tbl.Shown)
	}
	// The channel's own game is untouched and still played there.
	publicText(t, h.as(alice, "move", opt(optPosition, "0,0")))
	// The thread's game: X is carol.
	for i, m := range []struct{ user, at string }{{carol, "0,0"}, {"800000000000000004", "1,0"}, {carol, "0,1"}, {"800000000000000004", "1,1"}, {carol, "0,2"}} {
		text := publicText(t, h.in(th, m.user, "move", opt(optPosition, m.at)))
		if i == 4 && !strings.Contains(text, "won") {
			t.Fatalf("carol's last move: %s", text)
		}
	}
	if text := publicText(t, h.in(th, carol, "history")); !strings.Contains(text, "**won**") {
		t.Fatalf("history in the thread: %s", text)
	}
	if r := h.in(th, carol, "replay"); r.Data == nil || len(r.Data.Files) != 1 {
		t.Fatalf("replay in the thread: %+v", r.Data)
	}
	if text := publicText(t, h.in(th, "800000000000000004", "rematch")); !strings.Contains(text, "Rematch #2") {
		t.Fatalf("rematch in the thread: %s", text)
	}
	if tbl := h.load(th); !tbl.ArchiveAt.IsZero() || tbl.Number != 2 {
		t.Fatalf("after the rematch: archive at %v, game %d", tbl.ArchiveAt, tbl.Number)
	}
	if tbl := h.load(channel); tbl.Game() == nil || len(tbl.Game().Moves()) != 1 {
		t.Fatal("the thread's game moved the channel's")
	}
}

// TestThreadNothingHalfMade: when the board cannot be posted in the new
// thread, the thread is deleted and no game is saved in it; when the
// thread cannot be started, nothing is.
func TestThreadNothingHalfMade(t *testing.T) {
	cases := []struct {
		name   string
		set    func(*fakediscord.Server)
		says   string
		calls  []string
		thread bool // a thread was started (and must be deleted)
	}{
		{"MessageForbidden", func(f *fakediscord.Server) { f.MissingPermissions(fakediscord.PostMessage) }, "Send Messages in Threads",
			[]string{"POST /threads 201", "POST /messages 403", "DELETE 200"}, true},
		{"ThreadForbidden", func(f *fakediscord.Server) { f.MissingPermissions(fakediscord.StartThread) }, "Create Public Threads",
			[]string{"POST /threads 403"}, false},
		{"RateLimited", func(f *fakediscord.Server) { f.RateLimited(fakediscord.StartThread, 1, time.Minute) }, "60 seconds",
			[]string{"POST /threads 429"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			fake := h.withThreads(t)
			publicText(t, h.as(alice, "new"))
			c.set(fake)
			refused(t, h.as(carol, "new", opt(optClock, 60)), c.says)
			var calls []string
			for _, r := range fake.Requests() {
				call := fmt.Sprintf("%s %d", r.Method, r.Status)
				if r.Method != "DELETE" {
					call = fmt.Sprintf("%s %s %d", r.Method, r.Path[strings.LastIndex(r.Path, "/"):], r.Status)
				}
				calls = append(calls, call)
			}
			if !slices.Equal(calls, c.calls) {
				t.Fatalf("calls %q, want %q", calls, c.calls)
			}
			for _, th := range fake.Threads() {
				if !th.Deleted {
					t.Fatalf("thread %s left behind", th.ID)
				}
				if tbl := h.load(th.ID); tbl != nil {
					t.Fatalf("a game was saved in the deleted thread: %+v", tbl)
				}
			}
			if got := len(fake.Threads()) == 1; got != c.thread {
				t.Fatalf("threads %+v", fake.Threads())
			}
			if tbl := h.load(channel); tbl == nil || tbl.Creator != alice {
				t.Fatal("the channel's game changed")
			}
		})
	}
}

// TestThreadPlacement: where /ttt new opens its game, from the interaction
// and the channel's table alone.
func TestThreadPlacement(t *testing.T) {
	const all = "2248473465835073"
	cases := []struct {
		name     string
		busy     bool
		opts     []option
		dm       bool
		perms    string
		userOnly bool
		noToken  bool
		says     string // "" opens a thread; "here" opens in the channel
	}{
		{"FreeChannelHere", false, nil, false, all, false, false, "here"},
		{"BusyChannelThread", true, nil, false, all, false, false, ""},
		{"ThreadTrueThread", false, []option{opt(optThread, true)}, false, all, false, false, ""},
		{"ThreadFalseBusyRefused", true, []option{opt(optThread, false)}, false, all, false, false, "already open"},
		{"NoPermissions", true, nil, false, "0", false, false, "Create Public Threads"},
		{"OnlyCreateThreads", true, nil, false, fmt.Sprint(discordgo.PermissionCreatePublicThreads), false, false, "Send Messages in Threads"},
		{"Administrator", true, nil, false, fmt.Sprint(discordgo.PermissionAdministrator), false, false, ""},
		{"UserInstallOnly", true, nil, false, all, true, false, "Add to Server"},
		{"NoTokenBusy", true, nil, false, all, false, true, "already open"},
		{"NoTokenAsked", false, []option{opt(optThread, true)}, false, all, false, true, "DISCORD_TOKEN"},
		{"DMAsked", false, []option{opt(optThread, true)}, true, all, false, false, "DMs have no threads"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			fake := h.withThreads(t)
			if c.noToken {
				h.bot.threads = nil
			}
			ch := channel
			file := "command.json"
			if c.dm {
				ch, file = groupDM, "dm_command.json"
			}
			if c.busy {
				h.bot.Handle(t.Context(), interaction(t, file, commandFields(ch, alice, "new", 0, nil)))
			}
			fields := commandFields(ch, carol, "new", 0, c.opts)
			fields["AppPermissions"], fields["UserInstallOnly"] = c.perms, c.userOnly
			if c.dm {
				fields["Context"] = 2
			}
			resp := h.bot.Handle(t.Context(), interaction(t, file, fields))
			switch c.says {
			case "":
				if text := publicText(t, resp); !strings.Contains(text, "<#") || len(fake.Threads()) != 1 {
					t.Fatalf("no thread: %s", text)
				}
			case "here":
				publicText(t, resp)
				if len(fake.Threads()) != 0 {
					t.Fatal("a thread for a free channel")
				}
			default:
				refused(t, resp, c.says)
				if len(fake.Requests()) != 0 {
					t.Fatalf("Discord was called: %+v", fake.Requests())
				}
			}
		})
	}
}

// TestThreadNames: a thread is named after the kind of game and its
// creator, in the server's language, within Discord's 100 characters, and
// a name a user chose cannot break it.
func TestThreadNames(t *testing.T) {
	h := newHarness(t)
	fake := h.withThreads(t)
	for i, o := range [][]option{nil, {opt(optGravity, true)}, {opt(optRows, 99), opt(optColumns, 98), opt(optWin, 25), opt(optPlayers, 10)}} {
		h.bot.Handle(t.Context(), interaction(t, "command.json", commandFields(fmt.Sprint("95000000000000000", i), alice, "new", 0, append(o, opt(optThread, true)))))
	}
	var names []string
	for _, th := range fake.Threads() {
		names = append(names, th.Name)
		if n := len([]rune(th.Name)); n < 1 || n > maxThreadName {
			t.Errorf("name %q of %d characters", th.Name, n)
		}
	}
	want := []string{"Classic 3×3 · Player", "Connect Four 7×6 · Player", "99×98 · 25 in a row · 10 players · Player"}
	if !slices.Equal(names, want) {
		t.Fatalf("names %q, want %q", names, want)
	}
	if got := plainName("a\nb\u200ec\x00" + strings.Repeat("z", 40)); got != "a bc"+strings.Repeat("z", 28) {
		t.Fatalf("plainName: %q", got)
	}
}

// TestThreadChannelTypes: an announcement channel gets an announcement
// thread (Discord refuses a public one there); a channel that holds no
// threads (a thread the bot did not start, a voice channel) is refused
// with why, and nothing is made.
func TestThreadChannelTypes(t *testing.T) {
	t.Run("Announcement", func(t *testing.T) {
		h := newHarness(t)
		fake := h.withThreads(t)
		fake.Announcement(channel)
		publicText(t, h.as(alice, "new", opt(optThread, true)))
		if th := fake.Threads(); len(th) != 1 || th[0].Type != announcementThread {
			t.Fatalf("threads %+v", th)
		}
	})
	t.Run("NoThreadsHere", func(t *testing.T) {
		h := newHarness(t)
		fake := h.withThreads(t)
		outer := h.newThreadIn(t, channel) // a thread: it holds none
		refused(t, h.in(outer, bob, "new", opt(optThread, true)), "can't have threads")
		if th := fake.Threads(); len(th) != 1 {
			t.Fatalf("threads %+v", th)
		}
		if tbl := h.load(outer); tbl != nil {
			t.Fatalf("a game was opened: %+v", tbl)
		}
	})
}

// newThreadIn starts a thread from ch on the fake Discord, as a user
// would, without the bot.
func (h *harness) newThreadIn(tb testing.TB, ch string) string {
	tb.Helper()
	c := discordrest.New(discordrest.Options{BaseURL: h.discord.APIURL(), BotToken: "user", HTTP: h.discord.Client()})
	id, err := c.StartThread(tb.Context(), ch, "chat", publicThread, 60)
	if err != nil {
		tb.Fatal(err)
	}
	return id
}

// TestThreadWithDelivery: over the HTTP transport an interaction carries
// its delivery; the game opens in its thread on a sole writer (which
// remembers the deliveries it handled) as on a shared store, and the
// interaction, replayed, is refused as a duplicate without a second thread.
func TestThreadWithDelivery(t *testing.T) {
	for _, sole := range []bool{true, false} {
		t.Run(fmt.Sprint("SoleWriter=", sole), func(t *testing.T) {
			h := newHarness(t)
			st := store.NewMemory()
			h.tables = table.NewTables(table.Options{Store: st, Now: h.clock, SoleWriter: sole})
			h.bot = New(Options{Tables: h.tables, Records: st, AIBudget: testAIBudget})
			fake := h.withThreads(t)
			// As bot/httpapi serves: a delivery no save recorded is
			// remembered once ServeOnce returns.
			serve := func(id, user string) *WireResponse {
				fields := commandFields(channel, user, "new", 0, nil)
				fields["ID"] = id
				resp, recorded := h.bot.ServeOnce(t.Context(), interaction(t, "command.json", fields))
				if !recorded {
					st.Remember(t.Context(), id, h.clock())
				}
				return resp.InteractionResponse(false)
			}
			publicText(t, serve("1180000000000000101", alice))
			if text := publicText(t, serve("1180000000000000102", carol)); !strings.Contains(text, "<#") {
				t.Fatalf("no thread: %s", text)
			}
			refused(t, serve("1180000000000000102", carol), "already")
			if th := fake.Threads(); len(th) != 1 || th[0].Deleted {
				t.Fatalf("threads %+v", th)
			}
		})
	}
}
