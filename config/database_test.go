package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseDatabaseURL(t *testing.T) {
	for _, tt := range []struct {
		name string
		raw  string
		want Database
	}{
		{"SQLiteRelative", "sqlite://./data/tttbot.db", Database{Kind: SQLite, Path: "./data/tttbot.db"}},
		{"SQLiteAbsolute", "sqlite:///var/lib/tttbot/t.db", Database{Kind: SQLite, Path: "/var/lib/tttbot/t.db"}},
		{"Postgres", "postgres://u:p@db:5432/tttbot?sslmode=disable", Database{Kind: Postgres, DSN: "postgres://u:p@db:5432/tttbot?sslmode=disable"}},
		{"PostgreSQLScheme", "postgresql://db/tttbot", Database{Kind: Postgres, DSN: "postgresql://db/tttbot"}},
		{"PostgresSocketHost", "postgres:///tttbot?host=/run/postgresql", Database{Kind: Postgres, DSN: "postgres:///tttbot?host=/run/postgresql"}},
		{"Memory", "memory://", Database{Kind: Memory}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseDatabaseURL(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ParseDatabaseURL(%q) = %+v, want %+v", tt.raw, got, tt.want)
			}
		})
	}
	for _, tt := range []struct {
		name string
		raw  string
		want []string // in the error, in order: the key, then the fix
	}{
		{"EmptySQLitePath", "sqlite://", []string{"DATABASE_URL", "no path", "sqlite://./data/tttbot.db"}},
		{"BlankSQLitePath", "sqlite://  ", []string{"DATABASE_URL", "no path", "e.g."}},
		{"SQLiteDirectory", "sqlite://./data/", []string{"DATABASE_URL", "directory", "sqlite://./data/tttbot.db"}},
		{"UnknownScheme", "mysql://u:p@db/x", []string{"DATABASE_URL", `unknown scheme "mysql"`, "sqlite://PATH"}},
		{"NoScheme", "./data/tttbot.db", []string{"DATABASE_URL", "want sqlite://PATH"}},
		{"PostgresUnparseable", "postgres://u:p%zz@db/x", []string{"DATABASE_URL", "not a valid URL", "percent-encode"}},
		{"PostgresNoHost", "postgres:///x", []string{"DATABASE_URL", "names no host", "postgres://USER:PASSWORD@HOST"}},
		{"MemoryWithPath", "memory://x", []string{"DATABASE_URL", "memory:// alone"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDatabaseURL(tt.raw)
			if err == nil {
				t.Fatalf("ParseDatabaseURL(%q) accepted", tt.raw)
			}
			msg := err.Error()
			for _, w := range tt.want {
				i := strings.Index(msg, w)
				if i < 0 {
					t.Fatalf("error %q lacks %q", err, w)
				}
				msg = msg[i+len(w):]
			}
		})
	}
}

// TestDatabaseNeverPrintsPassword formats a Postgres Database every way fmt
// and slog can, and parses broken URLs whose errors must not echo them.
func TestDatabaseNeverPrintsPassword(t *testing.T) {
	const pass = "hunter2pw"
	t.Run("Formatted", func(t *testing.T) {
		for _, raw := range []string{
			"postgres://bob:" + pass + "@db/x",
			"postgres://bob@db/x?password=" + pass,
			"postgres://bob@db/x?sslpassword=" + pass + "&sslmode=require",
		} {
			d, err := ParseDatabaseURL(raw)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{d.String(), fmt.Sprint(d), fmt.Sprintf("%+v", d), fmt.Sprintf("%#v", d), d.LogValue().String()} {
				if strings.Contains(s, pass) {
					t.Errorf("%q printed as %q", raw, s)
				}
			}
			if !strings.Contains(d.String(), "@db/x") {
				t.Errorf("String() = %q lost the host", d.String())
			}
		}
	})
	t.Run("Errors", func(t *testing.T) {
		for _, raw := range []string{
			"postgres://bob:" + pass + "@/x",
			"postgres://bob:" + pass + "%zz@db/x",
			"postgres://bob:" + pass + "/x@db/x",
			"postgres:///x?password=" + pass,
		} {
			_, err := ParseDatabaseURL(raw)
			if err == nil {
				t.Fatalf("%q accepted", raw)
			}
			if strings.Contains(err.Error(), pass) {
				t.Errorf("error repeats the password: %v", err)
			}
		}
	})
}

// TestLoadDatabase: backup and restore read DATABASE_URL as the bot does
// (.env, the environment winning, the default when unset) and need no
// Discord key.
func TestLoadDatabase(t *testing.T) {
	t.Setenv("DATABASE_URL", "") // restored when the test ends
	os.Unsetenv("DATABASE_URL")
	dir := t.TempDir()
	envFile := filepath.Join(dir, ".env")
	if db, err := LoadDatabase(envFile); err != nil || db != (Database{Kind: SQLite, Path: "./data/tttbot.db"}) {
		t.Errorf("unset: %v %v", db, err)
	}
	os.WriteFile(envFile, []byte("DATABASE_URL=sqlite:///var/lib/tttbot/tttbot.db\n"), 0o600)
	if db, err := LoadDatabase(envFile); err != nil || db.Path != "/var/lib/tttbot/tttbot.db" {
		t.Errorf("from .env: %v %v", db, err)
	}
	t.Setenv("DATABASE_URL", "memory://")
	if db, err := LoadDatabase(envFile); err != nil || db.Kind != Memory {
		t.Errorf("the environment wins: %v %v", db, err)
	}
	t.Setenv("DATABASE_URL", "mysql://x")
	if _, err := LoadDatabase(envFile); err == nil || !strings.Contains(err.Error(), "DATABASE_URL") {
		t.Errorf("a bad URL: %v", err)
	}
}
