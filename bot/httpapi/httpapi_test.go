package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/testkit"
)

// signer signs requests as Discord does, all at one moment, now.
type signer struct {
	*testkit.Signer
	now time.Time
}

func newSigner(testing.TB) *signer {
	return &signer{Signer: testkit.NewSigner("tttbot http transport test seed!"), now: time.Unix(1_800_000_000, 0)}
}

// request is body posted to /interactions, signed at ts.
func (s *signer) request(body []byte, ts time.Time) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(body))
	s.Sign(r.Header, body, ts)
	r.Header.Set("Content-Type", "application/json")
	return r
}

// newHTTP is the transport on a memory store, its callbacks (replies with
// files) going to a fake Discord on 127.0.0.1 that accepts them: no test
// reaches the real API.
func newHTTP(tb testing.TB, s *signer) http.Handler {
	h, fake := newFileHTTP(tb, s, http.StatusNoContent)
	fake.discard = true
	return h
}

func serve(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestHTTPSignatures(t *testing.T) {
	s := newSigner(t)
	h := newHTTP(t, s)
	body := testkit.Raw(t, "command.json", testkit.CommandFields(channel, alice, "new", 0, nil))

	t.Run("Good", func(t *testing.T) {
		w := serve(h, s.request(body, s.now))
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/json" {
			t.Fatalf("status %d, type %q: %s", w.Code, w.Header().Get("Content-Type"), w.Body)
		}
		// A public message with the lobby's button: components do not
		// decode into discordgo's types, so they are read raw.
		var resp struct {
			Type int `json:"type"`
			Data struct {
				Flags      int               `json:"flags"`
				Components []json.RawMessage `json:"components"`
			} `json:"data"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || resp.Type != 4 || resp.Data.Flags&64 != 0 || len(resp.Data.Components) == 0 {
			t.Fatalf("reply %s (%v)", w.Body, err)
		}
	})
	t.Run("Ping", func(t *testing.T) {
		w := serve(h, s.request(testkit.Raw(t, "ping.json", nil), s.now))
		if w.Code != http.StatusOK || strings.TrimSpace(w.Body.String()) != `{"type":1}` {
			t.Fatalf("PING: %d %s", w.Code, w.Body)
		}
	})
	t.Run("Tampered", func(t *testing.T) {
		r := s.request(body, s.now)
		tampered := strings.Replace(string(body), alice, bob, 1)
		r.Body = http.NoBody
		r = httptest.NewRequest(http.MethodPost, "/interactions", strings.NewReader(tampered))
		r.Header = s.request(body, s.now).Header
		if w := serve(h, r); w.Code != http.StatusUnauthorized {
			t.Fatalf("tampered body: %d", w.Code)
		}
	})
	t.Run("Missing", func(t *testing.T) {
		r := httptest.NewRequest(http.MethodPost, "/interactions", strings.NewReader(string(body)))
		if w := serve(h, r); w.Code != http.StatusUnauthorized {
			t.Fatalf("unsigned: %d", w.Code)
		}
	})
	t.Run("WrongKey", func(t *testing.T) {
		other := &signer{Signer: testkit.NewSigner("someone else"), now: s.now}
		if w := serve(h, other.request(body, s.now)); w.Code != http.StatusUnauthorized {
			t.Fatalf("signed by someone else: %d", w.Code)
		}
	})
	t.Run("Stale", func(t *testing.T) {
		for _, ts := range []time.Time{s.now.Add(-6 * time.Minute), s.now.Add(6 * time.Minute)} {
			if w := serve(h, s.request(body, ts)); w.Code != http.StatusUnauthorized {
				t.Fatalf("timestamp %v off: %d", ts.Sub(s.now), w.Code)
			}
		}
	})
	t.Run("Garbage", func(t *testing.T) {
		if w := serve(h, s.request([]byte("{not json"), s.now)); w.Code != http.StatusBadRequest {
			t.Fatalf("unreadable body: %d", w.Code)
		}
	})
	t.Run("HealthAndMetrics", func(t *testing.T) {
		if w := serve(h, httptest.NewRequest(http.MethodGet, "/healthz", nil)); w.Code != http.StatusOK {
			t.Fatalf("healthz %d", w.Code)
		}
		w := serve(h, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		if !strings.Contains(w.Body.String(), `tttbot_interactions_total{outcome="accepted",route="/ttt new",type="command"} 1`+"\n") ||
			!strings.Contains(w.Body.String(), `tttbot_interaction_duration_seconds_count{outcome="accepted",route="/ttt new"} 1`+"\n") {
			t.Fatalf("metrics:\n%s", w.Body)
		}
	})
}

// BenchmarkHTTPMove measures one signed /ttt move through the HTTP handler
// (verify → decode → load → move → render → save → encode) against the bare
// bound of the same request: verify, decode and encode only. Requests are
// signed before the timer starts, as Discord signs them, not us. Moves go
// row by row on a 100×100 board with k=25, alternating players so nobody
// wins; every 1,000 moves the game is replaced outside the timer.
func BenchmarkHTTPMove(b *testing.B) {
	s := newSigner(b)
	const perGame = 1000
	signed := make([]*http.Request, perGame)
	bodies := make([][]byte, perGame)
	for n := range perGame {
		user := []string{alice, bob}[n%2]
		pos := strconv.Itoa(n/100) + "," + strconv.Itoa(n%100)
		bodies[n] = testkit.Raw(b, "command.json", testkit.CommandFields(channel, user, "move", 0, []testkit.Option{testkit.Opt("position", pos)}))
		signed[n] = s.request(bodies[n], s.now)
	}
	fresh := func(n int) *http.Request { // a pre-signed request, ready to read again
		r := signed[n].Clone(signed[n].Context())
		r.Body = io.NopCloser(bytes.NewReader(bodies[n]))
		return r
	}
	reply := []byte(`{"type":4,"data":{"content":"a board","allowed_mentions":{"parse":[]}}}`)
	b.Run("whole", func(b *testing.B) {
		h := newHTTP(b, s)
		n := 0
		b.ReportAllocs()
		for b.Loop() {
			if n%perGame == 0 {
				b.StopTimer()
				h = newHTTP(b, s)
				serve(h, s.request(testkit.Raw(b, "command.json", testkit.CommandFields(channel, alice, "new", 0,
					[]testkit.Option{testkit.Opt("rows", 100), testkit.Opt("columns", 100), testkit.Opt("win", 25)})), s.now))
				join := testkit.CommandFields(channel, bob, "join", 0, nil)
				join["ID"] = "1180000000000000999"
				serve(h, s.request(testkit.Raw(b, "command.json", join), s.now))
				b.StartTimer()
			}
			w := serve(h, fresh(n%perGame))
			// A board too big for text comes with its picture: 202, the
			// reply having gone to (fake) Discord's callback endpoint.
			if w.Code != http.StatusOK && w.Code != http.StatusAccepted || strings.Contains(w.Body.String(), `"flags":64`) {
				b.Fatalf("move %d refused: %d %s", n, w.Code, w.Body)
			}
			if w.Code == http.StatusOK {
				reply = w.Body.Bytes()
			}
			n++
		}
	})
	b.Run("bound", func(b *testing.B) {
		var resp map[string]any
		if err := json.Unmarshal(reply, &resp); err != nil {
			b.Fatal(err)
		}
		n := 0
		b.ReportAllocs()
		for b.Loop() {
			r := fresh(n % perGame)
			n++
			if !discordgo.VerifyInteraction(r, s.Public) {
				b.Fatal("bad signature")
			}
			var i discordgo.Interaction
			if err := json.NewDecoder(r.Body).Decode(&i); err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(&resp); err != nil {
				b.Fatal(err)
			}
		}
	})
}

const (
	channel = testkit.Channel
	alice   = testkit.Alice
	bob     = testkit.Bob
)
