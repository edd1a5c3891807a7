package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/puzzle/progress"
	"github.com/tttbot/tttbot/table"
	"github.com/tttbot/tttbot/token"
)

func TestPing(t *testing.T) {
	h := newHarness(t)
	resp := h.bot.Handle(context.Background(), interaction(t, "ping.json", nil))
	if resp.Type != discordgo.InteractionResponsePong {
		t.Fatalf("PING answered with %+v", resp)
	}
}

func TestClassicGameToAWin(t *testing.T) {
	h := newHarness(t)
	lobby := publicText(t, h.as(alice, "new"))
	for _, want := range []string{"<@" + alice + "> opened a game", "3×3 · 3 in a row · 2 players", "Seat 1: **X** <@" + alice + ">", "Seat 2: open", "/ttt join"} {
		if !strings.Contains(lobby, want) {
			t.Errorf("lobby lacks %q:\n%s", want, lobby)
		}
	}
	t.Run("ErrLobby", func(t *testing.T) {
		refused(t, h.as(alice, "move", opt("position", "1,1")), "waiting for 1 more player")
	})
	t.Run("ErrSeated", func(t *testing.T) { refused(t, h.as(alice, "join"), "already have a seat") })
	t.Run("ErrTokenTaken", func(t *testing.T) { refused(t, h.as(bob, "join", opt("token", "x")), "Another player already has `x`") })
	t.Run("ErrBadToken", func(t *testing.T) {
		refused(t, h.as(bob, "join", opt("token", "..")), "Your token `..` is more than one character")
	})

	start := h.as(bob, "join")
	text := publicText(t, start)
	if !strings.Contains(text, "Game on: **X** <@"+alice+"> vs **O** <@"+bob+">") || !strings.Contains(text, "Turn: **X** <@"+alice+">") {
		t.Fatalf("start message:\n%s", text)
	}
	if got := start.Data.AllowedMentions.Users; len(got) != 1 || got[0] != alice {
		t.Errorf("start pings %v, want only alice", got)
	}
	t.Run("ErrStarted", func(t *testing.T) { refused(t, h.as(carol, "join"), "already started") })
	t.Run("ErrGameOpen", func(t *testing.T) { refused(t, h.as(carol, "new"), "already open") })
	t.Run("ErrNotYourTurn", func(t *testing.T) {
		refused(t, h.as(bob, "move", opt("position", "1,1")), "not your turn: it's X's turn")
	})
	t.Run("ErrNotSeated", func(t *testing.T) { refused(t, h.as(carol, "move", opt("position", "1,1")), "not a player") })
	t.Run("ErrBadPosition", func(t *testing.T) { refused(t, h.as(alice, "move", opt("position", "middle")), "can't read") })
	t.Run("ErrOutOfBounds", func(t *testing.T) { refused(t, h.as(alice, "move", opt("position", "3,0")), "off the board") })

	moved := publicText(t, h.as(alice, "move", opt("position", "4")))
	if !strings.Contains(moved, "**X** <@"+alice+"> played 1,1.") || !strings.Contains(moved, "|[X]|") || !strings.Contains(moved, "Turn: **O** <@"+bob+">") {
		t.Fatalf("move message:\n%s", moved)
	}
	t.Run("ErrCellTaken", func(t *testing.T) { refused(t, h.as(bob, "move", opt("position", "1,1")), "taken") })
	for _, m := range []struct{ user, pos string }{{bob, "0,0"}, {alice, "(0, 2)"}, {bob, "1 0"}} {
		publicText(t, h.as(m.user, "move", opt("position", m.pos)))
	}
	won := h.as(alice, "move", opt("position", "2,0"))
	if text := publicText(t, won); !strings.Contains(text, "Player X (<@"+alice+">) won!") || !strings.Contains(text, "*X*") {
		t.Fatalf("win message:\n%s", text)
	}
	t.Run("ErrGameOver", func(t *testing.T) { refused(t, h.as(bob, "move", opt("position", "2,2")), "game is over") })

	if text := publicText(t, h.as(carol, "stats", userOpt("user", alice, false))); !strings.Contains(text, "1 win, 0 losses, 0 draws") {
		t.Errorf("alice's stats: %s", text)
	}
	if text := publicText(t, h.as(bob, "stats")); !strings.Contains(text, "0 wins, 1 loss") {
		t.Errorf("bob's stats: %s", text)
	}
	if text := publicText(t, h.as(bob, "leaderboard")); !strings.Contains(text, "1. <@"+alice+"> — rating 1165") {
		t.Errorf("leaderboard: %s", text)
	}
	history := publicText(t, h.as(carol, "board"))
	if !strings.Contains(history, "Moves (5):") || !strings.Contains(history, "5. X 2,0") {
		t.Errorf("board after the game lacks the move list:\n%s", history)
	}

	t.Run("ErrNotInLastGame", func(t *testing.T) { refused(t, h.as(carol, "rematch"), "Only the players of the last game") })
	re := publicText(t, h.as(bob, "rematch"))
	if !strings.Contains(re, "Rematch #2: **O** <@"+bob+"> starts") || !strings.Contains(re, "Turn: **O** <@"+bob+">") {
		t.Fatalf("rematch:\n%s", re)
	}
	refused(t, h.as(alice, "move", opt("position", "0,0")), "not your turn")
	publicText(t, h.as(bob, "move", opt("position", "0,0")))
}

func TestNewOptions(t *testing.T) {
	t.Run("ConnectFourDefaults", func(t *testing.T) {
		h := newHarness(t)
		text := h.challenge(t, channel, alice, bob, opt("gravity", true))
		if !strings.Contains(text, "6×7 · 4 in a row · 2 players · gravity") || !strings.Contains(text, "a column 0–6") {
			t.Fatalf("defaults:\n%s", text)
		}
	})
	for _, tt := range []struct {
		name string
		opts []option
		want string
	}{
		{"RulesError", []option{opt("rows", 3), opt("win", 4)}, "`win` can't be more than the board's 3 rows"},
		{"BadToken", []option{opt("token", "中")}, "Your token `中` (U+4E2D) is wider than one column"},
		{"SelfOpponent", []option{userOpt("opponent", alice, false)}, "your own opponent"},
		{"BotOpponent", []option{userOpt("opponent", bob, true)}, "another bot"},
		{"WrongOptionType", []option{{Type: discordgo.ApplicationCommandOptionString, Name: "rows", Value: "many"}}, "`rows` came with a value of the wrong kind"},
		{"BoolAsString", []option{{Type: discordgo.ApplicationCommandOptionBoolean, Name: "gravity", Value: "true"}}, "`gravity` came with a value of the wrong kind"},
		{"UndeclaredOption", []option{opt("seats", 2)}, "`seats` came with a value of the wrong kind"},
		{"BadEngine", []option{opt("engine", "turbo")}, "fast or compact"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			refused(t, h.as(alice, "new", tt.opts...), tt.want)
			refused(t, h.as(alice, "board"), "no game") // nothing was opened
		})
	}
}

func TestGravityMoves(t *testing.T) {
	h := newHarness(t)
	h.challenge(t, channel, alice, bob, opt("gravity", true), opt("rows", 4), opt("columns", 5), opt("win", 3))
	for i, user := range []string{alice, bob, alice, bob} {
		text := publicText(t, h.as(user, "move", opt("position", "2")))
		if want := "column 2 (row " + string(rune('0'+i)) + ")"; !strings.Contains(text, want) {
			t.Fatalf("drop %d: %q not in\n%s", i, want, text)
		}
	}
	refused(t, h.as(alice, "move", opt("position", "2")), "column is full")
	refused(t, h.as(alice, "move", opt("position", "5")), "columns are 0–4")
	refused(t, h.as(alice, "move", opt("position", "1,2")), "just a column number")
}

func TestResignAndEnd(t *testing.T) {
	h := newHarness(t)
	publicText(t, h.as(alice, "new", opt("players", 3), opt("rows", 5), opt("columns", 5)))
	publicText(t, h.as(bob, "join", opt("token", "b")))
	left := publicText(t, h.as(bob, "resign")) // leaving the lobby
	if !strings.Contains(left, "left the lobby") || !strings.Contains(left, "Seat 2: open") {
		t.Fatalf("leave:\n%s", left)
	}
	publicText(t, h.as(bob, "join"))
	publicText(t, h.as(carol, "join", opt("token", "#")))
	publicText(t, h.as(alice, "move", opt("position", "0,0")))
	text := publicText(t, h.as(bob, "resign"))
	if !strings.Contains(text, "**O** <@"+bob+"> resigned") || !strings.Contains(text, "Turn: **#** <@"+carol+">") {
		t.Fatalf("resign with three players:\n%s", text)
	}
	refused(t, h.as(bob, "move", opt("position", "1,1")), "You resigned")
	t.Run("ErrNotAllowed", func(t *testing.T) { refused(t, h.as(carol, "end"), "Only the game's creator") })
	text = publicText(t, h.as(carol, "resign"))
	if !strings.Contains(text, "Player X (<@"+alice+">) won! Everyone else resigned.") {
		t.Fatalf("last one standing:\n%s", text)
	}

	// Ending: the creator, or a moderator with Manage Messages.
	publicText(t, h.as(bob, "new"))
	i := interaction(t, "command.json", commandFields(channel, mod, "end", discordgo.PermissionManageMessages, nil))
	if text := publicText(t, h.bot.Handle(context.Background(), i)); !strings.Contains(text, "ended the game") {
		t.Fatalf("moderator end: %s", text)
	}
	refused(t, h.as(bob, "end"), "no game")
	refused(t, h.as(bob, "rematch"), "no finished game")
}

func TestIdleExpiry(t *testing.T) {
	h := newHarness(t)
	h.challenge(t, channel, alice, bob)
	h.advance(59 * time.Minute)
	publicText(t, h.as(alice, "move", opt("position", "0,0")))
	h.advance(61 * time.Minute)
	refused(t, h.as(bob, "move", opt("position", "1,1")), "nobody moved for too long")
	publicText(t, h.as(bob, "new")) // the channel is free again
}

func TestChannelsAreIndependent(t *testing.T) {
	h := newHarness(t)
	publicText(t, h.in("920000000000000001", alice, "new"))
	publicText(t, h.in("920000000000000002", alice, "new"))
	refused(t, h.in("920000000000000003", alice, "board"), "no game")
}

func TestDirectMessage(t *testing.T) {
	h := newHarness(t)
	f := commandFields("930000000000000001", alice, "new", 0, []option{opt("rows", 4)})
	text := publicText(t, h.bot.Handle(context.Background(), interaction(t, "dm_command.json", f)))
	if !strings.Contains(text, "4×3") {
		t.Fatalf("DM game: %s", text)
	}
}

func TestHugeBoardFits(t *testing.T) {
	h := newHarness(t)
	publicText(t, h.as(alice, "new", opt("rows", 100), opt("columns", 100), opt("win", 25), opt("players", 10)))
	users := []string{alice}
	for i := 2; i <= 10; i++ {
		u := "80000000000000010" + string(rune('0'+i%10))
		users = append(users, u)
		publicText(t, h.as(u, "join"))
	}
	var text string
	for i, u := range users {
		text = publicText(t, h.as(u, "move", opt("position", "99,"+strconv.Itoa(99-i*11))))
	}
	// The whole 10-player 100×100 game fits: a window around the last move,
	// which is marked, and the note saying which part is shown.
	if n := len([]rune(text)); n > MaxContent || n < MaxContent/2 {
		t.Fatalf("huge board reply is %d characters", n)
	}
	lines := strings.Split(text, "\n")
	last := lines[len(lines)-1]
	if last != "Showing rows 77–99 and columns 0–22 of the 100×100 board, around the last move." {
		t.Fatalf("huge board's last line: %q", last)
	}
	if !strings.Contains(text, "99 [H] ") {
		t.Fatalf("the last move (H, the tenth seat, at 99,0) is not marked:\n%s", text)
	}
}

func TestCheckAndHelp(t *testing.T) {
	h := newHarness(t)
	for _, tt := range []struct {
		opts []option
		want string
	}{
		{[]option{opt("board", "XXX/OO./...")}, "**`The Winner is X`**\n`XXX/OO./...`"},
		{[]option{opt("board", "XOX/XOO/OXX")}, "**`No Winner - Game Complete`**\n`XOX/XOO/OXX`"},
		{[]option{opt("board", "..../X.../XO../XO.."), opt("gravity", true), opt("win", 4)}, "**`No Winner Yet - Game Incomplete`**\n`..../X.../XO../XO..`"},
		{[]option{opt("board", "OO./.../...")}, "**`Invalid Values: O has 2 tokens, more than X's 0 before it in turn order`**\n`OO./.../...`"},
		{[]option{opt("board", "XXXX/OOO./..../...."), opt("win", 4)}, "**`The Winner is X`**\n`XXXX/OOO./..../....`"},
		{[]option{opt("board", "X`X/.../...")}, "**``Invalid Values: '`' at 0,1 is neither . nor one of XO``**\n``X`X/.../...``"},
	} {
		if text := publicText(t, h.as(alice, "check", tt.opts...)); text != tt.want {
			t.Errorf("check %v:\n got %q\nwant %q", tt.opts, text, tt.want)
		}
	}
	long := strings.Repeat("X", 2500) + "/" + strings.Repeat("O", 2500)
	if text := publicText(t, h.as(alice, "check", opt("board", long))); !strings.HasPrefix(text, "**`Invalid Values: ") {
		t.Errorf("a long board's verdict: %.80s", text)
	}
	resp := h.as(alice, "help") // for the asker only, in one embed
	if d := resp.Data; d.Flags&discordgo.MessageFlagsEphemeral == 0 || len(d.Embeds) != 1 || !strings.Contains(d.Embeds[0].Description, "row,col") {
		t.Errorf("help: flags %v, embeds %v", d.Flags, d.Embeds)
	}
}

func TestAutocomplete(t *testing.T) {
	h := newHarness(t)
	h.challenge(t, channel, alice, bob, opt("rows", 9), opt("columns", 9))
	publicText(t, h.as(alice, "move", opt("position", "4,4")))
	ac := func(typed string) []*discordgo.ApplicationCommandOptionChoice {
		i := interaction(t, "autocomplete.json", map[string]any{"Guild": guild, "Channel": channel, "User": bob, "Permissions": "0", "Typed": typed})
		resp := h.bot.Handle(context.Background(), i)
		if resp.Type != discordgo.InteractionApplicationCommandAutocompleteResult {
			t.Fatalf("autocomplete answered %+v", resp)
		}
		return *resp.Data.Choices
	}
	got := ac("")
	if len(got) != 25 || got[0].Value != "3,4" {
		t.Fatalf("%d choices, first %v", len(got), got[0].Value)
	}
	for _, c := range got {
		if c.Value == "4,4" {
			t.Fatal("suggested the taken cell 4,4")
		}
	}
	if got := ac("8,"); len(got) != 9 || got[0].Value != "8,4" {
		t.Errorf("typed 8,: %d choices starting %v", len(got), got[0].Value)
	}
}

func (h *harness) click(user, customID string) *WireResponse {
	h.tb.Helper()
	i := interaction(h.tb, "component.json", map[string]any{"ID": "1", "Guild": guild, "Channel": channel, "User": user, "CustomID": customID})
	return h.bot.Handle(context.Background(), i)
}

func buttonIDs(resp *WireResponse) []string {
	var ids []string
	for _, b := range replyButtons(resp) {
		ids = append(ids, b.CustomID)
	}
	return ids
}

func TestJoinButtonAndBadClicks(t *testing.T) {
	h := newHarness(t)
	lobby := h.as(alice, "new", opt("players", 3))
	ids := buttonIDs(lobby)
	if len(ids) != 1 || ids[0] != "ttt:join:1" {
		t.Fatalf("lobby buttons %v", ids)
	}
	joined := h.click(bob, ids[0])
	if joined.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(replyText(joined), "Seat 2: **O** <@"+bob+">") {
		t.Fatalf("join click: %+v", replyText(joined))
	}
	refused(t, h.click(bob, ids[0]), "already have a seat")
	started := h.click(carol, ids[0])
	if !strings.Contains(replyText(started), "Game on") || len(buttonIDs(started)) != 9 {
		t.Fatalf("third join: %s %v", replyText(started), buttonIDs(started))
	}
	for _, bad := range []string{"", "ttt", "other:join:1", "tttjoin:1"} {
		refused(t, h.click(alice, bad), "I don't know that command. Try `/ttt help`.")
	}
	// Under the bot's prefix but in no format it reads: a board from an
	// older (or newer) version of the bot.
	for _, old := range []string{"ttt:cell:1.0:x:1", "ttt:nope:1", "ttt:cell:1.0:1", "ttt:join:1:2", strings.Repeat("ttt:", 30)} {
		refused(t, h.click(alice, old), "This button is from an older board")
	}
}

func TestPictureOverHTTPIsANote(t *testing.T) {
	h := newHarness(t)
	h.challenge(t, channel, alice, bob)
	i := interaction(t, "command.json", commandFields(channel, alice, "board", 0, []option{opt("image", true)}))
	resp := h.bot.Serve(context.Background(), i).InteractionResponse(false)
	if len(resp.Data.Files) != 0 || !strings.Contains(replyText(resp), "gateway") {
		t.Fatalf("HTTP board image: %d files, %s", len(resp.Data.Files), replyText(resp))
	}
	if resp := h.bot.Handle(context.Background(), i); len(resp.Data.Files) != 1 {
		t.Fatalf("gateway board image: %d files", len(resp.Data.Files))
	}
}

// TestEveryErrorHasWords checks that every error a user can cause reads as a
// sentence, and that an internal one reads as the polite line.
func TestEveryErrorHasWords(t *testing.T) {
	seat := table.Seat{User: bob, Token: "O"}
	errs := []error{table.ErrNoGame, table.ErrExpired, table.ErrGameOpen, &table.LobbyError{Open: 1}, &table.LobbyError{Open: 2}, &table.LobbyError{Open: 1, Invitees: []string{bob}},
		table.ErrStarted, table.ErrSeated, table.ErrNotSeated, table.ErrResigned, &table.NotAllowedError{Creator: alice},
		table.ErrNoRematch, table.ErrNotInLastGame, ErrSelfOpponent, ErrBotOpponent, table.ErrConflict, ErrStale, ErrUnknown, ErrOldButton,
		progress.ErrStale, progress.ErrDuplicate, progress.ErrNoPuzzle,
		ErrMalformed, &OptionError{Option: "opponent", Want: WantUser}, &OptionError{Option: "user", Want: WantUser}, &OptionError{Option: "gravity", Want: WantDeclared},
		table.ErrSeatsReserved, table.ErrAlreadyChallenged, table.ErrTooManyChallenges, &table.NotInvitedError{Invitees: []string{bob}},
		&table.ChallengeClosedError{Why: table.Declined}, &table.ChallengeClosedError{Why: table.Withdrawn}, &table.ChallengeClosedError{Why: table.Unanswered}, &table.ChallengeClosedError{Why: table.NotEnded},
		&OptionError{Option: "rows", Want: WantWholeNumber, Min: 3, Max: 100}, &OptionError{Option: "later", Want: WantWholeNumber}, &OptionError{Option: "engine", Want: WantEngine}, &OptionError{Option: "ai", Want: WantLevel},
		game.ErrGameOver, &table.TurnError{Next: seat}, game.ErrCellTaken,
		game.ErrColumnFull, game.ErrNotPlayer,
		&RulesRefusal{Rules: game.Rules{Rows: 1, Cols: 3, Win: 3, Players: 2}, Err: &game.RulesError{Field: "rows", Value: 1, Reason: "must be 3–100"}},
		&RulesRefusal{Rules: game.Rules{Rows: 3, Cols: 3, Win: 4, Players: 2}, Err: &game.RulesError{Field: "win", Value: 4}},
		&RulesRefusal{Rules: game.Rules{Rows: 5, Cols: 3, Win: 4, Players: 2}, Err: &game.RulesError{Field: "win", Value: 4}},
		&RulesRefusal{Rules: game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 10}, Err: ErrUnwinnable},
		&token.Error{Token: "", Rule: token.OneCharacter, Suggest: "X"}, &token.Error{Token: "", Rule: token.OneCharacter}}
	for rule := token.OneCharacter; rule <= token.CustomEmoji; rule++ {
		errs = append(errs, &token.Error{Token: "\u2800", Rule: rule, Clash: "X", Suggest: "O"})
	}
	for reason := ThreadInDM; reason <= ThreadFailed; reason++ {
		errs = append(errs, &ThreadError{Reason: reason, Parent: channel, RetryAfter: 1500 * time.Millisecond})
	}
	for _, r := range []game.Rules{game.Classic(), {Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}, {Rows: 9, Cols: 9, Win: 5, Players: 2}} {
		errs = append(errs, &table.PositionError{Rules: r, Err: game.ErrOutOfBounds}, &table.PositionError{Rules: r, Err: game.ErrBadPosition},
			&table.PositionError{Rules: r, Err: game.ErrCellTaken})
	}
	w := locales.English()
	internal := w.Say("refuse.internal", nil)
	for _, dm := range []bool{false, true} {
		for _, err := range errs {
			key, data, ok := explain(w, dm, fmt.Errorf("wrapped: %w", err))
			text := say(w, key, data)
			if !ok || text == internal || text == key || strings.Contains(text, "{{") || strings.Contains(text, "<no value>") {
				t.Errorf("%v: %s → %q", err, key, text)
			}
		}
	}
	if key, _, ok := explain(w, false, errors.New("disk on fire")); ok || key != "refuse.internal" {
		t.Errorf("an internal error reads %s", key)
	}
}
