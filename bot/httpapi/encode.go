package httpapi

import (
	"encoding/json"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot"
	"github.com/tttbot/tttbot/internal/jsonstr"
)

// appendResponse appends resp's inline wire form (no files) to dst: the
// bytes json.Marshal writes for resp.InteractionResponse(false).
//
// Every accepted move is answered with a board message, and encoding/json
// spends most of its time there on reflection and on discordgo's
// MarshalJSON methods (each re-marshals an anonymous struct). The shapes
// the bot sends on that path (content, flags, allowed_mentions, action rows
// of buttons, and the Components V2 card: a container of text
// displays, a media gallery and action rows) are written directly; anything
// else goes through json.Marshal. A test holds both to the same bytes.
func appendResponse(dst []byte, resp bot.Response) ([]byte, error) {
	wire := resp.InteractionResponse(false)
	if out, ok := appendFast(dst, wire); ok {
		return out, nil
	}
	body, err := json.Marshal(wire)
	return append(dst, body...), err
}

// appendFast writes r as json.Marshal would, or reports false (and nothing
// is to be used) when r holds something it does not handle.
func appendFast(dst []byte, r *bot.WireResponse) ([]byte, bool) {
	start := len(dst)
	dst = append(dst, `{"type":`...)
	dst = strconv.AppendInt(dst, int64(r.Type), 10)
	if d := r.Data; d != nil {
		if len(d.Embeds) > 0 || d.Attachments != nil || d.Choices != nil {
			return dst[:start], false
		}
		dst = append(dst, `,"data":{`...)
		if d.IsV2() { // as WireMessage.MarshalJSON writes a card
			dst = append(dst, `"content":null,"embeds":null,`...)
		} else if d.Content != "" {
			dst = append(dst, `"content":`...)
			dst = jsonstr.Append(dst, d.Content)
			dst = append(dst, ',')
		}
		dst = append(dst, `"components":`...)
		var ok bool
		if dst, ok = appendComponents(dst, d.Components); !ok {
			return dst[:start], false
		}
		if m := d.AllowedMentions; m != nil {
			dst = append(dst, `,"allowed_mentions":{"parse":`...)
			if m.Parse == nil {
				dst = append(dst, "null"...)
			} else {
				dst = append(dst, '[')
				for k, p := range m.Parse {
					if k > 0 {
						dst = append(dst, ',')
					}
					dst = jsonstr.Append(dst, string(p))
				}
				dst = append(dst, ']')
			}
			if len(m.Roles) > 0 {
				dst = append(dst, `,"roles":`...)
				dst = jsonstr.AppendArray(dst, m.Roles)
			}
			if len(m.Users) > 0 {
				dst = append(dst, `,"users":`...)
				dst = jsonstr.AppendArray(dst, m.Users)
			}
			dst = append(dst, `,"replied_user":`...)
			dst = strconv.AppendBool(dst, m.RepliedUser)
			dst = append(dst, '}')
		}
		if d.Flags != 0 {
			dst = append(dst, `,"flags":`...)
			dst = strconv.AppendInt(dst, int64(d.Flags), 10)
		}
		dst = append(dst, '}')
	}
	return append(dst, '}'), true
}

// appendComponents writes action rows of buttons and the card's container,
// text displays and media galleries; other components report false.
func appendComponents(dst []byte, cs []discordgo.MessageComponent) ([]byte, bool) {
	if cs == nil {
		return append(dst, "null"...), true
	}
	dst = append(dst, '[')
	for k, c := range cs {
		if k > 0 {
			dst = append(dst, ',')
		}
		var ok bool
		switch c := c.(type) {
		case discordgo.ActionsRow:
			dst = append(dst, `{"components":`...)
			if dst, ok = appendComponents(dst, c.Components); !ok {
				return dst, false
			}
			dst = appendID(dst, c.ID)
			dst = appendType(dst, c.Type())
		case discordgo.Button:
			if dst, ok = appendButton(dst, c); !ok {
				return dst, false
			}
		case discordgo.Container:
			dst = append(dst, '{')
			if c.ID != 0 {
				dst = append(dst, `"id":`...)
				dst = strconv.AppendInt(dst, int64(c.ID), 10)
				dst = append(dst, ',')
			}
			if c.AccentColor != nil {
				dst = append(dst, `"accent_color":`...)
				dst = strconv.AppendInt(dst, int64(*c.AccentColor), 10)
				dst = append(dst, ',')
			}
			dst = append(dst, `"spoiler":`...)
			dst = strconv.AppendBool(dst, c.Spoiler)
			dst = append(dst, `,"components":`...)
			if dst, ok = appendComponents(dst, c.Components); !ok {
				return dst, false
			}
			dst = appendType(dst, c.Type())
		case discordgo.TextDisplay:
			dst = append(dst, `{"content":`...)
			dst = jsonstr.Append(dst, c.Content)
			dst = appendType(dst, c.Type())
		case discordgo.MediaGallery:
			if dst, ok = appendGallery(dst, c); !ok {
				return dst, false
			}
		default:
			return dst, false
		}
	}
	return append(dst, ']'), true
}

// appendButton writes a button, with its emoji when it has one (a token's
// emoji on a cell).
func appendButton(dst []byte, c discordgo.Button) ([]byte, bool) {
	if c.Style == 0 {
		c.Style = discordgo.PrimaryButton // as Button.MarshalJSON does
	}
	dst = append(dst, `{"label":`...)
	dst = jsonstr.Append(dst, c.Label)
	dst = append(dst, `,"style":`...)
	dst = strconv.AppendInt(dst, int64(c.Style), 10)
	dst = append(dst, `,"disabled":`...)
	dst = strconv.AppendBool(dst, c.Disabled)
	if e := c.Emoji; e != nil {
		dst = append(dst, `,"emoji":{`...)
		sep := ""
		for _, f := range [...]struct{ name, value string }{{"name", e.Name}, {"id", e.ID}} {
			if f.value != "" {
				dst = append(dst, sep...)
				dst = append(dst, '"')
				dst = append(dst, f.name...)
				dst = append(dst, `":`...)
				dst = jsonstr.Append(dst, f.value)
				sep = ","
			}
		}
		if e.Animated {
			dst = append(dst, sep...)
			dst = append(dst, `"animated":true`...)
		}
		dst = append(dst, '}')
	}
	for _, f := range [...]struct{ name, value string }{{"url", c.URL}, {"custom_id", c.CustomID}, {"sku_id", c.SKUID}} {
		if f.value != "" {
			dst = append(dst, `,"`...)
			dst = append(dst, f.name...)
			dst = append(dst, `":`...)
			dst = jsonstr.Append(dst, f.value)
		}
	}
	dst = appendID(dst, c.ID)
	return appendType(dst, c.Type()), true
}

// appendGallery writes a media gallery and its items.
func appendGallery(dst []byte, c discordgo.MediaGallery) ([]byte, bool) {
	dst = append(dst, '{')
	if c.ID != 0 {
		dst = append(dst, `"id":`...)
		dst = strconv.AppendInt(dst, int64(c.ID), 10)
		dst = append(dst, ',')
	}
	dst = append(dst, `"items":`...)
	if c.Items == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for k, it := range c.Items {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"media":{"url":`...)
			dst = jsonstr.Append(dst, it.Media.URL)
			dst = append(dst, '}')
			if it.Description != nil {
				dst = append(dst, `,"description":`...)
				dst = jsonstr.Append(dst, *it.Description)
			}
			dst = append(dst, `,"spoiler":`...)
			dst = strconv.AppendBool(dst, it.Spoiler)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	return appendType(dst, c.Type()), true
}

// appendID writes a component's id field when it has one.
func appendID(dst []byte, id int) []byte {
	if id == 0 {
		return dst
	}
	dst = append(dst, `,"id":`...)
	return strconv.AppendInt(dst, int64(id), 10)
}

// appendType writes a component's type field and closes its object.
func appendType(dst []byte, t discordgo.ComponentType) []byte {
	dst = append(dst, `,"type":`...)
	dst = strconv.AppendInt(dst, int64(t), 10)
	return append(dst, '}')
}
