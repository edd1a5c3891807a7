package bot

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestTranscripts plays each testdata/*.script, a scripted conversation, and
// compares every reply, exactly, with testdata/*.golden. A wording or layout
// change is one `go test ./bot -run TestTranscripts -update` and one reviewed
// diff.
//
// Script lines ("#" starts a comment):
//
//	alice /new rows=4 opponent=@bob   a subcommand with options (ints, bools and @users by option name)
//	alice /tournament new format=swiss   a subcommand of a group
//	bob click 1:1                     the newest board's button whose custom_id ends with ":1:1", or whose label is the word
//	keep first                        remember the newest board's buttons as "first"
//	bob click first 0:1               click a remembered board's button (a stale click)
//	alice raw ttt:cell:9:1            click a raw custom_id (an old or forged button)
//	advance 2h                        move the clock
//	expire                            the clock scheduler's pass: apply every clock that ran out
//	guild_locale de                   the server's language from here on (default en-US)
//	bob:ja /move position=9           bob's client speaks Japanese (default en-US)
//	alice@dm /new                     in the group DM of alice and bob (user install; no guild, no member)
//	alice@botdm /new ai=easy          in alice's DM with the bot
//	discord threads                   the bot gets its token: threads, through the real REST client, on a fake Discord
//	carol@thread click 1:1            in the newest thread (whose board the fake Discord received is the newest board)
//	discord forbid start_thread       the fake answers 403 Missing Permissions (start_thread, post_message)
//	discord ratelimit start_thread 30s   the fake answers 429 once, retry_after 30 s
//	discord allow start_thread        undoes forbid and ratelimit
//	discord off                       the bot has no token again
//	app_permissions 0                 the bot's permissions in the channel from here on (default: all it needs)
//	install user                      the app is installed to the user only (install server: back)
//	scheduler                         the scheduler's pass (clocks and threads' archiving), and what it did
//	cdn                               custom emoji pictures come from a fake CDN (emoji_test.go) from here on
//	picture connect4                  the newest reply's PNG is testdata/connect4.png, pixel for pixel (-update writes it)
//	alice click solution              on alice's newest puzzle message: the main line's next move (puzzle_test.go)
//	alice click wrong                 on alice's newest puzzle message: a first move other than the solution's
//
// Board messages edited when a clock ran out (by the scheduler, or by an
// action that found it first) follow the line that caused them.
//
// The words come from the embedded locale files: when a translation lands,
// `-update` shows it in the goldens of scripts that speak that language.
func TestTranscripts(t *testing.T) {
	scripts, _ := filepath.Glob("testdata/*.script")
	if len(scripts) == 0 {
		t.Fatal("no testdata/*.script")
	}
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".script")
		t.Run(name, func(t *testing.T) {
			script, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := newHarness(t).play(t, string(script))
			golden.Check(t, strings.TrimSuffix(path, ".script")+".golden", []byte(got), *update)
		})
	}
}

// scriptUsers are the names scripts use; mod may manage messages.
var scriptUsers = map[string]string{"alice": alice, "bob": bob, "carol": carol, "dave": "800000000000000004", "erin": "800000000000000005", "mod": mod}

// Option kinds by name, so a script writes values as a user types them.
var (
	intOptions  = []string{optRows, optColumns, optWin, optPlayers, optClock, optRounds, optSize}
	boolOptions = []string{optGravity, optImage, optThread}
	userOptions = []string{optOpponent, optUser}
)

func (h *harness) play(t *testing.T, script string) string {
	var out strings.Builder
	var board *WireResponse // the newest reply with buttons
	kept := map[string]*WireResponse{}
	guildLocale := "en-US"
	var appPermissions string
	userInstall := false
	var picture []byte // the newest reply's PNG
	for n, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fail := func(format string, args ...any) {
			t.Fatalf("script line %d %q: %s", n+1, line, fmt.Sprintf(format, args...))
		}
		f := strings.Fields(line)
		switch f[0] {
		case "keep":
			kept[f[1]] = board
			continue
		case "guild_locale":
			guildLocale = f[1]
			fmt.Fprintf(&out, "> %s\n\n", line)
			continue
		case "advance":
			d, err := time.ParseDuration(f[1])
			if err != nil {
				fail("%v", err)
			}
			h.advance(d)
			fmt.Fprintf(&out, "> %s\n\n", line)
			continue
		case "expire":
			fmt.Fprintf(&out, "> %s\n%s\n", line, h.expire())
			continue
		case "scheduler":
			applied := h.expire()
			h.tables.Wait()
			h.bot.Wait() // what the pass left to the background (a tournament's work)
			fmt.Fprintf(&out, "> %s\n%s%s\n", line, strings.Replace(applied, "clocks ran out", "due applied", 1), h.discordCalls(&board))
			continue
		case "discord":
			if err := h.discordSwitch(t, f[1:]); err != nil {
				fail("%v", err)
			}
			fmt.Fprintf(&out, "> %s\n\n", line)
			continue
		case "app_permissions":
			appPermissions = f[1]
			fmt.Fprintf(&out, "> %s\n\n", line)
			continue
		case "install":
			userInstall = f[1] == "user"
			fmt.Fprintf(&out, "> %s\n\n", line)
			continue
		case "cdn": // emoji_test.go: custom emoji pictures from a fake CDN
			h.fakeCDN(t)
			fmt.Fprintf(&out, "> %s\n\n", line)
			continue
		case "picture": // the newest picture, against testdata/NAME.png
			checkPicture(t, f[1], picture)
			fmt.Fprintf(&out, "> %s\n\n", line)
			continue
		}
		who, locale, _ := strings.Cut(f[0], ":")
		who, place, _ := strings.Cut(who, "@")
		user, ok := scriptUsers[who]
		if !ok || len(f) < 2 {
			fail("unknown user or no action")
		}
		if locale == "" {
			locale = "en-US"
		}
		var i *discordgo.Interaction
		switch {
		case strings.HasPrefix(f[1], "/"):
			sub, args := strings.TrimPrefix(f[1], "/"), f[2:]
			if sub == groupTournament && len(args) > 0 {
				sub, args = sub+" "+args[0], args[1:]
			}
			var opts []option
			for _, kv := range args {
				k, v, _ := strings.Cut(kv, "=")
				switch {
				case slices.Contains(intOptions, k):
					n, err := strconv.Atoi(v)
					if err != nil {
						fail("%s is not a number", kv)
					}
					opts = append(opts, opt(k, n))
				case slices.Contains(boolOptions, k):
					opts = append(opts, opt(k, v == "true"))
				case slices.Contains(userOptions, k):
					id, isBot := scriptUsers[strings.TrimPrefix(v, "@")], false
					switch v {
					case "@me": // the bot itself
						id, isBot = "1000000000000000001", true
					case "@otherbot": // another bot's account
						id, isBot = "1000000000000000777", true
					}
					opts = append(opts, userOpt(k, id, isBot))
				default:
					opts = append(opts, opt(k, strings.ReplaceAll(v, "_", " ")))
				}
			}
			perms := int64(0)
			if f[0] == "mod" {
				perms = discordgo.PermissionManageMessages
			}
			fields := commandFields(channel, user, sub, perms, opts)
			fields["ID"] = scriptInteractionID(n)
			fields["Locale"], fields["GuildLocale"] = locale, guildLocale
			fields["AppPermissions"], fields["UserInstallOnly"] = appPermissions, userInstall
			file := "command.json"
			switch place {
			case "thread":
				fields["Channel"] = h.newestThread(t)
			case "dm":
				file, fields["Channel"], fields["Context"] = "dm_command.json", groupDM, 2
			case "botdm":
				file, fields["Channel"], fields["Context"] = "dm_command.json", botDM(user), 1
			}
			i = interaction(t, file, fields)
		case f[1] == "click" || f[1] == "raw":
			from, want := board, f[len(f)-1]
			if len(f) == 4 {
				from = kept[f[2]]
			}
			id := want
			if f[1] == "click" && (want == "solution" || want == "wrong") {
				want = h.puzzleMove(t, user, from, want == "solution")
			}
			if f[1] == "click" {
				id = findButton(from, want)
				if id == "" {
					fail("no button %q on the board", want)
				}
			}
			fields := map[string]any{"ID": scriptInteractionID(n), "Guild": guild, "Channel": channel, "User": user, "CustomID": id, "Locale": locale, "GuildLocale": guildLocale}
			file := "component.json"
			switch place {
			case "thread":
				fields["Channel"] = h.newestThread(t)
			case "dm":
				file, fields["Channel"] = "dm_component.json", groupDM
			case "botdm":
				file, fields["Channel"] = "dm_component.json", botDM(user)
			}
			i = interaction(t, file, fields)
		default:
			fail("unknown action %q", f[1])
		}
		resp := h.bot.Handle(context.Background(), i)
		checkReply(t, resp)
		if p := pictureOf(t, resp); p != nil {
			picture = p
		}
		if len(replyButtons(resp)) > 0 {
			board = resp
		}
		h.tables.Wait()
		h.bot.Wait()
		fmt.Fprintf(&out, "> %s\n%s%s%s\n", line, transcribe(resp), h.edits.transcribe(), h.discordCalls(&board))
	}
	return out.String()
}

// scriptInteractionID is the ID of the interaction on script line n (from
// 0): each its own, as Discord's are (a puzzle record refuses an ID it has
// applied before).
func scriptInteractionID(n int) string { return strconv.Itoa(1190000000000000000 + n) }

// groupDM is the channel of a DM (or group DM) between script users, where
// the app is installed to their accounts.
const groupDM = "930000000000000001"

// botDM is a user's DM channel with the bot.
func botDM(user string) string { return "94" + user[2:] }

// findButton returns the custom_id of resp's button labelled want or whose
// custom_id ends with ":"+want.
func findButton(resp *WireResponse, want string) string {
	for _, b := range replyButtons(resp) {
		if b.Label == want || strings.HasSuffix(b.CustomID, ":"+want) {
			return b.CustomID
		}
	}
	return ""
}

// transcribe writes a reply as a reviewer reads it (transcribeMessage):
// its kind and who sees it first.
func transcribe(resp *WireResponse) string {
	kinds := map[discordgo.InteractionResponseType]string{
		discordgo.InteractionResponseChannelMessageWithSource: "message",
		discordgo.InteractionResponseUpdateMessage:            "update",
	}
	d := resp.Data
	seen := "public"
	if d.Flags&discordgo.MessageFlagsEphemeral != 0 {
		seen = "ephemeral"
	}
	var files []string
	for _, f := range d.Files {
		files = append(files, fmt.Sprintf("%s (%s)", f.Name, f.ContentType))
	}
	return transcribeMessage(kinds[resp.Type]+", "+seen, d, files)
}
