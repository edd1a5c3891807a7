package bot

import (
	"fmt"
	"math"

	"github.com/bwmarrin/discordgo"
)

// Request is what a handler needs from an interaction, read once and
// checked, so no handler touches discordgo's accessors (several of which
// panic on a type they do not expect).
type Request struct {
	Type      discordgo.InteractionType
	Guild     string // "" in a DM
	Channel   string
	AppID     string // the bot's application ID, which is also its user ID
	User      string // the invoking user's ID
	CanManage bool   // the user may manage messages in this channel
	Sub       string // the /ttt subcommand
	Focused   string // autocomplete: the option being typed
	CustomID  string // component: the clicked button's custom_id
	options   map[string]*discordgo.ApplicationCommandInteractionDataOption
	resolved  *discordgo.ApplicationCommandInteractionDataResolved
}

// parseRequest reads an application command or autocomplete interaction.
func parseRequest(i *discordgo.Interaction) (*Request, error) {
	req := &Request{Type: i.Type, Guild: i.GuildID, Channel: i.ChannelID, AppID: i.AppID}
	switch {
	case i.Member != nil && i.Member.User != nil:
		req.User = i.Member.User.ID
		req.CanManage = i.Member.Permissions&(discordgo.PermissionManageMessages|discordgo.PermissionAdministrator) != 0
	case i.User != nil:
		req.User = i.User.ID
		req.CanManage = true // a DM has no one else to protect
	}
	if req.User == "" || req.Channel == "" {
		return nil, fmt.Errorf("%w: interaction %s has no user or channel", ErrUnknown, i.ID)
	}
	if i.Type == discordgo.InteractionMessageComponent {
		data, ok := i.Data.(discordgo.MessageComponentInteractionData)
		if !ok {
			return nil, fmt.Errorf("%w: component without data", ErrUnknown)
		}
		req.CustomID = data.CustomID
		req.options = map[string]*discordgo.ApplicationCommandInteractionDataOption{}
		return req, nil
	}
	if i.Type != discordgo.InteractionApplicationCommand && i.Type != discordgo.InteractionApplicationCommandAutocomplete {
		return req, nil
	}
	data, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
	if !ok || data.Name != CommandName || len(data.Options) != 1 || data.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand {
		return nil, fmt.Errorf("%w: not a /%s subcommand", ErrUnknown, CommandName)
	}
	req.Sub = data.Options[0].Name
	req.resolved = data.Resolved
	req.options = map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	for _, o := range data.Options[0].Options {
		req.options[o.Name] = o
		if o.Focused {
			req.Focused = o.Name
		}
	}
	return req, nil
}

// Int returns an integer option, or def when absent.
func (r *Request) Int(name string, def int) (int, error) {
	o, ok := r.options[name]
	if !ok {
		return def, nil
	}
	f, isNum := o.Value.(float64)
	if o.Type != discordgo.ApplicationCommandOptionInteger || !isNum || f != math.Trunc(f) || math.Abs(f) > 1e6 {
		return 0, fmt.Errorf("%w: %s must be a whole number", ErrBadOption, name)
	}
	return int(f), nil
}

// Has reports whether the option was given.
func (r *Request) Has(name string) bool {
	_, ok := r.options[name]
	return ok
}

// Bool returns a boolean option, or false when absent or not a boolean.
func (r *Request) Bool(name string) bool {
	o, ok := r.options[name]
	if !ok || o.Type != discordgo.ApplicationCommandOptionBoolean {
		return false
	}
	b, _ := o.Value.(bool)
	return b
}

// String returns a string option, or "" when absent.
func (r *Request) String(name string) string {
	o, ok := r.options[name]
	if !ok || o.Type != discordgo.ApplicationCommandOptionString {
		return ""
	}
	s, _ := o.Value.(string)
	return s
}

// User returns a user option's ID and whether the resolved user is a bot.
func (r *Request) UserOption(name string) (id string, isBot bool, ok bool) {
	o, found := r.options[name]
	if !found || o.Type != discordgo.ApplicationCommandOptionUser {
		return "", false, false
	}
	id, _ = o.Value.(string)
	if id == "" {
		return "", false, false
	}
	if r.resolved != nil {
		if u := r.resolved.Users[id]; u != nil {
			isBot = u.Bot
		}
	}
	return id, isBot, true
}

// setString sets a string option, for requests made from button clicks.
func (r *Request) setString(name, value string) {
	r.options[name] = &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: value}
}
