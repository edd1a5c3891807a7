package bot

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// Errors of the bot's own edge: what an interaction asked for that no route
// takes. The table's and the engine's errors are in their packages.
var (
	ErrUnknown      = errors.New("unknown command")
	ErrOldButton    = errors.New("button from an older board")
	ErrStale        = errors.New("the button belongs to an outdated board")
	ErrSelfOpponent = errors.New("opponent is the creator")
	ErrBotOpponent  = errors.New("opponent is a bot")
	// ErrMalformed is an interaction whose shape Discord never sends: a
	// guild interaction without its member's user, a DM without its user,
	// no channel. It is refused, never given rights.
	ErrMalformed = errors.New("malformed interaction")
	// ErrUnwinnable is rules under which no player can place enough tokens
	// to win: each places at most ⌈cells/players⌉.
	ErrUnwinnable = errors.New("nobody could ever win")
)

// RulesRefusal is rules /ttt new cannot play, with the rules a sentence
// about them names. It wraps game's *RulesError, or ErrUnwinnable.
type RulesRefusal struct {
	Rules game.Rules
	Err   error
}

// Error implements error.
func (e *RulesRefusal) Error() string { return e.Err.Error() }

// Unwrap returns the reason.
func (e *RulesRefusal) Unwrap() error { return e.Err }

// mostPlaced is the most tokens one player can ever place under r.
func mostPlaced(r game.Rules) int { return (r.Cells() + r.Players - 1) / r.Players }

// intBounds are the integer options' ranges, as the schema declares them
// and refusals name them.
var intBounds = map[string]struct{ min, max int }{
	optRows:    {game.MinSize, game.MaxSize},
	optColumns: {game.MinSize, game.MaxSize},
	optWin:     {game.MinWin, game.MaxWin},
	optPlayers: {game.MinPlayers, game.MaxPlayers},
	optClock:   {int(table.Clocks[0] / time.Second), int(table.Clocks[len(table.Clocks)-1] / time.Second)}, // a choice; refuse.clock names them all
}

// OptionError is an option value the bot cannot use. Option names it;
// Want says what kind of value it takes.
type OptionError struct {
	Option   string
	Want     OptionWant
	Min, Max int // WantWholeNumber: the option's range
}

// OptionWant is the kind of value an option takes.
type OptionWant uint8

// What options take.
const (
	WantWholeNumber OptionWant = iota
	WantEngine                 // fast or compact
	WantLevel                  // easy, medium or hard
	WantUser                   // a user Discord resolved
	WantDeclared               // the type the option is declared with (a forged or broken value)
)

// Error implements error.
func (e *OptionError) Error() string { return fmt.Sprintf("bad option %s (%d)", e.Option, e.Want) }

// maxOptionInt bounds integer options before they are converted to int;
// Discord enforces each option's own range, this only guards the conversion.
const maxOptionInt = 1e6

// Interaction is what a handler needs from a Discord interaction, read once
// and checked at the edge, so no handler touches discordgo's accessors
// (several of which panic on a type they do not expect) or parses a string.
type Interaction struct {
	ID        string
	Type      discordgo.InteractionType
	Guild     string // "" in a DM
	Channel   string
	AppID     string // the bot's application ID, which is also its user ID
	User      string // the invoking user's ID
	CanManage bool   // the user may manage messages in this channel
	// CanManageEvents: the user may manage the server's events (Manage
	// Events, or Administrator): a tournament's start is theirs too.
	CanManageEvents bool
	// IsBot: the user is a bot account (Discord sends none of their
	// commands today; a tournament is for people only all the same).
	IsBot       bool
	Locale      string // the user's client language
	GuildLocale string // the server's language ("" in DMs)
	Route       Route  // what the interaction asks for
	// Name is the user's display name (server nickname, global name or
	// username): text they chose, for a thread's name only.
	Name string
	// AppPermissions is what the bot may do in the channel
	// (app_permissions); GuildInstalled says the app is installed in the
	// server, not only to the user's account (authorizing_integration_owners
	// holds the guild install's key). Both decide whether a thread can be
	// started.
	AppPermissions int64
	GuildInstalled bool
	// Private speaks the user's locale: ephemeral replies. Public speaks the
	// server's (in a DM, the user's): messages everyone in the channel reads.
	Private, Public *locales.Speaker
	Focused         string // autocomplete: the option being typed
	Vars            Vars   // a button's custom_id segments, typed by its route
	placed          bool   // thread.go: /ttt new is opening its game in a new thread; open it here
	// options are the subcommand's, as sent (Interaction.option finds one).
	options  []*discordgo.ApplicationCommandInteractionDataOption
	resolved *discordgo.ApplicationCommandInteractionDataResolved
}

// parseInteraction reads a command, autocomplete or component interaction
// and finds its route. in is returned even with an error when it is known
// enough to log.
func parseInteraction(i *discordgo.Interaction) (*Interaction, error) {
	in := &Interaction{ID: i.ID, Type: i.Type, Guild: i.GuildID, Channel: i.ChannelID, AppID: i.AppID, Locale: string(i.Locale),
		AppPermissions: i.AppPermissions, GuildInstalled: guildInstalled(i)}
	if i.GuildLocale != nil {
		in.GuildLocale = string(*i.GuildLocale)
	}
	// In a server the user is the member's; in a DM or group DM there is
	// no member and no permissions: only a game's creator may end it there.
	// Anything else is a shape Discord does not send, refused without rights.
	switch {
	case i.GuildID != "" && i.Member != nil && i.Member.User != nil:
		in.User, in.Name = i.Member.User.ID, displayName(i.Member.Nick, i.Member.User)
		in.CanManage = i.Member.Permissions&(discordgo.PermissionManageMessages|discordgo.PermissionAdministrator) != 0
		in.CanManageEvents = i.Member.Permissions&(discordgo.PermissionManageEvents|discordgo.PermissionAdministrator) != 0
		in.IsBot = i.Member.User.Bot
	case i.GuildID == "" && i.Member == nil && i.User != nil:
		in.User, in.Name, in.IsBot = i.User.ID, displayName("", i.User), i.User.Bot
	}
	if !isSnowflake(in.User) || !isSnowflake(in.Channel) {
		in.User, in.CanManage, in.CanManageEvents = "", false, false
		return in, fmt.Errorf("%w: interaction %s has no user or channel where Discord puts them", ErrMalformed, i.ID)
	}
	switch i.Type {
	case discordgo.InteractionMessageComponent:
		data, ok := i.Data.(discordgo.MessageComponentInteractionData)
		if !ok {
			return in, fmt.Errorf("%w: component without data", ErrUnknown)
		}
		route, vars, err := matchButton(data.CustomID)
		in.Route, in.Vars = route, vars
		return in, err
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
	default:
		return in, fmt.Errorf("%w: interaction type %d", ErrUnknown, i.Type)
	}
	data, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
	if !ok || data.Name != CommandName {
		return in, fmt.Errorf("%w: not a /%s subcommand", ErrUnknown, CommandName)
	}
	name, sub, ok := subcommandOf(data.Options)
	if !ok {
		return in, fmt.Errorf("%w: not a /%s subcommand", ErrUnknown, CommandName)
	}
	route, ok := commandRoutes[name]
	if !ok {
		return in, fmt.Errorf("%w: /%s %s", ErrUnknown, CommandName, name)
	}
	in.Route = route
	in.resolved = data.Resolved
	in.options = sub.Options
	declared := optionTypes()[name]
	for _, o := range sub.Options {
		if o.Focused {
			in.Focused = o.Name
		}
		// Autocomplete sends what is typed so far, whatever the type.
		if i.Type == discordgo.InteractionApplicationCommand && !wellTyped(o, declared[o.Name]) {
			return in, &OptionError{Option: o.Name, Want: WantDeclared}
		}
	}
	return in, nil
}

// subcommandOf finds the one subcommand a command's options carry, also
// inside a group, and returns its route's name ("new", "tournament new").
func subcommandOf(opts []*discordgo.ApplicationCommandInteractionDataOption) (string, *discordgo.ApplicationCommandInteractionDataOption, bool) {
	if len(opts) != 1 {
		return "", nil, false
	}
	switch o := opts[0]; o.Type {
	case discordgo.ApplicationCommandOptionSubCommand:
		return o.Name, o, true
	case discordgo.ApplicationCommandOptionSubCommandGroup:
		if len(o.Options) == 1 && o.Options[0].Type == discordgo.ApplicationCommandOptionSubCommand {
			return o.Name + " " + o.Options[0].Name, o.Options[0], true
		}
	}
	return "", nil, false
}

// optionTypes are the types each subcommand's options are declared with.
var optionTypes = sync.OnceValue(func() map[string]map[string]discordgo.ApplicationCommandOptionType {
	types := map[string]map[string]discordgo.ApplicationCommandOptionType{}
	for _, sub := range subcommands(command()) {
		types[sub.name] = map[string]discordgo.ApplicationCommandOptionType{}
		for _, o := range sub.opt.Options {
			types[sub.name][o.Name] = o.Type
		}
	}
	return types
})

// wellTyped reports whether o has the type its subcommand declares (want; 0
// for an option it does not declare) and a value of that type: a boolean
// sent as the string "true" is refused, not read as false.
func wellTyped(o *discordgo.ApplicationCommandInteractionDataOption, want discordgo.ApplicationCommandOptionType) bool {
	if want == 0 || o.Type != want {
		return false
	}
	switch want {
	case discordgo.ApplicationCommandOptionBoolean:
		_, ok := o.Value.(bool)
		return ok
	case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
		_, ok := o.Value.(float64)
		return ok
	}
	_, ok := o.Value.(string) // strings, and the IDs of users, channels and roles
	return ok
}

// displayName is the name Discord shows for a user: the server nickname,
// else the global name, else the username.
func displayName(nick string, u *discordgo.User) string {
	switch {
	case nick != "":
		return nick
	case u.GlobalName != "":
		return u.GlobalName
	}
	return u.Username
}

// guildInstalled reports whether the app is installed in the interaction's
// server. An interaction without authorizing_integration_owners predates
// user installs: only a server install could have sent it.
func guildInstalled(i *discordgo.Interaction) bool {
	if i.GuildID == "" {
		return false
	}
	if i.AuthorizingIntegrationOwners == nil {
		return true
	}
	_, ok := i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
	return ok
}

// option is the option called name, the last one so called if several
// are; ok is false when there is none. A subcommand has a few options: a
// scan of them costs less than a map made for every interaction.
func (in *Interaction) option(name string) (o *discordgo.ApplicationCommandInteractionDataOption, ok bool) {
	for i := len(in.options) - 1; i >= 0; i-- {
		if o := in.options[i]; o.Name == name {
			return o, true
		}
	}
	return nil, false
}

// Int returns an integer option, or def when absent.
func (in *Interaction) Int(name string, def int) (int, error) {
	o, ok := in.option(name)
	if !ok {
		return def, nil
	}
	f, isNum := o.Value.(float64)
	if o.Type != discordgo.ApplicationCommandOptionInteger || !isNum || f != math.Trunc(f) || math.Abs(f) > maxOptionInt {
		b := intBounds[name]
		return 0, &OptionError{Option: name, Want: WantWholeNumber, Min: b.min, Max: b.max}
	}
	return int(f), nil
}

// Has reports whether the option was given.
func (in *Interaction) Has(name string) bool {
	_, ok := in.option(name)
	return ok
}

// Bool returns a boolean option, or false when absent or not a boolean.
func (in *Interaction) Bool(name string) bool {
	o, ok := in.option(name)
	if !ok || o.Type != discordgo.ApplicationCommandOptionBoolean {
		return false
	}
	b, _ := o.Value.(bool)
	return b
}

// String returns a string option, or "" when absent.
func (in *Interaction) String(name string) string {
	o, ok := in.option(name)
	if !ok || o.Type != discordgo.ApplicationCommandOptionString {
		return ""
	}
	s, _ := o.Value.(string)
	return s
}

// UserOrCaller is the user named by the user option called name, or the
// caller when the option is absent: whose stats or history to show.
func (in *Interaction) UserOrCaller(name string) (string, error) {
	id, _, ok, err := in.UserOption(name)
	if err != nil || !ok {
		return in.User, err
	}
	return id, nil
}

// UserOption returns a user option's ID and whether the resolved user is a
// bot account; ok is false when the option is absent. A value that is not a
// snowflake Discord resolved to a user is an *OptionError (WantUser) naming
// the option: Discord always resolves the users it sends, so anything else
// is forged or broken, and must not seat (or rate) a made-up player.
func (in *Interaction) UserOption(name string) (id string, isBot bool, ok bool, err error) {
	o, found := in.option(name)
	if !found {
		return "", false, false, nil
	}
	id, _ = o.Value.(string)
	var u *discordgo.User
	if in.resolved != nil {
		u = in.resolved.Users[id]
	}
	if o.Type != discordgo.ApplicationCommandOptionUser || !isSnowflake(id) || u == nil || u.ID != id {
		return "", false, false, &OptionError{Option: name, Want: WantUser}
	}
	return id, u.Bot, true, nil
}

// isSnowflake reports whether s is a Discord ID: a decimal uint64.
func isSnowflake(s string) bool {
	if len(s) == 0 || len(s) > 20 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// DM reports whether the interaction came from a DM or group DM.
func (in *Interaction) DM() bool { return in.Guild == "" }

// publicLocale is the language of the channel's messages: the server's, or
// in a DM (no server) the user's.
func (in *Interaction) publicLocale() string {
	if in.Guild != "" && in.GuildLocale != "" {
		return in.GuildLocale
	}
	return in.Locale
}
