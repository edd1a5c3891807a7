package bot

import (
	"encoding/json"
	"io/fs"
	"log/slog"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
)

// nameRE is Discord's rule for command and option names (lower case where a
// letter has a lower case, checked apart).
var nameRE = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// TestSchemaTextsHaveKeys: every description and choice name of /ttt has
// its key in en-US.json, so translators see it; a new subcommand fails here
// until its keys are added.
func TestSchemaTextsHaveKeys(t *testing.T) {
	en := locales.English()
	for _, key := range schemaKeys(command()) {
		if _, ok := en.Lookup(key); !ok {
			t.Errorf("en-US.json lacks %q", key)
		}
	}
}

// TestSchemaLocalizations checks what registration sends: names stay
// English and follow Discord's rules; every description and choice name is
// 1–100 characters in every locale, and present for every locale that has
// a file; /ttt is installable and usable everywhere.
func TestSchemaLocalizations(t *testing.T) {
	cmd := Commands()[0]
	files := locales.New(nil).Locales()
	check := func(what, def string, texts map[discordgo.Locale]string, limit int) {
		t.Helper()
		if n := utf8.RuneCountInString(def); n < 1 || n > limit {
			t.Errorf("%s: default is %d characters", what, n)
		}
		for _, locale := range files {
			text, ok := texts[discordgo.Locale(locale)]
			if !ok {
				t.Errorf("%s: no %s text (missing, or over %d characters)", what, locale, limit)
				continue
			}
			if n := utf8.RuneCountInString(text); n < 1 || n > limit {
				t.Errorf("%s in %s is %d characters (Discord allows 1–%d): %q", what, locale, n, limit, text)
			}
		}
		for locale := range texts {
			if !slices.Contains(locales.Discord, string(locale)) {
				t.Errorf("%s: %q is not a Discord locale", what, locale)
			}
		}
	}
	name := func(what, n string) {
		t.Helper()
		if !nameRE.MatchString(n) || strings.ToLower(n) != n {
			t.Errorf("%s: name %q breaks Discord's naming rule", what, n)
		}
	}
	name("/ttt", cmd.Name)
	if cmd.NameLocalizations != nil && len(*cmd.NameLocalizations) > 0 {
		t.Error("/ttt has localized names: names are the contract")
	}
	check("/ttt", cmd.Description, *cmd.DescriptionLocalizations, maxDescription)
	for _, o := range cmd.Options {
		if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			name(o.Name, o.Name)
			check(o.Name, o.Description, o.DescriptionLocalizations, maxDescription)
		}
	}
	for _, s := range subcommands(cmd) {
		sub := s.opt
		name(s.name, sub.Name)
		check(s.name, sub.Description, sub.DescriptionLocalizations, maxDescription)
		if len(sub.NameLocalizations) > 0 {
			t.Errorf("%s has localized names", s.name)
		}
		for _, o := range sub.Options {
			what := sub.Name + " " + o.Name
			name(what, o.Name)
			if len(o.NameLocalizations) > 0 {
				t.Errorf("%s has localized names", what)
			}
			check(what, o.Description, o.DescriptionLocalizations, maxDescription)
			for _, ch := range o.Choices {
				check(what+" choice", ch.Name, ch.NameLocalizations, maxChoiceName)
			}
		}
	}
	wire, err := json.Marshal(cmd)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"integration_types":[0,1]`, `"contexts":[0,1,2]`, `"description_localizations":{`} {
		if !strings.Contains(string(wire), want) {
			t.Errorf("registered JSON lacks %s", want)
		}
	}
}

// TestSchemaLeavesOutWhatDiscordRefuses: a localization over Discord's
// limit is left out rather than sent (Discord would refuse the whole
// command), and the default stays.
func TestSchemaLeavesOutWhatDiscordRefuses(t *testing.T) {
	en, _ := fs.ReadFile(os.DirFS("locales"), "en-US.json")
	long := strings.Repeat("é", maxDescription+1)
	c := locales.Load(fstest.MapFS{
		"en-US.json": {Data: en},
		"de.json":    {Data: []byte(`{"command.help.description": "` + long + `", "command.new.ai.choice.easy": "leicht", "command.board.description": ""}`)},
	}, nil)
	cmd := command()
	localize(c, slog.New(slog.DiscardHandler), cmd)
	for _, sub := range cmd.Options {
		if de, ok := sub.DescriptionLocalizations["de"]; ok && sub.Name != "board" {
			t.Errorf("%s: de text %q sent", sub.Name, de)
		}
		if sub.Name == "board" && sub.DescriptionLocalizations["de"] != "" {
			t.Errorf("board: empty de text sent")
		}
		if sub.Name == "new" {
			ai := sub.Options[slices.IndexFunc(sub.Options, func(o *discordgo.ApplicationCommandOption) bool { return o.Name == optAI })]
			if ai.Choices[0].NameLocalizations["de"] != "leicht" || ai.Choices[0].Name != "easy" {
				t.Errorf("ai easy: %q, de %v", ai.Choices[0].Name, ai.Choices[0].NameLocalizations)
			}
		}
	}
	if _, ok := (*cmd.DescriptionLocalizations)["de"]; ok {
		t.Error("a text de lacks is sent as de")
	}
}
