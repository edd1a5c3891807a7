package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"text/template"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

// Users and places the handler tests act in.
const (
	guild   = "900000000000000001"
	channel = "910000000000000001"
	alice   = "800000000000000001"
	bob     = "800000000000000002"
	carol   = "800000000000000003"
	mod     = "800000000000000009"
)

// option is one slash-command option as Discord sends it.
type option struct {
	Type  discordgo.ApplicationCommandOptionType `json:"type"`
	Name  string                                 `json:"name"`
	Value any                                    `json:"value"`
	bot   bool
}

// opt builds an option, its type following the Go value.
func opt(name string, v any) option {
	switch v.(type) {
	case int:
		return option{Type: discordgo.ApplicationCommandOptionInteger, Name: name, Value: v}
	case bool:
		return option{Type: discordgo.ApplicationCommandOptionBoolean, Name: name, Value: v}
	}
	return option{Type: discordgo.ApplicationCommandOptionString, Name: name, Value: v}
}

// userOpt is a user option; isBot marks the resolved user as a bot account.
func userOpt(name, id string, isBot bool) option {
	return option{Type: discordgo.ApplicationCommandOptionUser, Name: name, Value: id, bot: isBot}
}

var templates sync.Map // file → *template.Template

// interaction reads testdata/file, a raw Discord payload with template
// fields, and decodes it the way both transports do.
func interaction(tb testing.TB, file string, fields map[string]any) *discordgo.Interaction {
	tb.Helper()
	raw := rawInteraction(tb, file, fields)
	var i discordgo.Interaction
	if err := json.Unmarshal(raw, &i); err != nil {
		tb.Fatalf("%s: %v\n%s", file, err, raw)
	}
	return &i
}

// rawInteraction renders testdata/file with fields: the bytes Discord sends.
func rawInteraction(tb testing.TB, file string, fields map[string]any) []byte {
	tb.Helper()
	t, ok := templates.Load(file)
	if !ok {
		raw, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			tb.Fatal(err)
		}
		t, _ = templates.LoadOrStore(file, template.Must(template.New(file).Parse(string(raw))))
	}
	var buf bytes.Buffer
	if err := t.(*template.Template).Execute(&buf, fields); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// commandFields fills command.json's template.
func commandFields(ch, user, sub string, perms int64, opts []option) map[string]any {
	optJSON, _ := json.Marshal(opts)
	if opts == nil {
		optJSON = []byte("[]")
	}
	fields := map[string]any{"ID": "1180000000000000001", "Guild": guild, "Channel": ch, "User": user, "Sub": sub, "Options": string(optJSON), "Permissions": fmt.Sprint(perms)}
	users := map[string]any{}
	for _, o := range opts {
		if o.Type == discordgo.ApplicationCommandOptionUser {
			users[o.Value.(string)] = map[string]any{"id": o.Value, "username": "someone", "discriminator": "0", "bot": o.bot}
		}
	}
	if len(users) > 0 {
		res, _ := json.Marshal(map[string]any{"users": users})
		fields["Resolved"] = string(res)
	}
	return fields
}

// harness is a Bot on an in-memory store with a clock the test moves.
type harness struct {
	tb     testing.TB
	bot    *Bot
	tables *table.Tables
	store  table.Store
	mu     sync.Mutex
	now    time.Time
}

func newHarness(tb testing.TB) *harness {
	return newHarnessOn(tb, store.NewMemory(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
}

// newHarnessOn is a harness on st with its clock starting at now.
func newHarnessOn(tb testing.TB, st table.Store, now time.Time) *harness {
	h := &harness{tb: tb, store: st, now: now}
	h.tables = table.NewTables(table.Options{Store: st, Now: h.clock, IdleTimeout: time.Hour})
	h.bot = New(Options{Tables: h.tables, AIBudget: testAIBudget})
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

func (h *harness) clock() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

func (h *harness) advance(d time.Duration) {
	h.mu.Lock()
	h.now = h.now.Add(d)
	h.mu.Unlock()
}

// as runs /ttt sub as user in the default channel, without special permissions.
func (h *harness) as(user, sub string, opts ...option) *discordgo.InteractionResponse {
	h.tb.Helper()
	return h.in(channel, user, sub, opts...)
}

func (h *harness) in(ch, user, sub string, opts ...option) *discordgo.InteractionResponse {
	h.tb.Helper()
	i := interaction(h.tb, "command.json", commandFields(ch, user, sub, 0, opts))
	return h.bot.Handle(context.Background(), i)
}

// public asserts resp is a public message within Discord's limit and
// returns its content.
func publicText(tb testing.TB, resp *discordgo.InteractionResponse) string {
	tb.Helper()
	if resp == nil || resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Data == nil {
		tb.Fatalf("want a public message, got %+v", resp)
	}
	if resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		tb.Fatalf("want a public message, got a refusal: %s", resp.Data.Content)
	}
	checkReply(tb, resp)
	return resp.Data.Content
}

// refused asserts resp is an ephemeral reply containing want.
func refused(tb testing.TB, resp *discordgo.InteractionResponse, want string) {
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
// one but the users it names.
func checkReply(tb testing.TB, resp *discordgo.InteractionResponse) {
	tb.Helper()
	if n := len([]rune(resp.Data.Content)); n > MaxContent {
		tb.Fatalf("content is %d characters", n)
	}
	am := resp.Data.AllowedMentions
	if am == nil || len(am.Parse) != 0 || len(am.Roles) != 0 {
		tb.Fatalf("allowed_mentions %+v would let text ping roles or everyone", am)
	}
}

// Every store satisfies the interface table declares.
var (
	_ table.Store = (*store.Memory)(nil)
	_ table.Store = (*store.SQL)(nil)
)

func coord(r, c int) game.Coord { return game.Coord{Row: r, Col: c} }
