package bot

import (
	"fmt"
	"log/slog"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
)

// Discord's limits on what a command shows.
const (
	maxDescription = 100 // a description, in characters
	maxChoiceName  = 100 // a choice's name, in characters
)

// Schema message keys, derived from the command's shape, so a new
// subcommand, option or choice needs only its keys in bot/locales:
//
//	command.description                        /ttt itself
//	command.<sub>.description                  a subcommand
//	command.<sub>.<option>.description         an option
//	command.<sub>.<option>.choice.<value>      a choice's name
//
// A group's subcommands are under the group's: command.tournament.new.format.description.
func descriptionKey(path ...string) string {
	key := "command"
	for _, p := range path {
		key += "." + p
	}
	return key + ".description"
}

func choiceKey(sub, option string, value any) string {
	return fmt.Sprintf("command.%s.%s.choice.%v", sub, option, value)
}

// localize walks the command and fills, from the locale files, the en-US
// default description of the command, every subcommand and option, and
// every choice's name, and their description_localizations and
// name_localizations for each Discord locale that has a file. Names of the
// command, subcommands and options stay English: they are the contract.
// A text over Discord's limits is left out (and logged): Discord would
// refuse the whole command for it.
func localize(c *locales.Catalog, log *slog.Logger, cmd *discordgo.ApplicationCommand) {
	lz := localizer{c: c, log: log}
	var top map[discordgo.Locale]string
	cmd.Description, top = lz.texts(descriptionKey(), maxDescription)
	cmd.DescriptionLocalizations = &top
	for _, o := range cmd.Options {
		if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			o.Description, o.DescriptionLocalizations = lz.texts(descriptionKey(o.Name), maxDescription)
		}
	}
	for _, sub := range subcommands(cmd) {
		path := strings.Fields(sub.name) // a group's subcommand: its keys are under the group's
		s := sub.opt
		s.Description, s.DescriptionLocalizations = lz.texts(descriptionKey(path...), maxDescription)
		for _, o := range s.Options {
			o.Description, o.DescriptionLocalizations = lz.texts(descriptionKey(append(path, o.Name)...), maxDescription)
			for _, ch := range o.Choices {
				ch.Name, ch.NameLocalizations = lz.texts(choiceKey(strings.Join(path, "."), o.Name, ch.Value), maxChoiceName)
			}
		}
	}
}

type localizer struct {
	c   *locales.Catalog
	log *slog.Logger
}

// texts returns key's en-US text (the default Discord shows) and its text
// in every other locale that has it, within limit characters. The en-US file
// is the only place these words are written; TestSchemaTextsHaveKeys keeps
// every key there.
func (lz localizer) texts(key string, limit int) (def string, _ map[discordgo.Locale]string) {
	if text, ok := lz.c.For(locales.Default).Lookup(key); ok && fits(text, limit) {
		def = text
	} else {
		lz.log.Warn("command text missing in en-US or too long", "key", key)
	}
	out := map[discordgo.Locale]string{}
	for _, locale := range lz.c.Locales() {
		text, ok := lz.c.For(locale).Lookup(key)
		switch {
		case !ok:
			continue
		case !fits(text, limit):
			lz.log.Warn("command text over Discord's limit; left out", "key", key, "locale", locale, "characters", utf8.RuneCountInString(text))
			continue
		}
		out[discordgo.Locale(locale)] = text
	}
	return def, out
}

func fits(s string, limit int) bool {
	n := utf8.RuneCountInString(s)
	return n >= 1 && n <= limit
}
