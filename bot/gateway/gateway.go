// Package gateway carries interactions between Discord's gateway (through a
// discordgo Session) and the bot: interactions in, bot.Responses out, with
// their files attached. It decides nothing itself.
package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot"
)

// replyWithin is how long a handler may take: Discord drops an interaction
// not answered within 3 s, and the reply itself needs a moment to travel.
const replyWithin = 2500 * time.Millisecond

// sendWithin is the reply's own time to reach Discord: the handler's deadline
// must not cut off the answer to an action that was already saved.
const sendWithin = 5 * time.Second

// Options configure the gateway transport.
type Options struct {
	Token   string   // the bot token
	AppID   string   // "" means the bot user's ID, read from READY
	GuildID string   // register commands in this guild only; "" means globally
	APIURL  *url.URL // Discord's REST base (a proxy, or a fake in tests); nil means discordgo's default
	Logger  *slog.Logger
}

// Gateway carries interactions between Discord's gateway and the Bot. It
// asks for no privileged intents: slash commands arrive without any.
type Gateway struct {
	bot     *bot.Bot
	opt     Options
	log     *slog.Logger
	session *discordgo.Session

	mu       sync.Mutex
	closing  bool
	inFlight sync.WaitGroup
}

// newSession is a discordgo Session for token whose REST calls go to apiURL.
func newSession(token string, apiURL *url.URL) (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, err
	}
	if apiURL != nil {
		s.Client = APIClient(apiURL, nil)
	}
	s.LogLevel = discordgo.LogError
	return s, nil
}

// New prepares a gateway connection; Open connects.
func New(b *bot.Bot, opt Options) (*Gateway, error) {
	s, err := newSession(opt.Token, opt.APIURL)
	if err != nil {
		return nil, err
	}
	s.Identify.Intents = discordgo.IntentsGuilds
	g := &Gateway{bot: b, opt: opt, log: opt.Logger, session: s}
	if g.log == nil {
		g.log = slog.New(slog.DiscardHandler)
	}
	s.AddHandler(g.onInteraction)
	return g, nil
}

// Open connects to the gateway and registers the /ttt command. discordgo's
// Open sets no deadline of its own, so ctx bounds it.
func (g *Gateway) Open(ctx context.Context) error {
	done := make(chan error, 1)
	go func() { done <- g.session.Open() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("gateway: %w", err)
		}
	case <-ctx.Done():
		go g.session.Close()
		return fmt.Errorf("gateway: open: %w", ctx.Err())
	}
	appID := g.opt.AppID
	if appID == "" && g.session.State != nil && g.session.State.User != nil {
		appID = g.session.State.User.ID
	}
	if err := registerCommands(ctx, g.session, appID, g.opt.GuildID); err != nil {
		return err
	}
	g.log.Info("gateway connected", "app_id", appID, "guild_id", g.opt.GuildID)
	return nil
}

// Register replaces the application's commands with /ttt over REST alone (no
// gateway connection): in one guild when guildID is set (instant), otherwise
// globally. It is `tttbot register`, for HTTP-only deployments.
func Register(ctx context.Context, token, appID, guildID string, apiURL *url.URL) error {
	s, err := newSession(token, apiURL)
	if err != nil {
		return fmt.Errorf("register commands: %w", err)
	}
	return registerCommands(ctx, s, appID, guildID)
}

func registerCommands(ctx context.Context, s *discordgo.Session, appID, guildID string) error {
	if appID == "" {
		return errors.New("register commands: no application ID (set DISCORD_APP_ID)")
	}
	if _, err := s.ApplicationCommandBulkOverwrite(appID, guildID, bot.Commands(), discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("register commands: %w", err)
	}
	return nil
}

func (g *Gateway) onInteraction(s *discordgo.Session, ic *discordgo.InteractionCreate) {
	g.mu.Lock()
	if g.closing {
		g.mu.Unlock()
		return
	}
	g.inFlight.Add(1)
	g.mu.Unlock()
	defer g.inFlight.Done()

	ctx, cancel := context.WithTimeout(context.Background(), replyWithin)
	defer cancel()
	// discordgo decodes no interaction's channel; the session's state (the
	// Guilds intent keeps the servers' channels and threads) tells a thread.
	if c, err := s.State.Channel(ic.ChannelID); err == nil && c.IsThread() {
		ctx = bot.FromThread(ctx)
	}
	resp := g.bot.ServeRecovering(ctx, ic.Interaction).InteractionResponse(true)
	rctx, rcancel := context.WithTimeout(context.Background(), sendWithin)
	defer rcancel()
	if err := respond(s, ic.Interaction, resp, discordgo.WithContext(rctx)); err != nil {
		g.log.Error("gateway: reply failed", "err", err, "interaction", ic.ID, "channel", ic.ChannelID)
	}
}

// respond posts resp to interaction i's callback endpoint through the
// session's REST client (its rate limits and retries): as JSON, or with
// files as Discord's multipart form. It sends the bot's own wire form:
// discordgo's InteractionRespond would marshal its InteractionResponseData,
// which always writes "content", and a Components V2 card must carry none.
func respond(s *discordgo.Session, i *discordgo.Interaction, resp *bot.WireResponse, options ...discordgo.RequestOption) error {
	endpoint := discordgo.EndpointInteractionResponse(i.ID, i.Token)
	if resp.Data == nil || len(resp.Data.Files) == 0 {
		_, err := s.RequestWithBucketID(http.MethodPost, endpoint, resp, endpoint, options...)
		return err
	}
	contentType, form, err := discordgo.MultipartBodyWithJSON(resp, resp.Data.Files)
	if err != nil {
		return err
	}
	_, err = s.RequestRaw(http.MethodPost, endpoint, contentType, form, endpoint, 0, options...)
	return err
}

// Close stops taking new interactions, waits for the ones in flight to be
// answered (up to ctx), and closes the connection.
func (g *Gateway) Close(ctx context.Context) error {
	g.mu.Lock()
	g.closing = true
	g.mu.Unlock()
	waited := make(chan struct{})
	go func() { g.inFlight.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-ctx.Done():
		g.log.Warn("gateway: closing with replies still in flight")
	}
	return g.session.Close()
}
