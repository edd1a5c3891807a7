package store

import (
	"context"
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
}

type memTable struct {
	data    []byte
	version int64
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{tables: map[string]memTable{}, tallies: map[[2]string]*table.Tally{}, handled: map[string]time.Time{}}
}

// LoadTable implements table.Store.
func (m *Memory) LoadTable(_ context.Context, channel string) ([]byte, int64, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tables[channel]
	return slices.Clone(t.data), t.version, ok, nil
}

// SaveTable implements table.Store.
func (m *Memory) SaveTable(_ context.Context, s table.Save) (int64, bool, error) {
	channel, data, version, result := s.Channel, s.Data, s.Version, s.Result
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tables[channel].version != version {
		return 0, false, nil
	}
	m.tables[channel] = memTable{data: slices.Clone(data), version: version + 1}
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
	}
	return version + 1, true, nil
}

// Tally implements table.Store.
func (m *Memory) Tally(_ context.Context, scope, player string) (table.Tally, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t := m.tallies[[2]string{scope, player}]; t != nil {
		return *t, nil
	}
	return table.Tally{Player: player}, nil
}

// Leaderboard implements table.Store.
func (m *Memory) Leaderboard(_ context.Context, scope string, limit int) ([]table.Tally, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []table.Tally
	for key, t := range m.tallies {
		if key[0] == scope {
			out = append(out, *t)
		}
	}
	sortStandings(out)
	return out[:min(limit, len(out))], nil
}

// sortStandings orders tallies best first: most wins, then fewest losses,
// then most draws, then by player ID so the order is stable.
func sortStandings(ts []table.Tally) {
	slices.SortFunc(ts, func(a, b table.Tally) int {
		switch {
		case a.Wins != b.Wins:
			return b.Wins - a.Wins
		case a.Losses != b.Losses:
			return a.Losses - b.Losses
		case a.Draws != b.Draws:
			return b.Draws - a.Draws
		}
		return strings.Compare(a.Player, b.Player)
	})
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

// FirstDelivery reports whether this is the interaction's first delivery to
// this process, remembering it for a day (as *SQL does, across nothing).
func (m *Memory) FirstDelivery(_ context.Context, interactionID string, now time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if now.Sub(m.pruned) > pruneEvery {
		for id, at := range m.handled {
			if now.Sub(at) > keepDeliveries {
				delete(m.handled, id)
			}
		}
		m.pruned = now
	}
	if _, seen := m.handled[interactionID]; seen {
		return false, nil
	}
	m.handled[interactionID] = now
	return true, nil
}

// Ready reports nil: memory always accepts writes.
func (m *Memory) Ready(context.Context) error { return nil }
