// Package fakediscord is Discord on 127.0.0.1 for tests: the gateway
// websocket the real discordgo Session connects to (HELLO, IDENTIFY or
// RESUME, READY or RESUMED, heartbeat ACKs, INTERACTION_CREATE dispatches),
// and the REST calls the bot makes: registering commands, interaction
// callbacks, edits of board messages, and threads (start, post a message
// in, archive, delete). Every body the bot sends is checked against
// Discord's API description as it arrives (validate.go): a body that breaks
// it fails the test. Switches make a call answer 403 Missing Permissions or
// 429 with a retry_after, as Discord does.
package fakediscord

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

// IDs the fake uses: the application (also the bot's user), and the guild
// its threads belong to.
const (
	AppID = "1000000000000000001"
	Guild = "900000000000000001"
)

// Op is a REST call a switch applies to.
type Op string

// The calls switches apply to.
const (
	StartThread   Op = "start thread"   // POST /channels/{id}/threads
	PostMessage   Op = "post message"   // POST /channels/{id}/messages
	ArchiveThread Op = "archive thread" // PATCH /channels/{id}
	DeleteThread  Op = "delete thread"  // DELETE /channels/{id}
)

// Request is one REST call the fake received, as a reviewer reads it.
type Request struct {
	Method, Path string
	Auth         string            // the Authorization header
	Body         []byte            // the JSON body (a multipart body's payload_json)
	Files        map[string][]byte // a multipart body's files, by file name
	Status       int               // what the fake answered
}

// Thread is a thread the fake started.
type Thread struct {
	ID, Parent, Name string
	Type             int // 11 public, 10 in an announcement channel
	AutoArchive      int // minutes
	Archived         bool
	Deleted          bool
}

// Message is a message posted in a channel through REST.
type Message struct {
	ID, Channel string
	Body        []byte
	Files       map[string][]byte
}

// refusal is how a switched call answers: count times (-1 always).
type refusal struct {
	status int
	body   string
	count  int
}

// Server is the fake Discord. Its methods are safe for concurrent use.
type Server struct {
	tb  testing.TB
	srv *httptest.Server

	mu       sync.Mutex
	requests []Request
	threads  []*Thread
	messages []Message
	refuse   map[Op]*refusal
	news     map[string]bool // announcement channels: their threads are of type 10
	posted   bool            // GET @original finds the reply
	nextID   int

	// The gateway's side.
	conn       *websocket.Conn
	writeMu    sync.Mutex // one writer per websocket at a time
	seq        int
	identifies int
	resumes    int
	commands   []map[string]any
	ready      chan struct{} // a signal per READY or RESUMED sent
	callbacks  chan Callback
}

// New starts a fake Discord, closed when the test ends.
func New(tb testing.TB) *Server {
	s := &Server{tb: tb, refuse: map[Op]*refusal{}, news: map[string]bool{}, posted: true, ready: make(chan struct{}, 16), callbacks: make(chan Callback, 64)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v9/gateway", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"url": "ws://%s"}`, r.Host)
	})
	mux.HandleFunc("PUT /api/v9/applications/{app}/guilds/{guild}/commands", s.overwrite)
	mux.HandleFunc("PUT /api/v9/applications/{app}/commands", s.overwrite)
	mux.HandleFunc("POST /api/v9/interactions/{id}/{token}/callback", s.callback)
	mux.HandleFunc("GET /api/v9/webhooks/{app}/{token}/messages/@original", s.getOriginal)
	mux.HandleFunc("PATCH /api/v9/webhooks/{app}/{token}/messages/@original", s.editMessage)
	mux.HandleFunc("PATCH /api/v9/channels/{channel}/messages/{message}", s.editMessage)
	mux.HandleFunc("POST /api/v9/channels/{channel}/threads", s.startThread)
	mux.HandleFunc("POST /api/v9/channels/{channel}/messages", s.postMessage)
	mux.HandleFunc("PATCH /api/v9/channels/{channel}", s.updateThread)
	mux.HandleFunc("DELETE /api/v9/channels/{channel}", s.deleteThread)
	mux.HandleFunc("GET /", s.gateway)
	s.srv = httptest.NewServer(mux)
	tb.Cleanup(s.srv.Close)
	return s
}

// URL is the fake's base URL (http://127.0.0.1:port).
func (s *Server) URL() string { return s.srv.URL }

// APIURL is the REST base to configure the bot with.
func (s *Server) APIURL() string { return s.srv.URL + "/api/v9" }

// Client is an HTTP client for the fake.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// MissingPermissions makes op answer 403 {"code":50013,"message":"Missing
// Permissions"} from now on.
func (s *Server) MissingPermissions(op Op) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse[op] = &refusal{status: http.StatusForbidden, body: `{"code":50013,"message":"Missing Permissions"}`, count: -1}
}

// RateLimited makes op's next times calls answer 429 with retryAfter.
func (s *Server) RateLimited(op Op, times int, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	body := fmt.Sprintf(`{"message":"You are being rate limited.","retry_after":%g,"global":false,"code":0}`, retryAfter.Seconds())
	s.refuse[op] = &refusal{status: http.StatusTooManyRequests, body: body, count: times}
}

// Allow undoes MissingPermissions and RateLimited for op.
func (s *Server) Allow(op Op) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.refuse, op)
}

// Announcement makes channel an announcement channel: a thread started
// from it must be of type 10 (a public thread's 11 is refused with 400).
func (s *Server) Announcement(channel string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.news[channel] = true
}

// SetOriginalPosted says whether GET @original finds the interaction's
// reply (true at first); false answers 404 Unknown Message.
func (s *Server) SetOriginalPosted(posted bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.posted = posted
}

// Requests returns the REST calls received so far, but the gateway's own
// (GET /gateway, command registration, interaction callbacks).
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// TakeRequests returns the REST calls received since the last call, and
// forgets them.
func (s *Server) TakeRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.requests
	s.requests = nil
	return out
}

// Threads returns the threads started so far, in order.
func (s *Server) Threads() []Thread {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Thread, len(s.threads))
	for i, t := range s.threads {
		out[i] = *t
	}
	return out
}

// Messages returns the messages posted in channel.
func (s *Server) Messages(channel string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.messages {
		if m.Channel == channel {
			out = append(out, m)
		}
	}
	return out
}

// id returns the next ID of a kind (the first digits): threads 16…,
// messages 17….
func (s *Server) id(prefix string) string {
	s.nextID++
	return fmt.Sprintf("%s%017d", prefix, s.nextID)
}

// record keeps r and, when op is switched, answers as switched and
// reports true.
func (s *Server) record(w http.ResponseWriter, r Request, op Op) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rf := s.refuse[op]; op != "" && rf != nil && rf.count != 0 {
		if rf.count > 0 {
			rf.count--
		}
		r.Status = rf.status
		s.requests = append(s.requests, r)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rf.status)
		io.WriteString(w, rf.body)
		return true
	}
	r.Status = http.StatusOK
	if op == StartThread {
		r.Status = http.StatusCreated
	}
	s.requests = append(s.requests, r)
	return false
}

// fail answers status with Discord's error object.
func fail(w http.ResponseWriter, status, code int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"code": code, "message": message})
}

// answer writes v as JSON with status.
func answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// read reads a request's body: JSON, or multipart/form-data with the JSON
// in payload_json and files[n] parts (files by n, names by n).
func (s *Server) read(r *http.Request) (body []byte, files map[string][]byte, names map[string]string) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		body, _ = io.ReadAll(r.Body)
		return body, nil, nil
	}
	files, names = map[string][]byte{}, map[string]string{}
	mr := multipart.NewReader(r.Body, params["boundary"])
	for part, err := mr.NextPart(); err == nil; part, err = mr.NextPart() {
		data, _ := io.ReadAll(part)
		name := part.FormName()
		switch n, ok := strings.CutPrefix(name, "files["); {
		case name == "payload_json":
			body = data
		case ok && strings.HasSuffix(n, "]"):
			n = strings.TrimSuffix(n, "]")
			files[part.FileName()] = data
			names[n] = part.FileName()
		default:
			s.tb.Errorf("fake Discord: unexpected multipart part %q", name)
		}
	}
	return body, files, names
}

// check fails the test with what breaks Discord's description in a body.
func (s *Server) check(r *http.Request, errs []string) {
	for _, e := range errs {
		s.tb.Errorf("fake Discord: %s %s: %s", r.Method, r.URL.Path, e)
	}
}

// botAuth checks a call that needs the bot token has one.
func (s *Server) botAuth(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasPrefix(r.Header.Get("Authorization"), "Bot ") {
		fail(w, http.StatusUnauthorized, 0, "401: Unauthorized")
		return false
	}
	return true
}

// receive is the start of a call made with the bot token: it checks the
// token, reads the body, holds it to check (Discord's description of the
// call; nil: no body), and records it. ok is false when the call has been
// answered already: no token, or op switched to refuse it.
func (s *Server) receive(w http.ResponseWriter, r *http.Request, op Op, check func(body []byte, names map[string]string) []string) (body []byte, files map[string][]byte, ok bool) {
	if !s.botAuth(w, r) {
		return nil, nil, false
	}
	var names map[string]string
	if check != nil {
		body, files, names = s.read(r)
		s.check(r, check(body, names))
	}
	if s.record(w, Request{Method: r.Method, Path: r.URL.EscapedPath(), Auth: r.Header.Get("Authorization"), Body: body, Files: files}, op) {
		return nil, nil, false
	}
	return body, files, true
}

// liveThread returns the thread the call's path names, or answers 404 (as
// Discord does for a deleted or unknown channel) and returns nil, unlocking
// s.mu; s.mu is held.
func (s *Server) liveThread(w http.ResponseWriter, r *http.Request) *Thread {
	t := s.threadLocked(r.PathValue("channel"))
	if t == nil || t.Deleted {
		s.mu.Unlock()
		fail(w, http.StatusNotFound, 10003, "Unknown Channel")
		return nil
	}
	return t
}

func (s *Server) getOriginal(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	posted := s.posted
	s.mu.Unlock()
	if !posted {
		fail(w, http.StatusNotFound, 10008, "Unknown Message")
		return
	}
	answer(w, http.StatusOK, map[string]any{"id": "1500000000000000001", "channel_id": "0"})
}

func (s *Server) editMessage(w http.ResponseWriter, r *http.Request) {
	body, files, names := s.read(r)
	s.check(r, checkMessage(body, names))
	s.record(w, Request{Method: r.Method, Path: r.URL.EscapedPath(), Auth: r.Header.Get("Authorization"), Body: body, Files: files}, "")
	answer(w, http.StatusOK, map[string]any{"id": "1400000000000000001"})
}

func (s *Server) startThread(w http.ResponseWriter, r *http.Request) {
	body, _, ok := s.receive(w, r, StartThread, func(body []byte, _ map[string]string) []string { return checkStartThread(body) })
	if !ok {
		return
	}
	var b struct {
		Name        string `json:"name"`
		Type        int    `json:"type"`
		AutoArchive int    `json:"auto_archive_duration"`
	}
	json.Unmarshal(body, &b)
	parent := r.PathValue("channel")
	s.mu.Lock()
	if s.threadLocked(parent) != nil || s.news[parent] != (b.Type == 10) { // a thread holds no threads; each channel its own type
		s.mu.Unlock()
		fail(w, http.StatusBadRequest, 50024, "Cannot execute action on this channel type")
		return
	}
	if b.AutoArchive == 0 {
		b.AutoArchive = 4320 // the channel's default, as Discord applies it
	}
	t := &Thread{ID: s.id("16"), Parent: parent, Name: b.Name, Type: b.Type, AutoArchive: b.AutoArchive}
	s.threads = append(s.threads, t)
	s.mu.Unlock()
	answer(w, http.StatusCreated, threadObject(t))
}

// threadObject is a thread as Discord returns it (ThreadResponse).
func threadObject(t *Thread) map[string]any {
	return map[string]any{
		"id": t.ID, "type": t.Type, "guild_id": Guild, "parent_id": t.Parent, "name": t.Name, "owner_id": AppID,
		"flags": 0, "last_message_id": nil, "rate_limit_per_user": 0,
		"message_count": 0, "member_count": 1, "total_message_sent": 0,
		"thread_metadata": map[string]any{
			"archived": t.Archived, "archive_timestamp": "2026-11-22T12:00:00.000000+00:00",
			"auto_archive_duration": t.AutoArchive, "locked": false, "create_timestamp": "2026-11-22T12:00:00.000000+00:00",
		},
		"member": map[string]any{"id": t.ID, "user_id": AppID, "join_timestamp": "2026-11-22T12:00:00.000000+00:00", "flags": 1},
	}
}

// threadLocked returns the thread with id (deleted ones too), or nil; s.mu
// is held.
func (s *Server) threadLocked(id string) *Thread {
	for _, t := range s.threads {
		if t.ID == id {
			return t
		}
	}
	return nil
}

func (s *Server) postMessage(w http.ResponseWriter, r *http.Request) {
	body, files, ok := s.receive(w, r, PostMessage, checkMessage)
	if !ok {
		return
	}
	ch := r.PathValue("channel")
	s.mu.Lock()
	if t := s.threadLocked(ch); t != nil && t.Deleted {
		s.mu.Unlock()
		fail(w, http.StatusNotFound, 10003, "Unknown Channel")
		return
	}
	m := Message{ID: s.id("17"), Channel: ch, Body: body, Files: files}
	s.messages = append(s.messages, m)
	s.mu.Unlock()
	var content struct {
		Content string `json:"content"`
	}
	json.Unmarshal(body, &content)
	answer(w, http.StatusOK, map[string]any{
		"id": m.ID, "channel_id": ch, "type": 0, "content": content.Content, "tts": false, "pinned": false,
		"author":    map[string]any{"id": AppID, "username": "tttbot", "discriminator": "0", "bot": true},
		"timestamp": "2026-11-22T12:00:00.000000+00:00", "edited_timestamp": nil, "flags": 0,
		"mentions": []any{}, "mention_roles": []any{}, "mention_everyone": false, "attachments": []any{}, "embeds": []any{},
	})
}

func (s *Server) updateThread(w http.ResponseWriter, r *http.Request) {
	body, _, ok := s.receive(w, r, ArchiveThread, func(body []byte, _ map[string]string) []string { return checkThreadUpdate(body) })
	if !ok {
		return
	}
	var b struct {
		Archived *bool `json:"archived"`
	}
	json.Unmarshal(body, &b)
	s.mu.Lock()
	t := s.liveThread(w, r)
	if t == nil {
		return
	}
	if b.Archived != nil {
		t.Archived = *b.Archived
	}
	obj := threadObject(t)
	s.mu.Unlock()
	answer(w, http.StatusOK, obj)
}

func (s *Server) deleteThread(w http.ResponseWriter, r *http.Request) {
	if _, _, ok := s.receive(w, r, DeleteThread, nil); !ok {
		return
	}
	s.mu.Lock()
	t := s.liveThread(w, r)
	if t == nil {
		return
	}
	t.Deleted = true
	obj := threadObject(t)
	s.mu.Unlock()
	answer(w, http.StatusOK, obj)
}
