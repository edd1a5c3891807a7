package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// StampsAreTheApplicationsTime saves a table and a finished game at a time
// long past and checks, with read (one query with a ? placeholder on the
// store's own database, returning the column it selects), that the store
// kept the time it was given, not its database's: the application has one
// clock, and tests that move it move the stored stamps too.
func StampsAreTheApplicationsTime(t *testing.T, s table.Store, read func(ctx context.Context, query string, arg any) (any, error)) {
	t.Helper()
	ctx := context.Background()
	past := time.Date(2001, 2, 3, 4, 5, 6, 789_000_000, time.UTC)
	r := table.Result{Scope: "g", Players: []string{"a", "b"}, Winner: 0, Rules: game.Classic(), Moves: 5}
	if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "c-clock", Guild: "g", Data: []byte("{}"), Now: past, Result: &r}); !ok || err != nil {
		t.Fatalf("save: %v %v", ok, err)
	}
	for _, c := range []struct{ query, arg string }{
		{`SELECT updated_at FROM channel_tables WHERE channel = ?`, "c-clock"},
		{`SELECT finished_at FROM results WHERE scope = ?`, "g"},
	} {
		got, err := read(ctx, c.query, c.arg)
		if err != nil {
			t.Fatal(err)
		}
		switch v := got.(type) {
		case string: // SQLite keeps UTC text in milliseconds
			if v != "2001-02-03T04:05:06.789Z" {
				t.Errorf("%s: %q", c.query, v)
			}
		case time.Time:
			if !v.Equal(past) {
				t.Errorf("%s: %v", c.query, v)
			}
		default:
			t.Errorf("%s: %T %v", c.query, got, got)
		}
	}
}
