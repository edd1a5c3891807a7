package bot

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// TestCardComponentCounts: what a board message uses of Discord's 40
// components (the container, its text displays, the gallery, each action
// row and each button), for the boards that have the most buttons. Every
// reply is also checked against Discord's description (checkReply).
func TestCardComponentCounts(t *testing.T) {
	cases := []struct {
		name  string
		opts  []option
		image bool // /ttt board image:true after the start
		want  int
	}{
		// 1 container + 3 text displays (headline, board, status) + 3 rows + 9 buttons
		{"Classic3x3", nil, false, 16},
		// 1 + 3 + 2 rows (5 and 2 columns) + 7 buttons
		{"ConnectFour7x6", []option{opt(optGravity, true)}, false, 13},
		// 1 + 3 + 1 gallery + 5 rows + 25 buttons: the most a free board has
		{"Free5x5Picture", []option{opt(optRows, 5), opt(optColumns, 5)}, true, 35},
		// 1 + 3 + 1 gallery (too big for text) + 5 rows + 25 columns: the most a gravity board has
		{"Gravity100x25", []option{opt(optGravity, true), opt(optRows, 100), opt(optColumns, 25)}, false, 35},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			publicText(t, h.as(alice, "new", append(c.opts, userOpt(optOpponent, bob, false))...))
			resp := h.as(bob, "join")
			if c.image {
				resp = h.as(bob, "board", opt(optImage, true))
			}
			publicText(t, resp)
			if !resp.Data.IsV2() {
				t.Fatalf("not a card: %+v", resp.Data)
			}
			if got := countComponents(resp.Data.Components); got != c.want {
				t.Errorf("%d components, want %d", got, c.want)
			}
		})
	}
}

// TestCardAccent: the container is the colour of the seat to move (the
// colour it has in the picture), and neutral when nobody is to move.
func TestCardAccent(t *testing.T) {
	h := newHarness(t)
	accent := func(resp *WireResponse) int {
		t.Helper()
		publicText(t, resp)
		return *resp.Data.Components[0].(discordgo.Container).AccentColor
	}
	if a := accent(h.as(alice, "new", userOpt(optOpponent, bob, false))); a != neutralAccent {
		t.Errorf("invitation: %06X", a)
	}
	if a := accent(h.as(bob, "join")); a != 0x1F77B4 {
		t.Errorf("X to move: %06X, want the picture's blue", a)
	}
	if a := accent(h.as(alice, "move", opt(optPosition, "0"))); a != 0xD62728 {
		t.Errorf("O to move: %06X, want the picture's red", a)
	}
	if a := accent(h.as(bob, "resign")); a != neutralAccent {
		t.Errorf("game over: %06X", a)
	}
}

// TestCardFitsDiscordLimits: a card that would pass 40 components keeps its
// text and its control buttons and drops the move buttons; text over 4000
// characters is clipped on a line.
func TestCardFitsDiscordLimits(t *testing.T) {
	row := func(route Route, n int) discordgo.MessageComponent {
		r := discordgo.ActionsRow{}
		for c := range n {
			id := buttonID(ButtonColumn, "1.0", strconv.Itoa(c))
			if route == ButtonRematch {
				id = buttonID(ButtonRematch, "1")
			}
			r.Components = append(r.Components, discordgo.Button{Label: "b", CustomID: id})
		}
		return r
	}
	var rows []discordgo.MessageComponent
	for range 7 { // 7 × 6 = 42 on their own
		rows = append(rows, row(ButtonColumn, 5))
	}
	rows = append(rows, row(ButtonRematch, 1))
	resp := Response{Kind: Message, Card: true, Content: "head\n```\nboard\n```\nstatus", Components: rows}
	m := resp.InteractionResponse(true).Data
	got := replyButtons(&WireResponse{Data: m})
	if n := countComponents(m.Components); n > maxCardComponents || len(got) != 1 || !strings.HasPrefix(got[0].CustomID, "ttt:rematch:") {
		t.Fatalf("%d components, buttons %+v: want the rematch row alone", n, got)
	}
	if text := messageText(m); text != resp.Content {
		t.Fatalf("text %q", text)
	}

	long := strings.Repeat(strings.Repeat("x", 99)+"\n", 60) // 6000 characters
	m = Response{Kind: Message, Card: true, Content: long, Files: []File{{Name: "board.png"}}, NoFiles: "(no picture)"}.InteractionResponse(false).Data
	n := 0
	walk(m.Components, func(c discordgo.MessageComponent) {
		if td, ok := c.(discordgo.TextDisplay); ok {
			n += utf8.RuneCountInString(td.Content)
		}
	})
	if n > maxCardText || !strings.HasSuffix(messageText(m), "…\n(no picture)") {
		t.Fatalf("%d characters of text, ending %q", n, messageText(m)[len(messageText(m))-20:])
	}
	checkBody(t, m)
}

// TestTextDisplays: a message's text is cut at its code blocks, and the
// parts are the text again.
func TestTextDisplays(t *testing.T) {
	text := "**X** played 1,1.\n```\n X . .\n```\nTurn: **O**\nMoves:\n```\n1. X 1,1\n```"
	got := textDisplays(text)
	want := []string{"**X** played 1,1.", "```\n X . .\n```", "Turn: **O**\nMoves:", "```\n1. X 1,1\n```"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("parts %q, want %q", got, want)
	}
	if strings.Join(got, "\n") != text {
		t.Fatal("the parts are not the text again")
	}
	if got := textDisplays("one line, `code` in it"); len(got) != 1 {
		t.Fatalf("prose without a block: %q", got)
	}
}

// textDisplaysByLines is textDisplays as it was first written, line by
// line: split, gather, join. textDisplays cuts the same parts from the
// text without copying it.
func textDisplaysByLines(text string) []string {
	var parts []string
	var cur []string
	inBlock := false
	flush := func() {
		if s := strings.Join(cur, "\n"); strings.TrimSpace(s) != "" {
			parts = append(parts, s)
		}
		cur = nil
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") && !inBlock {
			flush()
			inBlock = true
			cur = append(cur, line)
			continue
		}
		cur = append(cur, line)
		if line == "```" && inBlock {
			inBlock = false
			flush()
		}
	}
	flush()
	return parts
}

// FuzzTextDisplays holds textDisplays to textDisplaysByLines.
func FuzzTextDisplays(f *testing.F) {
	for _, text := range []string{
		"", "\n", "\n\n", "```", "```\n", "\n```", "```\n```", "```\n```\n", "a\n```\nb\n```\nc\n", " \n```go\n x\n```\n \n",
		"**X** played 1,1.\n```\n X . .\n```\nTurn: **O**\nMoves:\n```\n1. X 1,1\n```", "```\n```\n```\n``` x\n```", "a\n\n```\n\n```\n\nb",
	} {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := textDisplays(text), textDisplaysByLines(text); !slices.Equal(got, want) {
			t.Fatalf("%q: parts %q, want %q", text, got, want)
		}
	})
}

// TestCardWithPictureInThread: a board too big for text posted in a new
// thread is a card whose media gallery shows the PNG sent with it (the fake
// Discord checks the gallery names a file of the post).
func TestCardWithPictureInThread(t *testing.T) {
	h := newHarness(t)
	fake := h.withThreads(t)
	h.challenge(t, channel, alice, bob)
	publicText(t, h.as(carol, "new", opt(optRows, 60), opt(optColumns, 60), userOpt(optOpponent, "1000000000000000001", true)))
	threads := fake.Threads()
	if len(threads) != 1 {
		t.Fatalf("threads %+v", threads)
	}
	msgs := fake.Messages(threads[0].ID)
	if len(msgs) != 1 || len(msgs[0].Files["board.png"]) == 0 {
		t.Fatalf("the thread's messages %+v: want the board with its picture", msgs)
	}
	m := decodeMessage(msgs[0].Body)
	if !m.IsV2() || !strings.Contains(string(msgs[0].Body), `"url":"attachment://board.png"`) || m.Attachments == nil || len(*m.Attachments) != 1 {
		t.Fatalf("not a card showing its picture: %s", msgs[0].Body)
	}
}
