package tournament

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// FuzzCalls drives a tournament with any sequence of calls, well formed or
// not: joins and leaves of a few players, a start, results for real and
// made-up keys. Nothing may panic, every state must survive JSON, every
// game must have at most one pending result per round, and the number of
// games must only grow once started.
func FuzzCalls(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{1, 0, 0, 1, 2, 3, 64, 65, 66, 67, 200, 201, 130, 131, 132, 133, 134})
	f.Add([]byte{2, 5, 0, 1, 2, 3, 4, 5, 64, 128, 129, 130, 131, 192, 193, 194})
	f.Fuzz(func(t *testing.T, script []byte) { runScript(t, script) })
}

// runScript is FuzzCalls's body.
func runScript(t *testing.T, script []byte) {
	{
		if len(script) < 2 {
			return
		}
		formats := []Format{RoundRobin, Swiss, Knockout}
		format := formats[int(script[0])%3]
		rounds := 0
		if format == Swiss {
			rounds = int(script[1]) % 8
		}
		tr, err := New(format, 0, rounds)
		if err != nil {
			t.Fatal(err)
		}
		games := 0
		for _, op := range script[2:] {
			id := fmt.Sprintf("p%d", op%16)
			switch op >> 6 {
			case 0:
				tr.Join(id)
			case 1:
				tr.Leave(id)
			case 2:
				tr.Start(map[string]float64{id: float64(op)})
			case 3:
				if w := tr.Waiting(); len(w) > 0 {
					o := []Outcome{FirstWon, SecondWon, Draw, FirstForfeit, SecondForfeit, DoubleForfeit, Pending, Bye}[op%8]
					tr.Record(w[int(op/8)%len(w)].Key(), o)
				} else {
					tr.Record(fmt.Sprintf("r%db%d", op%4, op%3), FirstWon)
				}
			}
			if len(tr.Games) < games {
				t.Fatalf("games went from %d to %d", games, len(tr.Games))
			}
			games = len(tr.Games)
			seen := map[string]bool{}
			for _, g := range tr.Games {
				if seen[g.Key()] {
					t.Fatalf("two games are %s", g.Key())
				}
				seen[g.Key()] = true
				if g.Outcome == Pending && g.Round != tr.Round {
					t.Fatalf("%s is pending in round %d", g.Key(), tr.Round)
				}
			}
			if tr.Finished && len(tr.Waiting()) > 0 {
				t.Fatal("finished with games waiting")
			}
			tr.Standings()
			data, err := json.Marshal(tr)
			if err != nil {
				t.Fatal(err)
			}
			var back Tournament
			if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(*tr, back) {
				t.Fatalf("JSON round trip: %v", err)
			}
		}
	}
}
