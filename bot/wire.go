package bot

import (
	"encoding/json"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// The bot's wire model: a Response as the bytes Discord takes, for every
// path a message goes by (an interaction's reply, a new message in a
// thread, an edit of a board message). discordgo's own message types cannot
// say all of it: InteractionResponseData always writes "content" (a
// Components V2 message must carry none) and WebhookEdit has no flags (an
// edit that keeps a message V2 must say so). The components themselves are
// discordgo's (ActionsRow, Button, Container, TextDisplay, MediaGallery),
// whose JSON is Discord's.

// WireResponse is an interaction's response (Discord's
// InteractionResponse): the type, and for a message its body.
type WireResponse struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data *WireMessage                      `json:"data,omitempty"`
}

// WireMessage is a message body: an interaction reply's data, a message
// posted in a channel, or an edit. The fields are written in this order, so
// bot/httpapi's hand encoder can write the same bytes.
type WireMessage struct {
	// Content is the text of a classic message; empty, and null in the
	// JSON (see MarshalJSON), in a Components V2 message, whose text is in
	// its components.
	Content    string                       `json:"content,omitempty"`
	Components []discordgo.MessageComponent `json:"components"` // [] clears a message's buttons; nil leaves them
	Embeds     []*discordgo.MessageEmbed    `json:"embeds,omitempty"`
	// AllowedMentions fences mentions: only the users named may be pinged.
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions,omitempty"`
	Flags           discordgo.MessageFlags            `json:"flags,omitempty"`
	// Attachments name the files sent with the body, by their multipart
	// part (files[n]); in an edit, the message keeps exactly these, so an
	// edit without files sends an empty list and drops an old picture.
	// Nil where no files go (an inline reply).
	Attachments *[]WireAttachment `json:"attachments,omitempty"`
	// Choices are an autocomplete answer's (its list may be empty, and is
	// still sent).
	Choices *[]*discordgo.ApplicationCommandOptionChoice `json:"choices,omitempty"`
	// Files are the attachments' contents, sent as multipart parts.
	Files []*discordgo.File `json:"-"`
}

// WireAttachment names an uploaded file (Discord's MessageAttachmentRequest):
// its ID is the n of the multipart part files[n].
type WireAttachment struct {
	ID       string `json:"id"`
	Filename string `json:"filename"`
}

// IsV2 reports whether m is a Components V2 message.
func (m *WireMessage) IsV2() bool { return m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0 }

// MarshalJSON writes m; a Components V2 message writes "content" and
// "embeds" as null first. A card carries neither, and when it updates or
// edits a message that was classic (a board posted by an older version of
// the bot) Discord asks for them to be null to make the message V2.
func (m WireMessage) MarshalJSON() ([]byte, error) {
	type plain WireMessage // without this method
	if !m.IsV2() {
		return json.Marshal(plain(m))
	}
	return json.Marshal(struct {
		Content *string `json:"content"`
		Embeds  *[]any  `json:"embeds"`
		plain
	}{plain: plain(m)})
}

// JSON is m's body: what goes as the request body, or as the part
// payload_json beside the files.
func (m *WireMessage) JSON() ([]byte, error) { return json.Marshal(m) }

// attachFiles names m's files in its attachments list.
func (m *WireMessage) attachFiles() {
	list := make([]WireAttachment, len(m.Files))
	for n, f := range m.Files {
		list[n] = WireAttachment{ID: strconv.Itoa(n), Filename: f.Name}
	}
	m.Attachments = &list
}
