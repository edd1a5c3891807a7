package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/store/postgres"
	"github.com/tttbot/tttbot/store/sqlite"
	"github.com/tttbot/tttbot/store/storetest"
	"github.com/tttbot/tttbot/table"
)

// smallPrefill is a world small enough for a test: a few servers and
// players, so that everyone has a history, a rating in several kinds and a
// place on a leaderboard. One worker writes the games one at a time, so the
// store gives them their IDs in the world's order on every database.
var smallPrefill = Prefill{Finished: 160, Open: 24, Seed: 7, Players: 24, Servers: 3, Workers: 1}

// prefillNow is the small prefill's "now": a fixed time, so that the
// stores' time stamps are the same whichever day the test runs.
var prefillNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// memoryStore is the reference store, closed with nothing to close.
type memoryStore struct{ *store.Memory }

func (memoryStore) Close() error { return nil }

// TestPrefillAgreesAcrossStores writes the same small prefill through the
// bot's write path into the reference store, SQLite and (with
// TEST_DATABASE_URL) PostgreSQL, and asks each the reads the conformance
// suite holds every store to (Tally, Ratings, RatingBoard, History,
// FinishedGame, LastFinished, LoadTable, DueChannels): all agree. It then
// checks that the stored ratings and tallies are what replaying the stored
// games in order gives: the store holds a past as if it had been played.
func TestPrefillAgreesAcrossStores(t *testing.T) {
	ctx := context.Background()
	want := prefilled(t, memoryStore{store.NewMemory()})
	asPlayed(t, want)

	t.Run("sqlite", func(t *testing.T) {
		st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "prefill.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		compareReads(t, prefilled(t, st), want)
	})
	t.Run("postgres", func(t *testing.T) {
		st, err := postgres.Open(ctx, storetest.PostgresURL(t))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		compareReads(t, prefilled(t, st), want)
	})
}

// reads are a store's answers to every read about the small prefill's
// world.
type reads struct {
	Tallies  map[string]table.Tally      // by scope/player
	Ratings  map[string][]table.Standing // by scope/player
	Boards   map[string][]table.Standing // by scope/kind
	History  map[string][]table.Finished // by scope/player
	Games    []table.Finished            // by ID, from 1
	Last     map[string]table.Finished   // by channel
	Tables   map[string]string           // by channel: version and data
	Due      []string                    // channels due at the prefill's end
	Finished int                         // finished games written
}

// prefilled writes smallPrefill into st and reads it all back.
func prefilled(t *testing.T, st prefillStore) reads {
	t.Helper()
	ctx := context.Background()
	rep, err := prefillInto(ctx, st, smallPrefill, prefillNow, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Finished != smallPrefill.Finished || rep.Open != smallPrefill.Open {
		t.Fatalf("prefill wrote %d finished and %d open games, want %d and %d", rep.Finished, rep.Open, smallPrefill.Finished, smallPrefill.Open)
	}
	w := smallPrefill.world()
	r := reads{Tallies: map[string]table.Tally{}, Ratings: map[string][]table.Standing{}, Boards: map[string][]table.Standing{},
		History: map[string][]table.Finished{}, Last: map[string]table.Finished{}, Tables: map[string]string{}}
	scopes := []string{table.Everywhere}
	for _, s := range w.servers {
		scopes = append(scopes, s.id)
	}
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, scope := range scopes {
		for _, p := range w.players {
			key := scope + "/" + p
			var err error
			if scope != table.Everywhere {
				r.Tallies[key], err = st.Tally(ctx, scope, p)
				check(err)
			}
			r.Ratings[key], err = st.Ratings(ctx, scope, p)
			check(err)
			h, err := st.History(ctx, table.HistoryQuery{Player: p, Scope: scope, Limit: 1 << 20})
			check(err)
			if len(h) > 0 { // none is none, an empty list or nil
				r.History[key] = normalized(h...)
			}
		}
		for _, k := range table.Kinds() {
			board, err := st.RatingBoard(ctx, scope, k, 1000)
			check(err)
			r.Boards[scope+"/"+k.String()] = board
		}
	}
	for id := int64(1); ; id++ {
		f, found, err := st.FinishedGame(ctx, id)
		check(err)
		if !found {
			break
		}
		r.Games = append(r.Games, normalized(f)...)
	}
	for g := range smallPrefill.games(smallPrefill.world(), prefillNow) {
		data, version, found, err := st.LoadTable(ctx, g.channel)
		check(err)
		if !found {
			t.Fatalf("no table stored in %s", g.channel)
		}
		r.Tables[g.channel] = fmt.Sprintf("version %d: %s", version, data)
		f, found, err := st.LastFinished(ctx, g.channel)
		check(err)
		if found {
			r.Last[g.channel] = normalized(f)[0]
		}
	}
	due, err := st.DueChannels(ctx, prefillNow, 1000)
	check(err)
	r.Due = due
	r.Finished = rep.Finished
	return r
}

// normalized are fs as every store may tell them: times in milliseconds
// (SQLite keeps no more), and each player's finish as Result.Finish says it
// (the reference store keeps a time-out as the resignation it is and says
// "on time" from the reason; the SQL stores write what Finish says).
func normalized(fs ...table.Finished) []table.Finished {
	for i := range fs {
		f := &fs[i]
		f.At = f.At.Truncate(time.Millisecond)
		fin := make([]table.Finish, len(f.Result.Players))
		for k := range fin {
			fin[k] = f.Result.Finish(k)
		}
		f.Result.Finishes = fin
	}
	return fs
}

// compareReads reports every read where got differs from want.
func compareReads(t *testing.T, got, want reads) {
	t.Helper()
	gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := range gv.NumField() {
		if g, w := gv.Field(i).Interface(), wv.Field(i).Interface(); !reflect.DeepEqual(g, w) {
			t.Errorf("%s differ from the reference store's:\n%.600s\nwant\n%.600s", gv.Type().Field(i).Name, firstDiff(g, w), firstDiff(w, g))
		}
	}
	if len(got.Games) < smallPrefill.Finished {
		t.Errorf("%d finished games stored, want at least %d", len(got.Games), smallPrefill.Finished)
	}
}

// asPlayed checks r against its own games: every player's tally in a
// server counts their games there; every rating is what rating the stored
// rated games in ID order gives; the games' players are the world's; and
// the prefill did make ratings, open games, resignations and clocks due.
func asPlayed(t *testing.T, r reads) {
	t.Helper()
	cur := map[string]table.Standing{}
	tallies := map[string]table.Tally{}
	var resigned, onTime int
	for _, f := range r.Games {
		res := f.Result
		for i, p := range res.Players {
			if res.Scope != "" {
				tl := tallies[res.Scope+"/"+p]
				tl.Player = p
				tl.Add(res.Outcome(i))
				tallies[res.Scope+"/"+p] = tl
			}
			switch res.Finish(i) {
			case table.FinishResigned:
				resigned++
			case table.FinishLostOnTime:
				onTime++
			}
		}
		if !res.Rated() {
			continue
		}
		for _, scope := range res.RatingScopes() {
			before := make([]table.Standing, len(res.Players))
			for i, p := range res.Players {
				key := scope + "/" + res.Kind().String() + "/" + p
				st, ok := cur[key]
				if !ok {
					st = table.NewStanding(scope, res.Kind(), p)
				}
				before[i] = st
			}
			after, err := res.Rate(before)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range res.Players {
				cur[scope+"/"+res.Kind().String()+"/"+p] = after[i]
			}
		}
	}
	for key, want := range tallies {
		if got := r.Tallies[key]; got != want {
			t.Errorf("tally %s: %+v stored, %+v played", key, got, want)
		}
	}
	rated := 0
	for key, sts := range r.Ratings {
		for _, st := range sts {
			rated++
			want := cur[st.Scope+"/"+st.Kind.String()+"/"+st.Player]
			if st.Rating != want.Rating || st.Games != want.Games {
				t.Errorf("rating %s %s: %+v stored, %+v played", key, st.Kind, st, want)
			}
		}
	}
	if rated != len(cur) {
		t.Errorf("%d ratings stored, %d played", rated, len(cur))
	}
	if resigned == 0 || onTime == 0 || len(r.Due) == 0 || len(cur) == 0 {
		t.Errorf("the prefill made %d resignations, %d time-outs, %d clocks due, %d ratings: want some of each", resigned, onTime, len(r.Due), len(cur))
	}
	kinds := map[table.Kind]bool{}
	for _, f := range r.Games {
		kinds[f.Result.Kind()] = true
	}
	if len(kinds) != len(table.Kinds()) {
		t.Errorf("the games are of %d kinds, want all %d", len(kinds), len(table.Kinds()))
	}
	if !slices.IsSortedFunc(r.Games, func(a, b table.Finished) int { return a.At.Compare(b.At) }) {
		t.Error("the games' IDs do not follow their times")
	}
}

// firstDiff shows the first element of a (a slice or map) that b does not
// have alike.
func firstDiff(a, b any) string {
	av, bv := reflect.ValueOf(a), reflect.ValueOf(b)
	switch av.Kind() {
	case reflect.Slice:
		for i := range av.Len() {
			if i >= bv.Len() || !reflect.DeepEqual(av.Index(i).Interface(), bv.Index(i).Interface()) {
				return fmt.Sprintf("[%d] %+v", i, av.Index(i).Interface())
			}
		}
	case reflect.Map:
		for _, k := range av.MapKeys() {
			if bw := bv.MapIndex(k); !bw.IsValid() || !reflect.DeepEqual(av.MapIndex(k).Interface(), bw.Interface()) {
				return fmt.Sprintf("[%v] %+v", k, av.MapIndex(k).Interface())
			}
		}
	}
	return fmt.Sprintf("%+v", a)
}
