package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/store/internal/groupcommit"
	"github.com/tttbot/tttbot/store/storetest"
	"github.com/tttbot/tttbot/table"
)

// writerFor is a committer of its own on s's write connection (the store's
// writer idle meanwhile), for tests that hand it batches directly.
type writerFor struct {
	c    committer
	conn *sql.Conn
	db   *sql.DB
}

func newWriterFor(t *testing.T, s *Store) *writerFor {
	t.Helper()
	conn, err := s.wdb.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &writerFor{c: committer{known: known{}}, conn: conn, db: s.db}
}

// commit writes ops as the writer would (sorted, without savepoints, then
// alone when an op fails) and returns their answers.
func (w *writerFor) commit(t *testing.T, ops []*groupcommit.Op) []groupcommit.Result {
	t.Helper()
	ctx := context.Background()
	b := groupcommit.Batch{Ops: ops}
	sent, err := w.c.Commit(ctx, w.conn, b, false)
	if err != nil && !sent {
		_, err = w.c.Commit(ctx, w.conn, b, true)
	}
	if err != nil {
		t.Fatal(err)
	}
	out := make([]groupcommit.Result, len(ops))
	for i, op := range ops {
		out[i] = op.Out
	}
	return out
}

// dump is everything the bot's tables hold, a row a line, in one order;
// results' IDs as their rank when gaps do not matter (a statement refused
// after it drew IDs leaves one, as any rolled-back insert does).
func (w *writerFor) dump(t *testing.T, gaps bool) string {
	t.Helper()
	var b strings.Builder
	id := "id"
	if gaps {
		id = "dense_rank() OVER (ORDER BY id)"
	}
	for _, q := range []string{
		`SELECT channel, guild, encode(data, 'escape'), version, updated_at, open_game FROM channel_tables ORDER BY channel`,
		`SELECT id, handled_at FROM handled_interactions ORDER BY id`,
		`SELECT channel, due_at FROM clock_deadlines ORDER BY channel`,
		`SELECT ` + id + `, scope, rows_n, cols_n, win_n, gravity, moves, finished_at, channel, kind, tokens, record, reason FROM results ORDER BY id`,
		`SELECT ` + strings.ReplaceAll(id, "id", "result_id") + `, scope, player, seat, outcome, finish, place FROM result_players ORDER BY result_id, seat`,
		// float8 as text is exact (shortest round-trip digits).
		`SELECT scope, kind, player, mu::text, sigma::text, games FROM ratings ORDER BY scope, kind, player`,
	} {
		rows, err := w.db.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&b, vals...)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return b.String()
}

// TestFinishedStatementAgreesWithExchange ties the one-statement write of
// finished games (finishedStatement, from the ratings the writer knows) to
// the transaction that reads them locked (exchange): the same batches,
// written one way on one schema and the other way on another, leave the
// same rows, results' IDs included. The batches finish games among a few
// players (two games of one batch sharing a player, rated one after the
// other), beside moves; then a rating row moved behind the writer's back
// (another replica) and a finished game whose save loses its swap, both of
// which finishedStatement must refuse and leave to exchange.
func TestFinishedStatementAgreesWithExchange(t *testing.T) {
	fast, slow := newWriterFor(t, openTest(t, nil)), newWriterFor(t, openTest(t, nil))
	players := []string{"ann", "ben", "cat", "dan", "eve"}
	versions := map[string]int64{}
	at := at
	id := 1574031694233600000
	save := func(channel string, result *table.Result) *groupcommit.Op {
		id++
		return &groupcommit.Op{Kind: groupcommit.Save, Save: table.Save{Channel: channel, Guild: "g", Data: []byte(fmt.Sprint(channel, "@", at.UnixMilli())),
			Version: versions[channel], Now: at, Result: result, Delivery: fmt.Sprint(id), Open: result == nil}}
	}
	finished := func(channel string, a, b int) *table.Result {
		return storetest.Finished(t, "g", channel, game.Classic(), []string{players[a%len(players)], players[b%len(players)]}, storetest.ClassicWin)
	}
	// run writes a batch both ways; build makes its ops afresh for each.
	run := func(name string, wantFast bool, build func() []*groupcommit.Op) {
		t.Helper()
		first := id
		ops := build()
		if _, _, eligible := fast.c.known.finishedArgs(ops); eligible != wantFast {
			t.Fatalf("%s: the writer knows every rating: %v, want %v", name, eligible, wantFast)
		}
		got := fast.commit(t, ops)
		clear(slow.c.known) // never known: exchange every time
		id = first          // the same interactions
		want := slow.commit(t, build())
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: answers %v, want %v", name, got, want)
		}
		for i, op := range ops {
			if op.Kind == groupcommit.Save && got[i].OK {
				versions[op.Save.Channel] = got[i].Version
			}
		}
		at = at.Add(time.Second)
	}
	for round := range 6 {
		run(fmt.Sprint("round ", round), round > 0, func() []*groupcommit.Op {
			return []*groupcommit.Op{
				save("c0", finished("c0", round, round+1)),
				save("c1", finished("c1", round+1, round+2)), // shares a player with c0's game
				save("c2", nil),
				save("c3", finished("c3", 4, 3)),
			}
		})
		// Each round's games end their channels' tables; the next opens them
		// again, as a new game does.
	}
	if got, want := fast.dump(t, false), slow.dump(t, false); got != want {
		t.Fatalf("after the rounds:\n%s\nwant (exchange):\n%s", got, want)
	}

	// Another replica rates ann meanwhile: the writer's standing is stale.
	for _, w := range []*writerFor{fast, slow} {
		if _, err := w.db.Exec(`UPDATE ratings SET mu = mu + 1, games = games + 1 WHERE player = 'ann'`); err != nil {
			t.Fatal(err)
		}
	}
	run("stale rating", true, func() []*groupcommit.Op {
		return []*groupcommit.Op{save("c0", finished("c0", 0, 4)), save("c2", nil)}
	})
	// A finished game whose save loses its swap records nothing.
	run("lost swap", true, func() []*groupcommit.Op {
		lost := save("c1", finished("c1", 1, 2))
		lost.Save.Version--
		return []*groupcommit.Op{lost, save("c3", finished("c3", 3, 4))}
	})
	if got, want := fast.dump(t, true), slow.dump(t, true); got != want {
		t.Fatalf("after the refused statements:\n%s\nwant (exchange):\n%s", got, want)
	}
	// Both were refused after drawing an ID for each game whose save won
	// (one each): the gaps show finishedStatement ran.
	var fastIDs, slowIDs int
	for w, n := range map[*writerFor]*int{fast: &fastIDs, slow: &slowIDs} {
		if err := w.db.QueryRow(`SELECT last_value FROM results_id_seq`).Scan(n); err != nil {
			t.Fatal(err)
		}
	}
	if fastIDs != slowIDs+2 {
		t.Errorf("results' IDs drawn: %d, want %d (exchange's) and the 2 of the refused statements", fastIDs, slowIDs)
	}
}
