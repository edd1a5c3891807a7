package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/discordrest"
	"github.com/tttbot/tttbot/internal/fakediscord"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

// editRecorder is an Editor that keeps what it was asked, for transcripts.
type editRecorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *editRecorder) record(target string, body []byte, files []*discordgo.File) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	r.calls = append(r.calls, transcribeMessage("edit "+target, decodeMessage(body), names))
}

func (r *editRecorder) EditOriginal(_ context.Context, app, token string, body []byte, files []*discordgo.File) error {
	r.record("webhook "+app+" @original (token "+token[:8]+"…)", body, files)
	return nil
}

func (r *editRecorder) EditMessage(_ context.Context, channel, message string, body []byte, files []*discordgo.File) error {
	r.record("channel "+channel+" message "+message, body, files)
	return nil
}

func (r *editRecorder) OriginalMessageID(_ context.Context, app, token string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, "< asked for the id of webhook "+app+" @original (token "+token[:8]+"…): 1500000000000000001\n")
	return "1500000000000000001", nil
}

// transcribe returns the edits since the last call, and forgets them.
func (r *editRecorder) transcribe() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := strings.Join(r.calls, "")
	r.calls = nil
	return out
}

// expire is the scheduler's pass, and what it edited.
func (h *harness) expire() string {
	h.tb.Helper()
	s, err := table.NewScheduler(h.tables, table.SchedulerOptions{Store: h.store})
	if err != nil {
		h.tb.Fatal(err)
	}
	n, err := s.RunDue(context.Background())
	if err != nil {
		h.tb.Fatal(err)
	}
	return fmt.Sprintf("< %d clocks ran out\n%s", n, h.edits.transcribe())
}

// newFakeDiscord is the shared fake Discord; a GET of @original answers
// the message's ID, or 404 when posted is false (the reply never arrived).
func newFakeDiscord(tb testing.TB, posted bool) *fakediscord.Server {
	f := fakediscord.New(tb)
	f.SetOriginalPosted(posted)
	return f
}

// patches are the edits f received, as "PATCH path: content", then each
// file (and whether it is a whole PNG) and each attachment named.
func patches(f *fakediscord.Server) []string {
	var out []string
	for _, r := range f.Requests() {
		if r.Method != http.MethodPatch {
			continue
		}
		var body struct {
			Attachments []struct {
				ID, Filename string
			} `json:"attachments"`
		}
		json.Unmarshal(r.Body, &body)
		text := messageText(decodeMessage(r.Body)) // a card's text displays
		var files []string
		for name, data := range r.Files {
			_, err := png.Decode(bytes.NewReader(data))
			files = append(files, fmt.Sprintf("file %s png:%v", name, err == nil))
		}
		for _, a := range body.Attachments {
			files = append(files, "attachment "+a.ID+" "+a.Filename)
		}
		out = append(out, r.Method+" "+r.Path+": "+text+strings.Join(files, "\n"))
	}
	return out
}

// TestClockEditReachesDiscord: when a clock runs out, the real REST client
// edits the board message on a fake Discord: through the interaction's
// webhook while its token is fresh, through the channel message (bot token)
// when it is old (the clicked message, or a new one whose ID was learned
// while the token lived), and not at all when neither is possible.
func TestClockEditReachesDiscord(t *testing.T) {
	cases := []struct {
		name     string
		clock    int
		click    bool // the last board was a clicked message (its ID known)
		posted   bool // GET @original finds the reply
		botToken string
		want     string // path prefix of the one PATCH; "" for none
	}{
		{"FreshTokenWebhook", 60, false, true, "", "PATCH /api/v9/webhooks/1000000000000000001/aW50ZXJhY3Rpb246MTE4MDAwMDAwMDAwMDAwMDAwMTpzZWNyZXQ/messages/@original"},
		{"OldTokenClickedMessage", 3600, true, true, "bot-token", "PATCH /api/v9/channels/" + channel + "/messages/1400000000000000001"},
		{"OldTokenLearnedMessageID", 3600, false, true, "bot-token", "PATCH /api/v9/channels/" + channel + "/messages/1500000000000000001"},
		{"OldTokenMessageIDUnknown", 3600, false, false, "bot-token", ""},
		{"OldTokenNoBotToken", 3600, true, true, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fake := newFakeDiscord(t, c.posted)
			h := newHarness(t)
			h.bot.editor = discordrest.New(discordrest.Options{BaseURL: fake.APIURL(), BotToken: c.botToken})
			h.challenge(t, channel, alice, bob, opt(optClock, c.clock))
			if c.click {
				i := interaction(t, "component.json", map[string]any{"ID": "2", "Guild": guild, "Channel": channel, "User": alice,
					"CustomID": buttonID(ButtonCell, moveStamp(h.load(channel)), "0", "0")})
				if r := h.bot.Handle(context.Background(), i); r.Type != discordgo.InteractionResponseUpdateMessage {
					t.Fatalf("click: %+v", r.Data)
				}
			}
			h.bot.Wait()
			h.advance(time.Duration(c.clock+1) * time.Second)
			h.expire()
			got := patches(fake)
			switch {
			case c.want == "" && len(got) != 0:
				t.Fatalf("edited %v, want nothing", got)
			case c.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], c.want) || !strings.Contains(got[0], "won on time")):
				t.Fatalf("edits %q, want one %s showing the win on time", got, c.want)
			}
			// Either way the next interaction shows the result.
			if text := publicText(t, h.as(bob, "board")); !strings.Contains(text, "won on time") {
				t.Fatalf("board after the clock ran out:\n%s", text)
			}
		})
	}
}

// TestClockEditRedrawsPicture: a board too big for text is shown as a
// picture, and the edit when its clock runs out replaces that picture with
// the final board (a multipart PATCH whose attachments name the new file).
func TestClockEditRedrawsPicture(t *testing.T) {
	fake := newFakeDiscord(t, true)
	h := newHarness(t)
	h.bot.editor = discordrest.New(discordrest.Options{BaseURL: fake.APIURL()})
	h.challenge(t, channel, alice, bob, opt("rows", 60), opt("columns", 60), opt("win", 5), opt(optClock, 60))
	h.bot.Wait()
	h.advance(61 * time.Second)
	h.expire()
	got := patches(fake)
	if len(got) != 1 {
		t.Fatalf("edits %q, want one", got)
	}
	for _, want := range []string{"won on time", "file board.png png:true", "attachment 0 board.png"} {
		if !strings.Contains(got[0], want) {
			t.Fatalf("edit %q lacks %q", got[0], want)
		}
	}
}

// TestClockOptionRefusals: a clock Discord would not offer is refused.
func TestClockOptionRefusals(t *testing.T) {
	h := newHarness(t)
	refused(t, h.as(alice, "new", opt(optClock, 45)), "`clock` must be")
	if tbl := h.load(channel); tbl != nil {
		t.Fatalf("a refused /ttt new left a table: %+v", tbl)
	}
}

var _ Editor = (*discordrest.Client)(nil)

// The transcripts' store: the in-memory store keeps deadlines like the others.
var _ table.DeadlineStore = (*store.Memory)(nil)
