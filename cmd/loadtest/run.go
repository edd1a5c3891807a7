package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tttbot/tttbot/internal/testkit"
)

// tmpfsMagic is Linux's f_type of a tmpfs file system, where fsync costs
// nothing and "durable" would be a lie.
const tmpfsMagic = 0x01021994

// Run builds (unless cfg.Bin is set) and starts the bot and the bound, drives
// them in alternating phases, stops them and reports. progress gets one line
// a phase as it ends.
func Run(ctx context.Context, cfg Config, progress io.Writer) (*Report, error) {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	// Both processes' output goes to one writer, each copied by its own
	// goroutine.
	cfg.Log = &lockedWriter{w: cfg.Log}
	dir, err := runDir(cfg)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	rep := &Report{Channels: cfg.Channels, DB: redactDB(cfg.DB)}
	if cfg.Prefill.Finished+cfg.Prefill.Open > 0 && !cfg.Prefilled {
		pr, err := runPrefill(ctx, botDB(cfg, dir), cfg.Prefill, time.Now(), progress)
		if err != nil {
			return nil, err
		}
		rep.Prefill = &pr
		fmt.Fprintln(progress, " ", pr)
		if cfg.PrefillOnly {
			return rep, nil
		}
	}
	due, err := dueNow(ctx, botDB(cfg, dir))
	if err != nil {
		return nil, err
	}
	s, err := startServers(ctx, cfg, dir)
	if err != nil {
		return nil, err
	}
	defer s.stop()
	rep.Start = rssKB(s.bot.Process.Pid)
	rep.Startup = s.startup(ctx, botDB(cfg, dir), due)
	fmt.Fprintln(progress, " ", rep.Startup)
	var scansBefore Scans
	if isPostgres(cfg.DB) {
		if scansBefore, err = tableScans(ctx, cfg.DB); err != nil {
			return nil, err
		}
	}
	chans := newChannels(cfg, s.key)
	// An unmeasured warm-up, so that the first phase does not measure a cold
	// bot; the smoke test's fixed request counts skip it.
	if cfg.Warmup > 0 && cfg.Requests == 0 {
		s.drive(ctx, "bot", s.botAddr, chans, cfg.Warmup, 0)
	}
	stopSampling := s.sampleRSS(cfg.RSSEvery, rep, progress)
	s.runPhases(ctx, cfg, chans, rep, progress)
	stopSampling()
	if err := s.bot.Process.Signal(syscall.Signal(0)); err != nil {
		return rep, fmt.Errorf("the bot died during the run: %v", err)
	}
	if isPostgres(cfg.DB) && ctx.Err() == nil {
		if rep.Scans, err = s.scansSince(ctx, cfg.DB, scansBefore); err != nil {
			return rep, err
		}
	}
	return rep, ctx.Err()
}

// runDir makes the run's directory under cfg.Dir, for the built binary, the
// SQLite file and the durable bound's journal, and returns its absolute
// path. It refuses tmpfs for SQLite, where fsync costs nothing.
func runDir(cfg Config) (string, error) {
	dir, err := os.MkdirTemp(cfg.Dir, "loadtest-")
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(abs, &st); err != nil {
		os.RemoveAll(abs)
		return "", err
	}
	if st.Type == tmpfsMagic && cfg.DB == "sqlite" {
		os.RemoveAll(abs)
		return "", fmt.Errorf("%s is on tmpfs: SQLite's fsync would cost nothing; give -dir on a real disk", abs)
	}
	return abs, nil
}

// servers are the processes a run drives, where they listen, the key their
// requests are signed with and the client that sends them.
type servers struct {
	bot *exec.Cmd
	// bound and durable are the bound and the durable bound; nil with
	// -no-bound.
	bound, durable                  *exec.Cmd
	botAddr, boundAddr, durableAddr string
	pprofAddr                       string // the bot's profiler; empty without -cpuprofile or -trace
	key                             *testkit.Signer
	client                          *http.Client
	started                         time.Time     // when the bot's process was started
	firstAnswer                     time.Duration // from started to the bot's first answer to an interaction
	db                              string        // the bot's DATABASE_URL
	stopSink                        func()        // stops the stand-in for Discord's callback endpoint
}

// startServers builds the bot (unless cfg.Bin is set), starts it on its
// database and, unless cfg.NoBound, the two bounds from this executable, all
// in dir, and waits until every one answers its health check. On an error it
// stops what it started.
func startServers(ctx context.Context, cfg Config, dir string) (*servers, error) {
	bin := cfg.Bin
	var err error
	if bin == "" {
		if bin, err = build(ctx, dir); err != nil {
			return nil, err
		}
	}
	s := &servers{key: testkit.NewSigner("tttbot load test key")}
	env, err := s.chooseAddrs(cfg, dir)
	if err != nil {
		return nil, err
	}
	s.client = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		MaxIdleConns: 4 * cfg.Channels, MaxIdleConnsPerHost: 2 * cfg.Channels, DisableCompression: true, IdleConnTimeout: time.Minute,
	}}
	s.started = time.Now()
	if s.bot, err = testkit.Start(dir, env, cfg.Log, bin); err != nil {
		return nil, err
	}
	// The bot alone first, so that its start-up is timed on its own.
	if s.firstAnswer, err = s.awaitFirstAnswer(ctx); err != nil {
		s.stop()
		return nil, err
	}
	if !cfg.NoBound {
		if err := s.startBounds(cfg, dir, env); err != nil {
			s.stop()
			return nil, err
		}
	}
	for _, addr := range s.addrs()[1:] {
		if err := testkit.WaitHealthy(ctx, s.client, addr, 30*time.Second); err != nil {
			s.stop()
			return nil, err
		}
	}
	return s, nil
}

// chooseAddrs picks free addresses for the bot, the bounds and (with
// cfg.CPUProfile) the bot's profiler, and returns the environment the
// processes start with: the bot's configuration, its database a new SQLite
// file in dir or cfg.DB.
func (s *servers) chooseAddrs(cfg Config, dir string) ([]string, error) {
	var err error
	for _, addr := range []*string{&s.botAddr, &s.boundAddr, &s.durableAddr} {
		if *addr, err = testkit.FreeAddr(); err != nil {
			return nil, err
		}
	}
	s.db = botDB(cfg, dir)
	sink, stopSink, err := callbackSink()
	if err != nil {
		return nil, err
	}
	s.stopSink = stopSink
	env := append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "DISCORD_API_URL=http://" + sink + "/api/v10"},
		testkit.BotEnv(s.botAddr, s.key.PublicHex(), s.db)...)
	if cfg.CPUProfile != "" || cfg.Trace != "" {
		if s.pprofAddr, err = testkit.FreeAddr(); err != nil {
			return nil, err
		}
		env = append(env, "PPROF_ADDR="+s.pprofAddr)
	}
	return env, nil
}

// startBounds starts the bound and the durable bound, each a process of
// this executable, with the bot's environment.
func (s *servers) startBounds(cfg Config, dir string, env []string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if s.bound, err = testkit.Start(dir, env, cfg.Log, self, boundArg, s.boundAddr, s.key.PublicHex()); err != nil {
		return err
	}
	// The durable bound's journal is on the disk the SQLite file is on.
	s.durable, err = testkit.Start(dir, env, cfg.Log, self, boundArg, s.durableAddr, s.key.PublicHex(), filepath.Join(dir, "bound.journal"))
	return err
}

// botDB is the bot's DATABASE_URL: a new SQLite file in dir for -db
// sqlite, else -db as given.
func botDB(cfg Config, dir string) string {
	if cfg.DB == "sqlite" {
		return "sqlite://" + filepath.Join(dir, "tttbot.db")
	}
	return cfg.DB
}

// addrs are the addresses of the servers started: the bot's, then the
// bounds' if any.
func (s *servers) addrs() []string {
	if s.bound == nil {
		return []string{s.botAddr}
	}
	return []string{s.botAddr, s.boundAddr, s.durableAddr}
}

// stop closes the client's idle connections and stops the servers started,
// the bounds first and the bot last. Stopping a server twice is harmless.
func (s *servers) stop() {
	if s.client != nil {
		s.client.CloseIdleConnections()
	}
	for _, p := range []*exec.Cmd{s.durable, s.bound, s.bot} {
		if p != nil {
			testkit.Stop(p)
		}
	}
	if s.stopSink != nil {
		s.stopSink()
	}
}

// readTargets are what the reads phases ask about (cfg.Reads).
func (s *servers) readTargets(ctx context.Context, cfg Config, chans []*channel) (readTargets, error) {
	if cfg.Reads == "world" {
		return worldTargets(ctx, s.db, cfg.Prefill)
	}
	return ownTargets(ctx, s.db, chans)
}

// newChannels is the run's cfg.Channels channels, their users and
// interaction IDs new each run.
func newChannels(cfg Config, key *testkit.Signer) []*channel {
	seed := uint64(time.Now().UnixNano())
	chans := make([]*channel, cfg.Channels)
	ids := newIDs(time.Now())
	for n := range chans {
		chans[n] = newChannel(seed, n, key, ids)
		chans[n].buttons = cfg.Buttons
	}
	return chans
}

// sampleRSS samples the bot's RSS and Go heap every period into rep.RSS,
// printing each sample to progress, until the function it returns is
// called; a period of 0 samples nothing.
func (s *servers) sampleRSS(every time.Duration, rep *Report, progress io.Writer) (stop func()) {
	var sampler sync.WaitGroup
	stopSampling := make(chan struct{})
	if every > 0 {
		sampler.Go(func() {
			t := time.NewTicker(every)
			defer t.Stop()
			begin := time.Now()
			for {
				select {
				case <-stopSampling:
					return
				case now := <-t.C:
					kb := rssKB(s.bot.Process.Pid)
					heap := heapInuseKB(s.client, s.botAddr)
					rep.RSS = append(rep.RSS, RSSSample{At: now.Sub(begin), KB: kb, HeapKB: heap})
					fmt.Fprintf(progress, "  rss %6.0fs %7d kB  (Go heap in use %d kB)\n", now.Sub(begin).Seconds(), kb, heap)
				}
			}
		})
	}
	return func() {
		close(stopSampling)
		sampler.Wait()
	}
}

// runPhases drives cfg.Phases rounds of a bot phase followed (unless
// cfg.NoBound) by a bound and a durable phase, adding each to rep and
// printing it to progress as it ends. An interrupted ctx starts no new round.
func (s *servers) runPhases(ctx context.Context, cfg Config, chans []*channel, rep *Report, progress io.Writer) {
	record := func(p Phase) {
		rep.Phases = append(rep.Phases, p)
		fmt.Fprintln(progress, " ", p)
	}
	var targets readTargets
	if cfg.Reads != "" {
		var err error
		if targets, err = s.readTargets(ctx, cfg, chans); err != nil {
			fmt.Fprintln(progress, "  reads:", err)
			cfg.Reads = ""
		}
	}
	for n := range cfg.Phases {
		if ctx.Err() != nil {
			break
		}
		record(s.botPhase(ctx, cfg, chans, n == 0, progress))
		if cfg.Reads != "" {
			r := s.readPhase(ctx, targets, cfg.Phase)
			rep.Reads = append(rep.Reads, r)
			fmt.Fprintln(progress, " ", r)
		}
		if cfg.NoBound {
			continue
		}
		record(s.drive(ctx, "bound", s.boundAddr, chans, cfg.Phase, cfg.Requests))
		record(s.drive(ctx, "durable", s.durableAddr, chans, cfg.Phase, cfg.Requests))
	}
}

// botPhase is one phase of the bot, with what its store committed and its
// RSS at the end. In the first phase (first), the bot's CPU profile
// (cfg.CPUProfile) and execution trace (cfg.Trace) are written meanwhile; a
// failure to is only reported to progress.
func (s *servers) botPhase(ctx context.Context, cfg Config, chans []*channel, first bool, progress io.Writer) Phase {
	type fetched struct {
		what string
		err  error
	}
	var fetches chan fetched
	n := 0
	if first && s.pprofAddr != "" {
		fetches = make(chan fetched, 2)
		for _, f := range []struct {
			what, file string
			d          time.Duration
		}{
			{"profile", cfg.CPUProfile, cfg.Phase - time.Second},
			{"trace", cfg.Trace, min(2*time.Second, cfg.Phase-time.Second)},
		} {
			if f.file != "" {
				n++
				go func() { fetches <- fetched{f.what, fetchProfile(ctx, s.pprofAddr, f.what, f.d, f.file)} }()
			}
		}
	}
	stored := botMetrics(s.client, s.botAddr)
	p := s.drive(ctx, "bot", s.botAddr, chans, cfg.Phase, cfg.Requests)
	p.Batches = batches(stored, botMetrics(s.client, s.botAddr))
	for range n {
		if f := <-fetches; f.err != nil {
			fmt.Fprintf(progress, "  %s: %v\n", f.what, f.err)
		}
	}
	p.RSSKB = rssKB(s.bot.Process.Pid)
	return p
}

// drive is one phase of kind, every channel sending to the server at addr
// for d (or requests a channel); only the bot's replies advance the games.
func (s *servers) drive(ctx context.Context, kind, addr string, chans []*channel, d time.Duration, requests int) Phase {
	proc := map[string]*exec.Cmd{"bot": s.bot, "bound": s.bound, "durable": s.durable}[kind]
	before, machine := cpuTime(proc), sampleMachine()
	p := runPhase(ctx, s.client, "http://"+addr+"/interactions", kind, chans, kind == "bot", d, requests)
	p.CPU = cpuTime(proc) - before
	p.Machine = sampleMachine().since(machine)
	return p
}

// scansSince stops the bot and returns the rows its statements read on
// PostgreSQL since before.
func (s *servers) scansSince(ctx context.Context, db string, before Scans) (*Scans, error) {
	// A busy backend reports its statistics at most once a second and an
	// idle one after a while; one that exits, at once.
	testkit.Stop(s.bot)
	after, err := tableScans(ctx, db)
	if err != nil {
		return nil, err
	}
	return &Scans{SeqRows: after.SeqRows - before.SeqRows, IndexRows: after.IndexRows - before.IndexRows}, nil
}

// build compiles the module the current directory belongs to into dir, as
// the Dockerfile does.
func build(ctx context.Context, dir string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside the tttbot module: %v", err)
	}
	bin := filepath.Join(dir, "tttbot")
	return bin, testkit.Build(ctx, filepath.Dir(gomod), bin)
}

// fetchProfile fetches d of what (net/http/pprof's "profile", the CPU, or
// "trace", an execution trace) from the bot's profiler into file.
func fetchProfile(ctx context.Context, addr, what string, d time.Duration, file string) error {
	secs := max(1, int(d.Seconds()))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/debug/pprof/"+what+"?seconds="+strconv.Itoa(secs), nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", what, res.Status)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, res.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// rssKB is a process's resident set size (VmRSS), 0 when unknown.
func rssKB(pid int) int {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return kb
		}
	}
	return 0
}

// redactDB is db with the credentials of a URL left out, for the report.
func redactDB(db string) string {
	if i := strings.Index(db, "@"); i >= 0 {
		if j := strings.Index(db, "://"); j >= 0 && j < i {
			return db[:j+3] + "…" + db[i:]
		}
	}
	return db
}

// runPhase drives every channel at url for d (or requests a channel),
// advancing the games only when apply is set (the bot; the bound applies
// nothing), and pools what the channels measured.
func runPhase(ctx context.Context, c *http.Client, url, kind string, chans []*channel, apply bool, d time.Duration, requests int) Phase {
	// The phase ends by starting no new request; one in flight finishes, so
	// the channel's script stays in step with what the bot applied.
	stopAt := time.Now().Add(d)
	over := func(k int) bool {
		if requests > 0 {
			return k >= requests || ctx.Err() != nil
		}
		return !time.Now().Before(stopAt) || ctx.Err() != nil
	}
	// Connections left idle by the last phase may be closed by the server
	// (its idle timeout is its read timeout, 10 s, about a phase) just as
	// they are reused, which fails a POST: each phase opens its own.
	c.CloseIdleConnections()
	tallies := make([]channelTally, len(chans))
	var wg sync.WaitGroup
	begin := time.Now()
	for n, ch := range chans {
		wg.Go(func() { driveChannel(ctx, c, url, ch, apply, over, &tallies[n]) })
	}
	wg.Wait()
	p := Phase{Kind: kind, Elapsed: time.Since(begin)}
	for _, t := range tallies {
		p.Latencies = append(p.Latencies, t.latencies...)
		p.Refused += t.refused
		p.Failed += t.failed
		p.Presses += t.presses
		p.Moves += t.moves
		if p.FirstError == "" {
			p.FirstError = t.firstErr
		}
	}
	return p
}

// channelTally is what one channel's requests came to in a phase.
type channelTally struct {
	latencies                       []time.Duration
	refused, failed, presses, moves int // as in Phase
	firstErr                        string
}

// driveChannel sends ch's requests to url one after another until over(k)
// says the phase is over after k of them, counting each into t. With apply,
// each reply advances ch's game. A request cut short by ctx is not counted.
func driveChannel(ctx context.Context, c *http.Client, url string, ch *channel, apply bool, over func(k int) bool, t *channelTally) {
	for k := 0; !over(k); k++ {
		body, err := ch.next()
		if err != nil { // the payloads are embedded: only a broken build gets here
			t.failed++
			t.firstErr = err.Error()
			return
		}
		if ch.step == stepMove {
			t.moves++
		}
		if ch.pressed {
			t.presses++
		}
		req := signedRequest(ctx, url, ch.key, body)
		t0 := time.Now()
		reply, err := send(c, req)
		if ctx.Err() != nil {
			return // interrupted: not counted
		}
		t.latencies = append(t.latencies, time.Since(t0))
		accepted := err == nil && !bytes.Contains(reply, []byte(`"flags":64`))
		t.count(err, accepted, reply)
		if apply {
			ch.done(accepted, reply)
		}
	}
}

// signedRequest is an interaction POST of body to url, signed with key as
// Discord signs its requests.
func signedRequest(ctx context.Context, url string, key *testkit.Signer, body []byte) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	key.Sign(req.Header, body, time.Now())
	return req
}

// send makes req and reads the reply; a status other than 200 is an error
// quoting the reply.
func send(c *http.Client, req *http.Request) ([]byte, error) {
	res, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	reply, err := io.ReadAll(res.Body)
	res.Body.Close()
	// 202: the bot answered through Discord's callback endpoint (a reply
	// with files), as it does for a replay.
	if err == nil && res.StatusCode != http.StatusOK && res.StatusCode != http.StatusAccepted {
		err = fmt.Errorf("%s: %s", res.Status, bytes.TrimSpace(reply))
	}
	return reply, err
}

// count counts a reply that failed (err) or that refused the request (not
// accepted: an ephemeral answer), keeping the channel's first error.
func (t *channelTally) count(err error, accepted bool, reply []byte) {
	switch {
	case err != nil:
		t.failed++
		if t.firstErr == "" {
			t.firstErr = err.Error()
		}
	case !accepted:
		t.refused++
		if t.firstErr == "" {
			t.firstErr = "refused: " + string(reply)
		}
	}
}

// channel is one channel's conversation: Connect Four games one after
// another between two users, the moves chosen at random among the columns
// not full, followed locally so every request is one the bot accepts.
type channel struct {
	id, alice, bob string
	key            *testkit.Signer
	rng            *rand.Rand
	ids            *atomic.Uint64 // shared by every channel: the last interaction ID
	step           step
	sim            *connectFour
	// buttons: moves are presses of the board's column buttons, each
	// carrying the message it sits on (the bot's last reply), as Discord
	// sends them; otherwise /ttt move commands.
	buttons bool
	board   boardMessage
	pressed bool // the last request was a press
	// rendered are the payloads the channel sends, with holes where one
	// request differs from the next (see render).
	rendered map[string][]byte
}

// boardMessage is what a button press needs of the board message the bot
// last sent: its content and components (JSON, as sent) and the state its
// column buttons carry.
type boardMessage struct {
	content, components []byte
	stamp               string
}

type step uint8

const (
	stepNew step = iota
	stepJoin
	stepMove
	stepEnd // after an unexpected refusal: end whatever is open, start again
)

// newChannel is channel n of a run; ids is the run's interaction IDs
// (newIDs), shared by every channel.
func newChannel(seed uint64, n int, key *testkit.Signer, ids *atomic.Uint64) *channel {
	base := 1_000_000_000_000_000_000 + seed%1_000_000_000_000_000 // snowflake-sized, new each run
	return &channel{
		id:       strconv.FormatUint(base+uint64(n), 10),
		alice:    strconv.FormatUint(base+1_000_000+2*uint64(n), 10),
		bob:      strconv.FormatUint(base+1_000_000+2*uint64(n)+1, 10),
		key:      key,
		rng:      rand.New(rand.NewPCG(seed, uint64(n))),
		ids:      ids,
		rendered: map[string][]byte{},
	}
}

// newIDs starts a run's interaction IDs at a Discord snowflake of now. IDs
// are then handed out in the order requests are made, across channels, as
// Discord's are (a snowflake begins with its millisecond): where a store
// keeps handled IDs in order, new ones go at the end, as in production, not
// into one place a channel.
func newIDs(now time.Time) *atomic.Uint64 {
	const discordEpochMs = 1420070400000
	ids := new(atomic.Uint64)
	ids.Store(uint64(now.UnixMilli()-discordEpochMs) << 22)
	return ids
}

// next is the channel's next request's body.
func (c *channel) next() ([]byte, error) {
	id := strconv.FormatUint(c.ids.Add(1), 10)
	c.pressed = false
	switch c.step {
	case stepNew:
		return c.command(id, c.alice, "new", "")
	case stepJoin:
		return c.command(id, c.bob, "join", "")
	case stepMove:
		user := c.alice
		if c.sim.turn == 1 {
			user = c.bob
		}
		col := c.sim.pick(c.rng)
		c.sim.planned = col
		if c.buttons && c.board.stamp != "" {
			c.pressed = true
			return c.press(id, user, "ttt:col:"+c.board.stamp+":"+strconv.Itoa(col))
		}
		return c.command(id, user, "move", strconv.Itoa(col))
	default: // stepEnd
		return c.command(id, c.alice, "end", "")
	}
}

// Holes stand for what changes from one request to the next in a channel's
// rendered payloads (see render). Each is JSON where it stands (the
// message's content and components are whole values, quotes and all), so
// that the kit can check the payload with its holes is JSON.
const (
	holeID         = "HOLE-ID"
	holeButton     = "HOLE-BUTTON"
	holeComponents = `"HOLE-COMPONENTS"`
	holeContent    = `"HOLE-CONTENT"`
)

// newGameOptions are /ttt new's options: Connect Four.
var newGameOptions = []testkit.Option{testkit.Opt("rows", 6), testkit.Opt("columns", 7), testkit.Opt("win", 4), testkit.Opt("gravity", true)}

// command is the interaction id: /ttt sub by user (new: Connect Four; move:
// to position).
func (c *channel) command(id, user, sub, position string) ([]byte, error) {
	return c.render("command.json", sub+" "+user+" "+position, func() map[string]any {
		var opts []testkit.Option
		switch {
		case sub == "new":
			opts = newGameOptions
		case position != "":
			opts = []testkit.Option{testkit.Opt("position", position)}
		}
		return testkit.CommandFields(c.id, user, sub, 0, opts)
	}, holeID, id)
}

// press is the interaction id: user presses the button customID, carrying
// the whole message it sits on, the board the bot last sent.
func (c *channel) press(id, user, customID string) ([]byte, error) {
	return c.render("component.json", "press "+user, func() map[string]any {
		fields := testkit.ComponentFields(c.id, user, holeButton)
		fields["MessageContent"], fields["MessageComponents"] = holeContent, holeComponents
		return fields
	}, holeID, id, holeButton, customID, holeComponents, string(c.board.components), holeContent, string(c.board.content))
}

// render is the payload file filled with fields, key naming them. A channel
// fills each template once a key (its interaction ID a hole) and then only
// puts each request's values in its holes, given as hole, value pairs:
// filling a template costs ten times that, on the CPUs the bot is measured
// on.
func (c *channel) render(file, key string, fields func() map[string]any, holes ...string) ([]byte, error) {
	body, ok := c.rendered[key]
	if !ok {
		f := fields()
		f["ID"] = holeID
		var err error
		if body, err = testkit.Payload(file, f); err != nil {
			return nil, err
		}
		c.rendered[key] = body
	}
	for k := 0; k+1 < len(holes); k += 2 {
		body = bytes.Replace(body, []byte(holes[k]), []byte(holes[k+1]), 1)
	}
	return body, nil
}

// done advances the conversation after the bot answered the last request
// (accepted: ok) with reply.
func (c *channel) done(ok bool, reply []byte) {
	if c.buttons {
		c.board = readBoard(reply)
	}
	switch {
	case !ok:
		c.step = stepEnd
	case c.step == stepNew:
		c.step = stepJoin
	case c.step == stepJoin:
		c.sim = newConnectFour()
		c.step = stepMove
	case c.step == stepMove:
		if c.sim.play(c.sim.planned) {
			c.step = stepNew
		}
	case c.step == stepEnd:
		c.step = stepNew
	}
}

// readBoard reads the board message out of the bot's reply: its content,
// its components, and the state its column buttons carry (empty when it
// has none: the next move is then a command).
func readBoard(reply []byte) boardMessage {
	var r struct {
		Data struct {
			Content    json.RawMessage `json:"content"`
			Components json.RawMessage `json:"components"`
		} `json:"data"`
	}
	if json.Unmarshal(reply, &r) != nil || len(r.Data.Components) == 0 {
		return boardMessage{}
	}
	if len(r.Data.Content) == 0 {
		r.Data.Content = json.RawMessage(`""`) // a Components V2 card: its text is in its components
	}
	b := boardMessage{content: r.Data.Content, components: r.Data.Components}
	const prefix = `"custom_id":"ttt:col:`
	if i := bytes.Index(b.components, []byte(prefix)); i >= 0 {
		rest := b.components[i+len(prefix):]
		if j := bytes.IndexByte(rest, ':'); j > 0 {
			b.stamp = string(rest[:j])
		}
	}
	return b
}

// Phase is one phase's measurements.
type Phase struct {
	Kind       string // "bot", "bound" or "durable" (the bound with a synced journal)
	Elapsed    time.Duration
	Latencies  []time.Duration
	Refused    int // answered, but ephemeral: a refusal the script did not expect
	Moves      int // requests that were moves
	Presses    int // moves that were button presses (-buttons)
	Failed     int // not 200, or no answer
	FirstError string
	RSSKB      int           // the bot's RSS at the phase's end (bot phases)
	CPU        time.Duration // the server's CPU time (user and system) during the phase
	Machine    MachineCPU    // every process's CPU during the phase, the load tool's among them
	Batches    Batches       // the bot's store during the phase (bot phases)
}

// Throughput is replies a second.
func (p Phase) Throughput() float64 { return float64(len(p.Latencies)) / p.Elapsed.Seconds() }

func (p Phase) String() string {
	s := fmt.Sprintf("%-7s %6d req in %5.1fs: %7.0f/s  p50 %6.2fms  p99 %6.2fms", p.Kind, len(p.Latencies), p.Elapsed.Seconds(),
		p.Throughput(), ms(quantile(p.Latencies, 0.50)), ms(quantile(p.Latencies, 0.99)))
	if p.CPU > 0 && len(p.Latencies) > 0 {
		s += fmt.Sprintf("  cpu %.0fµs/req", float64(p.CPU.Microseconds())/float64(len(p.Latencies)))
	}
	if m := p.Machine.String(len(p.Latencies)); m != "" {
		s += "  " + m
	}
	if p.RSSKB > 0 {
		s += fmt.Sprintf("  rss %d kB", p.RSSKB)
	}
	if b := p.Batches.String(); b != "" {
		s += "  " + b
	}
	if p.Refused+p.Failed > 0 {
		s += fmt.Sprintf("  refused %d failed %d (first: %.200s)", p.Refused, p.Failed, p.FirstError)
	}
	return s
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func quantile(lat []time.Duration, q float64) time.Duration {
	if len(lat) == 0 {
		return 0
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// RSSSample is the bot's resident memory at a time into the run, and the
// part of it that is Go heap in use (from /metrics; the rest is the
// runtime, SQLite's own allocations and mapped files).
type RSSSample struct {
	At     time.Duration
	KB     int
	HeapKB int
}

// botMetrics reads the bot's /metrics; nil when it cannot.
func botMetrics(c *http.Client, addr string) map[string]float64 {
	m, err := testkit.Metrics(c, addr)
	if err != nil {
		return nil
	}
	return m
}

// heapInuseKB is go_memstats_heap_inuse_bytes from the bot's /metrics; 0
// when unknown.
func heapInuseKB(c *http.Client, addr string) int {
	return int(botMetrics(c, addr)["go_memstats_heap_inuse_bytes"] / 1024)
}

// Batches is what the bot's store committed during a phase (its
// tttbot_store_ counters): how its group commit shared COMMITs.
type Batches struct {
	Commits, Writes float64
	Busy            time.Duration // the writer's time in batches
}

// batches is the change in the store's counters from before to after; zero
// when the bot has none (the memory store) or they could not be read.
func batches(before, after map[string]float64) Batches {
	d := func(name string) float64 { return after[name] - before[name] }
	if before == nil || after == nil {
		return Batches{}
	}
	return Batches{Commits: d("tttbot_store_commits_total"), Writes: d("tttbot_store_writes_total"),
		Busy: time.Duration(d("tttbot_store_busy_seconds_total") * float64(time.Second))}
}

func (b Batches) String() string {
	if b.Commits <= 0 {
		return ""
	}
	return fmt.Sprintf("%.1f writes/commit, %.2fms a batch", b.Writes/b.Commits, ms(time.Duration(float64(b.Busy)/b.Commits)))
}

// Report is one run: the phases, and both kinds pooled.
type Report struct {
	Channels int
	DB       string
	Start    int // the bot's RSS before the load, kB
	Phases   []Phase
	RSS      []RSSSample
	Scans    *Scans // PostgreSQL only: rows the bot's statements read
	Prefill  *PrefillReport
	Startup  Startup
	Reads    []ReadPhase
}

// Pooled is every phase of kind together: throughput is all replies over all
// their time.
func (r *Report) Pooled(kind string) Phase {
	p := Phase{Kind: kind}
	for _, ph := range r.Phases {
		if ph.Kind == kind {
			p.Elapsed += ph.Elapsed
			p.Latencies = append(p.Latencies, ph.Latencies...)
			p.Refused += ph.Refused
			p.Failed += ph.Failed
			p.Presses += ph.Presses
			p.Moves += ph.Moves
			p.CPU += ph.CPU
			p.Machine = p.Machine.add(ph.Machine)
			p.Batches.Commits += ph.Batches.Commits
			p.Batches.Writes += ph.Batches.Writes
			p.Batches.Busy += ph.Batches.Busy
		}
	}
	return p
}

// Print writes the summary: both kinds pooled, the ratios, and the spread
// of the bot's phases (the noise).
func (r *Report) Print(w io.Writer) {
	bot, bound := r.Pooled("bot"), r.Pooled("bound")
	fmt.Fprintf(w, "== %d channels, %s\n", r.Channels, r.DB)
	if bot.Presses > 0 {
		fmt.Fprintf(w, "   moves by button: %d of the bot's %d moves were presses (%d requests)\n", bot.Presses, bot.Moves, len(bot.Latencies))
	}
	fmt.Fprintln(w, "  ", bot)
	if r.Scans != nil {
		fmt.Fprintf(w, "   postgres rows read: %d by sequential scans, %d by index scans\n", r.Scans.SeqRows, r.Scans.IndexRows)
	}
	var lo, hi float64
	for _, ph := range r.Phases {
		if ph.Kind == "bot" {
			t := ph.Throughput()
			if lo == 0 || t < lo {
				lo = t
			}
			hi = max(hi, t)
		}
	}
	r.printReads(w)
	if len(bound.Latencies) == 0 {
		fmt.Fprintf(w, "   bot phases %.0f–%.0f/s\n", lo, hi)
		return
	}
	fmt.Fprintln(w, "  ", bound)
	durable := r.Pooled("durable")
	fmt.Fprintln(w, "  ", durable)
	fmt.Fprintf(w, "   ratio bot/bound:   throughput %.2f×  p50 %.1f×  p99 %.1f×   (bot phases %.0f–%.0f/s)\n",
		bot.Throughput()/bound.Throughput(),
		ms(quantile(bot.Latencies, 0.5))/ms(quantile(bound.Latencies, 0.5)),
		ms(quantile(bot.Latencies, 0.99))/ms(quantile(bound.Latencies, 0.99)), lo, hi)
	fmt.Fprintf(w, "   ratio bot/durable: throughput %.2f×  p50 %.1f×  p99 %.1f×   (durable/bound %.2f×)\n",
		bot.Throughput()/durable.Throughput(),
		ms(quantile(bot.Latencies, 0.5))/ms(quantile(durable.Latencies, 0.5)),
		ms(quantile(bot.Latencies, 0.99))/ms(quantile(durable.Latencies, 0.99)),
		durable.Throughput()/bound.Throughput())
	if b, d := bot.Machine.PerRequest(len(bot.Latencies)), durable.Machine.PerRequest(len(durable.Latencies)); b > 0 && d > 0 {
		// On a machine that is as busy in both phases, this is the
		// throughput ratio: what is left of the gap is CPU a move.
		fmt.Fprintf(w, "   machine CPU a move: bot %.0fµs, durable %.0fµs: durable/bot %.2f×   (busy %.0f%% and %.0f%%)\n",
			us(b), us(d), float64(d)/float64(b), 100*bot.Machine.BusyShare(), 100*durable.Machine.BusyShare())
	}
}

// printReads writes each read command's latencies over every reads phase.
func (r *Report) printReads(w io.Writer) {
	if len(r.Reads) == 0 {
		return
	}
	for _, k := range readKinds {
		var lat []time.Duration
		refused := 0
		for _, p := range r.Reads {
			lat = append(lat, p.Latencies[k]...)
			refused += p.Refused[k]
		}
		fmt.Fprintf(w, "   read %-22s n=%5d  p50 %6.2fms  p99 %7.2fms", k, len(lat), ms(quantile(lat, 0.5)), ms(quantile(lat, 0.99)))
		if refused > 0 {
			fmt.Fprintf(w, "  refused %d", refused)
		}
		fmt.Fprintln(w)
	}
}

// lockedWriter lets several goroutines write to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
