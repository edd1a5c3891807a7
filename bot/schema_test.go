package bot

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/puzzle"
	"github.com/tttbot/tttbot/table"
	"github.com/tttbot/tttbot/tournament"
)

// TestSchemaMatchesDesign pins the /ttt contract (docs/architecture.md): subcommands,
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
		"tournament new": {"format": str, "rows": integer, "columns": integer, "win": integer, "gravity": boolean, "clock": integer,
			"rounds": integer, "size": integer},
		"tournament join":      {},
		"tournament leave":     {},
		"tournament start":     {},
		"tournament standings": {},
		"puzzle":               {"kind": str, "difficulty": str},
	}
	bounds := map[string][2]float64{"rows": {3, 100}, "columns": {3, 100}, "win": {3, 25}, "players": {2, 10}, "rounds": {1, 64}, "size": {3, 64}}
	// A choice list is every value of the type it names, in the type's
	// order, each read back by the parser its handler uses as the value it
	// names (readBack returns the value written as the choice is, and
	// whether the parser took it).
	var clocks []string
	for _, d := range table.Clocks {
		clocks = append(clocks, strconv.Itoa(int(d/time.Second)))
	}
	choices := map[string]struct {
		want     []string
		readBack func(string) (string, bool)
	}{
		"engine": {names(game.Engines()), func(v string) (string, bool) {
			e, err := game.ParseEngine(v)
			return e.String(), err == nil
		}},
		"ai": {names(table.Computers()), func(v string) (string, bool) {
			k, ok := table.ParseComputer(v)
			return k.String(), ok
		}},
		"kind": {names(table.Kinds()), func(v string) (string, bool) {
			k, ok := table.ParseKind(v)
			return k.String(), ok
		}},
		"clock": {clocks, func(v string) (string, bool) {
			n, err := strconv.Atoi(v)
			return strconv.Itoa(n), err == nil && table.ValidClock(time.Duration(n)*time.Second) == nil
		}},
		"scope": {[]string{"server", "everywhere"}, func(v string) (string, bool) { return v, v == scopeServer || v == scopeEverywhere }},
		"format": {[]string{"round-robin", "swiss", "knockout"}, func(v string) (string, bool) {
			_, err := tournament.New(tournament.Format(v), 0, 0)
			return v, err == nil
		}},
		// puzzle's kind: is a puzzle's kind, not a game's (choices are
		// looked up by "<subcommand> <option>" first).
		"puzzle kind": {[]string{"connect4", "classic"}, func(v string) (string, bool) {
			return v, slices.Contains(puzzle.Kinds(), puzzle.Kind(v))
		}},
		"difficulty": {[]string{"easy", "medium", "hard"}, func(v string) (string, bool) {
			return v, slices.Contains(puzzle.Difficulties(), puzzle.Difficulty(v))
		}},
	}

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
	for _, o := range cmds[0].Options {
		if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			checkText(o.Name, o.Description)
		}
	}
	seen := map[string]bool{}
	for _, s := range subcommands(cmds[0]) {
		sub := *s.opt
		sub.Name = s.name
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
			c, ok := choices[sub.Name+" "+o.Name]
			if !ok {
				c, ok = choices[o.Name]
			}
			if ok {
				var got []string
				for _, ch := range o.Choices {
					v := fmt.Sprint(ch.Value)
					got = append(got, v)
					if back, ok := c.readBack(v); !ok || back != v {
						t.Errorf("%s %s choice %q reads back as %q (taken: %v)", sub.Name, o.Name, v, back, ok)
					}
				}
				if !slices.Equal(got, c.want) {
					t.Errorf("%s %s choices %v, want %v", sub.Name, o.Name, got, c.want)
				}
			} else if len(o.Choices) > 0 {
				t.Errorf("%s %s has choices this test does not check", sub.Name, o.Name)
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("subcommand %q is missing", name)
		}
	}
}

// TestSchemaHasEveryCommandRoute: /ttt registers exactly the subcommands of
// the route table, each once, so no route is unreachable and no subcommand
// goes unrouted.
func TestSchemaHasEveryCommandRoute(t *testing.T) {
	registered := map[string]int{}
	for _, sub := range subcommands(command()) {
		registered[sub.name]++
		if _, ok := commandRoutes[sub.name]; !ok {
			t.Errorf("subcommand %q has no route", sub.name)
		}
	}
	for _, e := range routeTable {
		if e.command != "" && registered[e.command] != 1 {
			t.Errorf("route %v is registered %d times, want once", e.route, registered[e.command])
		}
	}
}

// TestRefusalsNameEveryChoice: the English refusal of a value outside a
// choice list names every choice, so a value added to the type shows there
// too (translators follow en-US).
func TestRefusalsNameEveryChoice(t *testing.T) {
	en := locales.English()
	for key, values := range map[string][]string{
		"refuse.option.engine": names(game.Engines()),
		"refuse.option.ai":     names(table.Computers()),
		"refuse.clock":         choiceValues(t, RouteNew, optClock),
	} {
		text := en.Say(key, nil)
		for _, v := range values {
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(v) + `\b`).MatchString(text) {
				t.Errorf("%s does not name %q: %q", key, v, text)
			}
		}
	}
}

// choiceValues are the values of route r's option's choices.
func choiceValues(t *testing.T, r Route, option string) []string {
	t.Helper()
	for _, sub := range subcommands(command()) {
		for _, o := range sub.opt.Options {
			if sub.name == r.subcommand() && o.Name == option {
				var values []string
				for _, ch := range o.Choices {
					values = append(values, fmt.Sprint(ch.Value))
				}
				return values
			}
		}
	}
	t.Fatalf("/%s %s %s has no choices", CommandName, r.subcommand(), option)
	return nil
}
