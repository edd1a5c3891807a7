package httpapi

import (
	"errors"

	"github.com/bwmarrin/discordgo"
	// The v1 API on the v2 engine (go-json-experiment/json, the mirror of
	// encoding/json/v2): encoding/json's semantics, so that the HTTP
	// endpoint decodes what the gateway (discordgo, encoding/json) decodes,
	// in one pass over the body where encoding/json makes two
	// (docs/architecture.md has the measurements).
	json "github.com/go-json-experiment/json/v1"
)

// wireInteraction is the part of Discord's interaction object that the bot
// reads (bot.parseInteraction, the callback and the clock), as it comes
// over the wire. The rest (the member's roles and join date, all of the
// channel but its type, all but the ID of the message a button sits on,
// entitlements) is skipped, not decoded: decoding it was most of the cost of reading a request, a
// button's message above all (docs/architecture.md). A field the bot starts to read must be added here, and to
// TestDecodeKeepsWhatTheBotReads, or the HTTP endpoint will see it empty
// where the gateway (which decodes discordgo's way) sees it. It is read by
// hand (wireread.go), as json.Unmarshal would fill it from its tags, and
// with it the type of the channel the interaction was sent from (is it a
// thread? bot.FromThread), which discordgo's type has no place for.
type wireInteraction struct {
	ID          string                    `json:"id"`
	AppID       string                    `json:"application_id"`
	Type        discordgo.InteractionType `json:"type"`
	Token       string                    `json:"token"`
	GuildID     string                    `json:"guild_id"`
	ChannelID   string                    `json:"channel_id"`
	Locale      discordgo.Locale          `json:"locale"`
	GuildLocale *discordgo.Locale         `json:"guild_locale"`
	Member      *wireMember               `json:"member"`
	User        *wireUser                 `json:"user"`
	// AppPermissions and AuthorizingIntegrationOwners tell whether a game
	// can be opened in a thread: what the bot may do in the channel, and
	// whether the app is installed in the server ("0") or only to the user.
	AppPermissions               int64                                           `json:"app_permissions,string"`
	AuthorizingIntegrationOwners map[discordgo.ApplicationIntegrationType]string `json:"authorizing_integration_owners"`
	// Message is the message a pressed button sits on: only its ID, which
	// a move clock's edit needs (bot's showing).
	Message *wireMessage    `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// wireMember is the member who acted in a server: their user, nickname
// and permissions in the channel.
type wireMember struct {
	User        *wireUser `json:"user"`
	Nick        *string   `json:"nick"`
	Permissions int64     `json:"permissions,string"`
}

// wireMessage is the message a pressed button sits on: only its ID.
type wireMessage struct {
	ID string `json:"id"`
}

// wireUser is a user's ID and the names a thread named after them shows.
type wireUser struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
}

// decodeInteraction reads an interaction's JSON into the discordgo type the
// bot serves, filling the fields wireInteraction names; its data is decoded
// discordgo's way, by the interaction's type, whole. fromThread says the
// interaction was sent from a thread, which discordgo's type cannot say.
func decodeInteraction(body []byte) (_ *discordgo.Interaction, fromThread bool, _ error) {
	var w wireInteraction
	fromThread, err := w.read(body) // wireread.go: as json.Unmarshal would fill w
	if err != nil {
		return nil, false, err
	}
	i, err := w.interaction()
	if err != nil {
		return nil, false, err
	}
	return i, fromThread, nil
}

// interaction is w as the discordgo type the bot serves, its data decoded
// discordgo's way, by the interaction's type, whole.
func (w *wireInteraction) interaction() (*discordgo.Interaction, error) {
	var i *discordgo.Interaction
	if w.Member != nil {
		b := new(memberInteraction)
		i = &b.Interaction
		i.Member = &b.member
		i.Member.Permissions = w.Member.Permissions
		if w.Member.Nick != nil {
			i.Member.Nick = *w.Member.Nick
		}
		if u := w.Member.User; u != nil {
			b.user = u.value()
			i.Member.User = &b.user
		}
	} else {
		i = new(discordgo.Interaction)
	}
	i.ID, i.AppID, i.Type, i.Token, i.GuildID, i.ChannelID = w.ID, w.AppID, w.Type, w.Token, w.GuildID, w.ChannelID
	i.Locale, i.GuildLocale = w.Locale, w.GuildLocale
	i.AppPermissions, i.AuthorizingIntegrationOwners = w.AppPermissions, w.AuthorizingIntegrationOwners
	if w.User != nil {
		i.User = w.User.user()
	}
	if w.Message != nil {
		i.Message = &discordgo.Message{ID: w.Message.ID}
	}
	var err error
	switch w.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		i.Data, err = readCommandData(w.Data) // dataread.go: as decodeData would
	case discordgo.InteractionMessageComponent:
		i.Data, err = readComponentData(w.Data)
	case discordgo.InteractionModalSubmit:
		// By reflection: discordgo decodes a modal's data with its own
		// UnmarshalJSON, its components through a type switch on unexported
		// types that a hand reader would have to copy; and the bot opens no
		// modals, so none comes on its hot path.
		i.Data, err = decodeData[discordgo.ModalSubmitInteractionData](w.Data)
	}
	if err != nil {
		return nil, err
	}
	return i, nil
}

// memberInteraction is an interaction from a server (most are) with its
// member and the member's user, allocated together: one allocation where
// there would be three, on every such request. The bot copies what it
// reads out of them, so none keeps the others alive for long.
type memberInteraction struct {
	discordgo.Interaction
	member discordgo.Member
	user   discordgo.User
}

// value is the user as discordgo has it.
func (u *wireUser) value() discordgo.User {
	return discordgo.User{ID: u.ID, Username: u.Username, GlobalName: u.GlobalName}
}

func (u *wireUser) user() *discordgo.User {
	v := u.value()
	return &v
}

// errNoData is an interaction of a type that has data, without it: an
// error, as discordgo's own decoding makes it.
var errNoData = errors.New("interaction without data")

// decodeData decodes an interaction's data as a T by reflection. Absent
// data is an error. The hand readers of dataread.go stand in for it on
// commands and components; TestDataAsUnmarshal holds them to it.
func decodeData[T any](raw json.RawMessage) (T, error) {
	var v T
	if len(raw) == 0 {
		return v, errNoData
	}
	err := json.Unmarshal(raw, &v)
	return v, err
}
