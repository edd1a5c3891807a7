package httpapi

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot"
)

// TestAppendResponseMatchesJSON holds the hand-written encoder to
// encoding/json's bytes for every shape a Response takes.
func TestAppendResponseMatchesJSON(t *testing.T) {
	buttons := []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "0", Style: discordgo.SecondaryButton, CustomID: "col/3/0"},
			discordgo.Button{Label: "Join & <play>", CustomID: "join/1", Disabled: true, ID: 7},
			discordgo.Button{Label: "link", Style: discordgo.LinkButton, URL: "https://example.com/?a=1&b=2"},
		}},
		discordgo.ActionsRow{ID: 3, Components: []discordgo.MessageComponent{discordgo.Button{Label: "\u2028\x01\xff\"\\\t\n\r\b\f", CustomID: "x"}}},
	}
	hard := "Player **X** (<@800000000000000001>) won! `a\"b` — ⭕ é \u2029 \x7f \xc3"
	cases := map[string]bot.Response{
		"Pong":            {Kind: bot.Pong},
		"ChoicesFallback": {Kind: bot.Choices, Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "a", Value: "b"}}},
		"NoChoices":       {Kind: bot.Choices},
		"Public":          {Kind: bot.Message, Content: hard, Ping: []string{"800000000000000001"}, Components: buttons},
		"Ephemeral":       {Kind: bot.Message, Ephemeral: true, Content: "not your turn"},
		"UpdateCleared":   {Kind: bot.Update, Content: "board", Components: []discordgo.MessageComponent{}},
		"NoFilesNote":     {Kind: bot.Message, Content: "board", Files: []bot.File{{Name: "board.png"}}, NoFiles: "(no picture)"},
		"Emoji": {Kind: bot.Message, Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "e", CustomID: "e", Emoji: &discordgo.ComponentEmoji{Name: "⭕"}},
			discordgo.Button{CustomID: "f", Emoji: &discordgo.ComponentEmoji{Name: "fox<", ID: "1234", Animated: true}},
			discordgo.Button{CustomID: "g", Emoji: &discordgo.ComponentEmoji{ID: "1234"}},
			discordgo.Button{CustomID: "h", Emoji: &discordgo.ComponentEmoji{Animated: true}},
			discordgo.Button{CustomID: "i", Emoji: &discordgo.ComponentEmoji{}}}}}},
		"SelectFallback": {Kind: bot.Message, Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: "s", Options: []discordgo.SelectMenuOption{{Label: "a", Value: "a"}}}}}}},
		"Card":            {Kind: bot.Message, Card: true, Accent: 0x1f77b4, Content: hard + "\n```\n X | <O>\n```\nTurn & more", Ping: []string{"800000000000000001"}, Components: buttons},
		"CardUpdate":      {Kind: bot.Update, Card: true, Content: "ended"},
		"HelpEmbed":       {Kind: bot.Message, Ephemeral: true, Embeds: []*discordgo.MessageEmbed{{Description: "help <me>"}}},
		"CardNoFilesNote": {Kind: bot.Message, Card: true, Accent: 0x99aab5, Content: "big board", Files: []bot.File{{Name: "board.png"}}, NoFiles: "(no picture)"},
		"CardEphemeral":   {Kind: bot.Message, Card: true, Ephemeral: true, Content: "refused"},
	}
	// The shapes a card's builder does not make itself, held to the same
	// bytes as the bot's: ids, a gallery with its items, nil lists.
	desc := "the board <as> a picture"
	accent := 0
	wires := map[string]*bot.WireResponse{
		"ContainerShapes": {Type: 4, Data: &bot.WireMessage{Flags: discordgo.MessageFlagsIsComponentsV2, Components: []discordgo.MessageComponent{
			discordgo.Container{ID: 9, AccentColor: &accent, Spoiler: true, Components: []discordgo.MessageComponent{
				discordgo.TextDisplay{Content: "a & b"},
				discordgo.MediaGallery{ID: 4, Items: []discordgo.MediaGalleryItem{
					{Media: discordgo.UnfurledMediaItem{URL: "attachment://board.png"}, Description: &desc, Spoiler: true},
					{Media: discordgo.UnfurledMediaItem{URL: "attachment://b\u2028.png"}}}},
				discordgo.MediaGallery{},
				discordgo.ActionsRow{ID: 2, Components: buttons[0].(discordgo.ActionsRow).Components},
			}},
			discordgo.Container{},
		}}},
		"PongWire": {Type: 1},
	}
	for name, wire := range wires {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(wire)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := appendFast([]byte("prefix"), wire)
			if !ok || !bytes.Equal(got, append([]byte("prefix"), want...)) {
				t.Fatalf("appendFast (%v):\n got %s\nwant prefix%s", ok, got, want)
			}
		})
	}
	for name, resp := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(resp.InteractionResponse(false))
			if err != nil {
				t.Fatal(err)
			}
			if _, fast := appendFast(nil, resp.InteractionResponse(false)); !fast && (strings.HasPrefix(name, "Card") || name == "Emoji") {
				t.Errorf("%s went through encoding/json", name)
			}
			got, err := appendResponse([]byte("prefix"), resp)
			if err != nil || !bytes.Equal(got, append([]byte("prefix"), want...)) {
				t.Fatalf("appendResponse (%v):\n got %s\nwant prefix%s", err, got, want)
			}
		})
	}
}

func BenchmarkAppendResponse(b *testing.B) {
	resp := bot.Response{Kind: bot.Message, Content: "**X** <@800000000000000001> played column 3.\n```\n 0 1 2\n. X .\n```\nTurn: **O**",
		Ping: []string{"800000000000000002"}, Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "0", Style: discordgo.SecondaryButton, CustomID: "col/3/0"}, discordgo.Button{Label: "1", Style: discordgo.SecondaryButton, CustomID: "col/3/1"}}}}}
	card := resp
	card.Card, card.Accent = true, 0x1f77b4 // the board message as the bot sends it
	for name, r := range map[string]bot.Response{"classic": resp, "card": card} {
		b.Run(name+"/fast", func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				buf, _ = appendResponse(buf[:0], r)
			}
		})
		b.Run(name+"/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				json.Marshal(r.InteractionResponse(false))
			}
		})
	}
}
