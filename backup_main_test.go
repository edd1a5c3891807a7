package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tttbot/tttbot/internal/fakediscord"
	"github.com/tttbot/tttbot/internal/testkit"
)

// movesShown reads "move N" from a board reply's footer.
var movesShown = regexp.MustCompile(`· move (\d+)`)

// tttbot runs the binary's subcommand in dir with exactly env and returns
// its exit code, standard output and standard error.
func tttbot(tb testing.TB, dir string, env []string, args ...string) (int, string, string) {
	tb.Helper()
	cmd := exec.Command(buildBinary(tb), args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String(), stderr.String()
	case errorsAs(err, &exit):
		return exit.ExitCode(), stdout.String(), stderr.String()
	}
	tb.Fatalf("tttbot %v: %v", args, err)
	return 0, "", ""
}

// TestBackupUnderLoad: players in four channels move without pause while
// `tttbot backup` copies the store of the running bot. The backup holds
// every move answered before the backup began; restore refuses while the
// bot runs and while the store holds moves made after the backup, and with
// --force puts the backup in place; the bot then opens it and plays on.
func TestBackupUnderLoad(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "data", "tttbot.db")
	env := []string{"DATABASE_URL=sqlite://" + dbPath}
	p := startBot(t, "sqlite://"+dbPath)
	channels := []string{"300000000000000001", "300000000000000002", "300000000000000003", "300000000000000004"}
	for _, ch := range channels {
		if text, ok := p.command(t, ch, userA, "new", opt("rows", 25), opt("columns", 25), opt("win", 25)); !ok {
			t.Fatalf("new: %s", text)
		}
		if text, ok := p.command(t, ch, userB, "join"); !ok {
			t.Fatalf("join: %s", text)
		}
	}
	answered := make([]atomic.Int64, len(channels)) // moves answered, per channel
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for c, ch := range channels {
		wg.Go(func() {
			for n := 0; n < 25*25; n++ {
				select {
				case <-stop:
					return
				default:
				}
				user := []string{userA, userB}[n%2]
				move := request(t, ch, user, "move", opt("position", fmt.Sprintf("%d,%d", n/25, n%25)))
				if text, ok, err := p.send(move); err != nil || !ok {
					t.Errorf("channel %s, move %d: %q %v", ch, n, text, err)
					return
				}
				answered[c].Store(int64(n + 1))
			}
		})
	}
	for c := range channels { // every channel is under way
		for answered[c].Load() < 3 && !t.Failed() {
			runtime.Gosched()
		}
	}
	before := make([]int64, len(channels))
	for c := range channels {
		before[c] = answered[c].Load()
	}
	code, out, errOut := tttbot(t, dir, env, "backup", filepath.Join(dir, "backup.db"))
	// A move answered after the backup returned: the store is then newer
	// than the backup.
	for c := range channels {
		done := answered[c].Load()
		for answered[c].Load() < done+1 && !t.Failed() {
			runtime.Gosched()
		}
	}
	close(stop)
	wg.Wait()
	if code != 0 || !strings.Contains(out, "backed up") {
		t.Fatalf("backup: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := tttbot(t, dir, env, "restore", filepath.Join(dir, "backup.db"), "--force"); code == 0 || !strings.Contains(errOut, "running") {
		t.Fatalf("restore while the bot runs: exit %d: %s", code, errOut)
	}
	testkit.Stop(p.cmd)
	if code, _, errOut := tttbot(t, dir, env, "restore", filepath.Join(dir, "backup.db")); code == 0 || !strings.Contains(errOut, "--force") {
		t.Fatalf("restore over moves made after the backup: exit %d: %s", code, errOut)
	}
	code, out, errOut = tttbot(t, dir, env, "restore", "--force", filepath.Join(dir, "backup.db"))
	if code != 0 || !strings.Contains(out, "restored") || !strings.Contains(out, "kept as") {
		t.Fatalf("restore --force: exit %d\n%s%s", code, out, errOut)
	}
	p = startBot(t, "sqlite://"+dbPath)
	for c, ch := range channels {
		text, _ := p.command(t, ch, userA, "board")
		m := movesShown.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("channel %s after the restore: no move count in\n%s", ch, text)
		}
		n, _ := strconv.Atoi(m[1])
		if int64(n) < before[c] {
			t.Errorf("channel %s: the backup has %d moves; %d were answered before it began", ch, n, before[c])
		}
		// Play on from where the backup stands.
		user := []string{userA, userB}[n%2]
		if text, ok := p.command(t, ch, user, "move", opt("position", fmt.Sprintf("%d,%d", n/25, n%25))); !ok {
			t.Errorf("channel %s: move %d after the restore refused: %s", ch, n+1, text)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(dbPath)); !containsPrefix(entries, "tttbot.db.before-restore-") {
		t.Errorf("the replaced store was not kept: %v", entries)
	}
}

func containsPrefix(entries []os.DirEntry, prefix string) bool {
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			return true
		}
	}
	return false
}

// TestBackupRefusesPostgres: backup and restore on PostgreSQL say to use
// pg_dump and pg_restore, and never print the password.
func TestBackupRefusesPostgres(t *testing.T) {
	env := []string{"DATABASE_URL=postgres://tttbot:sekret-pass@127.0.0.1:1/tttbot"}
	for _, args := range [][]string{{"backup", "x.dump"}, {"restore", "x.dump"}} {
		code, out, errOut := tttbot(t, t.TempDir(), env, args...)
		if code == 0 || !strings.Contains(errOut, "pg_dump") || !strings.Contains(errOut, "pg_restore") || strings.Contains(out+errOut, "sekret-pass") {
			t.Errorf("%v on PostgreSQL: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	if code, _, errOut := tttbot(t, t.TempDir(), env, "backup"); code != exitUsage {
		t.Errorf("backup without a file: exit %d: %s", code, errOut)
	}
}

// TestHelpListsStoreCommands: --help names backup and restore with their
// arguments.
func TestHelpListsStoreCommands(t *testing.T) {
	code, out, _ := tttbot(t, t.TempDir(), nil, "--help")
	for _, want := range []string{"tttbot backup FILE", "tttbot restore FILE [--force]"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--help (exit %d) lacks %q:\n%s", code, want, out)
		}
	}
}

// TestRestoreRefusedWhileGatewayBotRuns: restore tells a running bot by the
// lock it holds on the store, not by its HTTP endpoint, so a bot on the
// gateway alone (no HTTP_ADDR) is seen too; once it has stopped, restore
// goes ahead.
func TestRestoreRefusedWhileGatewayBotRuns(t *testing.T) {
	dir := t.TempDir()
	env := []string{"DATABASE_URL=sqlite://" + filepath.Join(dir, "tttbot.db")}
	fake := fakediscord.New(t)
	var logs bytes.Buffer
	cmd, err := testkit.Start(dir, append([]string{"DISCORD_TOKEN=gateway-only-test-token", "DISCORD_APP_ID=123456789012345678",
		"DISCORD_API_URL=" + fake.APIURL(), "LOG_LEVEL=warn"}, env...), &logs, buildBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { testkit.Kill(cmd) })
	fake.WaitReady()
	if code, out, errOut := tttbot(t, dir, env, "backup", "backup.db"); code != 0 {
		t.Fatalf("backup beside a gateway bot: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := tttbot(t, dir, env, "restore", "backup.db", "--force"); code == 0 || !strings.Contains(errOut, "running") {
		t.Fatalf("restore while a gateway-only bot runs: exit %d: %s\nbot logs:\n%s", code, errOut, logs.String())
	}
	testkit.Stop(cmd)
	if code, out, errOut := tttbot(t, dir, env, "restore", "backup.db"); code != 0 {
		t.Fatalf("restore once the bot stopped: exit %d\n%s%s", code, out, errOut)
	}
}
