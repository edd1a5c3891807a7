package bot

import (
	"errors"
	"fmt"
	"math"

	"github.com/bwmarrin/discordgo"
)

// Errors of the bot's own edge: what an interaction asked for that no route
// takes. The table's and the engine's errors are in their packages.
var (
	ErrUnknown      = errors.New("unknown command")
	ErrOldButton    = errors.New("button from an older board")
	ErrStale        = errors.New("the button belongs to an outdated board")
	ErrSelfOpponent = errors.New("opponent is the creator")
	ErrBotOpponent  = errors.New("opponent is a bot")
)

// OptionError is an option value the bot cannot use. Option names it;
// Want says what kind of value it takes.
type OptionError struct {
	Option string
	Want   OptionWant
}

// OptionWant is the kind of value an option takes.
type OptionWant uint8

// What options take.
const (
	WantWholeNumber OptionWant = iota
	WantEngine                 // fast or compact
	WantLevel                  // easy, medium or hard
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
	ID          string
	Type        discordgo.InteractionType
	Guild       string // "" in a DM
	Channel     string
	AppID       string // the bot's application ID, which is also its user ID
	User        string // the invoking user's ID
	CanManage   bool   // the user may manage messages in this channel
	Locale      string // the user's client language
	GuildLocale string // the server's language ("" in DMs)
	Route       Route  // what the interaction asks for
	Focused     string // autocomplete: the option being typed
	Vars        Vars   // a button's custom_id segments, typed by its route
	options     map[string]*discordgo.ApplicationCommandInteractionDataOption
	resolved    *discordgo.ApplicationCommandInteractionDataResolved
}

// parseInteraction reads a command, autocomplete or component interaction
// and finds its route. in is returned even with an error when it is known
// enough to log.
func parseInteraction(i *discordgo.Interaction) (*Interaction, error) {
	in := &Interaction{ID: i.ID, Type: i.Type, Guild: i.GuildID, Channel: i.ChannelID, AppID: i.AppID, Locale: string(i.Locale)}
	if i.GuildLocale != nil {
		in.GuildLocale = string(*i.GuildLocale)
	}
	switch {
	case i.Member != nil && i.Member.User != nil:
		in.User = i.Member.User.ID
		in.CanManage = i.Member.Permissions&(discordgo.PermissionManageMessages|discordgo.PermissionAdministrator) != 0
	case i.User != nil:
		in.User = i.User.ID
		in.CanManage = true // a DM has no one else to protect
	}
	if in.User == "" || in.Channel == "" {
		return in, fmt.Errorf("%w: interaction %s has no user or channel", ErrUnknown, i.ID)
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
	if !ok || data.Name != CommandName || len(data.Options) != 1 || data.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand {
		return in, fmt.Errorf("%w: not a /%s subcommand", ErrUnknown, CommandName)
	}
	route, ok := commandRoutes[data.Options[0].Name]
	if !ok {
		return in, fmt.Errorf("%w: /%s %s", ErrUnknown, CommandName, data.Options[0].Name)
	}
	in.Route = route
	in.resolved = data.Resolved
	in.options = map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	for _, o := range data.Options[0].Options {
		in.options[o.Name] = o
		if o.Focused {
			in.Focused = o.Name
		}
	}
	return in, nil
}

// Int returns an integer option, or def when absent.
func (in *Interaction) Int(name string, def int) (int, error) {
	o, ok := in.options[name]
	if !ok {
		return def, nil
	}
	f, isNum := o.Value.(float64)
	if o.Type != discordgo.ApplicationCommandOptionInteger || !isNum || f != math.Trunc(f) || math.Abs(f) > maxOptionInt {
		return 0, &OptionError{Option: name, Want: WantWholeNumber}
	}
	return int(f), nil
}

// Has reports whether the option was given.
func (in *Interaction) Has(name string) bool {
	_, ok := in.options[name]
	return ok
}

// Bool returns a boolean option, or false when absent or not a boolean.
func (in *Interaction) Bool(name string) bool {
	o, ok := in.options[name]
	if !ok || o.Type != discordgo.ApplicationCommandOptionBoolean {
		return false
	}
	b, _ := o.Value.(bool)
	return b
}

// String returns a string option, or "" when absent.
func (in *Interaction) String(name string) string {
	o, ok := in.options[name]
	if !ok || o.Type != discordgo.ApplicationCommandOptionString {
		return ""
	}
	s, _ := o.Value.(string)
	return s
}

// UserOption returns a user option's ID and whether the resolved user is a
// bot account.
func (in *Interaction) UserOption(name string) (id string, isBot bool, ok bool) {
	o, found := in.options[name]
	if !found || o.Type != discordgo.ApplicationCommandOptionUser {
		return "", false, false
	}
	id, _ = o.Value.(string)
	if id == "" {
		return "", false, false
	}
	if in.resolved != nil {
		if u := in.resolved.Users[id]; u != nil {
			isBot = u.Bot
		}
	}
	return id, isBot, true
}
