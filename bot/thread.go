package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/table"
)

// A game per thread: in a server channel that holds an open game, /ttt new
// opens the new game in a public thread started from that channel (and
// thread:true always does). The thread is a channel like any other: its ID
// keys its table, so every command and button acts on its game. The game
// is saved only once its board is posted in the thread, and a thread whose
// game could not be opened is deleted: nothing is left half-made. package
// table archives the thread an hour after its game ends.

// Threads is what the bot asks of Discord, with the bot's token, to play
// games in threads. bot/discordrest implements it. Its errors may carry
// Discord's answer (see discordError).
type Threads interface {
	// StartThread starts a thread of Discord's channel type threadType
	// (publicThread, announcementThread) named name from the channel
	// parent, archived by Discord after autoArchive idle minutes, and
	// returns its ID.
	StartThread(ctx context.Context, parent, name string, threadType, autoArchive int) (string, error)
	// PostMessage posts a message in channel and returns its ID: body is
	// its JSON (a WireMessage), files the files its attachments list names.
	PostMessage(ctx context.Context, channel string, body []byte, files []*discordgo.File) (string, error)
	// ArchiveThread archives a thread.
	ArchiveThread(ctx context.Context, thread string) error
	// DeleteThread deletes a thread and what was posted in it.
	DeleteThread(ctx context.Context, thread string) error
}

// discordError is what the bot reads of a failed Discord call: the HTTP
// status, Discord's JSON error code, and for a 429 how long to wait.
type discordError interface {
	Discord() (status, code int, retryAfter time.Duration)
}

// Discord's JSON error codes a thread's start can meet.
const (
	codeMissingAccess      = 50001
	codeMissingPermissions = 50013
	codeWrongChannelType   = 50024 // "Cannot execute action on this channel type": a thread, a voice channel…
	codeInvalidForm        = 50035 // a field Discord refuses, such as a thread type the channel cannot hold
)

// Discord's channel types of the threads the bot starts: public threads in a
// text channel; in an announcement channel, announcement threads. The
// interaction does not say which the channel is (discordgo's Interaction
// does not decode its channel), so a public thread is tried first.
const (
	publicThread       = 11
	announcementThread = 10
)

// fromThreadKey marks a context whose interaction was sent from a thread.
type fromThreadKey struct{}

// FromThread returns ctx telling the bot that the interaction it serves
// under ctx was sent from a thread (the payload's channel.type is 10, 11
// or 12). discordgo's Interaction does not decode the channel, so the
// transport, which reads the payload (or its cache of the server's
// channels), says so. What cannot be played in a thread (a tournament,
// whose games each need a thread of their own) is refused there.
func FromThread(ctx context.Context) context.Context {
	return context.WithValue(ctx, fromThreadKey{}, true)
}

// sentFromThread reports whether ctx carries FromThread's mark.
func sentFromThread(ctx context.Context) bool {
	v, _ := ctx.Value(fromThreadKey{}).(bool)
	return v
}

// threadPermissions are what the bot needs in a channel to open a game in
// a thread from it: Create Public Threads and Send Messages in Threads.
const threadPermissions = discordgo.PermissionCreatePublicThreads | discordgo.PermissionSendMessagesInThreads

// threadAutoArchive is the thread's auto_archive_duration in minutes: a day
// without activity, as a game's idle timeout; the bot archives it an hour
// after its game ends (table.ArchiveAfter).
const threadAutoArchive = 1440

// maxThreadName is Discord's limit on a thread's name, in characters.
const maxThreadName = 100

// cleanupWithin bounds the deletion of a thread whose game could not be
// opened, which runs even when the interaction's time is up.
const cleanupWithin = 5 * time.Second

// ThreadReason is why a game could not be opened in a thread.
type ThreadReason uint8

// Why no thread could be made.
const (
	// ThreadInDM: DMs and group DMs have no threads.
	ThreadInDM ThreadReason = iota
	// ThreadNotInstalled: the app is installed to the user's account only,
	// in a server the bot is not in.
	ThreadNotInstalled
	// ThreadNoPermission: the bot may not create public threads or send
	// messages in them in this channel.
	ThreadNoPermission
	// ThreadNested: the channel is a thread already (threads hold none).
	ThreadNested
	// ThreadChannelType: the channel is of a type without threads.
	ThreadChannelType
	// ThreadNoToken: the bot runs without its token (HTTP interactions
	// only), and threads are made with it.
	ThreadNoToken
	// ThreadRateLimited: Discord asked to wait longer than an interaction
	// may take.
	ThreadRateLimited
	// ThreadFailed: Discord refused or failed otherwise.
	ThreadFailed
)

var threadReasonNames = [...]string{ThreadInDM: "dm", ThreadNotInstalled: "not_installed", ThreadNoPermission: "permission",
	ThreadNested: "nested", ThreadChannelType: "channel_type", ThreadNoToken: "no_token", ThreadRateLimited: "rate_limited", ThreadFailed: "failed"}

// String names the reason for logs, as its refusal's key does.
func (r ThreadReason) String() string {
	if int(r) < len(threadReasonNames) {
		return threadReasonNames[r]
	}
	return fmt.Sprintf("ThreadReason(%d)", uint8(r))
}

// ThreadError says why /ttt new could not open its game in a thread.
type ThreadError struct {
	Reason     ThreadReason
	Parent     string        // ThreadNested: the channel the thread was started from
	RetryAfter time.Duration // ThreadRateLimited: how long Discord asked to wait
	Err        error         // Discord's answer, when there was one
}

// Error implements error.
func (e *ThreadError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("no thread (%s): %v", e.Reason, e.Err)
	}
	return fmt.Sprintf("no thread (%s)", e.Reason)
}

// Unwrap returns Discord's answer, if any.
func (e *ThreadError) Unwrap() error { return e.Err }

// threadMove is newGame's answer when its game is to open in a new thread
// started from the channel: serve does that outside the channel's lock.
type threadMove struct{}

func (threadMove) Error() string { return "the game opens in a new thread" }

// Is makes errors.Is(err, table.ErrElsewhere) true: the interaction is
// handled in the thread, whose save records it.
func (threadMove) Is(target error) bool { return target == table.ErrElsewhere }

// placeHere decides where /ttt new opens its game, from the interaction and
// the channel's table: nil for here; threadMove for a new thread; or why
// neither can be (a *ThreadError, or table.ErrGameOpen where a busy channel
// cannot offer a thread and none was asked for).
func (b *Bot) placeHere(in *Interaction, cur *table.Table) error {
	asked, busy := in.Has(optThread), cur != nil && cur.Phase.Open()
	wanted := in.Bool(optThread) || busy && !asked
	switch {
	case in.placed || !wanted:
		if busy {
			return table.ErrGameOpen
		}
		return nil
	case in.DM() && !asked:
		return table.ErrGameOpen // as ever: a DM has no threads to offer
	case in.DM():
		return &ThreadError{Reason: ThreadInDM}
	}
	if cur != nil {
		if parent, ok := cur.InThread(); ok {
			return &ThreadError{Reason: ThreadNested, Parent: parent}
		}
	}
	switch {
	case !in.GuildInstalled:
		return &ThreadError{Reason: ThreadNotInstalled}
	case b.threads == nil && !asked:
		return table.ErrGameOpen // no token: a busy channel stays one game
	case b.threads == nil:
		return &ThreadError{Reason: ThreadNoToken}
	case in.AppPermissions&discordgo.PermissionAdministrator == 0 && in.AppPermissions&threadPermissions != threadPermissions:
		return &ThreadError{Reason: ThreadNoPermission}
	}
	return threadMove{}
}

// openInThread opens in's game in a new thread started from in's channel:
// the game is laid out first (a refusal makes no thread), then the thread
// is started, the board posted in it, and the game saved with the thread
// as its channel. When the board cannot be posted or the game saved, the
// thread is deleted. The reply, in the channel, says where the game went.
func (b *Bot) openInThread(ctx context.Context, in *Interaction, id string, deliver bool) (_ *Interaction, _ Response, _ Outcome, recorded bool) {
	here := *in
	here.placed = true
	t, r, err := b.newGame(ctx, &here, nil)
	if err != nil {
		in, resp, outcome := b.refused(ctx, in, err)
		return in, resp, outcome, false
	}
	resp := b.decorate(in.Public, r, t, false)
	parent := in.Channel
	thread, err := b.startThread(ctx, parent, threadName(in.Public, t, in.Name))
	if err != nil {
		return b.threadFailed(ctx, in, "", err)
	}
	message, err := b.post(ctx, thread, resp)
	if err != nil {
		return b.threadFailed(ctx, in, thread, err)
	}
	// The thread's save records the interaction (the channel's action left
	// it unhandled: table.ErrElsewhere), so a replay after a crash finds it
	// and makes no second thread.
	save := func(_ context.Context, cur *table.Table) (*table.Table, error) {
		if cur != nil {
			return nil, fmt.Errorf("new thread %s already has a table: %w", thread, table.ErrConflict)
		}
		t.Channel = thread
		t.PlaceInThread(parent)
		if editedLater(t) {
			t.ShowBoard(table.Shown{Message: message, Locale: in.Public.Locale()})
		}
		return t, nil
	}
	if deliver {
		recorded, err = b.tables.Deliver(ctx, thread, id, save)
	} else {
		err = b.tables.Do(ctx, thread, save)
	}
	if err != nil {
		return b.threadFailed(ctx, in, thread, err)
	}
	// A challenge was counted against its challenger's limits in the
	// channel it was asked in; it lives in the thread now.
	for _, invitee := range t.Challenged {
		if err := b.tables.MoveChallenge(ctx, t.Creator, invitee, parent, thread); err != nil {
			b.log.WarnContext(ctx, "thread: moving a challenge's place in its challenger's count failed", "thread", thread, "err", err)
		}
	}
	w := in.Public
	return in, public(w.Say("headline.thread", locales.Data{"Creator": mention(in.User), "Thread": channelMention(thread)})), Accepted, recorded
}

// startThread starts the game's thread from parent: a public thread, or
// when Discord answers that the channel cannot hold one, an announcement
// thread (the channel is an announcement channel).
func (b *Bot) startThread(ctx context.Context, parent, name string) (string, error) {
	thread, err := b.threads.StartThread(ctx, parent, name, publicThread, threadAutoArchive)
	if te := threadErrorOf(err); te != nil && te.Reason == ThreadChannelType {
		return b.threads.StartThread(ctx, parent, name, announcementThread, threadAutoArchive)
	}
	return thread, err
}

// threadFailed deletes thread (when one was started) and refuses with why.
func (b *Bot) threadFailed(ctx context.Context, in *Interaction, thread string, err error) (*Interaction, Response, Outcome, bool) {
	if thread != "" {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupWithin)
		defer cancel()
		// Deleting a thread takes Manage Threads; without it the thread is
		// at least archived (its creator may), out of the channel's list.
		if derr := b.threads.DeleteThread(cctx, thread); derr != nil {
			aerr := b.threads.ArchiveThread(cctx, thread)
			b.log.ErrorContext(ctx, "thread: deleting a thread whose game could not open failed", "thread", thread, "err", derr, "archived", aerr == nil)
		}
	}
	var te *ThreadError
	if !errors.As(err, &te) {
		b.log.WarnContext(ctx, "thread: Discord refused", "channel", in.Channel, "thread", thread, "err", err)
		if te = threadErrorOf(err); te == nil {
			in, resp, outcome := b.refused(ctx, in, err) // the store failing, a duplicate, or a bug
			return in, resp, outcome, false
		}
	}
	in, resp, outcome := b.refused(ctx, in, te)
	return in, resp, outcome, false
}

// threadErrorOf reads a failed Discord call: nil when err is not one.
func threadErrorOf(err error) *ThreadError {
	var de discordError
	if !errors.As(err, &de) {
		return nil
	}
	status, code, retryAfter := de.Discord()
	switch {
	case status == http.StatusTooManyRequests:
		return &ThreadError{Reason: ThreadRateLimited, RetryAfter: retryAfter, Err: err}
	case code == codeMissingPermissions || code == codeMissingAccess || status == http.StatusForbidden:
		return &ThreadError{Reason: ThreadNoPermission, Err: err}
	case status == http.StatusBadRequest && (code == codeWrongChannelType || code == codeInvalidForm):
		return &ThreadError{Reason: ThreadChannelType, Err: err}
	}
	return &ThreadError{Reason: ThreadFailed, Err: err}
}

// threadName is a game's thread's name: its kind and its creator's name,
// in the server's language, within Discord's limit.
func threadName(w *locales.Speaker, t *table.Table, creator string) string {
	kind := table.KindOf(t.Rules)
	what := rulesLine(w, t.Rules, t.Engine)
	if kind != table.KindOther {
		what = kindName(w, kind)
	}
	return clipThreadName(w.Say("thread.name", locales.Data{"Kind": what, "Creator": plainName(creator)}))
}

// clipThreadName keeps a thread's name within Discord's maxThreadName
// characters, ending a cut one with "…".
func clipThreadName(name string) string {
	if r := []rune(name); len(r) > maxThreadName {
		return strings.TrimSpace(string(r[:maxThreadName-1])) + "…"
	}
	return name
}

// plainName is a user's chosen name fit for a thread's name: one line,
// without control or format characters, at most 32 characters (Discord's
// own limit on names).
func plainName(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == 32 {
			break
		}
		switch {
		case unicode.IsSpace(r):
			r = ' '
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			continue
		}
		b.WriteRune(r)
		n++
	}
	if out := strings.TrimSpace(b.String()); out != "" {
		return out
	}
	return "?"
}

// channelMention is how Discord shows a link to a channel.
func channelMention(id string) string { return "<#" + id + ">" }

// archiveThread is table's ArchiveFunc: Discord archives the thread.
func (b *Bot) archiveThread(ctx context.Context, thread string) error {
	return b.threads.ArchiveThread(ctx, thread)
}

// post posts resp as a new message in channel (a thread, or a tournament's
// channel) with the bot token, files attached, and returns its ID.
func (b *Bot) post(ctx context.Context, channel string, resp Response) (string, error) {
	msg := resp.message(true)
	body, err := msg.JSON()
	if err != nil {
		return "", err
	}
	return b.threads.PostMessage(ctx, channel, body, msg.Files)
}
