package main

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"iter"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tttbot/tttbot/config"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/store/postgres"
	"github.com/tttbot/tttbot/store/sqlite"
	"github.com/tttbot/tttbot/table"
)

// Prefill is what -prefill-finished and -prefill-open write into a fresh
// store before the bot starts: a year of a bot's life (see world).
type Prefill struct {
	Finished, Open   int
	Seed             uint64
	Players, Servers int // 0: worldPlayers, worldServers
	Workers          int // channels written at once; 0: prefillWorkers
}

// prefillWorkers is how many channels the prefill plays at once: enough
// for the store's group commit to share each COMMIT among many games.
const prefillWorkers = 64

// PrefillReport is what a prefill wrote and how long it took.
type PrefillReport struct {
	Finished, Open, Threads int
	Took                    time.Duration
	Writes                  store.WriteStats // the store's group commit over the prefill
	End                     time.Time        // the world's "now": the last open game's time
}

func (r PrefillReport) String() string {
	s := fmt.Sprintf("prefill: %d finished games, %d open, %d threads, written in %.1f s", r.Finished, r.Open, r.Threads, r.Took.Seconds())
	if w := r.Writes; w.Commits > 0 {
		s += fmt.Sprintf(" (%d saves in %d commits, %.1f ms a batch)", w.Writes, w.Commits, ms(w.Busy)/float64(w.Commits))
	}
	return s
}

func (p Prefill) world() *world {
	players, servers := p.Players, p.Servers
	if players == 0 {
		players = worldPlayers
	}
	if servers == 0 {
		servers = worldServers
	}
	return newWorld(p.Seed, players, servers)
}

// prefillStore is what the prefill writes through: the bot's own store.
type prefillStore interface {
	table.Store
	table.Records
	table.DeadlineStore
	Close() error
}

// openStore opens the store db names (a DATABASE_URL: sqlite://PATH or
// postgres://…) as the bot does.
func openStore(ctx context.Context, db string) (prefillStore, error) {
	d, err := config.ParseDatabaseURL(db)
	if err != nil {
		return nil, err
	}
	switch d.Kind {
	case config.SQLite:
		return sqlite.Open(ctx, d.Path)
	case config.Postgres:
		return postgres.Open(ctx, d.DSN)
	}
	return nil, fmt.Errorf("prefill: %s: only SQLite and PostgreSQL keep what is written", d.Kind)
}

// runPrefill writes p into the store db, which must hold no finished game
// yet, through the bot's own write path: table.Tables over the store, each
// game one action (opened, joined, played to its end and saved with its
// result, which the store records and rates in the same transaction, as
// it does for the bot's last move), a thread archived and a clock run out
// by Tables.ApplyDue, as the bot's scheduler applies them. Each of
// p.Workers goroutines plays its own channels, in time order, so the
// store's group commit shares its COMMITs among them; ratings are moved in
// the order the games commit, which is the order of their IDs. progress
// gets a line every tenth of the way.
func runPrefill(ctx context.Context, db string, p Prefill, now time.Time, progress io.Writer) (PrefillReport, error) {
	st, err := openStore(ctx, db)
	if err != nil {
		return PrefillReport{}, err
	}
	defer st.Close()
	if isPostgres(db) {
		// What autovacuum does meanwhile, for a server that runs without
		// it: every rating a game moves leaves a dead row version, and
		// each update of a much-played rating walks them all.
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(30 * time.Second):
					vacuum(ctx, db, "ratings", "channel_tables", "clock_deadlines")
				}
			}
		}()
	}
	rep, err := prefillInto(ctx, st, p, now, progress)
	if err == nil && isPostgres(db) {
		err = vacuum(ctx, db)
	}
	return rep, err
}

// prefillInto is runPrefill on an open store.
func prefillInto(ctx context.Context, st prefillStore, p Prefill, now time.Time, progress io.Writer) (PrefillReport, error) {
	if _, found, err := st.FinishedGame(ctx, 1); err != nil || found {
		if err == nil {
			err = errors.New("the store already holds finished games: prefill a fresh one")
		}
		return PrefillReport{}, fmt.Errorf("prefill: %w", err)
	}
	begin := time.Now()
	w := p.world()
	workers := p.Workers
	if workers <= 0 {
		workers = prefillWorkers
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	queues := make([]chan gameSpec, workers)
	var wg sync.WaitGroup
	var done atomic.Int64
	for i := range queues {
		queues[i] = make(chan gameSpec, 256)
		pw := newPrefillWorker(st)
		wg.Go(func() {
			for g := range queues[i] {
				if ctx.Err() != nil {
					continue
				}
				if err := pw.play(ctx, g, now); err != nil {
					cancel(fmt.Errorf("prefill: channel %s: %w", g.channel, err))
				}
				done.Add(1)
			}
		})
	}
	rep := PrefillReport{End: now}
	total := p.Finished + p.Open
	step := max(total/10, 1)
	n := 0
	for g := range p.games(w, now) {
		if ctx.Err() != nil {
			break
		}
		if g.open {
			rep.Open++
		} else {
			rep.Finished++
		}
		select {
		case queues[worker(g.channel, workers)] <- g:
		case <-ctx.Done():
		}
		if n++; n%step == 0 {
			fmt.Fprintf(progress, "  prefill: %d of %d games queued, %d written, %.0fs\n", n, total, done.Load(), time.Since(begin).Seconds())
		}
	}
	for _, q := range queues {
		close(q)
	}
	wg.Wait()
	rep.Threads, rep.Took = w.threads, time.Since(begin)
	if ws, ok := st.(interface{ WriteStats() store.WriteStats }); ok {
		rep.Writes = ws.WriteStats()
	}
	if err := context.Cause(ctx); err != nil {
		return rep, err
	}
	return rep, nil
}

// games are the prefill's games in w, in the order they are written: the
// finished ones over the year before now, in time order, then the open
// ones. The same p gives the same games whatever now is, but for their
// times.
func (p Prefill) games(w *world, now time.Time) iter.Seq[gameSpec] {
	return func(yield func(gameSpec) bool) {
		rng := rand.New(rand.NewPCG(p.Seed, 0x9a3e))
		from, to := now.AddDate(-1, 0, 0), now.Add(-2*time.Hour)
		for n := range p.Finished {
			if !yield(w.finishedGame(rng, n, p.Finished, from, to)) {
				return
			}
		}
		for n := range p.Open {
			if !yield(w.openGame(rng, n, now)) {
				return
			}
		}
	}
}

// worker is the goroutine that plays channel's games, so that they are
// written in order.
func worker(channel string, workers int) int {
	h := fnv.New32a()
	h.Write([]byte(channel))
	return int(h.Sum32() % uint32(workers))
}

// prefillWorker is one goroutine's Tables, on a clock of its own that it
// sets to each game's times.
type prefillWorker struct {
	ts  *table.Tables
	now atomic.Int64 // UnixNano
}

func newPrefillWorker(st table.Store) *prefillWorker {
	pw := &prefillWorker{}
	pw.ts = table.NewTables(table.Options{Store: st, Now: func() time.Time { return time.Unix(0, pw.now.Load()).UTC() }, SoleWriter: true})
	return pw
}

func (pw *prefillWorker) at(t time.Time) { pw.now.Store(t.UnixNano()) }

// play writes g: an open game as one action; a finished one as one action
// that plays it to its end (or, when it ends on time, to the move whose
// clock runs out, which the scheduler's ApplyDue then applies), and, in a
// thread, the thread's archiving an hour later if that is before now.
func (pw *prefillWorker) play(ctx context.Context, g gameSpec, now time.Time) error {
	rng := rand.New(rand.NewPCG(g.seed, 1))
	if g.open {
		pw.at(g.end)
		return pw.ts.Do(ctx, g.channel, func(_ context.Context, cur *table.Table) (*table.Table, error) {
			t, err := opened(cur, g)
			if err != nil || g.moves < 0 {
				return t, err
			}
			if err := seat(t, g); err != nil {
				return nil, err
			}
			for range g.moves {
				if !playOn(rng, t) {
					break
				}
			}
			return t, nil
		})
	}
	end := g.end
	if g.ending == onTime {
		end = g.end.Add(-g.clock) // the last move: its clock runs out at g.end
	}
	pw.at(end)
	err := pw.ts.Do(ctx, g.channel, func(_ context.Context, cur *table.Table) (*table.Table, error) {
		t, err := opened(cur, g)
		if err != nil {
			return nil, err
		}
		if err := seat(t, g); err != nil {
			return nil, err
		}
		return t, finish(rng, t, g)
	})
	if err != nil {
		return err
	}
	if g.ending == onTime {
		pw.at(g.end.Add(time.Second)) // past the deadline, rounded up to a second when armed
		if err := pw.applyDue(ctx, g.channel, table.ClockDue); err != nil {
			return err
		}
	}
	if archive := g.end.Add(table.ArchiveAfter + 5*time.Second); g.parent != "" && archive.Before(now) {
		pw.at(archive)
		return pw.applyDue(ctx, g.channel, table.ArchiveDue)
	}
	return nil
}

// applyDue applies what is due in channel, which must be want; a clock
// that cannot run out because its game ended first is nothing to apply.
func (pw *prefillWorker) applyDue(ctx context.Context, channel string, want table.DueKind) error {
	var due table.DueKind
	if err := pw.ts.Peek(ctx, channel, func(cur *table.Table) { due = cur.DueNow(pw.ts.Now()) }); err != nil {
		return err
	}
	if due != table.ClockDue && want == table.ClockDue {
		return nil // played out before its clock could run out (a thread's archiving may be due)
	}
	if due != want {
		return fmt.Errorf("%v due, want %v", due, want)
	}
	applied, err := pw.ts.ApplyDue(ctx, channel)
	if err == nil && !applied {
		err = fmt.Errorf("%v not applied", want)
	}
	return err
}

// opened is g's lobby, opened by its first player as /ttt new does it.
func opened(cur *table.Table, g gameSpec) (*table.Table, error) {
	t, err := table.New(cur, g.guild, g.channel, g.players[0], g.rules, game.Fast, g.start)
	if err != nil {
		return nil, err
	}
	if err := t.SetClock(g.clock); err != nil {
		return nil, err
	}
	if g.parent != "" && cur == nil {
		t.PlaceInThread(g.parent)
	}
	return t, t.Join(g.players[0], "X")
}

// seat has g's other players join, as /ttt join does, which starts the game.
func seat(t *table.Table, g gameSpec) error {
	for _, p := range g.players[1:] {
		if err := t.Join(p, ""); err != nil {
			return err
		}
	}
	return nil
}

// finish plays t to its end as g says: random moves until it is won or
// drawn, or until the player to move resigns partway (then on to the end
// when more than two played), or stops partway for its clock to run out.
func finish(rng *rand.Rand, t *table.Table, g gameSpec) error {
	cells := g.rules.Rows * g.rules.Cols
	stop := 2 + rng.IntN(max(cells/2, 1))
	for k := 0; !t.Game().Over(); k++ {
		if k == stop && g.ending == onTime {
			return nil // the clock runs out on this move
		}
		if k == stop && g.ending == resigned {
			if _, err := t.Resign(t.Seats[t.Game().Turn()].User); err != nil {
				return err
			}
			continue
		}
		c := randomMove(rng, t.Game())
		if _, _, err := t.Place(t.Seats[t.Game().Turn()].User, c); err != nil {
			return err
		}
	}
	t.FinishIfOver()
	return nil
}

// playOn makes a random move in t that does not end its game, and reports
// whether there was one.
func playOn(rng *rand.Rand, t *table.Table) bool {
	for range 8 {
		c := randomMove(rng, t.Game())
		trial := t.Game().Clone()
		if _, err := trial.Play(trial.Turn(), c); err != nil || trial.Over() {
			continue
		}
		_, _, err := t.Place(t.Seats[t.Game().Turn()].User, c)
		return err == nil
	}
	return false
}

// randomMove is a legal move in g, drawn at random: a column not full under
// gravity, else a free cell.
func randomMove(rng *rand.Rand, g *game.Game) game.Coord {
	r := g.Rules()
	if r.Gravity {
		for {
			if c := rng.IntN(r.Cols); !g.ColumnFull(c) {
				return game.Coord{Col: c}
			}
		}
	}
	for range 16 {
		c := game.Coord{Row: rng.IntN(r.Rows), Col: rng.IntN(r.Cols)}
		if g.At(c) == game.NoPlayer {
			return c
		}
	}
	var free []game.Coord
	for row := range r.Rows {
		for col := range r.Cols {
			if c := (game.Coord{Row: row, Col: col}); g.At(c) == game.NoPlayer {
				free = append(free, c)
			}
		}
	}
	return free[rng.IntN(len(free))]
}
