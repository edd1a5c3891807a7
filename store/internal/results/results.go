// Package results is what a finished game writes in a durable store, the
// same on every database: the game's row, its players' rows, and the
// ratings it moves, computed from the rows read in the save's transaction.
package results

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tttbot/tttbot/table"
)

// Row is what a result writes: the game's row and its players' columns,
// one entry a seat.
type Row struct {
	Game                        []any // results' columns, as Insert names them
	Players, Outcomes, Finishes []string
	Seats, Places               []int64
}

// Insert writes a game's row (Row.Game's arguments) and returns its id.
const Insert = `INSERT INTO results (scope, rows_n, cols_n, win_n, gravity, moves, finished_at, channel, kind, tokens, record, reason)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`

// RowOf returns what r writes, recorded at now as stamp keeps times.
func RowOf(now time.Time, r *table.Result, stamp func(time.Time) any) (Row, error) {
	record, err := r.Record.MarshalText()
	if err != nil {
		return Row{}, err
	}
	n := len(r.Players)
	row := Row{
		Game: []any{r.Scope, r.Rules.Rows, r.Rules.Cols, r.Rules.Win, r.Rules.Gravity, r.Moves, stamp(now),
			r.Channel, r.Kind().String(), strings.Join(r.Tokens, " "), string(record), r.Reason.String()},
		Players: make([]string, n), Outcomes: make([]string, n), Finishes: make([]string, n),
		Seats: make([]int64, n), Places: make([]int64, n),
	}
	for i, p := range r.Players {
		row.Players[i], row.Seats[i], row.Outcomes[i], row.Finishes[i] = p, int64(i), r.Outcome(i).String(), r.Finish(i).String()
		if i < len(r.Places) {
			row.Places[i] = int64(r.Places[i])
		}
	}
	return row, nil
}

// Key names a rating row.
type Key struct {
	Scope  string
	Kind   table.Kind
	Player string
}

// compare orders rating rows bytewise by scope, kind, player: the order
// they are locked in.
func (k Key) compare(o Key) int {
	return cmp.Or(strings.Compare(k.Scope, o.Scope), strings.Compare(k.Kind.String(), o.Kind.String()), strings.Compare(k.Player, o.Player))
}

// Keys lists the rating rows rs's rated games move, in the one order they
// are locked in whichever replica writes (bytewise by scope, kind,
// player), so two replicas' batches cannot deadlock over them.
func Keys(rs []*table.Result) []Key {
	seen := map[Key]bool{}
	var keys []Key
	for _, r := range rs {
		if !r.Rated() {
			continue
		}
		for _, scope := range r.RatingScopes() {
			for _, p := range r.Players {
				k := Key{scope, r.Kind(), p}
				if !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
		}
	}
	slices.SortFunc(keys, Key.compare)
	return keys
}

// Fresh are keys' standings before any game.
func Fresh(keys []Key) []table.Standing {
	fresh := make([]table.Standing, len(keys))
	for i, k := range keys {
		fresh[i] = table.NewStanding(k.Scope, k.Kind, k.Player)
	}
	return fresh
}

// Rate moves the standings in cur (which holds every key of Keys(rs)) by
// rs's rated games, one after another: a player in two of them is rated by
// the first, then the second.
func Rate(cur map[Key]table.Standing, rs []*table.Result) error {
	for _, r := range rs {
		if !r.Rated() {
			continue
		}
		for _, scope := range r.RatingScopes() {
			before := make([]table.Standing, len(r.Players))
			for i, p := range r.Players {
				before[i] = cur[Key{scope, r.Kind(), p}]
			}
			after, err := r.Rate(before)
			if err != nil {
				return err
			}
			for i, p := range r.Players {
				cur[Key{scope, r.Kind(), p}] = after[i]
			}
		}
	}
	return nil
}

// RowScanner is the part of a result set a store reads: database/sql's
// rows or pgx's.
type RowScanner interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ReadLocked reads rating rows (scope, kind, player, mu, sigma, games): one
// for each of keys, whose standings are fresh but for the rating and games
// read.
func ReadLocked(rows RowScanner, keys []Key, fresh []table.Standing) (map[Key]table.Standing, error) {
	cur := make(map[Key]table.Standing, len(keys))
	byKey := make(map[Key]int, len(keys))
	for i, k := range keys {
		byKey[k] = i
	}
	for rows.Next() {
		var k Key
		var kind string
		var mu, sigma float64
		var games int
		if err := rows.Scan(&k.Scope, &kind, &k.Player, &mu, &sigma, &games); err != nil {
			return nil, err
		}
		k.Kind, _ = table.ParseKind(kind)
		i, ok := byKey[k]
		if !ok {
			return nil, fmt.Errorf("rating row %v not asked for", k)
		}
		st := fresh[i]
		st.Rating.Mu, st.Rating.Sigma, st.Games = mu, sigma, games
		cur[k] = st
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(cur) != len(keys) {
		return nil, fmt.Errorf("read %d of %d rating rows", len(cur), len(keys))
	}
	return cur, nil
}
