package bot

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Reading the bot's messages in tests as a reader, or a tool, reads them:
// the text is the content or a card's text displays alike, and the buttons
// are wherever they are nested.

// replyText is a reply's text: its content, or its text displays one
// after another on lines of their own (as the card split them).
func replyText(resp *WireResponse) string {
	if resp == nil || resp.Data == nil {
		return ""
	}
	return messageText(resp.Data)
}

func messageText(m *WireMessage) string {
	parts := []string{}
	if m.Content != "" {
		parts = append(parts, m.Content)
	}
	walk(m.Components, func(c discordgo.MessageComponent) {
		if t, ok := c.(discordgo.TextDisplay); ok {
			parts = append(parts, t.Content)
		}
	})
	return strings.Join(parts, "\n")
}

// replyButtons are a reply's buttons, in order.
func replyButtons(resp *WireResponse) []discordgo.Button {
	var out []discordgo.Button
	if resp == nil || resp.Data == nil {
		return nil
	}
	walk(resp.Data.Components, func(c discordgo.MessageComponent) {
		if b, ok := c.(discordgo.Button); ok {
			out = append(out, b)
		}
	})
	return out
}

// walk calls visit for every component, nested ones after their holder.
func walk(cs []discordgo.MessageComponent, visit func(discordgo.MessageComponent)) {
	for _, c := range cs {
		visit(c)
		switch c := c.(type) {
		case discordgo.ActionsRow:
			walk(c.Components, visit)
		case discordgo.Container:
			walk(c.Components, visit)
		}
	}
}

// decodeMessage reads a message body the bot sent through REST (a post in
// a thread, an edit) into the form its replies have, for transcripts and
// clicks: discordgo decodes components by their type, as pointers.
func decodeMessage(body []byte) *WireMessage {
	var m discordgo.Message
	json.Unmarshal(body, &m)
	var rest struct {
		AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
		Attachments     *[]WireAttachment                 `json:"attachments"`
	}
	json.Unmarshal(body, &rest)
	return &WireMessage{Content: m.Content, Components: values(m.Components), AllowedMentions: rest.AllowedMentions,
		Flags: m.Flags, Attachments: rest.Attachments}
}

// values turns decoded components (pointers) into the values the bot
// builds.
func values(cs []discordgo.MessageComponent) []discordgo.MessageComponent {
	var out []discordgo.MessageComponent
	for _, c := range cs {
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			out = append(out, discordgo.ActionsRow{ID: c.ID, Components: values(c.Components)})
		case *discordgo.Container:
			out = append(out, discordgo.Container{ID: c.ID, AccentColor: c.AccentColor, Spoiler: c.Spoiler, Components: values(c.Components)})
		case *discordgo.Button:
			out = append(out, *c)
		case *discordgo.TextDisplay:
			out = append(out, *c)
		case *discordgo.MediaGallery:
			out = append(out, *c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// transcribeMessage writes a message as a reviewer reads it: head (what
// kind, who sees it) and who it pings; for a card its accent colour and
// how many of Discord's 40 components it uses; the exact text; its buttons
// a row a line and its gallery, in the order they show; its files.
func transcribeMessage(head string, m *WireMessage, files []string) string {
	var sb strings.Builder
	var users []string
	if m.AllowedMentions != nil {
		users = m.AllowedMentions.Users
	}
	fmt.Fprintf(&sb, "< %s, pings %v", head, users)
	if m.IsV2() {
		accent := "none"
		if len(m.Components) > 0 {
			if c, ok := m.Components[0].(discordgo.Container); ok && c.AccentColor != nil {
				accent = fmt.Sprintf("#%06X", *c.AccentColor)
			}
		}
		fmt.Fprintf(&sb, ", card %s, %d/%d components", accent, countComponents(m.Components), maxCardComponents)
	}
	fmt.Fprintf(&sb, "\n%s\n", messageText(m))
	for _, e := range m.Embeds {
		fmt.Fprintf(&sb, "  embed:\n%s\n", e.Description)
	}
	walk(m.Components, func(c discordgo.MessageComponent) {
		switch c := c.(type) {
		case discordgo.ActionsRow:
			var cells []string
			for _, c := range c.Components {
				b, ok := c.(discordgo.Button)
				if !ok {
					continue
				}
				label := strings.ReplaceAll(b.Label, emptyCellLabel, "_")
				if b.Emoji != nil {
					label = emojiLabel(b.Emoji) + label
				}
				if b.Disabled {
					label = "(" + label + ")"
				}
				cells = append(cells, label+" "+b.CustomID)
			}
			fmt.Fprintf(&sb, "  [ %s ]\n", strings.Join(cells, " | "))
		case discordgo.MediaGallery:
			for _, it := range c.Items {
				fmt.Fprintf(&sb, "  gallery %s\n", it.Media.URL)
			}
		}
	})
	for _, f := range files {
		fmt.Fprintf(&sb, "  file %s\n", f)
	}
	return sb.String()
}
