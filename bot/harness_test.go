package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/internal/fakediscord"
	"github.com/tttbot/tttbot/internal/testkit"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/store/postgres"
	"github.com/tttbot/tttbot/store/sqlite"
	"github.com/tttbot/tttbot/table"
)

// The users, places and payloads tests share with the transports' tests.
const (
	guild   = testkit.Guild
	channel = testkit.Channel
	alice   = testkit.Alice
	bob     = testkit.Bob
	carol   = testkit.Carol
	mod     = testkit.Mod
)

type option = testkit.Option

var (
	opt            = testkit.Opt
	userOpt        = testkit.UserOpt
	interaction    = testkit.Interaction
	rawInteraction = testkit.Raw
	commandFields  = testkit.CommandFields
)

// harness is a Bot on an in-memory store with a clock the test moves.
type harness struct {
	tb     testing.TB
	bot    *Bot
	tables *table.Tables
	store  testStore
	edits  *editRecorder // board messages edited when a clock ran out
	// discord is the fake Discord the bot's threads go to, once a script
	// says "discord threads" (thread_test.go); nil before.
	discord *fakediscord.Server
	now     *testkit.Clock
}

func newHarness(tb testing.TB) *harness {
	return newHarnessOn(tb, store.NewMemory(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
}

// testStore is what a harness needs of a store: the session store, the
// read model and the clocks' deadlines, as every store offers them.
type testStore interface {
	table.Store
	table.Records
	table.DeadlineStore
}

// newHarnessOn is a harness on st with its clock starting at now.
func newHarnessOn(tb testing.TB, st testStore, now time.Time) *harness {
	h := &harness{tb: tb, store: st, now: testkit.NewClock(now), edits: &editRecorder{}}
	h.tables = table.NewTables(table.Options{Store: st, Now: h.clock, IdleTimeout: time.Hour})
	h.bot = New(Options{Tables: h.tables, Records: st, AIBudget: testAIBudget, Editor: h.edits})
	h.bot.learnIDAfter = []time.Duration{0} // the recorder answers at once
	return h
}

// testAIBudget keeps the computer quick in tests; its strength at this
// budget is what ai's own tests measure.
const testAIBudget = 0

// load returns the channel's stored table.
func (h *harness) load(channel string) *table.Table {
	h.tb.Helper()
	t, err := h.tables.Load(context.Background(), channel)
	if err != nil {
		h.tb.Fatal(err)
	}
	return t
}

func (h *harness) clock() time.Time { return h.now.Now() }

func (h *harness) advance(d time.Duration) { h.now.Advance(d) }

// as runs /ttt sub as user in the default channel, without special permissions.
func (h *harness) as(user, sub string, opts ...option) *WireResponse {
	h.tb.Helper()
	return h.in(channel, user, sub, opts...)
}

func (h *harness) in(ch, user, sub string, opts ...option) *WireResponse {
	h.tb.Helper()
	return h.bot.Handle(context.Background(), h.prepare(ch, user, sub, opts...))
}

// prepare is /ttt sub by user in ch, not sent yet. A race prepares its
// interactions in the test's goroutine and its goroutines only hand them to
// the bot: a helper that can fail the test (t.Fatalf) must not run in a
// goroutine the test started.
func (h *harness) prepare(ch, user, sub string, opts ...option) *discordgo.Interaction {
	h.tb.Helper()
	return interaction(h.tb, "command.json", commandFields(ch, user, sub, 0, opts))
}

// public asserts resp is a public message within Discord's limit and
// returns its content.
func publicText(tb testing.TB, resp *WireResponse) string {
	tb.Helper()
	if resp == nil || resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Data == nil {
		tb.Fatalf("want a public message, got %+v", resp)
	}
	if resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		tb.Fatalf("want a public message, got a refusal: %s", resp.Data.Content)
	}
	checkReply(tb, resp)
	return replyText(resp)
}

// refused asserts resp is an ephemeral reply containing want.
func refused(tb testing.TB, resp *WireResponse, want string) {
	tb.Helper()
	if resp == nil || resp.Data == nil || resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		tb.Fatalf("want an ephemeral refusal, got %+v", resp)
	}
	checkReply(tb, resp)
	if !strings.Contains(resp.Data.Content, want) {
		tb.Fatalf("refusal %q does not say %q", resp.Data.Content, want)
	}
}

// checkReply holds for every reply: within 2000 characters, and pinging no
// one but the users it names; and its body is one Discord's API
// description accepts (the fake Discord's check: a card within Discord's
// limits).
func checkReply(tb testing.TB, resp *WireResponse) {
	tb.Helper()
	if n := len([]rune(resp.Data.Content)); n > MaxContent {
		tb.Fatalf("content is %d characters", n)
	}
	checkBody(tb, resp.Data)
	am := resp.Data.AllowedMentions
	if am == nil || len(am.Parse) != 0 || len(am.Roles) != 0 {
		tb.Fatalf("allowed_mentions %+v would let text ping roles or everyone", am)
	}
}

// Every store satisfies the interfaces table declares.
var (
	_ testStore = (*store.Memory)(nil)
	_ testStore = (*sqlite.Store)(nil)
	_ testStore = (*postgres.Store)(nil)
)

func coord(r, c int) game.Coord { return game.Coord{Row: r, Col: c} }

// challenge opens a game in ch by challenger against invitee with opts, and
// has invitee accept it (with /ttt join): the board that starts the game.
func (h *harness) challenge(tb testing.TB, ch, challenger, invitee string, opts ...option) string {
	tb.Helper()
	publicText(tb, h.in(ch, challenger, "new", append(opts, userOpt(optOpponent, invitee, false))...))
	return publicText(tb, h.in(ch, invitee, "join"))
}

// checkBody fails tb when Discord's API description refuses m's body.
func checkBody(tb testing.TB, m *WireMessage) {
	tb.Helper()
	body, err := m.JSON()
	if err != nil {
		tb.Fatal(err)
	}
	var names map[string]string
	if m.Attachments != nil {
		names = map[string]string{}
		for _, a := range *m.Attachments {
			names[a.ID] = a.Filename
		}
	}
	if errs := fakediscord.CheckMessage(body, names); len(errs) > 0 {
		tb.Fatalf("Discord would refuse the body: %s\n%s", strings.Join(errs, "; "), body)
	}
}
