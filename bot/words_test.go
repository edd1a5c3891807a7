package bot

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// testWords is a catalog with a few German and Japanese sentences, so the
// choice of language is tested whatever the translators' files hold.
func testWords(tb testing.TB) *locales.Catalog {
	tb.Helper()
	en, err := os.ReadFile("locales/en-US.json")
	if err != nil {
		tb.Fatal(err)
	}
	return locales.Load(fstest.MapFS{
		"en-US.json": {Data: en},
		"de.json": {Data: []byte(`{
			"button.join": "Beitreten",
			"headline.new": "{{.Creator}} hat ein Spiel eröffnet.",
			"refuse.no_game": "In diesem Kanal läuft kein Spiel. Starte eines mit ` + "`/ttt new`" + `.",
			"stats.games": {"one": "{{.Count}} Spiel", "other": "{{.Count}} Spiele"}}`)},
		"ja.json": {Data: []byte(`{"refuse.no_game": "このチャンネルにはゲームがありません。` + "`/ttt new`" + ` で始めてください。"}`)},
	}, nil)
}

func newHarnessWords(tb testing.TB, words *locales.Catalog) *harness {
	h := newHarness(tb)
	h.bot = New(Options{Tables: h.tables, Records: h.store, AIBudget: testAIBudget, Words: words})
	return h
}

// command sends /ttt sub from user with the given client and server
// locales, in a guild channel, or with guildLocale "dm" in a group DM.
func (h *harness) command(ch, user, locale, guildLocale, sub string, opts ...option) *WireResponse {
	h.tb.Helper()
	fields := commandFields(ch, user, sub, 0, opts)
	fields["Locale"], fields["GuildLocale"] = locale, guildLocale
	file := "command.json"
	if guildLocale == "dm" {
		file, fields["Context"] = "dm_command.json", 2
	}
	return h.bot.Handle(context.Background(), interaction(h.tb, file, fields))
}

// TestLanguages: public messages speak the server's language (in a DM the
// user's); ephemeral replies the user's; unknown locales English.
func TestLanguages(t *testing.T) {
	h := newHarnessWords(t, testWords(t))
	t.Run("GermanServer", func(t *testing.T) {
		resp := h.command(channel, alice, "en-US", "de", "new")
		text := publicText(t, resp)
		if !strings.HasPrefix(text, "<@"+alice+"> hat ein Spiel eröffnet.") {
			t.Errorf("a German server's lobby: %q", text)
		}
		if got := findButton(resp, "Beitreten"); got == "" {
			t.Errorf("no German Join button: %s", transcribe(resp))
		}
		// An English speaker there is refused in English…
		refused(t, h.command("920000000000000009", bob, "en-US", "de", "board"), "There's no game in this channel.")
		// …a German speaker in German, a Japanese one in Japanese.
		refused(t, h.command("920000000000000009", bob, "de", "en-US", "board"), "In diesem Kanal läuft kein Spiel.")
		refused(t, h.command("920000000000000009", bob, "ja", "de", "board"), "このチャンネルにはゲームがありません。")
	})
	t.Run("DMSpeaksTheUser", func(t *testing.T) {
		text := publicText(t, h.command(groupDM, carol, "de", "dm", "new"))
		if !strings.HasPrefix(text, "<@"+carol+"> hat ein Spiel eröffnet.") {
			t.Errorf("a German user's DM lobby: %q", text)
		}
	})
	t.Run("UnknownLocale", func(t *testing.T) {
		refused(t, h.command("920000000000000008", bob, "tlh", "xx", "board"), "There's no game in this channel.")
	})
	t.Run("MissingSentenceIsEnglish", func(t *testing.T) {
		// de.json lacks the lobby's other lines: they come in English.
		text := publicText(t, h.command("920000000000000007", alice, "de", "de", "new"))
		if !strings.Contains(text, "Waiting for 1 more player") {
			t.Errorf("fallback: %q", text)
		}
	})
}

// TestRefusalInJapanese: with the embedded files, a Japanese user reads
// what ja.json says (English until the translators' file lands).
func TestRefusalInJapanese(t *testing.T) {
	h := newHarness(t)
	resp := h.command(channel, alice, "ja", "en-US", "board")
	ja := locales.New(nil).For("ja").Say("refuse.no_game", nil)
	refused(t, resp, ja)
	if slices.Contains(locales.Files(), "ja") && ja == locales.English().Say("refuse.no_game", nil) {
		t.Errorf("ja.json's refusal is the English text: %q", ja)
	}
}

// malformed returns command.json for /ttt sub with edit applied to its JSON.
func malformed(tb testing.TB, sub string, opts []option, edit func(m map[string]any)) *discordgo.Interaction {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(rawInteraction(tb, "command.json", commandFields(channel, bob, sub, 0, opts)), &m); err != nil {
		tb.Fatal(err)
	}
	edit(m)
	raw, _ := json.Marshal(m)
	var i discordgo.Interaction
	if err := json.Unmarshal(raw, &i); err != nil {
		tb.Fatal(err)
	}
	return &i
}

// TestPayloadShapes: an interaction Discord would never send gets a clear
// refusal, never rights or a seat (issue 11.6).
func TestPayloadShapes(t *testing.T) {
	h := newHarness(t)
	publicText(t, h.as(alice, "new"))
	for _, tc := range []struct {
		name string
		i    *discordgo.Interaction
		want string
	}{
		{"MemberWithoutUser", malformed(t, "end", nil, func(m map[string]any) {
			delete(m["member"].(map[string]any), "user")
			m["user"] = map[string]any{"id": bob, "username": "b"}
			m["member"].(map[string]any)["permissions"] = "8" // administrator
		}), "without saying who you are"},
		{"GuildWithoutMember", malformed(t, "end", nil, func(m map[string]any) {
			delete(m, "member")
			m["user"] = map[string]any{"id": alice, "username": "a"}
		}), "without saying who you are"},
		{"DMWithMember", malformed(t, "end", nil, func(m map[string]any) { delete(m, "guild_id") }), "without saying who you are"},
		{"UserNotASnowflake", malformed(t, "end", nil, func(m map[string]any) {
			m["member"].(map[string]any)["user"] = map[string]any{"id": "alice", "username": "a"}
		}), "without saying who you are"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refused(t, h.bot.Handle(context.Background(), tc.i), tc.want)
		})
	}
	if tbl := h.load(channel); !tbl.Phase.Open() {
		t.Fatal("a malformed interaction ended the game")
	}
	h2 := newHarness(t)
	for _, tc := range []struct {
		name string
		opts []option
		edit func(m map[string]any)
	}{
		{"OpponentNotASnowflake", []option{userOpt("opponent", "everyone", false)}, nil},
		{"OpponentUnresolved", []option{userOpt("opponent", carol, false)}, func(m map[string]any) { delete(m["data"].(map[string]any), "resolved") }},
		{"BotUnresolved", []option{userOpt("opponent", "1000000000000000001", true)}, func(m map[string]any) { delete(m["data"].(map[string]any), "resolved") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			edit := tc.edit
			if edit == nil {
				edit = func(map[string]any) {}
			}
			refused(t, h2.bot.Handle(context.Background(), malformed(t, "new", tc.opts, edit)), "I can't seat that `opponent`")
			refused(t, h2.as(alice, "board"), "no game") // nobody was seated
		})
	}
	t.Run("OpponentAsString", func(t *testing.T) {
		refused(t, h2.bot.Handle(context.Background(), malformed(t, "new", []option{opt("opponent", carol)}, func(map[string]any) {})), "`opponent` came with a value of the wrong kind")
		refused(t, h2.as(alice, "board"), "no game")
	})
	t.Run("StatsUserNotASnowflake", func(t *testing.T) { // the refusal names the option that was wrong
		refused(t, h2.as(alice, "stats", userOpt("user", "../../x", false)), "`user` must be a user I can see")
	})
}

// TestWording holds the rough edges of issue 11.10.
func TestWording(t *testing.T) {
	t.Run("HugeNumberNamesTheBound", func(t *testing.T) {
		h := newHarness(t)
		huge := option{Type: discordgo.ApplicationCommandOptionInteger, Name: "rows", Value: 1e9}
		refused(t, h.as(alice, "new", huge), "`rows` must be a whole number from 3 to 100.")
	})
	for _, tc := range []struct {
		players int
		ok      bool
	}{{4, true}, {5, false}, {10, false}} {
		t.Run("Unwinnable", func(t *testing.T) {
			h := newHarness(t)
			resp := h.as(alice, "new", opt("players", tc.players))
			if tc.ok {
				publicText(t, resp)
				return
			}
			refused(t, resp, "Nobody could ever win")
		})
	}
	t.Run("OneGame", func(t *testing.T) {
		text := statsText(locales.English(), false, alice, table.Tally{Player: alice, Wins: 1})
		if !strings.Contains(text, "1 win, 0 losses, 0 draws (1 game)") {
			t.Errorf("stats: %q", text)
		}
	})
	t.Run("BlankTokenHasASubject", func(t *testing.T) {
		h := newHarness(t)
		refused(t, h.as(alice, "new", opt("token", " ")), "Your token is blank.")
	})
	t.Run("TokenRules", func(t *testing.T) {
		h := newHarness(t)
		refused(t, h.as(alice, "new", opt("token", "5")), "Your token `5` looks like the digit `5`, and on the 3×3 board empty cells show their numbers. Pick a letter or symbol, like `X`.")
		refused(t, h.as(alice, "new", opt("token", "\u20dd")), "is a combining or enclosing mark")
		refused(t, h.as(alice, "new", opt("token", "\u2800")), "can't be seen on the board")
		publicText(t, h.as(alice, "new", opt("players", 3)))
		refused(t, h.as(bob, "join", opt("token", "Х")), "Your token `Х` looks too much like `X`, which another player has. Pick one nobody could mistake, like `O`")
		publicText(t, h.in("920000000000000005", alice, "new", opt("rows", 4), opt("token", "5"))) // no numbers on a 4×4 board
	})
	t.Run("TakenCellOnTheNumberedBoard", func(t *testing.T) {
		h := newHarness(t)
		h.challenge(t, channel, alice, bob)
		publicText(t, h.as(alice, "move", opt("position", "4")))
		resp := h.as(bob, "move", opt("position", "4"))
		refused(t, resp, "empty cells show their number")
		if strings.Contains(replyText(resp), "shown as") {
			t.Errorf("numbered board: %q", replyText(resp))
		}
	})
	t.Run("AutocompleteForgetsAnIdleGame", func(t *testing.T) {
		h := newHarness(t)
		h.challenge(t, channel, alice, bob, opt("rows", 9), opt("columns", 9))
		ac := func() int {
			i := interaction(t, "autocomplete.json", map[string]any{"Guild": guild, "Channel": channel, "User": alice, "Permissions": "0", "Typed": ""})
			return len(*h.bot.Handle(context.Background(), i).Data.Choices)
		}
		if ac() == 0 {
			t.Fatal("no suggestions for a running game")
		}
		h.advance(2 * time.Hour) // past the harness's one-hour idle timeout
		if n := ac(); n != 0 {
			t.Errorf("%d suggestions for a game idle expiry ended", n)
		}
	})
}

// outsideCode returns s without its code spans (CommonMark's rule, which
// Discord follows: a run of n backticks closes at the next run of exactly
// n), what Discord renders as markup.
func outsideCode(s string) string {
	run := func(i int) int {
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		return n
	}
	var out strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '`' {
			out.WriteByte(s[i])
			i++
			continue
		}
		n, closed := run(i), -1
		for j := i + n; j < len(s); {
			if m := run(j); m == n {
				closed = j
				break
			} else if m > 0 {
				j += m
			} else {
				j++
			}
		}
		if closed < 0 {
			out.WriteString(s[i : i+n])
			i += n
			continue
		}
		out.WriteString("␟") // a span
		i = closed + n
	}
	return out.String()
}

// hostile is what a user might type to make the bot's message render it:
// backticks to close the span, then markup, links and mentions.
var hostile = []string{
	"X`O/[click](https://evil.example)/..X",
	"X``<@800000000000000003>``/.../...",
	"```\n# heading\n```@everyone",
	"X.O/`||spoiler||`/..X",
	"`", "``", "```", "X`", "`X",
	"# heading/<@&900000000000000001>/@here",
	"XO./.XO/..X\n# big\n**bold** <@800000000000000001>",
	strings.Repeat("`<@1>`", 1500),
}

// markup lists what must never appear outside code in a reply about user
// text.
var markup = []string{"<@", "@everyone", "@here", "http", "||", "# ", "**bold", "["}

// TestUserTextStaysCode: whatever a user types, in every reply that echoes
// it (the /ttt check verdict and board, a token refusal), nothing of it
// renders outside code (issue 11.1).
func TestUserTextStaysCode(t *testing.T) {
	h := newHarness(t)
	for _, text := range hostile {
		replies := map[string]*WireResponse{
			"check": h.as(alice, "check", opt("board", text)),
			"token": h.as(alice, "new", opt("token", text)),
		}
		for name, resp := range replies {
			content := replyText(resp)
			checkReply(t, resp)
			outside := outsideCode(content)
			for _, m := range markup {
				if strings.Contains(outside, m) {
					t.Errorf("%s of %q: %q renders outside code:\n%s", name, text, m, content)
				}
			}
		}
	}
}

func TestOutsideCode(t *testing.T) {
	for in, want := range map[string]string{
		"a `b` c":          "a ␟ c",
		"a ``b`c`` d":      "a ␟ d",
		"a ` b":            "a ` b",
		"**``x``**\n`y`":   "**␟**\n␟",
		"```\nboard\n```x": "␟x",
	} {
		if got := outsideCode(in); got != want {
			t.Errorf("outsideCode(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPictureNoteFits: over HTTP a board picture becomes a note; on a big
// board the note is whole, the content within Discord's limit, and nothing
// is cut mid-word (issue 11.12).
func TestPictureNoteFits(t *testing.T) {
	h := newHarness(t)
	h.challenge(t, channel, alice, bob, opt("rows", 100), opt("columns", 100), opt("win", 5))
	i := interaction(t, "command.json", commandFields(channel, alice, "board", 0, []option{opt("image", true)}))
	resp := h.bot.Serve(context.Background(), i).InteractionResponse(false)
	content := replyText(resp)
	note := locales.English().Say("status.no_picture", nil)
	if n := len([]rune(content)); n > MaxContent || !strings.HasSuffix(content, "\n"+note) {
		t.Fatalf("%d characters, ending %q", n, content[max(0, len(content)-120):])
	}
	if strings.Count(content, "```")%2 != 0 {
		t.Errorf("a code block is left open:\n%s", content)
	}
}

func TestClipLines(t *testing.T) {
	board := "headline\n```\n" + strings.Repeat("row of the board, one line\n", 100) + "```\nstatus line"
	got := clipLines(board, "(more: /ttt board)", 500)
	if n := len([]rune(got)); n > 500 {
		t.Fatalf("%d characters", n)
	}
	if !strings.HasSuffix(got, "```\n(more: /ttt board)") || !strings.Contains(got, "row of the board, one line\n") {
		t.Errorf("clipped:\n%s", got)
	}
	for _, line := range strings.Split(got, "\n") {
		if line != "headline" && line != "```" && line != "row of the board, one line" && line != "(more: /ttt board)" {
			t.Errorf("line cut: %q", line)
		}
	}
	long := strings.Repeat("word ", 1000)
	if got := clip(long); len([]rune(got)) > MaxContent || strings.HasSuffix(strings.TrimSuffix(got, "\n…"), "wor") {
		t.Errorf("one long line clipped mid-word: …%q", got[len(got)-20:])
	}
}

// FuzzCheckText: whatever board a user writes, /ttt check's reply is within
// Discord's limit and nothing of the board renders outside code.
func FuzzCheckText(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	w := locales.English()
	f.Fuzz(func(t *testing.T, board string) {
		v := game.CheckBoard(board, game.CheckOptions{Win: 3, Tokens: tokensOf(board)})
		text := checkText(w, board, v)
		if n := len([]rune(text)); n > MaxContent {
			t.Fatalf("%d characters", n)
		}
		outside := outsideCode(text)
		for _, m := range markup {
			if strings.Contains(outside, m) {
				t.Fatalf("%q renders outside code:\n%s", m, text)
			}
		}
	})
}

// TestHelpFitsInEveryLocale: /ttt help is one embed; a translation that
// makes it longer than Discord allows fails here rather than being cut.
func TestHelpFitsInEveryLocale(t *testing.T) {
	c := locales.New(nil)
	for _, locale := range c.Locales() {
		in := &Interaction{Private: c.For(locale)}
		resp, _ := (&Bot{}).help(context.Background(), in)
		var n int
		for _, key := range helpKeys {
			n += len([]rune(c.For(locale).Say(key, nil))) + 1
		}
		if n-1 > MaxEmbedDescription || strings.HasSuffix(resp.Embeds[0].Description, "…") {
			t.Errorf("%s: help is %d characters", locale, n-1)
		}
	}
}
