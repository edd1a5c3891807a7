package table

import (
	"fmt"
	"testing"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/rating"
)

func TestKindOf(t *testing.T) {
	for _, c := range []struct {
		rules game.Rules
		want  Kind
	}{
		{game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 2}, KindClassic},
		{game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}, KindConnectFour},
		{game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 3}, KindOther},
		{game.Rules{Rows: 3, Cols: 3, Win: 3, Gravity: true, Players: 2}, KindOther},
		{game.Rules{Rows: 6, Cols: 7, Win: 4, Players: 2}, KindOther},
		{game.Rules{Rows: 15, Cols: 15, Win: 5, Players: 2}, KindOther},
	} {
		t.Run(fmt.Sprintf("%v", c.rules), func(t *testing.T) {
			got := KindOf(c.rules)
			if got != c.want {
				t.Fatalf("KindOf = %v, want %v", got, c.want)
			}
			if back, ok := ParseKind(got.String()); !ok || back != got {
				t.Fatalf("ParseKind(%q) = %v %v", got.String(), back, ok)
			}
		})
	}
	if _, ok := ParseKind("chess"); ok {
		t.Error("ParseKind accepted an unknown key")
	}
}

// play makes a game under r with moves written "seat.row.col" or "seat!".
func play(tb testing.TB, r game.Rules, record string) *game.Game {
	tb.Helper()
	var h game.History
	if err := h.UnmarshalText([]byte(record)); err != nil {
		tb.Fatal(err)
	}
	g, err := game.Replay(r, game.Fast, []rune("XOABCDEFGH")[:r.Players], h)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func TestPlaces(t *testing.T) {
	classic := game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 2}
	three := game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 3}
	for _, c := range []struct {
		name     string
		rules    game.Rules
		record   string
		onTime   bool
		places   []int
		finishes []Finish
	}{
		{"Win", classic, "0.0.0 1.1.0 0.0.1 1.1.1 0.0.2", false, []int{0, 1}, []Finish{FinishWon, FinishLost}},
		{"Draw", classic, "0.0.0 1.0.1 0.0.2 1.1.1 0.1.0 1.1.2 0.2.1 1.2.0 0.2.2", false, []int{0, 0}, []Finish{FinishDraw, FinishDraw}},
		{"Resigned", classic, "0.1.1 1!", false, []int{0, 2}, []Finish{FinishWon, FinishResigned}},
		{"OnTime", classic, "0.1.1 1!", true, []int{0, 2}, []Finish{FinishWonOnTime, FinishLostOnTime}},
		// Three players: C leaves first, then X wins by a line: X, O, C.
		{"ThreeLeftThenWin", three, "0.0.0 1.1.0 2! 0.0.1 1.1.1 0.0.2", false, []int{0, 1, 2}, []Finish{FinishWon, FinishLost, FinishResigned}},
		// Three players: O leaves, the board then fills: X and C tie first.
		{"ThreeLeftThenDraw", three, "0.0.0 1! 2.0.1 0.0.2 2.1.1 0.1.0 2.1.2 0.2.1 2.2.0 0.2.2", false, []int{0, 2, 0}, []Finish{FinishDraw, FinishResigned, FinishDraw}},
		// Three players: X leaves, then C: O is last standing, C placed above X.
		{"ThreeLastStanding", three, "0! 2!", false, []int{3, 0, 2}, []Finish{FinishResigned, FinishWon, FinishResigned}},
		{"ThreeLastStandingOnTime", three, "0! 2!", true, []int{3, 0, 2}, []Finish{FinishResigned, FinishWonOnTime, FinishLostOnTime}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := play(t, c.rules, c.record)
			if !g.Over() {
				t.Fatal("the game is not over")
			}
			places, finishes := placesOf(g, c.rules.Players, c.onTime)
			if fmt.Sprint(places) != fmt.Sprint(c.places) || fmt.Sprint(finishes) != fmt.Sprint(c.finishes) {
				t.Fatalf("places %v finishes %v, want %v %v", places, finishes, c.places, c.finishes)
			}
		})
	}
}

func TestResultRatedAndOutcome(t *testing.T) {
	r := Result{Players: []string{"a", "b", "c"}, Winner: game.NoPlayer, Places: []int{0, 2, 0},
		Finishes: []Finish{FinishDraw, FinishResigned, FinishDraw}}
	if !r.Rated() {
		t.Error("a game between people is not rated")
	}
	if got := []Outcome{r.Outcome(0), r.Outcome(1), r.Outcome(2)}; fmt.Sprint(got) != "[draw loss draw]" {
		t.Errorf("outcomes %v: one who resigned lost", got)
	}
	r.Players[2] = "ai:hard"
	if r.Rated() {
		t.Error("a game with the computer is rated")
	}
	if old := (Result{Players: []string{"a", "b"}}); old.Rated() {
		t.Error("a result without places is rated")
	}
	if got := (Result{Scope: ""}).RatingScopes(); fmt.Sprint(got) != "[*]" {
		t.Errorf("a DM's game counts in %v", got)
	}
}

// TestResultOfAFinishedTable: the result a table saves holds what history,
// replays and ratings need.
func TestResultOfAFinishedTable(t *testing.T) {
	ts, st, _ := mustTables(t)
	open(t, ts, "c")
	for i, typed := range []string{"0,0", "1,0", "0,1", "1,1", "0,2"} {
		if err := move(ts, "c", []string{"alice", "bob"}[i%2], typed); err != nil {
			t.Fatalf("move %s: %v", typed, err)
		}
	}
	if len(st.results) != 1 {
		t.Fatalf("%d results", len(st.results))
	}
	r := st.results[0]
	text, _ := r.Record.MarshalText()
	if r.Scope != "g" || r.Channel != "c" || fmt.Sprint(r.Players) != "[alice bob]" || fmt.Sprint(r.Tokens) != "[X O]" ||
		string(text) != "0.0.0 1.1.0 0.0.1 1.1.1 0.0.2" || fmt.Sprint(r.Places) != "[0 1]" ||
		fmt.Sprint(r.Finishes) != "[won lost]" || r.Reason != NotEnded || !r.Rated() || r.Kind() != KindClassic {
		t.Fatalf("result %+v", r)
	}
	g, err := (Finished{Result: r}).Game()
	if err != nil || g.Winner() != 0 || g.MoveCount() != 5 {
		t.Fatalf("rebuilt game: %v", err)
	}
}

func TestVisibleTo(t *testing.T) {
	f := Finished{Result: Result{Scope: "g1", Channel: "c1", Players: []string{"ann", "ben"}}}
	dm := Finished{Result: Result{Scope: "", Channel: "dm1", Players: []string{"ann", "ben"}}}
	for _, c := range []struct {
		name                 string
		f                    Finished
		guild, channel, user string
		ok                   bool
	}{
		{"SameServer", f, "g1", "c2", "cat", true},
		{"PlayerElsewhere", f, "g2", "c9", "ben", true},
		{"PlayerInADM", f, "", "dm7", "ann", true},
		{"OtherServer", f, "g2", "c9", "cat", false},
		{"StrangerInAnotherDM", dm, "", "dm2", "cat", false},
		{"SameDMChannel", dm, "", "dm1", "cat", true},
		{"DMGameInAServer", dm, "g1", "c1", "cat", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.f.VisibleTo(c.guild, c.channel, c.user)
			if (err == nil) != c.ok || err != nil && err != ErrPrivateGame {
				t.Fatalf("VisibleTo = %v, want ok %v", err, c.ok)
			}
		})
	}
}

// TestFinishOnTime: a Reason of OnTime set after the result was made (as the
// clock does, after FinishIfOver) still reads as won and lost on time, for
// the last player to leave only; finishes already on time stay as they are.
func TestFinishOnTime(t *testing.T) {
	three := game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 3}
	g := play(t, three, "0! 2!") // X leaves, then C runs out: O wins
	places, finishes := placesOf(g, 3, false)
	r := Result{Players: []string{"a", "b", "c"}, Winner: g.Winner(), Places: places, Finishes: finishes, Reason: OnTime}
	if got := []Finish{r.Finish(0), r.Finish(1), r.Finish(2)}; fmt.Sprint(got) != "[resigned won_on_time lost_on_time]" {
		t.Fatalf("finishes %v", got)
	}
	r.Finishes = []Finish{r.Finish(0), r.Finish(1), r.Finish(2)} // as stored and read back
	if got := []Finish{r.Finish(0), r.Finish(1), r.Finish(2)}; fmt.Sprint(got) != "[resigned won_on_time lost_on_time]" {
		t.Fatalf("read back: %v", got)
	}
	r.Reason = NotEnded
	r.Finishes = finishes
	if got := r.Finish(2); got != FinishResigned {
		t.Fatalf("without a clock: %v", got)
	}
}

// TestAWinNeverLowersTheFigure: with LimitSigma, a settled player who keeps
// beating a far weaker settled one sees their figure rise every time (under
// the default model's Tau, which widens Sigma before each game, Ordinal
// drops a little: rating's ExampleModel_limitSigma).
func TestAWinNeverLowersTheFigure(t *testing.T) {
	r := Result{Players: []string{"strong", "weak"}, Places: []int{0, 1}}
	strong := NewStanding("*", KindClassic, "strong")
	strong.Rating = rating.Rating{Mu: 40, Sigma: 1}
	for i := range 100 {
		weak := NewStanding("*", KindClassic, "weak")
		weak.Rating = rating.Rating{Mu: 10, Sigma: 1}
		next, err := r.Rate([]Standing{strong, weak})
		if err != nil {
			t.Fatal(err)
		}
		if next[0].Rating.Ordinal() <= strong.Rating.Ordinal() || next[0].Display() < strong.Display() || next[0].Games != i+1 {
			t.Fatalf("win %d: %v → %v (figure %d → %d), games %d", i+1, strong.Rating, next[0].Rating, strong.Display(), next[0].Display(), next[0].Games)
		}
		strong = next[0]
	}
}
