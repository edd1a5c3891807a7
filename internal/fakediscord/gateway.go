package fakediscord

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Callback is one interaction reply the bot sent.
type Callback struct {
	ID    string
	Body  map[string]any
	Files map[string][]byte // name → contents, for multipart replies
	names map[string]string // n of the part files[n] → its file name
}

// readCallback reads an interaction reply: JSON, or multipart/form-data with
// the JSON in payload_json and the files in the other parts.
func readCallback(r *http.Request) (Callback, error) {
	cb := Callback{ID: r.PathValue("id"), Files: map[string][]byte{}}
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
		if n, ok := strings.CutPrefix(part.FormName(), "files["); ok {
			if cb.names == nil {
				cb.names = map[string]string{}
			}
			cb.names[strings.TrimSuffix(n, "]")] = part.FileName()
		}
	}
}

// Buttons lists the reply's buttons, wherever they are nested (in action
// rows, in a Components V2 container): custom_id → label.
func (c Callback) Buttons() map[string]string {
	out := map[string]string{}
	data, _ := c.Body["data"].(map[string]any)
	walkComponents(data["components"], func(m map[string]any) {
		if t, _ := m["type"].(float64); t == typeButton {
			id, _ := m["custom_id"].(string)
			label, _ := m["label"].(string)
			out[id] = label
		}
	})
	return out
}

// walkComponents calls visit for every component in list (decoded JSON),
// nested ones after the component that holds them.
func walkComponents(list any, visit func(map[string]any)) {
	cs, _ := list.([]any)
	for _, c := range cs {
		m, _ := c.(map[string]any)
		if m == nil {
			continue
		}
		visit(m)
		walkComponents(m["components"], visit)
	}
}

// Text is a message's text as a reader sees it: its content, or a
// Components V2 message's text displays, one after another on lines of
// their own.
func Text(data map[string]any) string {
	var parts []string
	if text, _ := data["content"].(string); text != "" {
		parts = append(parts, text)
	}
	walkComponents(data["components"], func(m map[string]any) {
		if t, _ := m["type"].(float64); t == typeTextDisplay {
			text, _ := m["content"].(string)
			parts = append(parts, text)
		}
	})
	return strings.Join(parts, "\n")
}

// Button finds the custom_id of a button whose id ends in suffix (e.g.
// ":1:1" for the cell 1,1) or whose label is suffix.
func (c Callback) Button(tb testing.TB, suffix string) string {
	tb.Helper()
	for id, label := range c.Buttons() {
		if strings.HasSuffix(id, suffix) || label == suffix {
			return id
		}
	}
	tb.Fatalf("no button %q in %v", suffix, c.Buttons())
	return ""
}

// Kind is the response type: 4 new message, 7 update, 8 autocomplete.
func (c Callback) Kind() int {
	t, _ := c.Body["type"].(float64)
	return int(t)
}

// Content returns the reply's text (Text: content, or a Components V2
// card's text displays) and whether it was ephemeral.
func (c Callback) Content() (string, bool) {
	data, _ := c.Body["data"].(map[string]any)
	flags, _ := data["flags"].(float64)
	return Text(data), int(flags)&64 != 0
}

func (s *Server) callback(w http.ResponseWriter, r *http.Request) {
	cb, err := readCallback(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if data, ok := cb.Body["data"]; ok { // a message reply: checked as a message is
		raw, _ := json.Marshal(data)
		s.check(r, checkMessage(raw, cb.names))
	}
	s.callbacks <- cb
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) overwrite(w http.ResponseWriter, r *http.Request) {
	var cmds []map[string]any
	if err := json.NewDecoder(r.Body).Decode(&cmds); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for i, c := range cmds {
		c["id"] = fmt.Sprintf("12000000000000000%02d", i)
		c["application_id"] = r.PathValue("app")
	}
	s.mu.Lock()
	s.commands = cmds
	s.mu.Unlock()
	answer(w, http.StatusOK, cmds)
}

var upgrader = websocket.Upgrader{}

func (s *Server) gateway(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	s.mu.Lock()
	s.conn = conn
	s.mu.Unlock()
	if s.send(conn, map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}}) != nil {
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
			s.send(conn, map[string]any{"op": 11})
		case 2: // identify
			s.mu.Lock()
			s.identifies++
			s.mu.Unlock()
			s.dispatch(conn, "READY", map[string]any{
				"v": 9, "session_id": "fake-session", "resume_gateway_url": "ws://" + r.Host,
				"user":        map[string]any{"id": AppID, "username": "tttbot", "discriminator": "0", "bot": true},
				"application": map[string]any{"id": AppID, "flags": 0},
				"guilds":      []any{},
			})
			s.ready <- struct{}{}
		case 6: // resume
			s.mu.Lock()
			s.resumes++
			s.mu.Unlock()
			s.dispatch(conn, "RESUMED", map[string]any{})
			s.ready <- struct{}{}
		}
	}
}

func (s *Server) send(conn *websocket.Conn, v any) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return conn.WriteJSON(v)
}

func (s *Server) dispatch(conn *websocket.Conn, event string, d any) error {
	s.mu.Lock()
	s.seq++
	seq := s.seq
	s.mu.Unlock()
	return s.send(conn, map[string]any{"op": 0, "s": seq, "t": event, "d": d})
}

// WaitReady waits for the next READY or RESUMED.
func (s *Server) WaitReady() {
	s.tb.Helper()
	select {
	case <-s.ready:
	case <-time.After(10 * time.Second):
		s.tb.Fatal("the bot never completed the gateway handshake")
	}
}

// Interact dispatches an interaction over the gateway and returns the reply
// the bot posted to the callback endpoint.
func (s *Server) Interact(raw []byte) Callback {
	s.tb.Helper()
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if err := s.dispatch(conn, "INTERACTION_CREATE", json.RawMessage(raw)); err != nil {
		s.tb.Fatalf("dispatch: %v", err)
	}
	// No deadline here: tests never assert on time. A reply that never
	// comes hangs the test until go test's -timeout names where it waits.
	return <-s.callbacks
}

// Drop cuts the gateway connection without a close frame, as a network
// failure would.
func (s *Server) Drop() {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	conn.UnderlyingConn().Close()
}

// Handshakes returns how many IDENTIFYs and RESUMEs the gateway received.
func (s *Server) Handshakes() (identifies, resumes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.identifies, s.resumes
}

// Registered returns the names of the commands registered last.
func (s *Server) Registered() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for _, c := range s.commands {
		names = append(names, fmt.Sprint(c["name"]))
	}
	return names
}
