// Package discordrest is a small client for the Discord REST calls the bot
// makes outside an interaction's reply: editing a board message when a move
// clock runs out, and the threads games are played in (threads.go). It
// edits the interaction's original response through its token (a webhook
// call: no bot token needed, valid for 15 minutes), or a channel message by
// its ID with the bot token. The message bodies are the bot's own JSON (a
// Components V2 card keeps its flag in them); the client carries them as
// they are, with their files as Discord's multipart form.
//
// A call Discord answers 429 is made again after the retry_after it names,
// a bounded number of times and only while the context's deadline leaves
// room for the wait; otherwise the *Error says how long to wait.
//
// The base URL comes from configuration (DISCORD_API_URL), so tests point it
// at a fake Discord on 127.0.0.1.
package discordrest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// DefaultTimeout bounds one call when Options.HTTP is nil.
const DefaultTimeout = 10 * time.Second

// ErrNoBotToken means a channel message cannot be edited: the bot has no
// token (an HTTP-interactions-only deployment).
var ErrNoBotToken = errors.New("discordrest: no bot token to edit channel messages with")

// Error is Discord's answer to a call that failed: the HTTP status and, when
// Discord sent one, its JSON error code (10062 unknown interaction, 10008
// unknown message, 50001 missing access…).
type Error struct {
	Status  int
	Code    int
	Message string
	// RetryAfter is how long Discord asked to wait before trying again
	// (a 429 that could not be waited out); zero otherwise.
	RetryAfter time.Duration
}

// Error implements error. It names no URL: the path holds a token.
func (e *Error) Error() string {
	if e.RetryAfter > 0 {
		return fmt.Sprintf("discord: %d %s (code %d, retry after %v)", e.Status, e.Message, e.Code, e.RetryAfter)
	}
	return fmt.Sprintf("discord: %d %s (code %d)", e.Status, e.Message, e.Code)
}

// Discord returns the HTTP status, Discord's JSON error code and, for a
// 429, how long to wait: what a caller that does not import this package
// reads of the error.
func (e *Error) Discord() (status, code int, retryAfter time.Duration) {
	return e.Status, e.Code, e.RetryAfter
}

// Options configure a Client.
type Options struct {
	BaseURL  string       // the REST base, e.g. https://discord.com/api/v9 (required)
	BotToken string       // for channel messages; "" means they cannot be edited
	HTTP     *http.Client // nil: a client with DefaultTimeout
}

// Client makes the calls. It is safe for concurrent use.
type Client struct {
	base  string
	token string
	http  *http.Client
}

// New returns a Client.
func New(opt Options) *Client {
	c := &Client{base: strings.TrimRight(opt.BaseURL, "/"), token: opt.BotToken, http: opt.HTTP}
	if c.http == nil {
		c.http = &http.Client{Timeout: DefaultTimeout}
	}
	return c
}

// EditOriginal replaces the original response of the interaction whose
// token this is: PATCH /webhooks/{app}/{token}/messages/@original. body is
// the edit's JSON, whose attachments list names files by their part
// (files[n]); the client carries it as it is: the caller owns the
// message's shape (a Components V2 card keeps its flag in it).
func (c *Client) EditOriginal(ctx context.Context, app, token string, body []byte, files []*discordgo.File) error {
	return c.send(ctx, http.MethodPatch, "/webhooks/"+url.PathEscape(app)+"/"+url.PathEscape(token)+"/messages/@original", false, body, files, nil)
}

// EditMessage replaces a message the bot posted in a channel, with the bot
// token: PATCH /channels/{channel}/messages/{message}; body and files as
// for EditOriginal.
func (c *Client) EditMessage(ctx context.Context, channel, message string, body []byte, files []*discordgo.File) error {
	if c.token == "" {
		return ErrNoBotToken
	}
	return c.send(ctx, http.MethodPatch, "/channels/"+url.PathEscape(channel)+"/messages/"+url.PathEscape(message), true, body, files, nil)
}

// OriginalMessageID returns the ID of the message that answered the
// interaction whose token this is: GET /webhooks/{app}/{token}/messages/@original.
// A board posted as a new message is known by its ID only this way, and
// only while the token lives.
func (c *Client) OriginalMessageID(ctx context.Context, app, token string) (string, error) {
	var msg struct {
		ID string `json:"id"`
	}
	if err := c.call(ctx, http.MethodGet, "/webhooks/"+url.PathEscape(app)+"/"+url.PathEscape(token)+"/messages/@original", false, "", nil, &msg); err != nil {
		return "", err
	}
	if msg.ID == "" {
		return "", errors.New("discordrest: the original response has no id")
	}
	return msg.ID, nil
}

// send makes a call with a message body: JSON alone, or, with files,
// Discord's multipart form (payload_json, then files[n]); a JSON answer is
// decoded into out when not nil.
func (c *Client) send(ctx context.Context, method, path string, auth bool, body []byte, files []*discordgo.File, out any) error {
	if len(files) == 0 {
		return c.call(ctx, method, path, auth, "application/json", body, out)
	}
	contentType, form, err := discordgo.MultipartBodyWithJSON(json.RawMessage(body), files)
	if err != nil {
		return fmt.Errorf("discordrest: %w", err)
	}
	return c.call(ctx, method, path, auth, contentType, form, out)
}

// Retries after a 429: at most maxRetries more tries, and without a
// context deadline no single wait longer than maxWait (with one, the
// deadline bounds the waits).
const (
	maxRetries = 3
	maxWait    = 5 * time.Second
)

// call makes one request, again after each 429 while the wait fits (see
// maxRetries); a JSON answer is decoded into out when not nil.
func (c *Client) call(ctx context.Context, method, path string, auth bool, contentType string, body []byte, out any) error {
	for try := 0; ; try++ {
		err := c.once(ctx, method, path, auth, contentType, body, out)
		var de *Error
		if !errors.As(err, &de) || de.Status != http.StatusTooManyRequests || try == maxRetries || !c.canWait(ctx, de.RetryAfter) {
			return err
		}
		timer := time.NewTimer(de.RetryAfter)
		select {
		case <-ctx.Done():
			timer.Stop()
			return err
		case <-timer.C:
		}
	}
}

// canWait reports whether waiting d leaves time for the call itself within
// ctx's deadline (or, without one, whether d is at most maxWait).
func (c *Client) canWait(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	if !ok {
		return d <= maxWait
	}
	return time.Until(deadline) > d
}

// once makes one request; a JSON answer is decoded into out when not nil.
func (c *Client) once(ctx context.Context, method, path string, auth bool, contentType string, body []byte, out any) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return errors.New("discordrest: bad request URL") // never the URL: it holds a token
	}
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("User-Agent", "DiscordBot (https://github.com/tttbot/tttbot, 1)")
	if auth {
		req.Header.Set("Authorization", "Bot "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL holds the interaction's token
		}
		return fmt.Errorf("discordrest: %s: %w", method, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 2 {
		if out != nil && resp.StatusCode != http.StatusNoContent {
			if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(out); err != nil {
				return fmt.Errorf("discordrest: %s: %w", method, err)
			}
			return nil
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		return nil
	}
	e := &Error{Status: resp.StatusCode, Message: http.StatusText(resp.StatusCode)}
	var derr struct {
		Code       int      `json:"code"`
		Message    string   `json:"message"`
		RetryAfter *float64 `json:"retry_after"` // seconds, on a 429
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&derr) == nil {
		e.Code = derr.Code
		if derr.Message != "" {
			e.Message = derr.Message
		}
		if derr.RetryAfter != nil && *derr.RetryAfter > 0 {
			e.RetryAfter = time.Duration(*derr.RetryAfter * float64(time.Second))
		}
	}
	if e.Status == http.StatusTooManyRequests && e.RetryAfter == 0 {
		// No body (a proxy's answer): the Retry-After header, in seconds.
		if secs, err := strconv.ParseFloat(resp.Header.Get("Retry-After"), 64); err == nil && secs > 0 {
			e.RetryAfter = time.Duration(secs * float64(time.Second))
		} else {
			e.RetryAfter = time.Second
		}
	}
	return e
}
