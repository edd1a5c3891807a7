package bot

import (
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// TestSchemaMatchesDesign pins the /ttt contract in DESIGN.md: subcommands,
// option names and types, choices and bounds; and Discord's own limits.
func TestSchemaMatchesDesign(t *testing.T) {
	str, integer, boolean, user := discordgo.ApplicationCommandOptionString, discordgo.ApplicationCommandOptionInteger,
		discordgo.ApplicationCommandOptionBoolean, discordgo.ApplicationCommandOptionUser
	want := map[string]map[string]discordgo.ApplicationCommandOptionType{
		"new":         {"rows": integer, "columns": integer, "win": integer, "players": integer, "gravity": boolean, "token": str, "engine": str, "opponent": user, "ai": str, "clock": integer, "thread": boolean},
		"join":        {"token": str},
		"move":        {"position": str},
		"board":       {"image": boolean},
		"rematch":     {},
		"resign":      {},
		"end":         {},
		"check":       {"board": str, "win": integer, "gravity": boolean},
		"stats":       {"user": user},
		"leaderboard": {"kind": str, "scope": str},
		"history":     {"user": user},
		"replay":      {"game": str},
		"help":        {},
	}
	bounds := map[string][2]float64{"rows": {3, 100}, "columns": {3, 100}, "win": {3, 25}, "players": {2, 10}}
	choices := map[string]string{"engine": "[fast compact]", "ai": "[easy medium hard]", "kind": "[classic connect4 other]", "scope": "[server everywhere]", "clock": "[30 60 300 3600 86400]"}

	cmds := Commands()
	if len(cmds) != 1 || cmds[0].Name != "ttt" {
		t.Fatalf("commands %v", cmds)
	}
	checkText := func(what, s string) {
		if n := utf8.RuneCountInString(s); n < 1 || n > 100 {
			t.Errorf("%s description is %d characters (Discord allows 1–100)", what, n)
		}
	}
	checkText("/ttt", cmds[0].Description)
	seen := map[string]bool{}
	for _, sub := range cmds[0].Options {
		seen[sub.Name] = true
		checkText(sub.Name, sub.Description)
		opts, ok := want[sub.Name]
		if !ok || sub.Type != discordgo.ApplicationCommandOptionSubCommand {
			t.Errorf("unexpected subcommand %q", sub.Name)
			continue
		}
		if len(sub.Options) != len(opts) {
			t.Errorf("%s has %d options, want %d", sub.Name, len(sub.Options), len(opts))
		}
		for _, o := range sub.Options {
			checkText(sub.Name+" "+o.Name, o.Description)
			if typ, ok := opts[o.Name]; !ok || typ != o.Type {
				t.Errorf("%s option %q has type %v, want %v", sub.Name, o.Name, o.Type, typ)
			}
			if b, ok := bounds[o.Name]; ok && (o.MinValue == nil || *o.MinValue != b[0] || o.MaxValue != b[1]) {
				t.Errorf("%s %s bounds %v–%v, want %v", sub.Name, o.Name, o.MinValue, o.MaxValue, b)
			}
			if c, ok := choices[o.Name]; ok {
				var got []string
				for _, ch := range o.Choices {
					got = append(got, fmt.Sprint(ch.Value))
				}
				if fmt.Sprint(got) != c {
					t.Errorf("%s %s choices %v, want %s", sub.Name, o.Name, got, c)
				}
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("subcommand %q is missing", name)
		}
	}
}
