package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/png"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot/bot"
	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/internal/fakediscord"
	"github.com/tttbot/tttbot/internal/testkit"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

// countingReader is a body that claims nothing about its size and counts
// what the handler read of it.
type countingReader struct {
	left, read int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.left == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	for k := range p {
		p[k] = ' '
	}
	c.left -= int64(len(p))
	c.read += int64(len(p))
	return len(p), nil
}

func TestHTTPSize(t *testing.T) {
	s := newSigner(t)
	h := newHTTP(t, s)
	t.Run("SignedOverLimit", func(t *testing.T) {
		body := bytes.Repeat([]byte(" "), MaxBody+1)
		if w := serve(h, s.request(body, s.now)); w.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("a signed body of MaxBody+1 bytes: %d", w.Code)
		}
	})
	t.Run("AtLimitIsRead", func(t *testing.T) {
		// Exactly MaxBody bytes is within bounds: it gets as far as the JSON.
		body := append(bytes.Repeat([]byte(" "), MaxBody-2), '{', '}')
		if w := serve(h, s.request(body, s.now)); w.Code == http.StatusRequestEntityTooLarge {
			t.Fatalf("a body of MaxBody bytes: %d", w.Code)
		}
	})
	for _, tc := range []struct {
		name   string
		length int64 // the Content-Length the client claims
	}{{"LyingContentLength", 100}, {"NoContentLength", -1}} {
		t.Run(tc.name, func(t *testing.T) {
			body := &countingReader{left: 4 * MaxBody}
			r := s.request([]byte("{}"), s.now) // signed for another body: the size must be refused first
			r.Body = io.NopCloser(body)
			r.ContentLength = tc.length
			if w := serve(h, r); w.Code != http.StatusRequestEntityTooLarge {
				t.Fatalf("status %d", w.Code)
			}
			if body.read > MaxBody+1 {
				t.Fatalf("read %d bytes of the body; the limit is %d", body.read, MaxBody)
			}
		})
	}
	t.Run("HonestContentLengthNotRead", func(t *testing.T) {
		body := &countingReader{left: 4 * MaxBody}
		r := s.request([]byte("{}"), s.now)
		r.Body = io.NopCloser(body)
		r.ContentLength = 4 * MaxBody
		if w := serve(h, r); w.Code != http.StatusRequestEntityTooLarge || body.read != 0 {
			t.Fatalf("status %d after reading %d bytes", w.Code, body.read)
		}
	})
}

// fakeDeduper is the memory store as the Deduper and the tables' store
// both, noting what the transport remembers; with err set, the read that
// finds a duplicate fails, as when the store is down.
type fakeDeduper struct {
	*store.Memory
	mu   sync.Mutex
	seen map[string]time.Time
	err  error
}

func newFakeDeduper() *fakeDeduper {
	return &fakeDeduper{Memory: store.NewMemory(), seen: map[string]time.Time{}}
}

func (d *fakeDeduper) LoadTableHandled(ctx context.Context, channel, id string) ([]byte, int64, bool, bool, error) {
	if d.err != nil {
		return nil, 0, false, false, d.err
	}
	return d.Memory.LoadTableHandled(ctx, channel, id)
}

func (d *fakeDeduper) Remember(ctx context.Context, id string, now time.Time) {
	d.mu.Lock()
	d.seen[id] = now
	d.mu.Unlock()
	d.Memory.Remember(ctx, id, now)
}

// reply is an inline reply's parts a test reads; Content is its text as
// tools read it (content, or a card's text displays).
type reply struct {
	Type int `json:"type"`
	Data struct {
		Content string `json:"-"`
		Flags   int    `json:"flags"`
	} `json:"data"`
}

// decodeReply reads an inline reply, whose message body must be one
// Discord's API description accepts (the fake Discord's check).
func decodeReply(tb testing.TB, w *httptest.ResponseRecorder) reply {
	tb.Helper()
	var r reply
	if w.Code != http.StatusOK {
		tb.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		tb.Fatalf("reply %s: %v", w.Body, err)
	}
	var raw struct {
		Data json.RawMessage `json:"data"`
	}
	json.Unmarshal(w.Body.Bytes(), &raw)
	if len(raw.Data) > 0 && r.Type != 8 {
		if errs := fakediscord.CheckMessage(raw.Data, nil); len(errs) > 0 {
			tb.Fatalf("Discord would refuse the reply: %s\n%s", strings.Join(errs, "; "), raw.Data)
		}
		var data map[string]any
		json.Unmarshal(raw.Data, &data)
		r.Data.Content = fakediscord.Text(data)
	}
	return r
}

// command is a signed /ttt sub by user, with its own interaction ID.
func (s *signer) command(tb testing.TB, id, user, sub string, opts ...testkit.Option) *http.Request {
	tb.Helper()
	fields := testkit.CommandFields(channel, user, sub, 0, opts)
	fields["ID"] = id
	return s.request(testkit.Raw(tb, "command.json", fields), s.now)
}

// replayEndedNew opens a game (interaction ID idPrefix+"01"), ends it
// ("02") and replays the /ttt new: the replay must get the ephemeral
// duplicate notice and leave the game ended, so Bob cannot join it ("03").
func (s *signer) replayEndedNew(t *testing.T, h http.Handler, idPrefix string) {
	t.Helper()
	opened := s.command(t, idPrefix+"01", alice, "new")
	replayed := opened.Clone(context.Background())
	body, _ := io.ReadAll(opened.Body)
	opened.Body, replayed.Body = io.NopCloser(bytes.NewReader(body)), io.NopCloser(bytes.NewReader(body))
	if r := decodeReply(t, serve(h, opened)); r.Data.Flags&64 != 0 {
		t.Fatalf("/ttt new refused: %s", r.Data.Content)
	}
	if r := decodeReply(t, serve(h, s.command(t, idPrefix+"02", alice, "end"))); r.Data.Flags&64 != 0 {
		t.Fatalf("/ttt end refused: %s", r.Data.Content)
	}
	r := decodeReply(t, serve(h, replayed))
	if r.Type != 4 || r.Data.Flags&64 == 0 || r.Data.Content != locales.English().Say("refuse.duplicate", nil) {
		t.Fatalf("replayed /ttt new: %+v", r)
	}
	// Had the replay reopened the game, Bob could join it now.
	if r := decodeReply(t, serve(h, s.command(t, idPrefix+"03", bob, "join"))); r.Data.Flags&64 == 0 {
		t.Fatalf("the replay reopened the game: Bob joined: %s", r.Data.Content)
	}
}

func TestHTTPReplay(t *testing.T) {
	s := newSigner(t)
	newWith := func(d *fakeDeduper) http.Handler {
		b := bot.New(bot.Options{Tables: table.NewTables(table.Options{Store: d, Now: func() time.Time { return s.now }}), Records: d})
		return NewHandler(b, Options{PublicKey: s.Public, Now: func() time.Time { return s.now }, Deduper: d})
	}
	duplicate := locales.English().Say("refuse.duplicate", nil)

	// The replay of an action that saved is found where its table is
	// loaded, and answered as a duplicate.
	t.Run("ReplayedNewDoesNotReopen", func(t *testing.T) {
		s.replayEndedNew(t, newWith(newFakeDeduper()), "11800000000000001")
	})
	t.Run("SavedNotRemembered", func(t *testing.T) {
		d := newFakeDeduper()
		h := newWith(d)
		if r := decodeReply(t, serve(h, s.command(t, "1180000000000000501", alice, "new"))); r.Data.Flags&64 != 0 {
			t.Fatalf("/ttt new refused: %s", r.Data.Content)
		}
		if len(d.seen) != 0 {
			t.Fatalf("a saved action was remembered besides its save: %v", d.seen)
		}
	})
	t.Run("RefusedRemembered", func(t *testing.T) {
		d := newFakeDeduper()
		h := newWith(d)
		if r := decodeReply(t, serve(h, s.command(t, "1180000000000000601", alice, "end"))); r.Data.Flags&64 == 0 {
			t.Fatalf("/ttt end with no game: %+v", r)
		}
		if _, ok := d.seen["1180000000000000601"]; !ok {
			t.Fatalf("a refused action was not remembered: %v", d.seen)
		}
		r := decodeReply(t, serve(h, s.command(t, "1180000000000000601", alice, "end")))
		if r.Data.Content != duplicate {
			t.Fatalf("the refused action replayed: %+v", r)
		}
	})
	// With the store itself as the Deduper (as main wires it), the check
	// is made where the table is loaded, and answers the same.
	t.Run("CheckedAtLoad", func(t *testing.T) {
		st := store.NewMemory()
		b := bot.New(bot.Options{Tables: table.NewTables(table.Options{Store: st, Now: func() time.Time { return s.now }}), Records: st})
		h := NewHandler(b, Options{PublicKey: s.Public, Now: func() time.Time { return s.now }, Deduper: st})
		s.replayEndedNew(t, h, "11800000000000007")
		// A refused action is remembered, and its replay found at load.
		for n, want := range []string{"", duplicate} {
			r := decodeReply(t, serve(h, s.command(t, "1180000000000000704", bob, "end")))
			if r.Data.Flags&64 == 0 || (want != "") != (r.Data.Content == duplicate) {
				t.Fatalf("delivery %d of a refused /ttt end: %+v", n+1, r)
			}
		}
	})
	t.Run("DeduperFails", func(t *testing.T) {
		d := newFakeDeduper()
		d.err = errors.New("disk on fire")
		h := newWith(d)
		r := decodeReply(t, serve(h, s.command(t, "1180000000000000201", alice, "new")))
		if r.Data.Flags&64 == 0 || r.Data.Content != locales.English().Say("refuse.internal", nil) {
			t.Fatalf("with the dedupe store down: %+v", r)
		}
	})
	t.Run("PingNotDeduped", func(t *testing.T) {
		d := newFakeDeduper()
		h := newWith(d)
		for range 2 {
			if w := serve(h, s.request(testkit.Raw(t, "ping.json", nil), s.now)); strings.TrimSpace(w.Body.String()) != `{"type":1}` {
				t.Fatalf("PING: %d %s", w.Code, w.Body)
			}
		}
		if len(d.seen) != 0 {
			t.Fatalf("PING was recorded: %v", d.seen)
		}
	})
	t.Run("StaleRefusedBeforeDedupe", func(t *testing.T) {
		d := newFakeDeduper()
		h := newWith(d)
		fields := testkit.CommandFields(channel, alice, "new", 0, nil)
		fields["ID"] = "1180000000000000301"
		body := testkit.Raw(t, "command.json", fields)
		for _, ts := range []time.Time{s.now.Add(-MaxSkew - time.Second), s.now.Add(MaxSkew + time.Second)} {
			if w := serve(h, s.request(body, ts)); w.Code != http.StatusUnauthorized {
				t.Fatalf("timestamp %v off: %d", ts.Sub(s.now), w.Code)
			}
		}
		if len(d.seen) != 0 {
			t.Fatalf("a refused request was recorded: %v", d.seen)
		}
	})
	t.Run("FiveMinutesEitherWayAccepted", func(t *testing.T) {
		h := newWith(newFakeDeduper())
		for n, ts := range []time.Time{s.now.Add(-MaxSkew), s.now.Add(MaxSkew)} {
			fields := testkit.CommandFields(channel, alice, "help", 0, nil)
			fields["ID"] = "118000000000000040" + strconv.Itoa(n)
			if w := serve(h, s.request(testkit.Raw(t, "command.json", fields), ts)); w.Code != http.StatusOK {
				t.Fatalf("timestamp %v off: %d", ts.Sub(s.now), w.Code)
			}
		}
	})
}

// fakeDiscord records the callbacks it is sent.
type fakeDiscord struct {
	mu      sync.Mutex
	status  int
	discard bool // accept callbacks without keeping them (benchmarks)
	calls   []capturedCall
}

type capturedCall struct {
	path        string
	contentType string
	body        []byte
}

func (f *fakeDiscord) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	discard := f.discard
	f.mu.Unlock()
	if discard {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.calls = append(f.calls, capturedCall{r.URL.Path, r.Header.Get("Content-Type"), body})
	status := f.status
	f.mu.Unlock()
	w.WriteHeader(status)
}

func newFileHTTP(tb testing.TB, s *signer, status int) (http.Handler, *fakeDiscord) {
	tb.Helper()
	fake := &fakeDiscord{status: status}
	srv := httptest.NewServer(fake) // listens on 127.0.0.1
	tb.Cleanup(srv.Close)
	api, err := url.Parse(srv.URL + "/api/v10/")
	if err != nil {
		tb.Fatal(err)
	}
	st := store.NewMemory()
	b := bot.New(bot.Options{Tables: table.NewTables(table.Options{Store: st, Now: func() time.Time { return s.now }}), Records: st})
	return NewHandler(b, Options{PublicKey: s.Public, Now: func() time.Time { return s.now }, APIURL: api, Client: srv.Client()}), fake
}

// Discord's API description (discord-api-spec, openapi.json), read by hand
// for the callback with files: the path, and in payload_json the
// CreateMessageInteractionCallbackRequest with IncomingWebhookInteractionRequest
// data and MessageAttachmentRequest attachments.
var (
	callbackPath   = regexp.MustCompile(`^/api/v10/interactions/([0-9]+)/([^/]+)/callback$`)
	snowflake      = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
	filesPart      = regexp.MustCompile(`^files\[([0-9]+)\]$`)
	mentionParse   = map[string]bool{"users": true, "roles": true, "everyone": true}
	messageCbTypes = map[int]bool{4: true, 5: true, 6: true, 7: true}
)

const (
	maxContent      = 2000 // content maxLength
	maxAttachments  = 10   // attachments maxItems
	maxFilename     = 1024 // filename maxLength (minLength 1)
	maxMentionUsers = 100  // allowed_mentions.users maxItems
	maxComponents   = 40   // components maxItems
	maxTokenLength  = 152133
)

type callbackJSON struct {
	Type *int `json:"type"` // required
	Data *struct {
		Content         *string           `json:"content"` // a classic message's; a card's text is Text
		Text            string            `json:"-"`
		Flags           int               `json:"flags"`
		Components      []json.RawMessage `json:"components"`
		AllowedMentions *struct {
			Parse []string `json:"parse"`
			Users []string `json:"users"`
		} `json:"allowed_mentions"`
		Attachments []struct {
			ID       *string `json:"id"` // required
			Filename *string `json:"filename"`
		} `json:"attachments"`
	} `json:"data"`
}

// checkCallback checks one multipart callback against the API description
// and returns its payload and files by part name.
func checkCallback(tb testing.TB, c capturedCall) (callbackJSON, map[string][]byte) {
	tb.Helper()
	m := callbackPath.FindStringSubmatch(c.path)
	if m == nil || !snowflake.MatchString(m[1]) || len(m[2]) > maxTokenLength {
		tb.Fatalf("callback path %q", c.path)
	}
	mt, params, err := mime.ParseMediaType(c.contentType)
	if err != nil || mt != "multipart/form-data" {
		tb.Fatalf("Content-Type %q", c.contentType)
	}
	mr := multipart.NewReader(bytes.NewReader(c.body), params["boundary"])
	var payload callbackJSON
	var rawPayload []byte
	files := map[string][]byte{}
	filenames := map[string]string{}
	sawPayload := false
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		data, _ := io.ReadAll(part)
		switch name := part.FormName(); {
		case name == "payload_json":
			if ct := part.Header.Get("Content-Type"); ct != "application/json" {
				tb.Errorf("payload_json Content-Type %q", ct)
			}
			if err := json.Unmarshal(data, &payload); err != nil {
				tb.Fatalf("payload_json: %v\n%s", err, data)
			}
			sawPayload = true
			rawPayload = data
		case filesPart.MatchString(name):
			m := filesPart.FindStringSubmatch(name)
			files[m[1]] = data
			filenames[m[1]] = part.FileName()
		default:
			tb.Errorf("unexpected part %q", name)
		}
	}
	if !sawPayload || payload.Type == nil || !messageCbTypes[*payload.Type] || payload.Data == nil {
		tb.Fatalf("payload_json missing or without type and data: %+v", payload)
	}
	d := payload.Data
	// The message as the fake Discord checks every one: Components V2 too.
	var raw struct {
		Data json.RawMessage `json:"data"`
	}
	json.Unmarshal(rawPayload, &raw)
	if errs := fakediscord.CheckMessage(raw.Data, filenames); len(errs) > 0 {
		tb.Errorf("Discord would refuse the callback's message: %s", strings.Join(errs, "; "))
	}
	var data map[string]any
	json.Unmarshal(raw.Data, &data)
	d.Text = fakediscord.Text(data)
	if d.Content != nil && len([]rune(*d.Content)) > maxContent {
		tb.Errorf("content of %d characters", len([]rune(*d.Content)))
	}
	if len(d.Components) > maxComponents {
		tb.Errorf("%d components", len(d.Components))
	}
	if am := d.AllowedMentions; am != nil {
		if len(am.Users) > maxMentionUsers {
			tb.Errorf("%d users in allowed_mentions", len(am.Users))
		}
		for _, p := range am.Parse {
			if !mentionParse[p] {
				tb.Errorf("allowed_mentions.parse %q", p)
			}
		}
		for _, u := range am.Users {
			if !snowflake.MatchString(u) {
				tb.Errorf("allowed_mentions user %q", u)
			}
		}
	}
	if len(d.Attachments) == 0 || len(d.Attachments) > maxAttachments || len(d.Attachments) != len(files) {
		tb.Fatalf("%d attachments for %d file parts", len(d.Attachments), len(files))
	}
	for _, a := range d.Attachments {
		if a.ID == nil || !snowflake.MatchString(*a.ID) {
			tb.Fatalf("attachment without a snowflake id: %+v", a)
		}
		if _, ok := files[*a.ID]; !ok {
			tb.Errorf("attachment %s names no files[%s] part", *a.ID, *a.ID)
		}
		if a.Filename == nil || len(*a.Filename) < 1 || len(*a.Filename) > maxFilename || *a.Filename != filenames[*a.ID] {
			tb.Errorf("attachment %s filename %v, part's %q", *a.ID, a.Filename, filenames[*a.ID])
		}
	}
	return payload, files
}

func TestHTTPFiles(t *testing.T) {
	s := newSigner(t)
	t.Run("BoardImageDelivered", func(t *testing.T) {
		h, fake := newFileHTTP(t, s, http.StatusNoContent)
		decodeReply(t, serve(h, s.command(t, "1180000000000000401", alice, "new")))
		decodeReply(t, serve(h, s.command(t, "1180000000000000491", bob, "join")))
		decodeReply(t, serve(h, s.command(t, "1180000000000000402", alice, "move", testkit.Opt("position", "1,1"))))
		if len(fake.calls) != 0 {
			t.Fatalf("replies without files went through Discord's API: %d calls", len(fake.calls))
		}
		w := serve(h, s.command(t, "1180000000000000403", bob, "board", testkit.Opt("image", true)))
		if w.Code != http.StatusAccepted || w.Body.Len() != 0 {
			t.Fatalf("status %d, body %q", w.Code, w.Body)
		}
		if len(fake.calls) != 1 {
			t.Fatalf("%d callbacks", len(fake.calls))
		}
		c := fake.calls[0]
		if m := callbackPath.FindStringSubmatch(c.path); m == nil || m[1] != "1180000000000000403" {
			t.Fatalf("callback for another interaction: %q", c.path)
		}
		payload, files := checkCallback(t, c)
		if *payload.Type != 4 || payload.Data.Flags&64 != 0 || !strings.Contains(payload.Data.Text, "```") {
			t.Errorf("not the public board message: %+v", payload)
		}
		if payload.Data.Flags&(1<<15) == 0 || !strings.Contains(string(c.body), `"url":"attachment://board.png"`) {
			t.Errorf("the board is not a card showing its picture in a media gallery")
		}
		if strings.Contains(payload.Data.Text, locales.English().Say("status.no_picture", nil)) {
			t.Errorf("the picture arrived with the note that it could not")
		}
		img, err := png.Decode(bytes.NewReader(files["0"]))
		if err != nil || *payload.Data.Attachments[0].Filename != "board.png" {
			t.Fatalf("files[0] is not the board PNG: %v", err)
		}
		if b := img.Bounds(); b.Dx() < 30 || b.Dy() < 30 {
			t.Errorf("board picture is %v", b)
		}
	})
	t.Run("DiscordRefusesCallback", func(t *testing.T) {
		h, fake := newFileHTTP(t, s, http.StatusBadRequest)
		decodeReply(t, serve(h, s.command(t, "1180000000000000501", alice, "new")))
		decodeReply(t, serve(h, s.command(t, "1180000000000000591", bob, "join")))
		r := decodeReply(t, serve(h, s.command(t, "1180000000000000502", bob, "board", testkit.Opt("image", true))))
		if len(fake.calls) != 1 || !strings.Contains(r.Data.Content, locales.English().Say("status.no_picture", nil)) {
			t.Fatalf("after a failed callback: %d calls, inline %+v", len(fake.calls), r)
		}
	})
}
