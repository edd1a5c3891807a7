package bot

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/ai"
	"github.com/tttbot/tttbot/game"
)

// Options configure a Bot.
type Options struct {
	Store       Store            // where tables and results live (required)
	Logger      *slog.Logger     // structured logs; nil discards them
	Now         func() time.Time // the clock; nil means time.Now
	IdleTimeout time.Duration    // an open game with no action this long ends; 0 means 24h
	AIBudget    time.Duration    // the computer's thinking time a move; 0 means 1 s
}

// Bot turns interactions into responses. It is safe for concurrent use:
// actions in one channel are serialised by that channel's lock, and the
// store's versioned writes keep several processes from overwriting each other.
type Bot struct {
	store    Store
	log      *slog.Logger
	now      func() time.Time
	idle     time.Duration
	aiBudget time.Duration
	Metrics  *Metrics

	mu    sync.Mutex
	locks map[string]*channelLock // one per channel in use
	cache map[string]*Table       // open tables as last saved or read, at their version
}

// channelLock serialises actions in one channel; it is dropped from the map
// when nobody holds or waits for it, so the map stays the size of the
// channels in use, not of every channel ever seen.
type channelLock struct {
	sync.Mutex
	refs int
}

// maxCached bounds the table cache; past it an arbitrary entry is dropped
// (the store always has the table, the cache only saves a replay).
const maxCached = 4096

// New returns a Bot.
func New(opt Options) *Bot {
	b := &Bot{
		store:    opt.Store,
		log:      opt.Logger,
		now:      opt.Now,
		idle:     opt.IdleTimeout,
		aiBudget: opt.AIBudget,
		Metrics:  &Metrics{},
		locks:    map[string]*channelLock{},
		cache:    map[string]*Table{},
	}
	if b.log == nil {
		b.log = slog.New(slog.DiscardHandler)
	}
	if b.now == nil {
		b.now = time.Now
	}
	if b.idle <= 0 {
		b.idle = 24 * time.Hour
	}
	if b.aiBudget <= 0 {
		b.aiBudget = ai.DefaultBudget
	}
	return b
}

// Handle answers one interaction. It never fails and never panics: anything
// unexpected becomes one polite ephemeral line and a log entry.
func (b *Bot) Handle(ctx context.Context, i *discordgo.Interaction) (resp *discordgo.InteractionResponse) {
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("panic while handling an interaction", "interaction", i.ID, "panic", p, "stack", string(debug.Stack()))
			resp = ephemeral(textInternal)
		}
		b.Metrics.observe(i.Type, resp, time.Since(start))
	}()
	if i.Type == discordgo.InteractionPing {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}
	}
	req, err := parseRequest(i)
	if err != nil {
		return b.refuse(ctx, err, nil, req, i)
	}
	if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		return b.autocomplete(ctx, req)
	}
	if i.Type == discordgo.InteractionMessageComponent {
		c, err := parseCustomID(req.CustomID)
		if err != nil {
			return b.refuse(ctx, err, nil, req, i)
		}
		return b.withTable(ctx, req, i, clickRequest(req, c))
	}
	if i.Type != discordgo.InteractionApplicationCommand {
		return b.refuse(ctx, fmt.Errorf("%w: interaction type %d", ErrUnknown, i.Type), nil, req, i)
	}
	if h, ok := tableHandlers[req.Sub]; ok {
		return b.withTable(ctx, req, i, h)
	}
	if h, ok := queryHandlers[req.Sub]; ok {
		resp, err := h(ctx, b, req)
		if err != nil {
			return b.refuse(ctx, err, nil, req, i)
		}
		return resp
	}
	return b.refuse(ctx, fmt.Errorf("%w: /%s %s", ErrUnknown, CommandName, req.Sub), nil, req, i)
}

// change is what a table handler decided: the table to save (nil when
// nothing changed), the result to record with it, and the reply.
type change struct {
	table  *Table
	result *game.Result
	resp   *discordgo.InteractionResponse
}

// tableHandler acts on a channel's table. cur is the channel's current table
// (nil when it never had one). A handler must check everything before it
// changes anything, and returns an error for any refusal.
type tableHandler func(ctx context.Context, b *Bot, req *Request, cur *Table) (change, error)

// queryHandler answers without touching a channel's table.
type queryHandler func(ctx context.Context, b *Bot, req *Request) (*discordgo.InteractionResponse, error)

// withTable runs h under the channel's lock with the channel's freshest
// table, and saves what h changed before the reply goes out.
func (b *Bot) withTable(ctx context.Context, req *Request, i *discordgo.Interaction, h tableHandler) *discordgo.InteractionResponse {
	unlock := b.lock(req.Channel)
	defer unlock()
	cur, err := b.load(ctx, req.Channel)
	if err != nil {
		return b.refuse(ctx, err, nil, req, i)
	}
	if cur != nil && cur.Phase.Open() && b.now().Sub(cur.Updated) > b.idle {
		if cur, err = b.expire(ctx, cur); err != nil {
			return b.refuse(ctx, err, cur, req, i)
		}
	}
	ch, err := h(ctx, b, req, cur)
	if err != nil {
		b.forget(req.Channel) // a refused handler changed nothing, but be sure
		return b.refuse(ctx, err, cur, req, i)
	}
	if ch.table == nil {
		b.remember(cur) // unchanged: still good at its version
		return decorate(ctx, req, cur, ch.resp)
	}
	if err := b.save(ctx, ch.table, ch.result); err != nil {
		return b.refuse(ctx, err, cur, req, i)
	}
	return decorate(ctx, req, ch.table, ch.resp)
}

// expire ends an open table nobody has touched for the idle timeout.
func (b *Bot) expire(ctx context.Context, t *Table) (*Table, error) {
	t.Phase, t.EndReason = Ended, "expired"
	if err := b.save(ctx, t, nil); err != nil {
		return nil, err
	}
	b.log.Info("game expired", "channel", t.Channel, "idle", b.idle)
	return t, nil
}

// lock takes the channel's lock and returns its release.
func (b *Bot) lock(channel string) func() {
	b.mu.Lock()
	l := b.locks[channel]
	if l == nil {
		l = &channelLock{}
		b.locks[channel] = l
	}
	l.refs++
	b.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		b.mu.Lock()
		l.refs--
		if l.refs == 0 {
			delete(b.locks, channel)
		}
		b.mu.Unlock()
	}
}

// load reads the channel's table from the store. The store is always asked
// (another replica may have moved); the cache only saves decoding and
// replaying when the version has not changed.
func (b *Bot) load(ctx context.Context, channel string) (*Table, error) {
	data, version, found, err := b.store.LoadTable(ctx, channel)
	if err != nil || !found {
		return nil, err
	}
	b.mu.Lock()
	cached := b.cache[channel]
	delete(b.cache, channel) // the handler may change it; it comes back when saved
	b.mu.Unlock()
	if cached != nil && cached.version == version {
		return cached, nil
	}
	return decodeTable(data, version)
}

// save writes t with a compare-and-swap on the version it was read at.
func (b *Bot) save(ctx context.Context, t *Table, result *game.Result) error {
	t.Updated = b.now()
	data, err := t.encode()
	if err != nil {
		return err
	}
	version, saved, err := b.store.SaveTable(ctx, t.Channel, t.Guild, data, t.version, result)
	if err != nil {
		return fmt.Errorf("save table of channel %s: %w", t.Channel, err)
	}
	if !saved {
		return ErrConflict
	}
	t.version = version
	b.remember(t)
	return nil
}

// remember caches an open table at its version; finished ones are read
// rarely and are not worth the memory.
func (b *Bot) remember(t *Table) {
	if t == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !t.Phase.Open() {
		delete(b.cache, t.Channel)
		return
	}
	if _, ok := b.cache[t.Channel]; !ok && len(b.cache) >= maxCached {
		for ch := range b.cache {
			delete(b.cache, ch)
			break
		}
	}
	b.cache[t.Channel] = t
}

func (b *Bot) forget(channel string) {
	b.mu.Lock()
	delete(b.cache, channel)
	b.mu.Unlock()
}

// refuse is the one place errors become replies: what a user caused is
// explained to them alone; anything else is logged with its context and
// shown as one polite line.
func (b *Bot) refuse(ctx context.Context, err error, t *Table, req *Request, i *discordgo.Interaction) *discordgo.InteractionResponse {
	text, userError := explain(err, t, req)
	if !userError {
		attrs := []any{"err", err, "interaction", i.ID, "channel", i.ChannelID, "guild", i.GuildID}
		if req != nil {
			attrs = append(attrs, "subcommand", req.Sub, "user", req.User)
		}
		b.log.ErrorContext(ctx, "interaction failed", attrs...)
	} else {
		b.log.DebugContext(ctx, "interaction refused", "reason", err, "interaction", i.ID)
	}
	if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult, Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}}}
	}
	return ephemeral(text)
}
