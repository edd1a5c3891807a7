package table

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// DefaultIdleTimeout is how long an open game waits for an action before it
// ends (GAME_IDLE_TIMEOUT's default).
const DefaultIdleTimeout = 24 * time.Hour

// maxCached bounds the table cache; past it an arbitrary entry is dropped
// (the store always has the table, the cache only saves a replay).
const maxCached = 4096

// Options configure Tables.
type Options struct {
	Store       Store            // where tables and results live (required)
	Now         func() time.Time // the application's one clock; nil means time.Now
	IdleTimeout time.Duration    // an open game with no action this long ends; 0 means DefaultIdleTimeout
	Logger      *slog.Logger     // nil discards
	// SoleWriter says that no other process writes Store (the embedded
	// SQLite file, the memory store): a table this process saved is then
	// still the stored one, and an action on it needs no read. Were the
	// promise broken (two bots on one file), nothing would be lost: the
	// save's compare-and-swap fails, the user is told to try again, and
	// the next action reads the store.
	SoleWriter bool
}

// Tables runs actions on channels' tables. It is safe for concurrent use:
// actions in one channel are serialised by that channel's lock, and the
// store's versioned writes keep several processes from overwriting each
// other.
type Tables struct {
	store Store
	now   func() time.Time
	idle  time.Duration
	log   *slog.Logger

	mu    sync.Mutex
	locks map[string]*channelLock // one per channel in use
	cache map[string]*Table       // open tables as last saved or read, at their version
	trust bool                    // Options.SoleWriter: a cached table is the stored one
	seen  recentIDs               // with trust: deliveries this process handled, for the dedupe a skipped read would have made

	clocks    clockHooks                 // clock.go
	threads   threadHooks                // archive.go
	reports   reportHooks                // tournament.go
	documents map[string]DocumentDueFunc // document.go: by key prefix; under mu
}

// channelLock serialises actions in one channel; it is dropped from the map
// when nobody holds or waits for it, so the map stays the size of the
// channels in use, not of every channel ever seen.
type channelLock struct {
	sync.Mutex
	refs int
}

// NewTables returns Tables over opt.Store.
func NewTables(opt Options) *Tables {
	ts := &Tables{store: opt.Store, now: opt.Now, idle: opt.IdleTimeout, log: opt.Logger,
		locks: map[string]*channelLock{}, cache: map[string]*Table{}, trust: opt.SoleWriter}
	if ts.now == nil {
		ts.now = time.Now
	}
	if ts.idle <= 0 {
		ts.idle = DefaultIdleTimeout
	}
	if ts.log == nil {
		ts.log = slog.New(slog.DiscardHandler)
	}
	return ts
}

// Now is the application's clock, the one every time stamp comes from.
func (ts *Tables) Now() time.Time { return ts.now() }

// Action decides what to do with a channel's table. cur is the current table
// (nil when the channel never had one). It returns the table to save (nil
// when nothing changed); it must check everything before it changes anything,
// and return an error for any refusal.
type Action func(ctx context.Context, cur *Table) (*Table, error)

// Do runs act under the channel's lock with the channel's freshest table
// (an open game idle past the timeout has expired first), and saves what act
// returned before it returns. Tables are shared between actions, so act must
// take from them everything the caller needs (the reply) before it returns:
// after the lock is released the next action may change them. act may run
// twice in one Do (see tryCached), so it must keep nothing of a run but what
// the last run returned or set.
func (ts *Tables) Do(ctx context.Context, channel string, act Action) error {
	return ts.do(ctx, channel, nil, act)
}

// do is Do, recording d (nil: none) with the action's save.
func (ts *Tables) do(ctx context.Context, channel string, d *delivery, act Action) (err error) {
	defer ts.lock(channel)()
	defer func() {
		if !errors.Is(err, ErrElsewhere) { // the interaction goes on in another channel, which records it
			ts.handled(d)
		}
	}()
	if !ts.trust {
		if cur := ts.takeCached(channel); cur != nil {
			if settled, err := ts.tryCached(ctx, cur, d, act); settled {
				return err
			}
		}
	}
	cur, err := ts.load(ctx, channel, d)
	if err != nil {
		return err
	}
	_, err = ts.apply(ctx, channel, cur, d, act)
	return err
}

// takeCached takes the channel's table from the cache (nil when it is not
// there): the action may change it, and it comes back when saved.
func (ts *Tables) takeCached(channel string) *Table {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.cache[channel]
	delete(ts.cache, channel)
	return t
}

// tryCached runs act on the table this process last saved or read, without
// reading the store first: another replica may have moved since, so what
// act did stands (settled) only once the store has confirmed the table was
// current. A save confirms it by itself: its compare-and-swap on the
// version fails on a stale table, and its delivery record refuses an
// interaction handled before. An action that saved nothing (a refusal, a
// look at the board) is confirmed by one read afterwards, the read the
// action would otherwise have made before, which also finds a duplicate.
// When the table was stale, nothing was written and act runs again on the
// stored table: read here when act saved nothing, and by Do after a lost
// swap. On PostgreSQL this saves a round trip for every move, the
// most common action.
func (ts *Tables) tryCached(ctx context.Context, cur *Table, d *delivery, act Action) (settled bool, err error) {
	saved, err := ts.apply(ctx, cur.Channel, cur, d, act)
	switch {
	case errors.Is(err, ErrConflict):
		return false, nil // stale: nothing of act's saved; read and run again
	case saved:
		return true, err
	}
	// Nothing saved: act's refusal, a look, or a save that failed
	// otherwise (a duplicate, the store). The read tells which stands.
	data, version, found, rerr := ts.loadStored(ctx, cur.Channel, d)
	if rerr != nil {
		return true, rerr // a duplicate, or the store failing
	}
	if found && version == cur.version {
		return true, err
	}
	// Stale: run act again on the table just read (no second read).
	ts.forget(cur.Channel) // act may have kept the stale table
	var stored *Table
	if found {
		if stored, err = decode(data, version); err != nil {
			return true, err
		}
	}
	_, err = ts.apply(ctx, cur.Channel, stored, d, act)
	return true, err
}

// apply is Do's work on cur, the channel's table as loaded (nil when none):
// a run-out clock or lapsed challenge and the idle timeout first, then act and its save, which
// records d. saved says whether any of its saves won a compare-and-swap
// (cur was then the stored table).
func (ts *Tables) apply(ctx context.Context, channel string, cur *Table, d *delivery, act Action) (saved bool, err error) {
	if cur != nil {
		if saved, err = ts.applyBeforeAction(ctx, cur); err != nil {
			return false, err
		}
	}
	if ts.Idle(cur) {
		if err := ts.expire(ctx, cur); err != nil {
			return saved, err
		}
		saved = true
	}
	next, err := act(ctx, cur)
	if err != nil {
		ts.forget(channel) // a refused action changed nothing, but be sure
		return saved, err
	}
	if next == nil {
		ts.remember(cur) // unchanged: still good at its version
		return saved, nil
	}
	// Only the action's own save records the delivery: an expiry or a
	// clock run out above is the bot's doing, not this interaction's.
	if err := ts.save(ctx, next, d); err != nil {
		return saved, err
	}
	return true, nil
}

// Peek runs read under the channel's lock with its current table (nil when
// none), changing nothing.
func (ts *Tables) Peek(ctx context.Context, channel string, read func(cur *Table)) error {
	defer ts.lock(channel)()
	cur, err := ts.load(ctx, channel, nil)
	if err != nil {
		return err
	}
	defer ts.remember(cur)
	read(cur)
	return nil
}

// IdleTimeout is how long an open game waits for an action before it
// ends (Options.IdleTimeout): other things left waiting, such as a
// tournament nobody starts, lapse after as long.
func (ts *Tables) IdleTimeout() time.Duration { return ts.idle }

// Idle reports whether t is an open game nobody has touched for the idle
// timeout: Do ends it before the next action, so a reader (autocomplete)
// should treat it as ended already.
func (ts *Tables) Idle(t *Table) bool {
	return t != nil && t.Phase.Open() && ts.now().Sub(t.Updated) > ts.idle
}

// expire ends an open table nobody has touched for the idle timeout.
func (ts *Tables) expire(ctx context.Context, t *Table) error {
	t.Phase, t.EndReason = Ended, Expired
	if err := ts.save(ctx, t, nil); err != nil {
		return err
	}
	ts.log.Info("game expired", "channel", t.Channel, "idle", ts.idle)
	return nil
}

// lock takes the channel's lock and returns its release.
func (ts *Tables) lock(channel string) func() {
	ts.mu.Lock()
	l := ts.locks[channel]
	if l == nil {
		l = &channelLock{}
		ts.locks[channel] = l
	}
	l.refs++
	ts.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		ts.mu.Lock()
		l.refs--
		if l.refs == 0 {
			delete(ts.locks, channel)
		}
		ts.mu.Unlock()
	}
}

// load reads the channel's table from the store. Unless this process is
// the sole writer, the store is always asked (another replica may have
// moved); the cache then only saves decoding and replaying when the version
// has not changed. (Do asks only when the cache cannot answer: see
// tryCached.) When d is a delivery not saved yet, the same read finds an
// interaction handled before, which fails with ErrDuplicate (a sole
// writer's cached table is checked against the deliveries it handled
// itself).
func (ts *Tables) load(ctx context.Context, channel string, d *delivery) (*Table, error) {
	if ts.trust {
		if t, err := ts.loadTrusted(channel, d); t != nil || err != nil {
			return t, err
		}
	}
	data, version, found, err := ts.loadStored(ctx, channel, d)
	if err != nil || !found {
		return nil, err
	}
	if cached := ts.takeCached(channel); cached != nil && cached.version == version {
		return cached, nil
	}
	return decode(data, version)
}

// loadTrusted takes the channel's table from a sole writer's cache: nil
// when it is not there. The delivery check the store's read would have made
// is made first against the IDs this process handled; one handled before a
// restart and replayed after it is still refused by its save, which
// records the ID under a unique key.
func (ts *Tables) loadTrusted(channel string, d *delivery) (*Table, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if d != nil && !d.saved && ts.seen.has(d.id) {
		return nil, fmt.Errorf("interaction %s: %w", d.id, ErrDuplicate)
	}
	t := ts.cache[channel]
	delete(ts.cache, channel) // the action may change it; it comes back when saved
	return t, nil
}

// handled notes, for a sole writer, that delivery d (nil: none) has been
// handled: saved, refused, or answered without a change (the transport
// then records it in the store by other means).
func (ts *Tables) handled(d *delivery) {
	if !ts.trust || d == nil {
		return
	}
	ts.mu.Lock()
	ts.seen.add(d.id)
	ts.mu.Unlock()
}

// loadStored is the store's read for load.
func (ts *Tables) loadStored(ctx context.Context, channel string, d *delivery) ([]byte, int64, bool, error) {
	if d == nil || d.saved {
		return ts.store.LoadTable(ctx, channel)
	}
	data, version, found, handled, err := ts.store.LoadTableHandled(ctx, channel, d.id)
	if err == nil && handled {
		err = fmt.Errorf("interaction %s: %w", d.id, ErrDuplicate)
	}
	return data, version, found, err
}

// save writes t with a compare-and-swap on the version it was read at, the
// result of a game that finished in this action, and the delivery d of the
// interaction that asked for it (nil: none, or not this save's to record).
// A delivery already recorded fails the save with ErrDuplicate, having
// changed nothing; d is marked saved once recorded, so a later save in the
// same request does not record it twice.
func (ts *Tables) save(ctx context.Context, t *Table, d *delivery) error {
	t.Updated = ts.now()
	t.ArmClock(t.Updated)
	t.armArchive(t.Updated)
	data, err := t.encode()
	if err != nil {
		return err
	}
	save := Save{Channel: t.Channel, Guild: t.Guild, Data: data, Version: t.version, Now: t.Updated, Result: t.result, Deadline: t.NextDue(), Open: t.Phase.Open()}
	if d != nil && !d.saved {
		save.Delivery = d.id
	}
	version, saved, err := ts.store.SaveTable(ctx, save)
	if err != nil {
		return fmt.Errorf("save table of channel %s: %w", t.Channel, err)
	}
	if !saved {
		return ErrConflict
	}
	if save.Delivery != "" {
		d.saved = true
	}
	t.version, t.result = version, nil
	ts.remember(t)
	ts.deadlineSaved(t.NextDue())
	return nil
}

// remember caches an open table at its version. A finished one is kept
// only by a sole writer, whose next action in the channel (a new game, a
// rematch) would otherwise read it back, with its delivery check, from the
// store: a replica reads the store for that action anyway, and finished
// tables are not worth its memory.
func (ts *Tables) remember(t *Table) {
	if t == nil {
		return
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if !t.Phase.Open() && !ts.trust {
		delete(ts.cache, t.Channel)
		return
	}
	if _, ok := ts.cache[t.Channel]; !ok && len(ts.cache) >= maxCached {
		for ch := range ts.cache {
			delete(ts.cache, ch)
			break
		}
	}
	ts.cache[t.Channel] = t
}

func (ts *Tables) forget(channel string) {
	ts.mu.Lock()
	delete(ts.cache, channel)
	ts.mu.Unlock()
}

// Load returns the channel's table as stored now (nil when none), for tests
// and tools that only look: another action may change it at any time after.
func (ts *Tables) Load(ctx context.Context, channel string) (*Table, error) {
	var t *Table
	err := ts.Peek(ctx, channel, func(cur *Table) { t = cur })
	return t, err
}
