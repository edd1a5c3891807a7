package discordrest

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/fakediscord"
)

func threadClient(f *fakediscord.Server) *Client {
	return New(Options{BaseURL: f.APIURL(), BotToken: "bot-secret", HTTP: f.Client()})
}

// message is a classic message's body as the bot writes it.
func message(content string) []byte {
	return []byte(`{"content":"` + content + `","components":null,"allowed_mentions":{"parse":[],"replied_user":false}}`)
}

// card is a Components V2 message's body whose media gallery shows the
// attached board.png (files[0]), as the bot writes a board too big for
// text.
const card = `{"components":[{"accent_color":2062260,"spoiler":false,"components":[{"content":"**X** to move","type":10},` +
	`{"items":[{"media":{"url":"attachment://board.png"},"spoiler":false}],"type":12}],"type":17}],` +
	`"allowed_mentions":{"parse":[],"replied_user":false},"flags":32768,"attachments":[{"id":"0","filename":"board.png"}]}`

// TestThreadLifecycle: a thread is started, a message posted in it, then
// it is archived and deleted, each call as Discord documents it (the fake
// checks the bodies against the API description).
func TestThreadLifecycle(t *testing.T) {
	ctx := context.Background()
	f := fakediscord.New(t)
	c := threadClient(f)
	id, err := c.StartThread(ctx, "910000000000000001", "Tic-tac-toe · alice", 11, 1440)
	if err != nil || id == "" {
		t.Fatalf("start: %q, %v", id, err)
	}
	msg, err := c.PostMessage(ctx, id, message("board"), nil)
	if err != nil || msg == "" {
		t.Fatalf("post: %q, %v", msg, err)
	}
	files := []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: strings.NewReader("\x89PNG")}}
	if _, err := c.PostMessage(ctx, id, []byte(card), files); err != nil {
		t.Fatalf("post with a file: %v", err)
	}
	if err := c.ArchiveThread(ctx, id); err != nil {
		t.Fatal(err)
	}
	threads := f.Threads()
	if len(threads) != 1 || threads[0].Parent != "910000000000000001" || threads[0].AutoArchive != 1440 || !threads[0].Archived {
		t.Fatalf("threads %+v", threads)
	}
	if got := f.Messages(id); len(got) != 2 || len(got[1].Files["board.png"]) == 0 {
		t.Fatalf("messages %+v", got)
	}
	if err := c.DeleteThread(ctx, id); err != nil || !f.Threads()[0].Deleted {
		t.Fatalf("delete: %v, %+v", err, f.Threads())
	}
	for _, r := range f.Requests() {
		if r.Auth != "Bot bot-secret" {
			t.Errorf("%s %s without the bot token", r.Method, r.Path)
		}
	}
}

func TestThreadErrors(t *testing.T) {
	ctx := context.Background()
	t.Run("MissingPermissions", func(t *testing.T) {
		f := fakediscord.New(t)
		f.MissingPermissions(fakediscord.StartThread)
		_, err := threadClient(f).StartThread(ctx, "910000000000000001", "x", 11, 60)
		var de *Error
		if !errors.As(err, &de) || de.Status != http.StatusForbidden || de.Code != 50013 {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ThreadInAThread", func(t *testing.T) {
		f := fakediscord.New(t)
		c := threadClient(f)
		id, _ := c.StartThread(ctx, "910000000000000001", "x", 11, 60)
		_, err := c.StartThread(ctx, id, "y", 11, 60)
		var de *Error
		if !errors.As(err, &de) || de.Code != 50024 {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrNoBotToken", func(t *testing.T) {
		f := fakediscord.New(t)
		if _, err := New(Options{BaseURL: f.APIURL()}).StartThread(ctx, "1", "x", 11, 60); !errors.Is(err, ErrNoBotToken) {
			t.Fatalf("got %v", err)
		}
		if len(f.Requests()) != 0 {
			t.Fatal("a call without a bot token reached Discord")
		}
	})
}

// TestRateLimit: a 429 is waited out and the call made again, a bounded
// number of times; a wait the context's deadline cannot hold is not
// waited, and the error says how long Discord asked for.
func TestRateLimit(t *testing.T) {
	t.Run("WaitedOut", func(t *testing.T) {
		f := fakediscord.New(t)
		f.RateLimited(fakediscord.StartThread, 2, 10*time.Millisecond)
		if _, err := threadClient(f).StartThread(context.Background(), "910000000000000001", "x", 11, 60); err != nil {
			t.Fatal(err)
		}
		if n := len(f.Requests()); n != 3 {
			t.Fatalf("%d calls, want two refused and one made", n)
		}
	})
	t.Run("Bounded", func(t *testing.T) {
		f := fakediscord.New(t)
		f.RateLimited(fakediscord.StartThread, 100, time.Millisecond)
		_, err := threadClient(f).StartThread(context.Background(), "910000000000000001", "x", 11, 60)
		var de *Error
		if !errors.As(err, &de) || de.Status != http.StatusTooManyRequests || len(f.Requests()) != 1+maxRetries {
			t.Fatalf("got %v after %d calls", err, len(f.Requests()))
		}
	})
	t.Run("LongerThanTheDeadline", func(t *testing.T) {
		f := fakediscord.New(t)
		f.RateLimited(fakediscord.StartThread, 1, 30*time.Second)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute/2)
		defer cancel()
		_, err := threadClient(f).StartThread(ctx, "910000000000000001", "x", 11, 60)
		var de *Error
		if !errors.As(err, &de) || de.RetryAfter != 30*time.Second || len(f.Requests()) != 1 {
			t.Fatalf("got %v after %d calls", err, len(f.Requests()))
		}
	})
}
