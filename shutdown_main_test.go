package main

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/testkit"
)

// TestSIGTERMFinishesRequestsInFlight: a request is in flight when the bot
// is told to stop (its reply, a board picture, is being posted to
// Discord's callback endpoint, which the test holds); the bot stops
// accepting connections, waits for that request, answers it, and exits 0.
// The store is then whole: a new bot on it shows the game as it was.
func TestSIGTERMFinishesRequestsInFlight(t *testing.T) {
	arrived, release := make(chan struct{}), make(chan struct{})
	discord := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/callback") {
			http.Error(w, "not here", http.StatusNotFound)
			return
		}
		close(arrived)
		<-release
		w.WriteHeader(http.StatusNoContent)
	}))
	defer discord.Close()
	db := "sqlite://" + filepath.Join(t.TempDir(), "tttbot.db")
	p := startBot(t, db, "DISCORD_API_URL="+discord.URL+"/api/v9", "LOG_LEVEL=info")
	p.command(t, chanA, userA, "new")
	p.command(t, chanA, userB, "join")
	if text, ok := p.command(t, chanA, userA, "move", opt("position", "1,1")); !ok {
		t.Fatalf("move: %s", text)
	}

	status := make(chan int, 1)
	body := request(t, chanA, userA, "board", opt("image", true))
	go func() {
		req, _ := http.NewRequest(http.MethodPost, "http://"+p.addr+"/interactions", bytes.NewReader(body))
		testKey.Sign(req.Header, body, time.Now())
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			status <- 0
			return
		}
		res.Body.Close()
		status <- res.StatusCode
	}()
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatalf("the picture never reached the callback; logs:\n%s", p.logs)
	}
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Shutting down: the listener closes, so new connections are refused,
	// while the request in flight is still held. The bot answers Discord's
	// callback within 2.5 s of the request (replyWithin) before it falls
	// back to an inline reply, so the test holds it only briefly.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		c, err := net.Dial("tcp", p.addr)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the bot still accepts connections after SIGTERM")
		}
	}
	select {
	case err := <-exited:
		t.Fatalf("the bot exited (%v) with a request in flight; logs:\n%s", err, p.logs)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if got := <-status; got != http.StatusAccepted {
		t.Errorf("the request in flight got %d, want 202 (its picture sent through the callback); logs:\n%s", got, p.logs)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit: %v; logs:\n%s", err, p.logs)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("the bot did not exit after its last reply; logs:\n%s", p.logs)
	}
	if strings.Contains(p.logs.String(), "level=ERROR") || strings.Contains(p.logs.String(), "still running") {
		t.Errorf("the stop logged errors:\n%s", p.logs)
	}
	p = startBot(t, db)
	if text, _ := p.command(t, chanA, userB, "board"); !strings.Contains(text, "· move 1") {
		t.Errorf("after the stop the game is:\n%s", text)
	}
	testkit.Stop(p.cmd)
}
