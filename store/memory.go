package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tttbot/tttbot/table"
)

// Memory keeps everything in process memory: nothing survives a restart. It
// is the reference the durable stores are tested against.
type Memory struct {
	mu      sync.Mutex
	tables  map[string]memTable
	tallies map[[2]string]*table.Tally // scope, player
	handled map[string]time.Time       // interaction ID → when first delivered
	pruned  time.Time
	due     map[string]time.Time // open games' clock deadlines, by channel
	games   []table.Finished     // in the order they finished; ID = index + 1
	ratings map[ratingKey]*table.Standing
}

type ratingKey struct {
	scope  string
	kind   table.Kind
	player string
}

type memTable struct {
	data    []byte
	version int64
	open    bool // an open game (Save.Open)
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{tables: map[string]memTable{}, tallies: map[[2]string]*table.Tally{}, handled: map[string]time.Time{},
		ratings: map[ratingKey]*table.Standing{}}
}

// LoadTable implements table.Store.
func (m *Memory) LoadTable(_ context.Context, channel string) ([]byte, int64, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tables[channel]
	return slices.Clone(t.data), t.version, ok, nil
}

// LoadTableHandled implements table.Store.
func (m *Memory) LoadTableHandled(_ context.Context, channel, interactionID string) ([]byte, int64, bool, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tables[channel]
	_, handled := m.handled[interactionID]
	return slices.Clone(t.data), t.version, ok, handled, nil
}

// SaveTable implements table.Store.
func (m *Memory) SaveTable(_ context.Context, s table.Save) (int64, bool, error) {
	channel, data, version, result := s.Channel, s.Data, s.Version, s.Result
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tables[channel].version != version {
		return 0, false, nil
	}
	if _, seen := m.handled[s.Delivery]; seen && s.Delivery != "" {
		return 0, false, fmt.Errorf("save table: delivery %s: %w", s.Delivery, table.ErrDuplicate)
	}
	if result != nil && result.Rated() { // rate first: a failure changes nothing
		if err := m.rate(result); err != nil {
			return 0, false, err
		}
	}
	m.tables[channel] = memTable{data: slices.Clone(data), version: version + 1, open: s.Open}
	if s.Delivery != "" {
		m.remember(s.Delivery, s.Now)
	}
	m.setDeadline(channel, s.Deadline)
	if result != nil {
		for i, p := range result.Players {
			key := [2]string{result.Scope, p}
			t := m.tallies[key]
			if t == nil {
				t = &table.Tally{Player: p}
				m.tallies[key] = t
			}
			t.Add(result.Outcome(i))
		}
		m.record(s.Now, result)
	}
	return version + 1, true, nil
}

// GamesOpen implements table.GameCounter: the tables whose last save was
// an open game, counted when asked (a scrape), not on every save.
func (m *Memory) GamesOpen(context.Context) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var n int64
	for _, t := range m.tables {
		if t.open {
			n++
		}
	}
	return n, nil
}

// Tally implements table.Records.
func (m *Memory) Tally(_ context.Context, scope, player string) (table.Tally, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t := m.tallies[[2]string{scope, player}]; t != nil {
		return *t, nil
	}
	return table.Tally{Player: player}, nil
}

// setDeadline keeps the channel's clock deadline; zero removes it.
func (m *Memory) setDeadline(channel string, due time.Time) {
	if due.IsZero() {
		delete(m.due, channel)
		return
	}
	if m.due == nil {
		m.due = map[string]time.Time{}
	}
	m.due[channel] = due
}

// NextDeadline implements table.DeadlineStore.
func (m *Memory) NextDeadline(context.Context) (time.Time, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var next time.Time
	for _, due := range m.due {
		if next.IsZero() || due.Before(next) {
			next = due
		}
	}
	return next, !next.IsZero(), nil
}

// DueChannels implements table.DeadlineStore.
func (m *Memory) DueChannels(_ context.Context, now time.Time, limit int) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for ch, due := range m.due {
		if !due.After(now) {
			out = append(out, ch)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if c := m.due[a].Compare(m.due[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out[:min(limit, len(out))], nil
}

// rate moves the ratings of r's players by one game in each of its scopes.
func (m *Memory) rate(r *table.Result) error {
	var updates []table.Standing
	for _, scope := range r.RatingScopes() {
		cur := make([]table.Standing, len(r.Players))
		for i, p := range r.Players {
			cur[i] = table.NewStanding(scope, r.Kind(), p)
			if st := m.ratings[ratingKey{scope, r.Kind(), p}]; st != nil {
				cur[i] = *st
			}
		}
		next, err := r.Rate(cur)
		if err != nil {
			return err
		}
		updates = append(updates, next...)
	}
	for _, st := range updates { // only once every scope is rated: a failure changes nothing
		m.ratings[ratingKey{st.Scope, st.Kind, st.Player}] = &st
	}
	return nil
}

// record keeps a finished game for history and replays.
func (m *Memory) record(now time.Time, r *table.Result) {
	cp := *r
	cp.Players, cp.Tokens = slices.Clone(r.Players), slices.Clone(r.Tokens)
	cp.Record, cp.Places, cp.Finishes = slices.Clone(r.Record), slices.Clone(r.Places), slices.Clone(r.Finishes)
	m.games = append(m.games, table.Finished{ID: int64(len(m.games) + 1), At: now, Result: cp})
}

// Ratings implements table.Records.
func (m *Memory) Ratings(_ context.Context, scope, player string) ([]table.Standing, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []table.Standing
	for _, k := range table.Kinds() {
		if st := m.ratings[ratingKey{scope, k, player}]; st != nil {
			out = append(out, *st)
		}
	}
	return out, nil
}

// RatingBoard implements table.Records.
func (m *Memory) RatingBoard(_ context.Context, scope string, kind table.Kind, limit int) ([]table.Standing, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []table.Standing
	for k, st := range m.ratings {
		if k.scope == scope && k.kind == kind && st.Games > 0 {
			out = append(out, *st)
		}
	}
	slices.SortFunc(out, func(a, b table.Standing) int {
		if c := cmp.Compare(b.Rating.Ordinal(), a.Rating.Ordinal()); c != 0 {
			return c
		}
		return strings.Compare(a.Player, b.Player)
	})
	return out[:min(limit, len(out))], nil
}

// History implements table.Records.
func (m *Memory) History(_ context.Context, q table.HistoryQuery) ([]table.Finished, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []table.Finished
	skip := q.Offset
	for i := len(m.games) - 1; i >= 0 && len(out) < q.Limit; i-- {
		f := m.games[i]
		if f.Seat(q.Player) < 0 || q.Scope != table.Everywhere && f.Result.Scope != q.Scope {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

// FinishedGame implements table.Records.
func (m *Memory) FinishedGame(_ context.Context, id int64) (table.Finished, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id < 1 || id > int64(len(m.games)) {
		return table.Finished{}, false, nil
	}
	return m.games[id-1], true, nil
}

// LastFinished implements table.Records.
func (m *Memory) LastFinished(_ context.Context, channel string) (table.Finished, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.games) - 1; i >= 0; i-- {
		if m.games[i].Result.Channel == channel {
			return m.games[i], true, nil
		}
	}
	return table.Finished{}, false, nil
}

// Handled reports whether the interaction was recorded as handled: by a
// save (table.Save.Delivery) or Remember.
func (m *Memory) Handled(_ context.Context, interactionID string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, seen := m.handled[interactionID]
	return seen, nil
}

// Remember records the interaction as handled (by an action that saved
// nothing).
func (m *Memory) Remember(_ context.Context, interactionID string, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, seen := m.handled[interactionID]; !seen {
		m.remember(interactionID, now)
	}
}

// remember records an interaction ID, forgetting those older than a day
// every PruneEvery. m.mu is held.
func (m *Memory) remember(interactionID string, now time.Time) {
	if now.Sub(m.pruned) > PruneEvery {
		for id, at := range m.handled {
			if now.Sub(at) > HandledFor {
				delete(m.handled, id)
			}
		}
		m.pruned = now
	}
	m.handled[interactionID] = now
}

// Ready reports nil: memory always accepts writes.
func (m *Memory) Ready(context.Context) error { return nil }
