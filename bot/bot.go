package bot

import (
	"context"
	"errors"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/ai"
	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/puzzle/progress"
	"github.com/tttbot/tttbot/render"
	"github.com/tttbot/tttbot/table"
)

// Options configure a Bot.
type Options struct {
	Tables   *table.Tables // the channels' game sessions (required)
	Records  table.Records // finished games, for results, standings, history, replays: the store Tables saves to (required)
	Logger   *slog.Logger  // structured logs; nil discards them
	AIBudget time.Duration // the computer's thinking time a move; 0 means ai.DefaultBudget
	Editor   Editor        // edits board messages when a clock runs out; nil: the next interaction shows it
	// Threads starts, fills and archives the threads games are played in
	// (thread.go); nil when the bot has no token: a busy channel then
	// holds one game.
	Threads Threads
	// Words are the locale files to speak from; nil means the embedded
	// ones (locales.New). Tests pass their own (locales.Load).
	Words *locales.Catalog
	// ChallengeTimeout is how long an invitation waits for its answer; 0
	// means table.DefaultChallengeTimeout.
	ChallengeTimeout time.Duration
	// EmojiImages gives custom emoji tokens' pictures for board pictures
	// (bot/emojicdn); nil: they are drawn by name.
	EmojiImages render.Images
}

// Bot turns interactions into responses. It is safe for concurrent use:
// Tables serialises the actions in one channel.
type Bot struct {
	tables   *table.Tables
	records  table.Records
	log      *slog.Logger
	aiBudget time.Duration
	editor   Editor
	// challengeTimeout is how long an invitation waits for its answer.
	challengeTimeout time.Duration
	threads          Threads
	emojiImages      render.Images
	words            *locales.Catalog
	puzzles          *progress.Keeper // people's puzzle records (puzzle.go)
	Metrics          *Metrics

	bg           sync.WaitGroup  // clock.go: background work
	learnIDAfter []time.Duration // clock.go: pauses before learning a message's ID
}

// New returns a Bot.
func New(opt Options) *Bot {
	b := &Bot{tables: opt.Tables, records: opt.Records, log: opt.Logger, aiBudget: opt.AIBudget, editor: opt.Editor, threads: opt.Threads, emojiImages: opt.EmojiImages, Metrics: NewMetrics(), learnIDAfter: learnIDAfter}
	if b.log == nil {
		b.log = slog.New(slog.DiscardHandler)
	}
	b.words = opt.Words
	if b.words == nil {
		b.words = locales.New(b.log)
	}
	if b.aiBudget <= 0 {
		b.aiBudget = ai.DefaultBudget
	}
	b.puzzles = progress.New(b.tables, b.tables.Now, b.log)
	b.challengeTimeout = opt.ChallengeTimeout
	if b.challengeTimeout <= 0 {
		b.challengeTimeout = table.DefaultChallengeTimeout
	}
	b.tables.OnTimeUp(b.timeUp)
	b.tables.OnChallengeLapsed(b.challengeLapsed)
	if b.threads != nil {
		b.tables.OnArchive(b.archiveThread)
	}
	b.tables.OnReport(b.reportGame)                           // tournament_play.go
	b.tables.OnDocumentDue(tournamentPrefix, b.tournamentDue) // a tournament's work left to do
	return b
}

// Serve answers one interaction. It never fails: anything unexpected becomes
// one polite ephemeral line and a log entry. (A panic is a bug and is not
// recovered here: the transports recover it per request, so tests see it.)
func (b *Bot) Serve(ctx context.Context, i *discordgo.Interaction) Response {
	resp, _ := b.serveTimed(ctx, i, false)
	return resp
}

// serveTimed is Serve, recording i's ID with the action's save when
// deliver is set (see ServeOnce).
func (b *Bot) serveTimed(ctx context.Context, i *discordgo.Interaction, deliver bool) (Response, bool) {
	start := time.Now() // a duration: the wall clock, not the application's
	in, resp, outcome, recorded := b.serve(ctx, i, deliver)
	took := time.Since(start)
	b.Metrics.observe(in, outcome, took)
	// One line a request, for following one interaction through the logs
	// (LOG_LEVEL=debug); metrics count them all. Checked first: building
	// the line's attributes costs allocations a busy bot at info need not pay.
	if b.log.Enabled(ctx, slog.LevelDebug) {
		b.log.DebugContext(ctx, "interaction", "interaction", in.ID, "route", in.Route.String(), "outcome", outcome.String(), "duration", took)
	}
	return resp, recorded
}

// serve answers i; with deliver, the action's save records i's ID as
// handled (table.Tables.Deliver), and recorded says whether it did.
func (b *Bot) serve(ctx context.Context, i *discordgo.Interaction, deliver bool) (_ *Interaction, _ Response, _ Outcome, recorded bool) {
	if i.Type == discordgo.InteractionPing {
		return &Interaction{ID: i.ID, Type: i.Type}, Response{Kind: Pong}, Answered, false
	}
	in, err := parseInteraction(i)
	in.Private, in.Public = b.words.For(in.Locale), b.words.For(in.publicLocale())
	if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		if err != nil {
			return in, Response{Kind: Choices}, Refused, false
		}
		return in, b.autocomplete(ctx, in), Answered, false
	}
	if err != nil {
		in, resp, outcome := b.refused(ctx, in, err)
		return in, resp, outcome, false
	}
	e := routeTable[in.Route]
	if e.record != nil {
		resp, recorded, err := e.record(b, ctx, in, deliver)
		if err != nil {
			in, resp, outcome := b.refused(ctx, in, err)
			return in, resp, outcome, recorded
		}
		return in, resp, Accepted, recorded
	}
	if e.query != nil {
		resp, err := e.query(b, ctx, in)
		if err != nil {
			in, resp, outcome := b.refused(ctx, in, err)
			return in, resp, outcome, false
		}
		return in, resp, Answered, false
	}
	// The reply is laid out inside the action, under the channel's lock: the
	// table is shared (cached) and the next action may change it as soon as
	// the lock is released.
	var resp Response
	act := func(ctx context.Context, cur *table.Table) (*table.Table, error) {
		next, r, err := e.table(b, ctx, in, cur)
		if err != nil {
			return nil, err
		}
		shown := next
		if shown == nil {
			shown = cur
		}
		resp = b.decorate(in.Public, r, shown, in.Route == RouteBoard && in.Bool(optImage))
		return b.showing(in, i, cur, next, resp), nil
	}
	if deliver {
		recorded, err = b.tables.Deliver(ctx, in.Channel, i.ID, act)
	} else {
		err = b.tables.Do(ctx, in.Channel, act)
	}
	if errors.As(err, new(threadMove)) && in.Route == RouteNew {
		return b.openInThread(ctx, in, i.ID, deliver) // thread.go: outside the channel's lock
	}
	if err != nil {
		in, resp, outcome := b.refused(ctx, in, err)
		return in, resp, outcome, recorded
	}
	if after := resp.afterSave; after != nil {
		b.bg.Add(1)
		go func() {
			defer b.bg.Done()
			after(context.WithoutCancel(ctx))
		}()
	}
	return in, resp, Accepted, recorded
}

// refused is serve's answer to err, with its outcome.
func (b *Bot) refused(ctx context.Context, in *Interaction, err error) (*Interaction, Response, Outcome) {
	resp, known := b.refuse(ctx, in, err)
	if !known {
		return in, resp, Failed
	}
	return in, resp, Refused
}

// ServeRecovering is Serve for the transports: a panic while handling one
// interaction is logged with its stack and answered with the polite internal
// line, instead of taking the process (and every other channel) down.
func (b *Bot) ServeRecovering(ctx context.Context, i *discordgo.Interaction) (resp Response) {
	defer b.recovering(ctx, i, &resp)
	return b.Serve(ctx, i)
}

// ServeOnce is ServeRecovering for a transport that dedupes: the save of
// the action i asks for records i's ID as handled in the same transaction,
// and an ID handled before is answered as a duplicate without applying it
// (table.Tables.Deliver). recorded reports whether a save recorded the ID;
// when it did not (a refusal, a look, a query), the transport records it
// by other means.
func (b *Bot) ServeOnce(ctx context.Context, i *discordgo.Interaction) (resp Response, recorded bool) {
	defer b.recovering(ctx, i, &resp)
	return b.serveTimed(ctx, i, true)
}

// recovering, deferred, answers a panic while handling i (logged with its
// stack) with the polite internal line in *resp.
func (b *Bot) recovering(ctx context.Context, i *discordgo.Interaction, resp *Response) {
	if p := recover(); p != nil {
		b.log.ErrorContext(ctx, "panic while handling an interaction", "interaction", i.ID, "panic", p, "stack", string(debug.Stack()))
		*resp = ephemeral(b.words.For(string(i.Locale)).Say("refuse.internal", nil))
	}
}
