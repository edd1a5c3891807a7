package discordrest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/bwmarrin/discordgo"
)

// startThread is Discord's body for starting a thread without a message
// (CreateTextThreadWithoutMessageRequest).
type startThread struct {
	Name                string `json:"name"`
	Type                int    `json:"type"`
	AutoArchiveDuration int    `json:"auto_archive_duration"`
}

// StartThread starts a thread of Discord's channel type threadType (11 a
// public thread, 10 one in an announcement channel) named name from the
// channel parent, archived by Discord after autoArchive minutes without
// activity (60, 1440, 4320 or 10080), and returns its ID: POST
// /channels/{parent}/threads, with the bot token.
func (c *Client) StartThread(ctx context.Context, parent, name string, threadType, autoArchive int) (string, error) {
	if c.token == "" {
		return "", ErrNoBotToken
	}
	body, err := json.Marshal(startThread{Name: name, Type: threadType, AutoArchiveDuration: autoArchive})
	if err != nil {
		return "", fmt.Errorf("discordrest: %w", err)
	}
	var ch struct {
		ID string `json:"id"`
	}
	if err := c.call(ctx, http.MethodPost, "/channels/"+url.PathEscape(parent)+"/threads", true, "application/json", body, &ch); err != nil {
		return "", err
	}
	if ch.ID == "" {
		return "", errors.New("discordrest: the new thread has no id")
	}
	return ch.ID, nil
}

// PostMessage posts a message in channel and returns its ID: POST
// /channels/{channel}/messages, with the bot token. body is the message's
// JSON, whose attachments list names files by their part (files[n]), sent
// as Discord's multipart form when there are files.
func (c *Client) PostMessage(ctx context.Context, channel string, body []byte, files []*discordgo.File) (string, error) {
	if c.token == "" {
		return "", ErrNoBotToken
	}
	var out struct {
		ID string `json:"id"`
	}
	if err := c.send(ctx, http.MethodPost, "/channels/"+url.PathEscape(channel)+"/messages", true, body, files, &out); err != nil {
		return "", err
	}
	if out.ID == "" {
		return "", errors.New("discordrest: the new message has no id")
	}
	return out.ID, nil
}

// ArchiveThread archives a thread: PATCH /channels/{thread} {"archived":true},
// with the bot token.
func (c *Client) ArchiveThread(ctx context.Context, thread string) error {
	if c.token == "" {
		return ErrNoBotToken
	}
	return c.call(ctx, http.MethodPatch, "/channels/"+url.PathEscape(thread), true, "application/json", []byte(`{"archived":true}`), nil)
}

// DeleteThread deletes a thread the bot started, with what was posted in
// it: DELETE /channels/{thread}, with the bot token.
func (c *Client) DeleteThread(ctx context.Context, thread string) error {
	if c.token == "" {
		return ErrNoBotToken
	}
	return c.call(ctx, http.MethodDelete, "/channels/"+url.PathEscape(thread), true, "", nil, nil)
}
