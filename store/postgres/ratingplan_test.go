package postgres

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/store/storetest"
	"github.com/tttbot/tttbot/table"
)

// TestPostgresWriterRatingPlansUseThePrimaryKey: the plans the writer's
// connection keeps for the statements that read and write rating rows
// (made while ratings is nearly empty, as a new bot's are) still find each
// row by its primary key once a scope and kind hold tens of thousands of
// ratings, with no ANALYZE: never the leaderboard's index, whose walk would
// read every rating of the scope and kind for each row. The leaderboard
// still reads that index.
func TestPostgresWriterRatingPlansUseThePrimaryKey(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, nil)
	players := []string{"ann", "ben", "cat", "dan"}
	versions := map[string]int64{}
	// Finished games through the writer: the first rates players it has
	// not seen (exchange), the others players it knows (finishedStatement);
	// more than PostgreSQL's five runs before it settles on a generic plan.
	for i := range 8 {
		channel := fmt.Sprint("c", i%2)
		r := storetest.Finished(t, "g", channel, game.Classic(), []string{players[i%4], players[(i+1)%4]}, storetest.ClassicWin)
		v, ok, err := s.SaveTable(ctx, table.Save{Channel: channel, Guild: "g", Data: []byte{byte(i)}, Version: versions[channel],
			Now: at, Result: r, Delivery: fmt.Sprint(1574031694233600000 + i)})
		if err != nil || !ok {
			t.Fatalf("game %d: %v, %v", i, ok, err)
		}
		versions[channel] = v
	}
	// Each scope and kind the games rated grows by 50,000 players.
	if _, err := s.db.ExecContext(ctx, `INSERT INTO ratings (scope, kind, player, mu, sigma, games)
		SELECT k.scope, k.kind, 'p' || n, 20 + n % 10, 8, 1 + n % 3
		FROM (SELECT DISTINCT scope, kind FROM ratings) k, generate_series(1, 50000) n`); err != nil {
		t.Fatal(err)
	}

	// The leaderboard (the read pool, as it plans) still walks its index.
	if got := plan(t, s.db, `SELECT player, mu, sigma, games FROM ratings WHERE scope = $1 AND kind = $2 AND games > 0
		ORDER BY mu - 3 * sigma DESC, player ASC LIMIT 10`, "g", table.KindClassic.String()); !strings.Contains(got, "ratings_board") {
		t.Errorf("the leaderboard does not read its index:\n%s", got)
	}

	conn, err := s.wdb.Conn(ctx) // the writer is idle: its one connection
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []struct{ name, text string }{
		{"qNewRatings", qNewRatings},
		{"qLockRatings", qLockRatings},
		{"qUpdateRatings", qUpdateRatings},
		{"finishedStatement", finishedStatement},
	} {
		var stmt string
		var params int
		err := conn.QueryRowContext(ctx, `SELECT name, cardinality(parameter_types) FROM pg_prepared_statements WHERE statement = $1`, q.text).Scan(&stmt, &params)
		if err != nil {
			t.Fatalf("%s: not among the writer's prepared statements: %v", q.name, err)
		}
		// The generic plan whatever the arguments (the writer forces it).
		got := plan(t, conn, "EXECUTE "+stmt+"("+strings.TrimSuffix(strings.Repeat("NULL, ", params), ", ")+")")
		if strings.Contains(got, "ratings_board") || !strings.Contains(got, "ratings_pkey") {
			t.Errorf("%s: the writer's plan does not find rating rows by the primary key:\n%s", q.name, got)
		}
	}
}
