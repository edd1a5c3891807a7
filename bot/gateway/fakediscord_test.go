package gateway

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// fakeDiscord is Discord's REST API and gateway on 127.0.0.1, enough for the
// real discordgo Session: GET /gateway, the command bulk overwrite, the
// interaction callback, and a websocket that does HELLO, IDENTIFY/RESUME,
// READY/RESUMED and heartbeat ACKs, and dispatches INTERACTION_CREATE.
type fakeDiscord struct {
	tb  testing.TB
	srv *httptest.Server

	mu         sync.Mutex
	conn       *websocket.Conn
	writeMu    sync.Mutex // one writer per websocket at a time
	seq        int
	identifies int
	resumes    int
	commands   []map[string]any
	ready      chan struct{} // a signal per READY or RESUMED sent

	callbacks chan callback
}

// callback is one interaction reply the bot sent.
type callback struct {
	ID    string
	Body  map[string]any
	Files map[string][]byte // name → contents, for multipart replies
}

// readCallback reads an interaction reply: JSON, or multipart/form-data with
// the JSON in payload_json and the files in the other parts.
func readCallback(r *http.Request) (callback, error) {
	cb := callback{ID: r.PathValue("id"), Files: map[string][]byte{}}
	mediaType, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(mediaType, "multipart/") {
		return cb, json.NewDecoder(r.Body).Decode(&cb.Body)
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return cb, nil
		}
		if err != nil {
			return cb, err
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return cb, err
		}
		if part.FormName() == "payload_json" {
			if err := json.Unmarshal(data, &cb.Body); err != nil {
				return cb, err
			}
			continue
		}
		cb.Files[part.FileName()] = data
	}
}

// buttons lists the reply's buttons: custom_id → label.
func (c callback) buttons() map[string]string {
	out := map[string]string{}
	data, _ := c.Body["data"].(map[string]any)
	rows, _ := data["components"].([]any)
	for _, row := range rows {
		r, _ := row.(map[string]any)
		btns, _ := r["components"].([]any)
		for _, b := range btns {
			bm, _ := b.(map[string]any)
			id, _ := bm["custom_id"].(string)
			label, _ := bm["label"].(string)
			out[id] = label
		}
	}
	return out
}

// button finds the custom_id of a button whose id ends in suffix (e.g.
// ":1:1" for the cell 1,1) or whose label is suffix.
func (c callback) button(tb testing.TB, suffix string) string {
	tb.Helper()
	for id, label := range c.buttons() {
		if strings.HasSuffix(id, suffix) || label == suffix {
			return id
		}
	}
	tb.Fatalf("no button %q in %v", suffix, c.buttons())
	return ""
}

// kind is the response type: 4 new message, 7 update, 8 autocomplete.
func (c callback) kind() int {
	t, _ := c.Body["type"].(float64)
	return int(t)
}

// content returns the reply's message content and whether it was ephemeral.
func (c callback) content() (string, bool) {
	data, _ := c.Body["data"].(map[string]any)
	text, _ := data["content"].(string)
	flags, _ := data["flags"].(float64)
	return text, int(flags)&64 != 0
}

func newFakeDiscord(tb testing.TB) *fakeDiscord {
	f := &fakeDiscord{tb: tb, ready: make(chan struct{}, 16), callbacks: make(chan callback, 64)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v9/gateway", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"url": "ws://%s"}`, r.Host)
	})
	mux.HandleFunc("PUT /api/v9/applications/{app}/guilds/{guild}/commands", f.overwrite)
	mux.HandleFunc("PUT /api/v9/applications/{app}/commands", f.overwrite)
	mux.HandleFunc("POST /api/v9/interactions/{id}/{token}/callback", func(w http.ResponseWriter, r *http.Request) {
		cb, err := readCallback(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f.callbacks <- cb
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /", f.gateway)
	f.srv = httptest.NewServer(mux)
	tb.Cleanup(f.srv.Close)
	return f
}

// apiURL is the REST base to configure the bot with.
func (f *fakeDiscord) apiURL() string { return f.srv.URL + "/api/v9" }

func (f *fakeDiscord) overwrite(w http.ResponseWriter, r *http.Request) {
	var cmds []map[string]any
	if err := json.NewDecoder(r.Body).Decode(&cmds); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for i, c := range cmds {
		c["id"] = fmt.Sprintf("12000000000000000%02d", i)
		c["application_id"] = r.PathValue("app")
	}
	f.mu.Lock()
	f.commands = cmds
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(cmds)
}

var upgrader = websocket.Upgrader{}

func (f *fakeDiscord) gateway(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	f.mu.Lock()
	f.conn = conn
	f.mu.Unlock()
	if f.send(conn, map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}}) != nil {
		return
	}
	for {
		var msg struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if err := conn.ReadJSON(&msg); err != nil {
			return
		}
		switch msg.Op {
		case 1: // heartbeat
			f.send(conn, map[string]any{"op": 11})
		case 2: // identify
			f.mu.Lock()
			f.identifies++
			f.mu.Unlock()
			f.dispatch(conn, "READY", map[string]any{
				"v": 9, "session_id": "fake-session", "resume_gateway_url": "ws://" + r.Host,
				"user":        map[string]any{"id": "1000000000000000001", "username": "tttbot", "discriminator": "0", "bot": true},
				"application": map[string]any{"id": "1000000000000000001", "flags": 0},
				"guilds":      []any{},
			})
			f.ready <- struct{}{}
		case 6: // resume
			f.mu.Lock()
			f.resumes++
			f.mu.Unlock()
			f.dispatch(conn, "RESUMED", map[string]any{})
			f.ready <- struct{}{}
		}
	}
}

func (f *fakeDiscord) send(conn *websocket.Conn, v any) error {
	f.writeMu.Lock()
	defer f.writeMu.Unlock()
	return conn.WriteJSON(v)
}

func (f *fakeDiscord) dispatch(conn *websocket.Conn, event string, d any) error {
	f.mu.Lock()
	f.seq++
	seq := f.seq
	f.mu.Unlock()
	return f.send(conn, map[string]any{"op": 0, "s": seq, "t": event, "d": d})
}

// waitReady waits for the next READY or RESUMED.
func (f *fakeDiscord) waitReady() {
	f.tb.Helper()
	select {
	case <-f.ready:
	case <-time.After(10 * time.Second):
		f.tb.Fatal("the bot never completed the gateway handshake")
	}
}

// interact dispatches an interaction over the gateway and returns the reply
// the bot posted to the callback endpoint.
func (f *fakeDiscord) interact(raw []byte) callback {
	f.tb.Helper()
	f.mu.Lock()
	conn := f.conn
	f.mu.Unlock()
	if err := f.dispatch(conn, "INTERACTION_CREATE", json.RawMessage(raw)); err != nil {
		f.tb.Fatalf("dispatch: %v", err)
	}
	// No deadline here: tests never assert on time. A reply that never
	// comes hangs the test until go test's -timeout names where it waits.
	return <-f.callbacks
}

// drop cuts the gateway connection without a close frame, as a network
// failure would.
func (f *fakeDiscord) drop() {
	f.mu.Lock()
	conn := f.conn
	f.mu.Unlock()
	conn.UnderlyingConn().Close()
}

func (f *fakeDiscord) registered() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var names []string
	for _, c := range f.commands {
		names = append(names, fmt.Sprint(c["name"]))
	}
	return names
}
