package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/testkit"
	"github.com/tttbot/tttbot/store/sqlite"
)

// TestOlderBinaryStopsOnNewerSchema: a store that a newer tttbot migrated
// (here: a migration numbered 999) makes this binary stop at start, exit
// 78, with a message that names the schema it found, the one it knows and
// what to do; the store is left as it was.
func TestOlderBinaryStopsOnNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tttbot.db")
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`INSERT INTO schema_migrations (version, name) VALUES (999, '0999_from_the_future.sql')`); err != nil {
		t.Fatal(err)
	}
	addr, err := testkit.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := tttbot(t, t.TempDir(), testkit.BotEnv(addr, testKey.PublicHex(), "sqlite://"+path))
	if code != exitConfig {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitConfig, out, errOut)
	}
	for _, want := range []string{"schema is at version 999", "knows versions up to", "restore a backup"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the message lacks %q:\n%s", want, errOut)
		}
	}
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM schema_migrations WHERE version = 999`).Scan(&n); err != nil || n != 1 {
		t.Errorf("the store changed: %d rows for 999 (%v)", n, err)
	}
}
