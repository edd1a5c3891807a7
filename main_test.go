package main

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/fakediscord"
	"github.com/tttbot/tttbot/internal/testkit"
	"github.com/tttbot/tttbot/store/storetest"
)

// binary is tttbot built the way the Dockerfile builds it, once per test run.
var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func buildBinary(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tttbot-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "tttbot")
		buildErr = testkit.Build(context.Background(), ".", binPath)
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// TestContainerBinary checks what the image relies on: a static binary that,
// with an empty environment, says what to configure and exits 78.
func TestContainerBinary(t *testing.T) {
	bin := buildBinary(t)
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary is dynamically linked; distroless/static has no libc")
		}
	}
	cmd := exec.Command(bin)
	cmd.Env = []string{}
	cmd.Dir = t.TempDir() // no .env here
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errorsAs(err, &exit) || exit.ExitCode() != exitConfig {
		t.Fatalf("exit %v, want %d; output:\n%s", err, exitConfig, out)
	}
	if !strings.Contains(string(out), "configuration error") || !strings.Contains(string(out), "DISCORD_TOKEN") {
		t.Errorf("unclear message:\n%s", out)
	}
	hc := exec.Command(bin, "healthcheck")
	hc.Env = []string{"HTTP_ADDR=127.0.0.1:1"}
	if err := hc.Run(); err == nil {
		t.Error("healthcheck passed with nothing listening")
	}
}

func errorsAs(err error, target **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	if ok {
		*target = e
	}
	return ok
}

// TestVerifyCommand runs the checker through the real binary, as other tools do.
func TestVerifyCommand(t *testing.T) {
	cmd := exec.Command(buildBinary(t), "verify", "--win", "3")
	cmd.Stdin = strings.NewReader("XXX/OO./...\nXOX/XOO/OXX\nXO./.../...\nX\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "The Winner is X\nNo Winner - Game Complete\nNo Winner Yet - Game Incomplete\nInvalid Values: "
	if !strings.HasPrefix(string(out), want) || strings.Count(string(out), "\n") != 4 {
		t.Fatalf("verify printed:\n%s", out)
	}
}

// ---- A bot process driven over the HTTP interactions endpoint ----

// proc is a running tttbot process with its HTTP endpoint.
type proc struct {
	cmd  *exec.Cmd
	addr string
	logs *bytes.Buffer
}

// testKey signs interactions for the child processes.
var testKey = testkit.NewSigner("tttbot main package test seed!!!")

// startBot starts the binary on databaseURL (with env added to its
// environment) and waits for /healthz.
func startBot(tb testing.TB, databaseURL string, env ...string) *proc {
	tb.Helper()
	addr, err := testkit.FreeAddr()
	if err != nil {
		tb.Fatal(err)
	}
	p := &proc{addr: addr, logs: &bytes.Buffer{}}
	p.cmd, err = testkit.Start(tb.TempDir(), append(testkit.BotEnv(addr, testKey.PublicHex(), databaseURL), env...), p.logs, buildBinary(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(p.kill)
	if err := testkit.WaitHealthy(context.Background(), http.DefaultClient, addr, 20*time.Second); err != nil {
		tb.Fatalf("%v; logs:\n%s", err, p.logs)
	}
	return p
}

// kill sends SIGKILL: no chance to flush or finish anything.
func (p *proc) kill() { testkit.Kill(p.cmd) }

// interactionIDs numbers the interactions tests send: each is a new one
// (the endpoint refuses an ID it has handled before).
var interactionIDs atomic.Uint64

// command sends a signed /ttt interaction and returns the reply's content
// and whether it was public.
func (p *proc) command(tb testing.TB, channel, user, sub string, opts ...testkit.Option) (string, bool) {
	tb.Helper()
	text, public, err := p.send(request(tb, channel, user, sub, opts...))
	if err != nil {
		tb.Fatalf("%s %s: %v\nlogs:\n%s", user, sub, err, p.logs)
	}
	return text, public
}

// request is the body of /ttt sub by user in channel, a new interaction.
func request(tb testing.TB, channel, user, sub string, opts ...testkit.Option) []byte {
	tb.Helper()
	fields := testkit.CommandFields(channel, user, sub, 0, opts)
	fields["ID"] = strconv.FormatUint(1190000000000000000+interactionIDs.Add(1), 10)
	return testkit.Raw(tb, "command.json", fields)
}

// click is the body of a press on the button customID by user in channel,
// a new interaction.
func click(tb testing.TB, channel, user, customID string) []byte {
	tb.Helper()
	fields := testkit.ComponentFields(channel, user, customID)
	fields["ID"] = strconv.FormatUint(1190000000000000000+interactionIDs.Add(1), 10)
	return testkit.Raw(tb, "component.json", fields)
}

// send posts an interaction, signed now, and returns the reply's text (its
// content, or a card's text displays) and whether it was public. It fails
// no test, so a goroutine may call it; a body Discord's API description
// refuses (the fake Discord's check) is an error.
func (p *proc) send(body []byte) (string, bool, error) {
	req, err := http.NewRequest(http.MethodPost, "http://"+p.addr+"/interactions", bytes.NewReader(body))
	if err != nil {
		return "", false, err
	}
	testKey.Sign(req.Header, body, time.Now())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", false, err
	}
	defer resp.Body.Close()
	var out struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", false, fmt.Errorf("status %d: %v", resp.StatusCode, err)
	}
	if errs := fakediscord.CheckMessage(out.Data, nil); len(errs) > 0 {
		return "", false, fmt.Errorf("Discord would refuse the reply: %s", strings.Join(errs, "; "))
	}
	var data map[string]any
	json.Unmarshal(out.Data, &data)
	flags, _ := data["flags"].(float64)
	return fakediscord.Text(data), int(flags)&64 == 0, nil
}

// The channel and users the tests play in and as.
const (
	chanA = testkit.Channel
	userA = testkit.Alice
	userB = testkit.Bob
)

var (
	opt     = testkit.Opt
	userOpt = testkit.UserOpt
)

// boardBlock extracts the code block of a reply.
func boardBlock(content string) string {
	_, after, _ := strings.Cut(content, "```\n")
	block, _, _ := strings.Cut(after, "```")
	return block
}

// TestCrashKeepsEveryAcceptedMove kills the bot with SIGKILL while a
// challenge waits for its answer and right after each accepted move,
// restarts it on the same SQLite file, and checks the game goes on exactly
// where it was.
func TestCrashKeepsEveryAcceptedMove(t *testing.T) {
	db := "sqlite://" + filepath.Join(t.TempDir(), "data", "tttbot.db")
	p := startBot(t, db)
	if text, ok := p.command(t, chanA, userA, "new", opt("rows", 5), opt("columns", 5), opt("win", 4), userOpt("opponent", userB, false)); !ok {
		t.Fatalf("new: %s", text)
	}
	p.kill() // the invitation is in flight: it must survive, still waiting for userB
	p = startBot(t, db)
	if text, ok := p.command(t, chanA, userA, "move", opt("position", "0,0")); ok {
		t.Fatalf("a move before the challenge was accepted: %s", text)
	}
	if text, ok := p.command(t, chanA, userB, "join"); !ok || !strings.Contains(text, "accepted") {
		t.Fatalf("accepting after the restart: %s", text)
	}
	moves := []struct{ user, pos string }{{userA, "0,0"}, {userB, "4,4"}, {userA, "1,1"}, {userB, "4,3"}, {userA, "2,2"}, {userB, "0,4"}, {userA, "4,4"}, {userA, "3,3"}}
	var lastBoard string
	for i, m := range moves {
		text, ok := p.command(t, chanA, m.user, "move", opt("position", m.pos))
		if i == 6 { // 4,4 is taken: refused, and nothing changes
			if ok {
				t.Fatalf("move onto a taken cell accepted: %s", text)
			}
			continue
		}
		if !ok {
			t.Fatalf("move %d (%s %s) refused: %s", i, m.user, m.pos, text)
		}
		lastBoard = boardBlock(text)
		p.kill()
		p = startBot(t, db)
		again, _ := p.command(t, chanA, userA, "board")
		if got := boardBlock(again); got != lastBoard {
			t.Fatalf("after a crash at move %d the board is\n%s\nwant\n%s", i, got, lastBoard)
		}
	}
	text, _ := p.command(t, chanA, userB, "board")
	if !strings.Contains(text, "Player X (<@"+userA+">) won!") || !strings.Contains(text, "Moves (7):") {
		t.Fatalf("final board:\n%s", text)
	}
}

// TestStoreMetrics: /metrics says how the store's group commit shares its
// COMMITs, and the counts move with the moves.
func TestStoreMetrics(t *testing.T) {
	p := startBot(t, "sqlite://"+filepath.Join(t.TempDir(), "tttbot.db"))
	before := p.metrics(t)
	if text, ok := p.command(t, chanA, userA, "new", opt("rows", 3), opt("columns", 3)); !ok {
		t.Fatalf("new: %s", text)
	}
	if text, ok := p.command(t, chanA, userB, "join"); !ok {
		t.Fatalf("join: %s", text)
	}
	for i, m := range []struct{ user, pos string }{{userA, "0,0"}, {userB, "1,1"}} {
		if text, ok := p.command(t, chanA, m.user, "move", opt("position", m.pos)); !ok {
			t.Fatalf("move %d: %s", i, text)
		}
	}
	after := p.metrics(t)
	commits := after["tttbot_store_commits_total"] - before["tttbot_store_commits_total"]
	writes := after["tttbot_store_writes_total"] - before["tttbot_store_writes_total"]
	// Four saves, one at a time (each waits for its reply): each its own
	// COMMIT, which a readiness probe may have shared.
	if commits < 4 || writes < 4 || writes < commits {
		t.Errorf("after four saves: %v commits, %v writes (before %v, after %v)", commits, writes, before, after)
	}
	if after["tttbot_store_busy_seconds_total"] <= before["tttbot_store_busy_seconds_total"] {
		t.Errorf("busy seconds did not grow: before %v, after %v", before, after)
	}
}

// metrics reads the bot's tttbot_store_ counters from /metrics.
func (p *proc) metrics(tb testing.TB) map[string]float64 {
	tb.Helper()
	all, err := testkit.Metrics(http.DefaultClient, p.addr)
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]float64{}
	for name, v := range all {
		if strings.HasPrefix(name, "tttbot_store_") && strings.HasSuffix(name, "_total") {
			out[name] = v
		}
	}
	if len(out) != 3 {
		tb.Fatalf("store metrics: %v, want commits, writes and busy seconds", out)
	}
	return out
}

// TestTwoProcessesOnePostgres runs two bot processes on one PostgreSQL
// database and sends the same move to both at once: exactly one is accepted,
// and both then show the same board.
func TestTwoProcessesOnePostgres(t *testing.T) {
	url := storetest.PostgresURL(t)
	p1, p2 := startBot(t, url), startBot(t, url)
	if text, ok := p1.command(t, chanA, userA, "new", opt("rows", 10), opt("columns", 10), userOpt("opponent", userB, false)); !ok {
		t.Fatalf("new: %s", text)
	}
	// userB's Accept reaches one process and Decline the other, at once:
	// exactly one answer applies, and the other is refused.
	var wg sync.WaitGroup
	answered := make([]bool, 2)
	for i, p := range []*proc{p1, p2} {
		press := click(t, chanA, userB, []string{"ttt:accept:1", "ttt:decline:1"}[i])
		wg.Go(func() {
			var err error
			if _, answered[i], err = p.send(press); err != nil {
				t.Errorf("answer to process %d: %v", i+1, err)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	if answered[0] == answered[1] {
		t.Fatalf("Accept applied %v, Decline applied %v; want exactly one", answered[0], answered[1])
	}
	if answered[1] { // declined: nothing opened, so open the game the moves are played in
		p1.command(t, chanA, userA, "new", opt("rows", 10), opt("columns", 10))
		if text, ok := p2.command(t, chanA, userB, "join"); !ok {
			t.Fatalf("join: %s", text)
		}
	}
	for round := 0; round < 20; round++ {
		user := []string{userA, userB}[round%2]
		pos := fmt.Sprintf("%d,%d", round/2, (round*7)%10)
		var wg sync.WaitGroup
		accepted := make([]bool, 2)
		for i, p := range []*proc{p1, p2} {
			move := request(t, chanA, user, "move", opt("position", pos)) // here: it may fail the test
			wg.Go(func() {
				var err error
				if _, accepted[i], err = p.send(move); err != nil {
					t.Errorf("round %d, process %d: %v", round, i+1, err)
				}
			})
		}
		wg.Wait()
		if t.Failed() {
			t.FailNow()
		}
		if accepted[0] == accepted[1] {
			t.Fatalf("round %d: accepted by p1 %v, p2 %v; want exactly one", round, accepted[0], accepted[1])
		}
	}
	b1, _ := p1.command(t, chanA, userA, "board")
	b2, _ := p2.command(t, chanA, userA, "board")
	if b1 != b2 || !strings.Contains(b1, "move 20") {
		t.Fatalf("the processes disagree:\n%s\n---\n%s", b1, b2)
	}
}
