package bot

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/internal/fakediscord"
	"github.com/tttbot/tttbot/table"
	"github.com/tttbot/tttbot/tournament"
)

// Tournament players: the script users and more.
const (
	dave = "800000000000000004"
	erin = "800000000000000005"
	finn = "800000000000000006"
	gwen = "800000000000000007"
	hugo = "800000000000000008"
)

// playerNames name the players in failures and hand-computed tables.
var playerNames = map[string]string{alice: "A", bob: "B", carol: "C", dave: "D", erin: "E", finn: "F", gwen: "G", hugo: "H"}

// Games of 3×3 to an end, as First's and Second's moves alternate.
var (
	firstWins  = []string{"0,0", "1,0", "0,1", "1,1", "0,2"}
	secondWins = []string{"0,0", "1,0", "0,1", "1,1", "2,2", "1,2"}
	drawn      = []string{"0,0", "1,1", "2,2", "0,2", "2,0", "1,0", "1,2", "2,1", "0,1"}
)

// result is how a test decides a tournament game: the winner's ID, "" for
// a draw, or noShow for the player who lets their clock run out without a
// move.
type result struct {
	winner string
	noShow string
}

// tourneyOf reads the channel's tournament.
func (h *harness) tourneyOf(ch string) *tourney {
	h.tb.Helper()
	d, err := h.bot.loadTourney(context.Background(), ch)
	if err != nil || d == nil {
		h.tb.Fatalf("tournament of %s: %v, %v", ch, d, err)
	}
	return d
}

// settle runs what the bot does by itself: its background work, then the
// scheduler's pass (reports, a tournament's work), until nothing is left.
func (h *harness) settle() {
	h.tb.Helper()
	for range 10 {
		h.tables.Wait()
		h.bot.Wait()
		if n, err := h.scheduler().RunDue(context.Background()); err != nil {
			h.tb.Fatal(err)
		} else if n == 0 {
			return
		}
	}
	h.tb.Fatal("the scheduler still had work after 10 passes")
}

// playTournament plays every game of the tournament in ch as decide says,
// round by round, until it is over, and returns the rounds' pairings as
// "A-B" (First first; "A-" for a bye).
func (h *harness) playTournament(ch string, decide func(g tournament.Game) result) []string {
	h.tb.Helper()
	var rounds []string
	for range 70 {
		h.settle()
		d := h.tourneyOf(ch)
		if d.T.Finished {
			for r := 1; r <= d.T.Round; r++ {
				var games []string
				for _, g := range d.T.Games {
					if g.Round == r {
						games = append(games, playerNames[g.First]+"-"+playerNames[g.Second])
					}
				}
				rounds = append(rounds, strings.Join(games, " "))
			}
			return rounds
		}
		games := d.T.Waiting()
		if len(games) == 0 {
			h.tb.Fatalf("round %d has no game to play", d.T.Round)
		}
		timedOut := false
		for _, g := range games {
			if !d.Opened[g.Key()] {
				h.tb.Fatalf("game %s is not open: %+v", g.Key(), d.play)
			}
			r := decide(g)
			if r.noShow != "" {
				if r.noShow == g.Second { // First moves; Second never does
					publicText(h.tb, h.in(d.Threads[g.Key()], g.First, "move", opt(optPosition, "0,0")))
				}
				timedOut = true
				continue // its clock runs out below
			}
			h.playIn(d.Threads[g.Key()], g, r.winner)
		}
		if timedOut {
			h.advance(time.Duration(d.Clock+1) * time.Second)
		}
	}
	h.tb.Fatal("the tournament did not end")
	return nil
}

// playIn plays g in its thread to its result: winner's win ("" a draw).
func (h *harness) playIn(thread string, g tournament.Game, winner string) {
	h.tb.Helper()
	moves := drawn
	switch winner {
	case g.First:
		moves = firstWins
	case g.Second:
		moves = secondWins
	}
	for i, at := range moves {
		user := g.First
		if i%2 == 1 {
			user = g.Second
		}
		publicText(h.tb, h.in(thread, user, "move", opt(optPosition, at)))
	}
}

// standingsLines are the tournament's standings as "rank name points games
// tie-break" lines.
func standingsLines(d *tourney) []string {
	var out []string
	for _, s := range d.T.Standings() {
		out = append(out, fmt.Sprintf("%d %s %s %d %s", s.Rank, playerNames[s.Player], points(s.Points), s.Games, tieBreak(s.TieBreak)))
	}
	return out
}

// openTournament opens a tournament in channel with opts and has players
// join it.
func (h *harness) openTournament(format string, players []string, opts ...option) {
	h.tb.Helper()
	publicText(h.tb, h.as(alice, "tournament new", append([]option{opt(optFormat, format)}, opts...)...))
	for _, p := range players {
		publicText(h.tb, h.as(p, "tournament join"))
	}
}

// TestRoundRobinOfFive plays a whole 5-player round-robin: every pair meets
// once, each player has one bye, and the standings match the table worked
// out by hand, Sonneborn-Berger included.
func TestRoundRobinOfFive(t *testing.T) {
	h := newHarness(t)
	h.withThreads(t)
	players := []string{alice, bob, carol, dave, erin}
	h.openTournament("round-robin", players)
	publicText(t, h.as(alice, "tournament start"))
	// Who wins each pairing, whoever moves first.
	wins := map[[2]string]string{
		{alice, bob}: alice, {alice, carol}: "", {alice, dave}: alice, {alice, erin}: erin,
		{bob, carol}: bob, {bob, dave}: "", {bob, erin}: bob,
		{carol, dave}: carol, {carol, erin}: "",
		{dave, erin}: dave,
	}
	decide := func(g tournament.Game) result {
		if w, ok := wins[[2]string{g.First, g.Second}]; ok {
			return result{winner: w}
		}
		return result{winner: wins[[2]string{g.Second, g.First}]}
	}
	rounds := h.playTournament(channel, decide)
	if len(rounds) != 5 {
		t.Fatalf("rounds %q", rounds)
	}
	met := map[string]int{}
	for _, r := range rounds {
		for _, g := range strings.Fields(r) {
			a, b, _ := strings.Cut(g, "-")
			if a > b {
				a, b = b, a
			}
			met[a+b]++
		}
	}
	for _, p := range []string{"AB", "AC", "AD", "AE", "BC", "BD", "BE", "CD", "CE", "DE", "A", "B", "C", "D", "E"} {
		if met[p] != 1 {
			t.Errorf("%s met %d times: %q", p, met[p], rounds)
		}
	}
	// By hand: points (a bye is a win), then Sonneborn-Berger over the
	// games played: the points of those beaten and half of those drawn.
	//   A: beat B 3½, drew C 3 (1½), beat D 2½          = 7½
	//   B: beat C 3, drew D 2½ (1¼), beat E 2½          = 6¾
	//   C: drew A 3½ (1¾), beat D 2½, drew E 2½ (1¼)    = 5½
	//   E: beat A 3½, drew C 3 (1½)                     = 5
	//   D: drew B 3½ (1¾), beat E 2½                    = 4¼
	want := []string{"1 A 3½ 5 7.5", "2 B 3½ 5 6.75", "3 C 3 5 5.5", "4 E 2½ 5 5", "5 D 2½ 5 4.25"}
	if got := standingsLines(h.tourneyOf(channel)); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("standings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// What players read: the same table, and a picture of it.
	text, img := h.standingsPNG("standings.png")
	if !strings.Contains(text, "1. <@"+alice+"> · points: 3½ · games: 5 · Sonneborn-Berger: 7.5\n2. <@"+bob+"> · points: 3½ · games: 5 · Sonneborn-Berger: 6.75") {
		t.Fatalf("standings text:\n%s", text)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 6*20 {
		t.Fatalf("standings picture of %v: too small for six rows", b)
	}
}

// scheduler is the harness's scheduler, on its store.
func (h *harness) scheduler() *table.Scheduler {
	h.tb.Helper()
	s, err := table.NewScheduler(h.tables, table.SchedulerOptions{Store: h.store})
	if err != nil {
		h.tb.Fatal(err)
	}
	return s
}

// TestSwissOfEight plays a whole 8-player swiss of three rounds (⌈log2 8⌉):
// the better-named player wins, except one drawn game and one no-show whose
// clock runs out (a forfeit: it scores as a loss, and counts as unplayed
// in Buchholz); the standings match the table worked out by hand.
func TestSwissOfEight(t *testing.T) {
	h := newHarness(t)
	h.withThreads(t)
	players := []string{alice, bob, carol, dave, erin, finn, gwen, hugo}
	h.openTournament("swiss", players)
	publicText(t, h.as(alice, "tournament start"))
	decide := func(g tournament.Game) result {
		switch {
		case g.Round == 1 && g.Has(hugo):
			return result{noShow: hugo}
		case g.Round == 2 && g.Board == 1:
			return result{} // a draw
		case playerNames[g.First] < playerNames[g.Second]:
			return result{winner: g.First}
		}
		return result{winner: g.Second}
	}
	rounds := h.playTournament(channel, decide)
	if want := []string{"A-E B-F C-G D-H", "D-A C-B E-H F-G", "B-D A-C F-E G-H"}; strings.Join(rounds, "|") != strings.Join(want, "|") {
		t.Fatalf("rounds %q, want %q", rounds, want)
	}
	// By hand. Round 1: A, B, C win; H does not show: D wins by forfeit.
	// Round 2: D-A drawn; B, E, F win. Round 3: B, A, E, G win.
	// Buchholz: the opponents' points; the forfeit counts as a game
	// against oneself (D: 1½ + A 2½ + B 3; H: 0 + E 2 + G 1).
	//   B 3:  F 1 + C 1 + D 1½ = 3½      A 2½: E 2 + D 1½ + C 1 = 4½
	//   E 2:  A 2½ + H 0 + F 1 = 3½      D 1½: 7
	//   C 1:  G 1 + B 3 + A 2½ = 6½      F 1:  B 3 + G 1 + E 2 = 6
	//   G 1:  C 1 + F 1 + H 0 = 2        H 0:  3
	want := []string{"1 B 3 3 3.5", "2 A 2½ 3 4.5", "3 E 2 3 3.5", "4 D 1½ 3 7", "5 C 1 3 6.5", "6 F 1 3 6", "7 G 1 3 2", "8 H 0 3 3"}
	if got := standingsLines(h.tourneyOf(channel)); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("standings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The no-show's game is an ordinary result: rated, in history.
	tally, err := h.store.Tally(t.Context(), guild, hugo)
	if err != nil || tally.Losses != 3 {
		t.Fatalf("hugo's tally %+v, %v: the no-show is a loss like the others", tally, err)
	}
}

// TestKnockoutOfSix plays a whole 6-player knockout: a bracket of 8, so the
// two top seeds have byes; a drawn game sends the higher seed (who moved
// second) through; an upset; standings rank by the round reached.
func TestKnockoutOfSix(t *testing.T) {
	h := newHarness(t)
	h.withThreads(t)
	players := []string{alice, bob, carol, dave, erin, finn}
	h.openTournament("knockout", players)
	publicText(t, h.as(alice, "tournament start"))
	decide := func(g tournament.Game) result {
		switch {
		case g.Has(dave) && g.Has(erin):
			return result{} // drawn: dave, seed 4, moved second and goes through
		case g.Has(finn):
			return result{winner: finn} // the upsets
		case playerNames[g.First] < playerNames[g.Second]:
			return result{winner: g.First}
		}
		return result{winner: g.Second}
	}
	rounds := h.playTournament(channel, decide)
	// Seeds by join order (nobody has a rating yet): A1 … F6, in a bracket
	// of 8 placed 1-8, 4-5, 2-7, 3-6; the lower seed moves first.
	if want := []string{"A- E-D B- F-C", "D-A F-B", "F-A"}; strings.Join(rounds, "|") != strings.Join(want, "|") {
		t.Fatalf("rounds %q, want %q", rounds, want)
	}
	// By hand: F won three games; A a bye, a win and the final lost; B a
	// bye and a loss; D a draw (through) and a loss; E a draw; C a loss.
	// Ranks by the round reached: F won, A the final, B and D round 2,
	// E and C round 1 (a shared rank lists the better score first).
	want := []string{"1 F 3 3 0", "2 A 2 3 0", "3 B 1 2 0", "3 D ½ 2 0", "5 E ½ 1 0", "5 C 0 1 0"}
	if got := standingsLines(h.tourneyOf(channel)); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("standings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A knockout shows its bracket: three rounds, the two byes drawn, each
	// match's top slot fed by the upper match before it.
	b := bracketOf(locales.English(), h.tourneyOf(channel), func(id string) string { return playerNames[id] })
	var shape []string
	for _, r := range b.Rounds {
		var ms []string
		for _, m := range r.Matches {
			ms = append(ms, fmt.Sprintf("%s%v-%s%v", m.Top.Name, m.Top.Through, m.Bottom.Name, m.Bottom.Through))
		}
		shape = append(shape, r.Name+": "+strings.Join(ms, " "))
	}
	if want := "Round 1: Atrue-false Efalse-Dtrue Btrue-false Ftrue-Cfalse|Round 2: Atrue-Dfalse Bfalse-Ftrue|Final: Afalse-Ftrue"; strings.Join(shape, "|") != want {
		t.Fatalf("bracket\n%s\nwant\n%s", strings.Join(shape, "|"), want)
	}
	h.standingsPNG("bracket.png")
}

// standingsPNG runs /ttt tournament standings and returns its text and
// its picture, which must decode, named as wanted.
func (h *harness) standingsPNG(name string) (string, image.Image) {
	h.tb.Helper()
	resp := h.as(carol, "tournament standings")
	text := publicText(h.tb, resp)
	if len(resp.Data.Files) != 1 || resp.Data.Files[0].Name != name {
		h.tb.Fatalf("files %+v, want %s", resp.Data.Files, name)
	}
	img, err := png.Decode(resp.Data.Files[0].Reader)
	if err != nil {
		h.tb.Fatalf("%s: %v", name, err)
	}
	return text, img
}

// TestTournamentThreadRefused: when Discord refuses a game's thread (a
// missing permission, a rate limit), nothing is half-made: the game waits,
// standings say which and why, and the scheduler tries again with backoff
// until Discord lets it, using the thread it may have started already.
func TestTournamentThreadRefused(t *testing.T) {
	h := newHarness(t)
	fake := h.withThreads(t)
	h.openTournament("round-robin", []string{alice, bob, carol})
	fake.MissingPermissions(fakediscord.StartThread)
	publicText(t, h.as(alice, "tournament start"))
	h.settle()
	d := h.tourneyOf(channel)
	if len(d.waiting()) != 1 || d.Tries != 1 || d.Why != ThreadNoPermission.String() || !d.Retry.Equal(h.clock().Add(retryFirst)) {
		t.Fatalf("after a refusal: %+v", d.play)
	}
	text := publicText(t, h.as(carol, "tournament standings"))
	if !strings.Contains(text, "Board 1: <@"+bob+"> vs <@"+carol+">, waiting for its thread") || !strings.Contains(text, "Create Public Threads") {
		t.Fatalf("standings do not say which game waits and why:\n%s", text)
	}
	// Refused again: the pause doubles. A rate limit longer than that
	// waits as long as Discord asks.
	h.advance(retryFirst)
	h.settle()
	if d := h.tourneyOf(channel); d.Tries != 2 || !d.Retry.Equal(h.clock().Add(2*retryFirst)) {
		t.Fatalf("second refusal: %+v", d.play)
	}
	fake.Allow(fakediscord.StartThread)
	fake.RateLimited(fakediscord.StartThread, 1, 3*time.Minute)
	h.advance(2 * retryFirst)
	h.settle()
	if d := h.tourneyOf(channel); d.Tries != 3 || d.Why != ThreadRateLimited.String() || !d.Retry.Equal(h.clock().Add(3*time.Minute)) {
		t.Fatalf("rate limited: %+v", d.play)
	}
	// The thread starts, but the board cannot be posted in it: the thread
	// is kept, and the next try posts there.
	fake.MissingPermissions(fakediscord.PostMessage)
	h.advance(3 * time.Minute)
	h.settle()
	if d := h.tourneyOf(channel); d.Tries != 4 || len(d.Threads) != 1 || len(d.waiting()) != 1 {
		t.Fatalf("board refused: %+v", d.play)
	}
	fake.Allow(fakediscord.PostMessage)
	h.advance(8 * retryFirst)
	h.settle()
	d = h.tourneyOf(channel)
	if len(d.waiting()) != 0 || d.Tries != 0 || d.Why != "" || len(fake.Threads()) != 1 {
		t.Fatalf("after Discord allowed it: %+v, threads %+v", d.play, fake.Threads())
	}
	if text := publicText(t, h.as(carol, "tournament standings")); !strings.Contains(text, ", playing in <#"+d.Threads["r1b1"]+">") {
		t.Fatalf("standings:\n%s", text)
	}
}

// TestTournamentRefusals: what /ttt tournament refuses, privately, changing
// nothing.
func TestTournamentRefusals(t *testing.T) {
	t.Run("NoThreadsHere", func(t *testing.T) {
		h := newHarness(t) // no bot token: no threads
		refused(t, h.as(alice, "tournament new", opt(optFormat, "swiss")), "DISCORD_TOKEN")
		h.withThreads(t)
		fields := commandFields(channel, alice, "tournament new", 0, []option{opt(optFormat, "swiss")})
		fields["AppPermissions"] = "0"
		refused(t, h.bot.Handle(t.Context(), interaction(t, "command.json", fields)), "Create Public Threads")
		if d, _ := h.bot.loadTourney(t.Context(), channel); d != nil {
			t.Fatalf("a tournament was opened: %+v", d)
		}
	})
	t.Run("NoneHere", func(t *testing.T) {
		h := newHarness(t)
		h.withThreads(t)
		for _, sub := range []string{"tournament start", "tournament standings", "tournament join", "tournament leave"} {
			dm := interaction(t, "dm_command.json", commandFields("930000000000000001", alice, sub, 0, nil))
			refused(t, h.bot.Handle(t.Context(), dm), "played in server channels")
			refused(t, h.as(alice, sub), "No tournament is open in this channel")
		}
	})
	t.Run("Bots", func(t *testing.T) {
		h := newHarness(t)
		h.withThreads(t)
		h.openTournament("swiss", nil)
		i := h.prepare(channel, bob, "tournament join")
		i.Member.User.Bot = true
		refused(t, h.bot.Handle(t.Context(), i), "bots can't join")
	})
	t.Run("Full", func(t *testing.T) {
		h := newHarness(t)
		h.withThreads(t)
		h.openTournament("knockout", []string{alice, bob, carol}, opt(optSize, 3))
		refused(t, h.as(dave, "tournament join"), "full")
	})
	t.Run("ManageEventsStarts", func(t *testing.T) {
		h := newHarness(t)
		h.withThreads(t)
		h.openTournament("swiss", []string{alice, bob, carol})
		refused(t, h.as(bob, "tournament start"), "Only <@"+alice+">")
		i := interaction(t, "command.json", commandFields(channel, dave, "tournament start", discordgo.PermissionManageEvents, nil))
		if text := publicText(t, h.bot.Handle(t.Context(), i)); !strings.Contains(text, "has started") {
			t.Fatalf("start by a member who manages events: %s", text)
		}
	})
	t.Run("EndInAGame", func(t *testing.T) {
		h := newHarness(t)
		h.withThreads(t)
		g := tournamentOfThree(t, h)
		th := h.tourneyOf(channel).Threads[g.Key()]
		refused(t, h.in(th, bob, "end"), "can't be ended unplayed")
		i := interaction(t, "command.json", commandFields(th, mod, "end", discordgo.PermissionManageMessages, nil))
		refused(t, h.bot.Handle(t.Context(), i), "can't be ended unplayed")
	})
}

// TestTournamentLeave: before the start a player simply leaves; after it
// they forfeit their game in play (its table shows them resigned) and
// every game left, and the standings keep what they scored.
func TestTournamentLeave(t *testing.T) {
	h := newHarness(t)
	h.withThreads(t)
	h.openTournament("round-robin", []string{alice, bob, carol, dave})
	publicText(t, h.as(dave, "tournament leave"))
	refused(t, h.as(dave, "tournament leave"), "not in this tournament")
	publicText(t, h.as(erin, "tournament join"))
	publicText(t, h.as(alice, "tournament start"))
	h.settle()
	d := h.tourneyOf(channel)
	var mine tournament.Game
	for _, g := range d.T.Waiting() {
		if g.Has(erin) {
			mine = g
		}
	}
	if text := publicText(t, h.as(erin, "tournament leave")); !strings.Contains(text, "forfeits") {
		t.Fatalf("leaving after the start: %s", text)
	}
	refused(t, h.as(erin, "tournament leave"), "left this tournament already")
	h.settle()
	tbl := h.load(d.Threads[mine.Key()])
	if tbl.Phase != table.Over || !tbl.Reported {
		t.Fatalf("the leaver's game: %v, reported %v", tbl.Phase, tbl.Reported)
	}
	d = h.tourneyOf(channel)
	g, _ := d.T.Game(mine.Key())
	if g.Outcome != tournament.FirstForfeit && g.Outcome != tournament.SecondForfeit {
		t.Fatalf("the leaver's game counts as %v, want a forfeit", g.Outcome)
	}
}

// TestStandingsFit: 64 players' standings keep within Discord's 2000
// characters, ending with a note that the picture shows everyone.
func TestStandingsFit(t *testing.T) {
	tr, err := tournament.New(tournament.Swiss, 64, 0)
	if err != nil {
		t.Fatal(err)
	}
	d := &tourney{T: tr, Names: map[string]string{}}
	for i := range 64 {
		if err := tr.Join(fmt.Sprintf("8%017d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tr.Start(nil); err != nil {
		t.Fatal(err)
	}
	for _, locale := range []string{"en-US", "hi", "el"} {
		resp := standingsReply(locales.New(nil).For(locale), d)
		text := resp.Content
		if n := len([]rune(text)); n > MaxContent || !strings.Contains(text, locales.New(nil).For(locale).Say("tournament.standings.more", nil)) {
			t.Fatalf("%s: %d characters:\n%s", locale, n, text)
		}
		if len(resp.Files) != 1 {
			t.Fatalf("%s: no picture", locale)
		}
	}
}
