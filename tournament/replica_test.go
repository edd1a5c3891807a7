package tournament

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestReplicasAgree: a tournament stored as JSON and loaded on another
// replica reaches the same state, byte for byte, from the same calls:
// nothing depends on map order, time or chance. Each format is played with
// random results (forfeits and leavers too); after every call a second
// replica, loading the document the first one stored, makes the same call.
func TestReplicasAgree(t *testing.T) {
	for _, format := range []Format{RoundRobin, Swiss, Knockout} {
		for _, n := range []int{3, 8, 13, 21} {
			t.Run(fmt.Sprintf("%s %d", format, n), func(t *testing.T) {
				ratings := map[string]float64{}
				for i, id := range ids(n) {
					ratings[id] = float64((i * 7) % 5)
				}
				a, _ := started(t, format, 0, ids(n), ratings)
				rng := rand.New(rand.NewPCG(uint64(n), 11))
				outcomes := []Outcome{FirstWon, SecondWon, Draw, SecondForfeit}
				for !a.Finished {
					doc, err := json.Marshal(a)
					if err != nil {
						t.Fatal(err)
					}
					var b Tournament
					if err := json.Unmarshal(doc, &b); err != nil {
						t.Fatal(err)
					}
					w := a.Waiting()
					g := w[rng.IntN(len(w))]
					if rng.IntN(15) == 0 {
						a.Leave(g.Second)
						b.Leave(g.Second)
					} else {
						o := outcomes[rng.IntN(len(outcomes))]
						mustRecord(t, a, g.Key(), o)
						mustRecord(t, &b, g.Key(), o)
					}
					da, _ := json.Marshal(a)
					db, _ := json.Marshal(&b)
					if string(da) != string(db) {
						t.Fatalf("replicas differ after %s:\n%s\n%s", g.Key(), da, db)
					}
				}
			})
		}
	}
}

func TestOutcomeText(t *testing.T) {
	for o := Pending; o <= DoubleForfeit; o++ {
		text, err := o.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Outcome
		if err := back.UnmarshalText(text); err != nil || back != o {
			t.Errorf("%v → %s → %v, %v", o, text, back, err)
		}
	}
	var o Outcome
	if err := o.UnmarshalText([]byte("won")); !errors.Is(err, ErrBadOutcome) {
		t.Errorf("an unknown word: %v, want ErrBadOutcome", err)
	}
	if _, err := Outcome(99).MarshalText(); !errors.Is(err, ErrBadOutcome) {
		t.Errorf("an unknown outcome: %v, want ErrBadOutcome", err)
	}
}

// TestDocument pins the stored form, which other replicas and later
// versions read: a change here is a change of the stored format.
func TestDocument(t *testing.T) {
	tr, _ := started(t, Swiss, 0, []string{"ann", "bob", "cy"}, map[string]float64{"bob": 30})
	if _, _, err := tr.Record("r1b1", Draw); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"format":"swiss","size":64,"rounds":2,"round":2,"players":[` +
		`{"id":"ann","seed":2,"joined":1},{"id":"bob","rating":30,"seed":1,"joined":2},{"id":"cy","seed":3,"joined":3}],` +
		`"games":[{"round":1,"board":1,"first":"bob","second":"ann","outcome":"draw"},` +
		`{"round":1,"board":2,"first":"cy","outcome":"bye"},` +
		`{"round":2,"board":1,"first":"cy","second":"bob","outcome":"pending"},` +
		`{"round":2,"board":2,"first":"ann","outcome":"bye"}],"started":true,"finished":false}`
	if string(got) != want {
		t.Errorf("document:\n got %s\nwant %s", got, want)
	}
}

// TestStandingsBeforeStart lists the entrants in join order, all level.
func TestStandingsBeforeStart(t *testing.T) {
	tr, _ := New(RoundRobin, 0, 0)
	for _, id := range []string{"b", "a", "c"} {
		tr.Join(id)
	}
	for i, s := range tr.Standings() {
		if s.Rank != 1 || s.Player != []string{"b", "a", "c"}[i] || s.Games != 0 {
			t.Errorf("line %d: %+v", i, s)
		}
	}
	if tr.Waiting() != nil || len(tr.Bracket()) != 0 {
		t.Error("a tournament not started has games")
	}
}
