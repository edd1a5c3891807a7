package sqlread

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"testing/fstest"

	_ "modernc.org/sqlite"

	"github.com/tttbot/tttbot/store"
)

// TestMigrationsLandInAnyOrder: each stream of work owns a migration number
// and they merge in any order, so a database at 1 and 3 still gets 2 when it
// lands; a number the binary does not know is refused; a repeated one too.
func TestMigrationsLandInAnyOrder(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	file := func(sql string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(sql)} }
	early := fstest.MapFS{
		"migrations/sqlite/0001_a.sql": file(`CREATE TABLE a (x INTEGER)`),
		"migrations/sqlite/0003_c.sql": file(`CREATE TABLE c (x INTEGER)`),
	}
	late := fstest.MapFS{"migrations/sqlite/0002_b.sql": file(`CREATE TABLE b (x INTEGER)`)}
	for k, v := range early {
		late[k] = v
	}
	if v, err := Migrate(ctx, db, Schema{FS: early, Dir: "migrations/sqlite", Q: same}); err != nil || v != 3 {
		t.Fatalf("1 and 3: version %d, %v", v, err)
	}
	if v, err := Migrate(ctx, db, Schema{FS: late, Dir: "migrations/sqlite", Q: same}); err != nil || v != 3 {
		t.Fatalf("2 landing late: version %d, %v", v, err)
	}
	for _, table := range []string{"a", "b", "c"} {
		if _, err := db.Exec(`INSERT INTO ` + table + ` (x) VALUES (1)`); err != nil {
			t.Errorf("table %s: %v", table, err)
		}
	}
	if _, err := Migrate(ctx, db, Schema{FS: late, Dir: "migrations/sqlite", Q: same}); err != nil {
		t.Fatalf("nothing new to apply: %v", err)
	}
	if _, err := Migrate(ctx, db, Schema{FS: early, Dir: "migrations/sqlite", Q: same}); !errors.Is(err, store.ErrSchemaTooNew) {
		t.Fatalf("a binary without 2 on a database with it: %v", err)
	}
	late["migrations/sqlite/0002_other.sql"] = file(`SELECT 1`)
	if _, err := loadMigrations(late, "migrations/sqlite"); err == nil {
		t.Fatal("two migrations numbered 2 were accepted")
	}
}

func same(query string) string { return query }

func TestDollars(t *testing.T) {
	if got := Dollars("SELECT ? , ?"); got != "SELECT $1 , $2" {
		t.Errorf("Dollars: %q", got)
	}
}
