package bot

import (
	"bytes"
	"context"
	"image/gif"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// winAgainst plays a classic game in ch that winner wins against loser,
// winner moving first along the top row (no two moves far apart, so the
// replay has no extra frames: see render.ReplayGIF).
func (h *harness) winAgainst(ch, winner, loser string) {
	h.tb.Helper()
	h.challenge(h.tb, ch, winner, loser)
	for i, cell := range []string{"0", "3", "1", "4", "2"} {
		mover := winner
		if i%2 == 1 {
			mover = loser
		}
		publicText(h.tb, h.in(ch, mover, "move", opt("position", cell)))
	}
}

var ratingRe = regexp.MustCompile(`rating (\d+)`)

// ratingsIn returns every "rating N" of a text, in order.
func ratingsIn(tb testing.TB, text string) []int {
	tb.Helper()
	var out []int
	for _, m := range ratingRe.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		out = append(out, n)
	}
	return out
}

// TestThreeWinsRaiseTheRating: three straight wins put the winner's rating
// above the loser's in stats and leaderboard, in this server and everywhere.
func TestThreeWinsRaiseTheRating(t *testing.T) {
	h := newHarness(t)
	for range 3 {
		h.winAgainst(channel, alice, bob)
	}
	a := ratingsIn(t, publicText(t, h.as(alice, "stats")))
	b := ratingsIn(t, publicText(t, h.as(alice, "stats", userOpt("user", bob, false))))
	if len(a) != 2 || len(b) != 2 || a[0] <= 1000 || b[0] >= 1000 || a[0] <= b[0] || a[1] != a[0] || b[1] != b[0] {
		t.Fatalf("alice %v, bob %v: want alice above 1000 above bob, the same in this server and everywhere", a, b)
	}
	for _, scope := range []string{"", scopeServer, scopeEverywhere} {
		opts := []option{opt("kind", "classic")}
		if scope != "" {
			opts = append(opts, opt("scope", scope))
		}
		board := publicText(t, h.as(carol, "leaderboard", opts...))
		if got := ratingsIn(t, board); len(got) != 2 || got[0] != a[0] || got[1] != b[0] ||
			!strings.Contains(board, "1. <@"+alice+">") || !strings.Contains(board, "2. <@"+bob+">") {
			t.Fatalf("scope %q leaderboard:\n%s", scope, board)
		}
	}
	if none := publicText(t, h.as(carol, "leaderboard", opt("kind", "connect4"))); len(ratingsIn(t, none)) != 0 {
		t.Fatalf("connect four has ratings:\n%s", none)
	}
	// Another server sees the ratings everywhere, not in its own board.
	f := commandFields(channel, carol, "leaderboard", 0, nil)
	f["Guild"] = "900000000000000077"
	if text := publicText(t, h.bot.Handle(context.Background(), interaction(t, "command.json", f))); !strings.Contains(text, "No rated games in this server") {
		t.Fatalf("another server's leaderboard:\n%s", text)
	}
}

// TestThreePlayerRatings: a three-player draw moves nobody apart; one who
// resigned before the others drew rates below them.
func TestThreePlayerRatings(t *testing.T) {
	h := newHarness(t)
	ch := "920000000000000031"
	play := func(moves ...[2]string) {
		t.Helper()
		publicText(t, h.in(ch, alice, "new", opt("players", 3)))
		publicText(t, h.in(ch, bob, "join"))
		publicText(t, h.in(ch, carol, "join"))
		for _, m := range moves {
			if m[1] == "resign" {
				publicText(t, h.in(ch, m[0], "resign"))
				continue
			}
			publicText(t, h.in(ch, m[0], "move", opt("position", m[1])))
		}
	}
	// A . B . C . A . B . C . A . B . C: a full board without a line:
	//   A B A
	//   C C B
	//   B A C
	play([2]string{alice, "0"}, [2]string{bob, "1"}, [2]string{carol, "3"}, [2]string{alice, "2"},
		[2]string{bob, "5"}, [2]string{carol, "4"}, [2]string{alice, "7"}, [2]string{bob, "6"}, [2]string{carol, "8"})
	ratings := map[string][]int{}
	for _, u := range []string{alice, bob, carol} {
		ratings[u] = ratingsIn(t, publicText(t, h.as(u, "stats")))
	}
	if len(ratings[alice]) != 2 || ratings[alice][0] != ratings[bob][0] || ratings[bob][0] != ratings[carol][0] {
		t.Fatalf("after a three-way draw: %v", ratings)
	}
	// Carol resigns, then alice and bob draw (A B A / A B B / B A A):
	// carol rates below both.
	play([2]string{carol, "resign"}, [2]string{alice, "0"}, [2]string{bob, "1"}, [2]string{alice, "2"}, [2]string{bob, "4"},
		[2]string{alice, "3"}, [2]string{bob, "5"}, [2]string{alice, "7"}, [2]string{bob, "6"}, [2]string{alice, "8"})
	for _, u := range []string{alice, bob, carol} {
		ratings[u] = ratingsIn(t, publicText(t, h.as(u, "stats")))
	}
	if ratings[alice][0] != ratings[bob][0] || ratings[carol][0] >= ratings[alice][0] {
		t.Fatalf("after carol resigned and the rest drew: %v", ratings)
	}
	hist := publicText(t, h.as(carol, "history"))
	if !strings.Contains(hist, "**resigned** against <@"+alice+">, <@"+bob+">") || !strings.Contains(hist, "**draw**") {
		t.Fatalf("carol's history:\n%s", hist)
	}
}

// TestComputerGamesAreNotRated: a win against the computer is in the record
// and the history, and moves no rating.
func TestComputerGamesAreNotRated(t *testing.T) {
	h := newHarness(t)
	publicText(t, h.as(alice, "new", opt("ai", "easy")))
	for cell := 0; cell < 9 && h.load(channel).Phase == table.Playing; cell++ {
		h.as(alice, "move", opt("position", strconv.Itoa(cell))) // refused when taken
	}
	stats := publicText(t, h.as(alice, "stats"))
	if strings.Contains(stats, "rating") || !strings.Contains(stats, "(1 game)") {
		t.Fatalf("stats after a game with the computer:\n%s", stats)
	}
	if hist := publicText(t, h.as(alice, "history")); !strings.Contains(hist, "** against the computer (easy) · Classic 3×3") {
		t.Fatalf("history:\n%s", hist)
	}
}

// clickLabel presses a button of resp, labelled label.
func (h *harness) clickLabel(resp *WireResponse, user, label string) *WireResponse {
	h.tb.Helper()
	id := findButton(resp, label)
	if id == "" {
		h.tb.Fatalf("no button %q in %+v", label, resp.Data.Components)
	}
	return h.bot.Handle(context.Background(), interaction(h.tb, "component.json", map[string]any{"ID": "1", "Guild": guild, "Channel": channel, "User": user, "CustomID": id}))
}

var gameIDRe = regexp.MustCompile("(?m)^`(\\d+)` ")

// TestHistoryPages: the wins, newest first, a page at a time with buttons.
func TestHistoryPages(t *testing.T) {
	h := newHarness(t)
	const games = historyPage + 3
	for range games {
		h.winAgainst(channel, alice, bob)
		h.advance(25 * 60 * 60e9) // a day and an hour: each game on its own date
	}
	first := h.as(carol, "history", userOpt("user", alice, false))
	text := publicText(t, first)
	ids := gameIDRe.FindAllStringSubmatch(text, -1)
	if len(ids) != historyPage || ids[0][1] != strconv.Itoa(games) || strings.Count(text, "**won** against <@"+bob+"> · Classic 3×3") != historyPage {
		t.Fatalf("first page:\n%s", text)
	}
	for i := 1; i < len(ids); i++ {
		a, _ := strconv.Atoi(ids[i-1][1])
		b, _ := strconv.Atoi(ids[i][1])
		if b >= a {
			t.Fatalf("not newest first: %s before %s", ids[i-1][1], ids[i][1])
		}
	}
	if id := findButton(first, "Newer"); id == "" || !buttonDisabled(first, "Newer") || buttonDisabled(first, "Older") {
		t.Fatalf("first page's buttons: %+v", first.Data.Components)
	}
	second := h.clickLabel(first, bob, "Older")
	if second.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("a page turn is a %v, not an update", second.Type)
	}
	ids = gameIDRe.FindAllStringSubmatch(replyText(second), -1)
	if len(ids) != games-historyPage || ids[len(ids)-1][1] != "1" || !buttonDisabled(second, "Older") || buttonDisabled(second, "Newer") {
		t.Fatalf("second page:\n%s\n%+v", replyText(second), second.Data.Components)
	}
	back := h.clickLabel(second, bob, "Newer")
	if replyText(back) != text {
		t.Fatalf("back to the first page:\n%s", replyText(back))
	}
	if lost := publicText(t, h.as(bob, "history")); !strings.Contains(lost, "**lost** against <@"+alice+">") {
		t.Fatalf("bob's history:\n%s", lost)
	}
	if none := publicText(t, h.as(carol, "history")); !strings.Contains(none, "no finished games in this server") {
		t.Fatalf("carol's history:\n%s", none)
	}
}

func buttonDisabled(resp *WireResponse, label string) bool {
	for _, b := range replyButtons(resp) {
		if b.Label == label {
			return b.Disabled
		}
	}
	return false
}

// gifFrames decodes a replay and returns its frame count.
func gifFrames(tb testing.TB, data []byte) int {
	tb.Helper()
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		tb.Fatalf("not a GIF: %v", err)
	}
	return len(g.Image)
}

// TestReplay: the channel's last game, or one by id, as a GIF with a frame a
// move (plus the empty board first and the final frame that holds); and the
// refusals.
func TestReplay(t *testing.T) {
	h := newHarness(t)
	refused(t, h.as(alice, "replay"), "No game has finished in this channel")
	h.winAgainst(channel, alice, bob)
	h.winAgainst("920000000000000041", bob, alice)
	for _, c := range []struct {
		name string
		opts []option
		id   string
	}{
		{"LastHere", nil, "1"},
		{"ByID", []option{opt("game", "2")}, "2"},
		{"ByHashID", []option{opt("game", "#2")}, "2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := h.as(carol, "replay", c.opts...)
			text := publicText(t, resp)
			if !strings.Contains(text, "Replay of game `"+c.id+"`") || len(resp.Data.Files) != 1 {
				t.Fatalf("reply:\n%s\nfiles %d", text, len(resp.Data.Files))
			}
			f := resp.Data.Files[0]
			if f.Name != "game-"+c.id+".gif" || f.ContentType != "image/gif" {
				t.Fatalf("file %s %s", f.Name, f.ContentType)
			}
			data := new(bytes.Buffer)
			data.ReadFrom(f.Reader)
			if n := gifFrames(t, data.Bytes()); n != 5+2 {
				t.Fatalf("%d frames for 5 moves, want 7: the empty board, one a move, the final frame", n)
			}
		})
	}
	refused(t, h.as(alice, "replay", opt("game", "99")), "no finished game with that id")
	refused(t, h.as(alice, "replay", opt("game", "abc")), "no finished game with that id")

	// Another server: its members may not replay this server's games,
	// their players may.
	elsewhere := func(user string) *WireResponse {
		f := commandFields("920000000000000099", user, "replay", 0, []option{opt("game", "1")})
		f["Guild"] = "900000000000000077"
		return h.bot.Handle(context.Background(), interaction(t, "command.json", f))
	}
	refused(t, elsewhere(carol), "played in another server")
	publicText(t, elsewhere(bob))
	// In a DM, history is the caller's own, from everywhere.
	dm := func(sub string, opts ...option) *WireResponse {
		return h.bot.Handle(context.Background(), interaction(t, "dm_command.json", commandFields("930000000000000001", bob, sub, 0, opts)))
	}
	if text := publicText(t, dm("history")); len(gameIDRe.FindAllString(text, -1)) != 2 {
		t.Fatalf("bob's history in a DM:\n%s", text)
	}
	refused(t, dm("history", userOpt("user", alice, false)), "only your own games")
	refused(t, dm("replay", opt("game", "abc")), "no finished game")
}

// TestHistoryLineOnTime: a game the clock ended reads "won on time" and
// "lost on time" (the clock sets the result's Reason after it is made).
func TestHistoryLineOnTime(t *testing.T) {
	f := table.Finished{ID: 7, Result: table.Result{Players: []string{alice, bob}, Winner: 0, Rules: game.Classic(),
		Places: []int{0, 2}, Finishes: []table.Finish{table.FinishWon, table.FinishResigned}, Reason: table.OnTime}}
	for user, want := range map[string]string{alice: "**won on time** against <@" + bob + ">", bob: "**lost on time** against <@" + alice + ">"} {
		if got := historyLine(locales.English(), f, user); !strings.Contains(got, want) {
			t.Errorf("%s's line %q lacks %q", user, got, want)
		}
	}
}
