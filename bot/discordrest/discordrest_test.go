package discordrest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// call is one request the fake Discord received.
type call struct {
	Method, Path, Auth string
	Body               map[string]any
}

// fakeDiscord answers PATCHes on 127.0.0.1 and records them; status is what
// it answers.
func fakeDiscord(tb testing.TB, status int, answer string) (*httptest.Server, func() []call) {
	var mu sync.Mutex
	var calls []call
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		c := call{Method: r.Method, Path: r.URL.EscapedPath(), Auth: r.Header.Get("Authorization")}
		json.Unmarshal(raw, &c.Body)
		mu.Lock()
		calls = append(calls, c)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, answer)
	}))
	tb.Cleanup(srv.Close)
	return srv, func() []call { mu.Lock(); defer mu.Unlock(); return append([]call(nil), calls...) }
}

// edit is an edit's body as the bot writes it: the client carries it as it
// is.
func edit(content string) []byte {
	body, _ := json.Marshal(map[string]any{"content": content, "allowed_mentions": map[string]any{"parse": []any{}, "replied_user": false}})
	return body
}

func TestEdits(t *testing.T) {
	ctx := context.Background()
	srv, calls := fakeDiscord(t, http.StatusOK, `{"id":"m1"}`)
	c := New(Options{BaseURL: srv.URL + "/api/v9/", BotToken: "bot-secret"})
	if err := c.EditOriginal(ctx, "app1", "tok/en", edit("over"), nil); err != nil {
		t.Fatal(err)
	}
	if err := c.EditMessage(ctx, "ch1", "m1", edit("over too"), nil); err != nil {
		t.Fatal(err)
	}
	if id, err := c.OriginalMessageID(ctx, "app1", "tok"); err != nil || id != "m1" {
		t.Fatalf("original message id %q, %v", id, err)
	}
	got := calls()
	want := []call{
		{Method: "PATCH", Path: "/api/v9/webhooks/app1/tok%2Fen/messages/@original", Body: map[string]any{"content": "over", "allowed_mentions": map[string]any{"parse": []any{}, "replied_user": false}}},
		{Method: "PATCH", Path: "/api/v9/channels/ch1/messages/m1", Auth: "Bot bot-secret", Body: map[string]any{"content": "over too", "allowed_mentions": map[string]any{"parse": []any{}, "replied_user": false}}},
		{Method: "GET", Path: "/api/v9/webhooks/app1/tok/messages/@original"},
	}
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Fatalf("calls\n%s\nwant\n%s", gotJSON, wantJSON)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	t.Run("DiscordError", func(t *testing.T) {
		srv, _ := fakeDiscord(t, http.StatusNotFound, `{"code":10062,"message":"Unknown interaction"}`)
		err := New(Options{BaseURL: srv.URL}).EditOriginal(ctx, "app", "secret-token", edit("x"), nil)
		var de *Error
		if !errors.As(err, &de) || de.Status != 404 || de.Code != 10062 {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrNoBotToken", func(t *testing.T) {
		if err := New(Options{BaseURL: "http://127.0.0.1:1"}).EditMessage(ctx, "c", "m", edit("x"), nil); !errors.Is(err, ErrNoBotToken) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("NoTokenInErrors", func(t *testing.T) {
		err := New(Options{BaseURL: "http://127.0.0.1:1"}).EditOriginal(ctx, "app", "secret-token", edit("x"), nil)
		if err == nil || strings.Contains(err.Error(), "secret-token") {
			t.Fatalf("got %v", err)
		}
	})
}
