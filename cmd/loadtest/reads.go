package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tttbot/tttbot/internal/testkit"
	"github.com/tttbot/tttbot/table"
)

// The read commands a reads phase sends, each timed on its own.
const (
	readStats         = "stats"
	readHistory       = "history"      // the first page of a player's history in the server
	readHistoryDeep   = "history-deep" // a page far back (the Older button pressed many times)
	readBoardServer   = "leaderboard"
	readBoardAll      = "leaderboard-everywhere"
	readReplay        = "replay" // an old game's replay, its GIF posted to Discord's callback (here a sink)
	readLook          = "board"  // /ttt board in a channel with an open game
	readHistoryOffset = 400      // the deep page: page 51
)

var readKinds = []string{readStats, readHistory, readHistoryDeep, readBoardServer, readBoardAll, readReplay, readLook}

// readers is how many goroutines send read commands at once: reads are
// measured for their latency, next to no other load.
const readers = 4

// readTargets are whom and what the read commands ask about: players of
// testkit.Guild (the most active first), old games played there, and
// channels with an open game.
type readTargets struct {
	players []string
	games   []int64
	open    []string
}

// worldTargets are the prefilled world's: server 0's members by activity,
// its oldest games, and its open Connect Four games' channels. The store is
// read for the games' IDs, which the store gave them.
//
// Boards are read only in Connect Four games, the kind an empty store's run
// reads (ownTargets): a 15×15 board costs more to draw on any store, and the
// comparison is about what the store's size costs — here, open games read
// from the store rather than found in the bot's cache.
func worldTargets(ctx context.Context, db string, p Prefill) (readTargets, error) {
	var t readTargets
	w := p.world()
	for g := range p.games(w, time.Now()) {
		if g.open && g.guild == testkit.Guild && g.rules == connectFourRules {
			t.open = append(t.open, g.channel)
		}
	}
	s := w.servers[0]
	for _, m := range s.members[:min(len(s.members), 200)] {
		t.players = append(t.players, w.players[m])
	}
	if len(t.open) == 0 {
		return t, fmt.Errorf("the prefilled world has no open Connect Four game in %s", testkit.Guild)
	}
	return t, t.oldGames(ctx, db)
}

// ownTargets are the run's own: its channels' players and channels, and
// the oldest games they played (during the warm-up).
func ownTargets(ctx context.Context, db string, chans []*channel) (readTargets, error) {
	var t readTargets
	for _, ch := range chans {
		t.players = append(t.players, ch.alice, ch.bob)
		t.open = append(t.open, ch.id)
	}
	return t, t.oldGames(ctx, db)
}

// oldGames fills t.games with the oldest games of t's first players in
// testkit.Guild, which anyone there may replay.
func (t *readTargets) oldGames(ctx context.Context, db string) error {
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, p := range t.players[:min(len(t.players), 8)] {
		page, err := st.History(ctx, table.HistoryQuery{Player: p, Scope: testkit.Guild, Offset: 0, Limit: 1 << 20})
		if err != nil {
			return err
		}
		for i := len(page) - 1; i >= 0 && i >= len(page)-8; i-- {
			t.games = append(t.games, page[i].ID)
		}
	}
	if len(t.games) == 0 {
		return fmt.Errorf("no finished game in %s to replay: give the run a warm-up", testkit.Guild)
	}
	return nil
}

// ReadPhase is one phase of read commands: each kind's latencies.
type ReadPhase struct {
	Elapsed   time.Duration
	Latencies map[string][]time.Duration
	Refused   map[string]int
	Failed    int
	FirstErr  string
}

func (p ReadPhase) String() string {
	s := fmt.Sprintf("reads %.1fs:", p.Elapsed.Seconds())
	for _, k := range readKinds {
		lat := p.Latencies[k]
		s += fmt.Sprintf("  %s n=%d p50 %.2fms p99 %.2fms", k, len(lat), ms(quantile(lat, 0.5)), ms(quantile(lat, 0.99)))
		if r := p.Refused[k]; r > 0 {
			s += fmt.Sprintf(" (refused %d)", r)
		}
	}
	if p.Failed > 0 {
		s += fmt.Sprintf("  failed %d (first: %.200s)", p.Failed, p.FirstErr)
	}
	return s
}

// readPhase sends read commands to the bot for d from readers goroutines,
// each going round readKinds, and times each kind.
func (s *servers) readPhase(ctx context.Context, t readTargets, d time.Duration) ReadPhase {
	ids := newIDs(time.Now())
	p := ReadPhase{Latencies: map[string][]time.Duration{}, Refused: map[string]int{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	begin := time.Now()
	var n atomic.Int64
	for r := range readers {
		wg.Go(func() {
			for k := r; time.Since(begin) < d && ctx.Err() == nil; k++ {
				i := int(n.Add(1))
				kind := readKinds[k%len(readKinds)]
				body, err := t.request(kind, i, strconv.FormatUint(ids.Add(1), 10))
				if err != nil {
					mu.Lock()
					p.Failed++
					p.FirstErr = err.Error()
					mu.Unlock()
					return
				}
				t0 := time.Now()
				reply, err := send(s.client, signedRequest(ctx, "http://"+s.botAddr+"/interactions", s.key, body))
				took := time.Since(t0)
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				p.Latencies[kind] = append(p.Latencies[kind], took)
				switch {
				case err != nil:
					p.Failed++
					if p.FirstErr == "" {
						p.FirstErr = kind + ": " + err.Error()
					}
				case isRefusal(reply):
					p.Refused[kind]++
					if p.FirstErr == "" {
						p.FirstErr = kind + " refused: " + string(reply)
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	p.Elapsed = time.Since(begin)
	return p
}

// isRefusal reports whether the bot's reply was an ephemeral refusal.
func isRefusal(reply []byte) bool { return bytes.Contains(reply, []byte(`"flags":64`)) }

// request is read command kind's payload, the ith read, with interaction ID
// id: by a player of t about another, in testkit.Guild.
func (t readTargets) request(kind string, i int, id string) ([]byte, error) {
	caller := t.players[i%len(t.players)]
	// Half the reads are about the most active players, half about anyone.
	about := t.players[(i/2)%min(len(t.players), 4)]
	if i%2 == 1 {
		about = t.players[(i*7919)%len(t.players)]
	}
	var fields map[string]any
	file := "command.json"
	switch kind {
	case readStats:
		fields = testkit.CommandFields(testkit.Channel, caller, "stats", 0, []testkit.Option{testkit.UserOpt("user", about, false)})
	case readHistory:
		fields = testkit.CommandFields(testkit.Channel, caller, "history", 0, []testkit.Option{testkit.UserOpt("user", about, false)})
	case readHistoryDeep:
		file = "component.json"
		fields = testkit.ComponentFields(testkit.Channel, caller, "ttt:hist:"+t.players[0]+":"+strconv.Itoa(readHistoryOffset))
	case readBoardServer:
		fields = testkit.CommandFields(testkit.Channel, caller, "leaderboard", 0, nil)
	case readBoardAll:
		fields = testkit.CommandFields(testkit.Channel, caller, "leaderboard", 0, []testkit.Option{testkit.Opt("scope", "everywhere")})
	case readReplay:
		fields = testkit.CommandFields(testkit.Channel, caller, "replay", 0, []testkit.Option{testkit.Opt("game", "#"+strconv.FormatInt(t.games[i%len(t.games)], 10))})
	case readLook:
		fields = testkit.CommandFields(t.open[(i*7919)%len(t.open)], caller, "board", 0, nil)
	}
	fields["ID"] = id
	return testkit.Payload(file, fields)
}

// callbackSink stands in for Discord's interaction callback endpoint, where
// the bot posts a reply that carries files (a replay's GIF): it reads the
// upload and answers 204, as Discord does.
func callbackSink() (addr string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	return ln.Addr().String(), func() { srv.Close() }, nil
}
