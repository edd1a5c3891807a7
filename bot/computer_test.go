package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/table"
)

const botUser = "1000000000000000001" // command.json's application_id

func TestComputerOpponent(t *testing.T) {
	h := newHarness(t)
	start := publicText(t, h.as(alice, "new", opt("ai", "hard")))
	if !strings.Contains(start, "vs **O** the computer (hard)") || !strings.Contains(start, "Turn: **X** <@"+alice+">") {
		t.Fatalf("start:\n%s", start)
	}
	refused(t, h.as(bob, "join"), "already started")
	// Hard never lets X win; play until the game ends, always taking the
	// first free cell, and check each reply carries both moves.
	var text string
	for i := 0; i < 5; i++ {
		tbl := h.load(channel)
		if tbl.Phase != table.Playing {
			break
		}
		pos := firstFree(tbl)
		text = publicText(t, h.as(alice, "move", opt("position", pos)))
		if !strings.Contains(text, "<@"+alice+"> played") {
			t.Fatalf("reply lacks the human's move:\n%s", text)
		}
		if !strings.Contains(text, "the computer (hard) played") && !strings.Contains(text, "won!") && !strings.Contains(text, "draw") {
			t.Fatalf("reply lacks the computer's move:\n%s", text)
		}
	}
	if !strings.Contains(text, "Player O (the computer (hard)) won!") {
		t.Fatalf("Hard should beat first-free-cell play:\n%s", text)
	}
	// Counted in the record, not rated: games against the computer are not.
	if board := publicText(t, h.as(alice, "leaderboard")); !strings.Contains(board, "No rated games") {
		t.Fatalf("leaderboard:\n%s", board)
	}
	if stats := publicText(t, h.as(alice, "stats")); !strings.Contains(stats, "0 wins, 1 loss") || strings.Contains(stats, "rating") {
		t.Fatalf("stats:\n%s", stats)
	}
	// The rematch rotates the seats: the computer starts, in the same reply.
	re := publicText(t, h.as(alice, "rematch"))
	if !strings.Contains(re, "the computer (hard) played") || !strings.Contains(re, "Turn: **X** <@"+alice+">") {
		t.Fatalf("rematch:\n%s", re)
	}
}

func firstFree(t *table.Table) string {
	for r := 0; r < t.Rules.Rows; r++ {
		for c := 0; c < t.Rules.Cols; c++ {
			if t.Game().At(coord(r, c)) < 0 {
				return fmt.Sprintf("%d,%d", r, c)
			}
		}
	}
	return ""
}

func TestInvitingTheBotPlaysMedium(t *testing.T) {
	h := newHarness(t)
	text := publicText(t, h.as(alice, "new", opt("gravity", true), userOpt("opponent", botUser, true)))
	if !strings.Contains(text, "the computer (medium)") {
		t.Fatalf("inviting the bot:\n%s", text)
	}
	refused(t, newHarness(t).as(carol, "new", userOpt("opponent", "1000000000000000777", true)), "another bot")
	refused(t, newHarness(t).as(alice, "new", opt("ai", "godlike")), "easy, medium or hard")
}

func TestComputersDoNotPlayOnAlone(t *testing.T) {
	h := newHarness(t)
	publicText(t, h.as(alice, "new", opt("players", 3), opt("rows", 6), opt("columns", 6), opt("ai", "easy")))
	text := publicText(t, h.as(alice, "resign"))
	if !strings.Contains(text, "No people are left") {
		t.Fatalf("resigning against two computers:\n%s", text)
	}
	publicText(t, h.as(bob, "new")) // the channel is free
}
