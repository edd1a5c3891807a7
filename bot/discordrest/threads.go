package discordrest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

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

// PostMessage posts msg in channel and returns the message's ID: POST
// /channels/{channel}/messages, with the bot token; a message with files
// goes as Discord's multipart form (payload_json, then files[n]).
func (c *Client) PostMessage(ctx context.Context, channel string, msg *discordgo.MessageSend) (string, error) {
	if c.token == "" {
		return "", ErrNoBotToken
	}
	path := "/channels/" + url.PathEscape(channel) + "/messages"
	var out struct {
		ID string `json:"id"`
	}
	var err error
	if len(msg.Files) == 0 {
		var body []byte
		if body, err = json.Marshal(msg); err != nil {
			return "", fmt.Errorf("discordrest: %w", err)
		}
		err = c.call(ctx, http.MethodPost, path, true, "application/json", body, &out)
	} else {
		payload := messageWithFiles{MessageSend: msg}
		for n, f := range msg.Files {
			payload.Attachments = append(payload.Attachments, attachment{ID: strconv.Itoa(n), Filename: f.Name})
		}
		contentType, body, merr := discordgo.MultipartBodyWithJSON(payload, msg.Files)
		if merr != nil {
			return "", fmt.Errorf("discordrest: %w", merr)
		}
		err = c.call(ctx, http.MethodPost, path, true, contentType, body, &out)
	}
	if err != nil {
		return "", err
	}
	if out.ID == "" {
		return "", errors.New("discordrest: the new message has no id")
	}
	return out.ID, nil
}

// messageWithFiles is a new message's payload_json: the message, with the
// attachments that name its files.
type messageWithFiles struct {
	*discordgo.MessageSend
	Attachments []attachment `json:"attachments"`
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
