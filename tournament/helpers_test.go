package tournament

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// ids is "p1" … "pn".
func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%d", i+1)
	}
	return out
}

// started is a tournament of format with players joined in order, started
// with ratings (nil: everyone 0, so seeds follow join order).
func started(t *testing.T, format Format, rounds int, players []string, ratings map[string]float64) (*Tournament, []Game) {
	t.Helper()
	tr, err := New(format, 0, rounds)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range players {
		if err := tr.Join(id); err != nil {
			t.Fatal(err)
		}
	}
	games, err := tr.Start(ratings)
	if err != nil {
		t.Fatal(err)
	}
	return tr, games
}

// mustRecord records and fails the test on an error.
func mustRecord(t *testing.T, tr *Tournament, key string, o Outcome) []Game {
	t.Helper()
	next, _, err := tr.Record(key, o)
	if err != nil {
		t.Fatalf("Record(%s, %v): %v", key, o, err)
	}
	return next
}

// roundTrip checks that tr survives JSON exactly and returns the copy.
func roundTrip(t *testing.T, tr *Tournament) *Tournament {
	t.Helper()
	data, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	var back Tournament
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*tr, back) {
		t.Fatalf("JSON round trip changed the tournament:\n%+v\n%+v", *tr, back)
	}
	return &back
}

// pairings writes games as "r1b1 p1-p2 first" lines for comparison.
func pairings(games []Game) []string {
	out := make([]string, len(games))
	for i, g := range games {
		out[i] = fmt.Sprintf("%s %s-%s %v", g.Key(), g.First, g.Second, g.Outcome)
	}
	return out
}
