package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
	"github.com/tttbot/tttbot/tournament"
)

// Tournaments, the bot's side: /ttt tournament new, join, leave, start and
// standings act on the channel's tournament, a document in the table store
// ("tournament:<channel>", written compare-and-swap like any table). Package
// tournament pairs and ranks; this file keeps the document and answers the
// commands; tournament_play.go opens each game in its own thread and
// records its result; tournament_text.go lays out what players read.

// tournamentPrefix starts the store key of a channel's tournament: no
// channel ID (a number) can take it.
const tournamentPrefix = "tournament:"

func tournamentKey(channel string) string { return tournamentPrefix + channel }

// defaultTournamentClock is a tournament's move clock when none is chosen:
// a tournament's clock is never off, so no game can stall its round.
const defaultTournamentClock = 5 * time.Minute

// tournamentFormats are what /ttt tournament new format: offers.
var tournamentFormats = []tournamentFormat{tournamentFormat(tournament.RoundRobin), tournamentFormat(tournament.Swiss), tournamentFormat(tournament.Knockout)}

// tournamentFormat is a tournament.Format as a choice of the schema.
type tournamentFormat tournament.Format

// String is the format's stored name, the choice's value.
func (f tournamentFormat) String() string { return string(f) }

// Errors of /ttt tournament that are the bot's own (package tournament
// has its rules' errors).
var (
	ErrTournamentDM   = errors.New("tournaments are played in server channels")
	ErrNoTournament   = errors.New("no tournament in this channel")
	ErrTournamentOpen = errors.New("a tournament is already open in this channel")
	ErrTournamentBot  = errors.New("bots cannot play in a tournament")
)

// NotOrganiserError says only Organiser (or someone who may manage events
// or messages) may start the tournament.
type NotOrganiserError struct{ Organiser string }

// Error implements error.
func (e *NotOrganiserError) Error() string { return "only the organiser may start: " + e.Organiser }

// TooFewError says the tournament cannot start with Joined players.
type TooFewError struct{ Joined int }

// Error implements error.
func (e *TooFewError) Error() string { return fmt.Sprintf("%d players joined", e.Joined) }

// Unwrap makes it match tournament.ErrTooFew.
func (e *TooFewError) Unwrap() error { return tournament.ErrTooFew }

// tourney is a channel's tournament as the store keeps it: the pairings and
// results (package tournament's state), the rules its games are played
// under, and where each game is played.
type tourney struct {
	// ID tells this tournament from the channel's earlier and later ones:
	// a game's table names it, so a late report of an old tournament's
	// game changes nothing.
	ID        string     `json:"id"`
	Guild     string     `json:"guild"`
	Channel   string     `json:"channel"`
	Organiser string     `json:"organiser"`
	Locale    string     `json:"locale"` // the server's language: what the bot posts by itself speaks it
	Rules     game.Rules `json:"rules"`
	Clock     int        `json:"clock"` // seconds a move
	T         *tournament.Tournament
	// Names are the players' display names when they joined, for the
	// names of their games' threads.
	Names map[string]string `json:"names,omitempty"`
	// Since is when the tournament was opened or last joined, before its
	// start: one not started within the idle timeout after lapses.
	Since time.Time `json:"since,omitzero"`
	// Closed says the tournament ended before its start ("called_off" by
	// its organiser, or "lapsed"): the channel holds it no more.
	Closed string `json:"closed,omitempty"`
	play
}

// playerName is id's display name as they joined, for a thread's name or
// the picture; "?" for one not kept.
func (d *tourney) playerName(id string) string {
	if n := d.Names[id]; n != "" {
		return n
	}
	return "?"
}

// Why a tournament closed before its start (tourney.Closed).
const (
	closedCalledOff = "called_off"
	closedLapsed    = "lapsed"
)

// decodeTourney reads a stored tournament; nil when none is stored, or
// the stored one closed before its start (it is as good as gone: no game
// of it was played, and the channel may open another).
func decodeTourney(data []byte, found bool) (*tourney, error) {
	if !found {
		return nil, nil
	}
	d := &tourney{}
	if err := json.Unmarshal(data, d); err != nil {
		return nil, fmt.Errorf("decode tournament: %w", err)
	}
	if d.T == nil {
		return nil, errors.New("decode tournament: no state")
	}
	if d.Closed != "" {
		return nil, nil
	}
	return d, nil
}

// open reports whether d holds its channel: not finished yet.
func (d *tourney) open() bool { return d != nil && !d.T.Finished }

// checkOpen refuses a change that needs d open: there is no tournament (d
// is nil), or it is over.
func (d *tourney) checkOpen() error {
	switch {
	case d == nil:
		return ErrNoTournament
	case d.T.Finished:
		return tournament.ErrFinished
	}
	return nil
}

// tourneyChange decides the next state of a channel's tournament from the
// stored one (nil when none): nil next changes nothing. It may run again
// after a lost swap, so it keeps nothing of a run but what it returns.
type tourneyChange func(cur *tourney) (next *tourney, err error)

// updateTourney applies change to channel's tournament, compare-and-swap,
// and returns the tournament as saved (nil when nothing changed). It
// answers no interaction: the scheduler's work, a game's report.
func (b *Bot) updateTourney(ctx context.Context, channel string, change tourneyChange) (*tourney, error) {
	d, _, err := b.updateTourneyFor(ctx, channel, "", change)
	return d, err
}

// deliverTourney is updateTourney for the command in: with deliver (the
// transport dedupes), the save records in's ID as handled in the same
// swap, so a replay fails with table.ErrDuplicate before change runs and
// changes nothing; recorded says whether the save recorded it.
func (b *Bot) deliverTourney(ctx context.Context, in *Interaction, deliver bool, change tourneyChange) (d *tourney, recorded bool, err error) {
	id := ""
	if deliver {
		id = in.ID
	}
	return b.updateTourneyFor(ctx, in.Channel, id, change)
}

// updateTourneyFor is the swap behind both; interactionID is "" when the
// change answers no interaction to record.
func (b *Bot) updateTourneyFor(ctx context.Context, channel, interactionID string, change tourneyChange) (*tourney, bool, error) {
	var saved *tourney
	ok, err := b.tables.UpdateDocumentDue(ctx, tournamentKey(channel), interactionID, func(data []byte, found bool) ([]byte, time.Time, error) {
		saved = nil
		cur, err := decodeTourney(data, found)
		if err != nil {
			return nil, time.Time{}, err
		}
		next, err := change(cur)
		if err != nil || next == nil {
			return nil, time.Time{}, err
		}
		out, err := json.Marshal(next)
		if err != nil {
			return nil, time.Time{}, err
		}
		saved = next
		return out, next.due(b.tables.Now(), b.tables.IdleTimeout()), nil
	})
	return saved, ok && interactionID != "", err
}

// loadTourney reads channel's tournament (nil when none).
func (b *Bot) loadTourney(ctx context.Context, channel string) (*tourney, error) {
	data, found, err := b.tables.LoadDocument(ctx, tournamentKey(channel))
	if err != nil {
		return nil, err
	}
	return decodeTourney(data, found)
}

// channelTourney reads the tournament of in's channel for a command that
// needs one there: refused in a DM, where there are none, and when the
// channel has none.
func (b *Bot) channelTourney(ctx context.Context, in *Interaction) (*tourney, error) {
	if in.DM() {
		return nil, ErrTournamentDM
	}
	d, err := b.loadTourney(ctx, in.Channel)
	if err == nil && d == nil {
		err = ErrNoTournament
	}
	return d, err
}

// tournamentHere checks that /ttt tournament can run in in's channel: a
// server channel where the bot can start the games' threads, so not a
// thread (threads hold none: its games would wait for ever).
func (b *Bot) tournamentHere(ctx context.Context, in *Interaction) error {
	switch {
	case in.DM():
		return ErrTournamentDM
	case !in.GuildInstalled:
		return &ThreadError{Reason: ThreadNotInstalled}
	case b.threads == nil:
		return &ThreadError{Reason: ThreadNoToken}
	case in.AppPermissions&discordgo.PermissionAdministrator == 0 && in.AppPermissions&threadPermissions != threadPermissions:
		return &ThreadError{Reason: ThreadNoPermission}
	}
	t, err := b.tables.Load(ctx, in.Channel)
	if err != nil {
		return err
	}
	if t != nil {
		if parent, ok := t.InThread(); ok {
			return &ThreadError{Reason: ThreadNested, Parent: parent}
		}
	}
	if sentFromThread(ctx) {
		// A thread the bot did not start (or one whose table is gone):
		// refused as /ttt new thread:true is there, when Discord will
		// not start a thread in it.
		return &ThreadError{Reason: ThreadChannelType}
	}
	return nil
}

// tournamentNew opens a tournament in the channel.
func (b *Bot) tournamentNew(ctx context.Context, in *Interaction, deliver bool) (Response, bool, error) {
	if err := b.tournamentHere(ctx, in); err != nil {
		return Response{}, false, err
	}
	rules, _, err := rulesFrom(in)
	if err != nil {
		return Response{}, false, err
	}
	clock, err := clockFrom(in)
	if err != nil {
		return Response{}, false, err
	}
	if clock == 0 {
		clock = defaultTournamentClock
	}
	size, err := in.Int(optSize, tournament.MaxPlayers)
	if err != nil {
		return Response{}, false, err
	}
	rounds, err := in.Int(optRounds, 0)
	if err != nil {
		return Response{}, false, err
	}
	t, err := tournament.New(tournament.Format(in.String(optFormat)), size, rounds)
	if err != nil {
		return Response{}, false, tournamentOptionError(err)
	}
	d := &tourney{ID: in.ID, Guild: in.Guild, Channel: in.Channel, Organiser: in.User, Locale: in.Public.Locale(),
		Rules: rules, Clock: int(clock / time.Second), T: t, Since: b.tables.Now()}
	_, recorded, err := b.deliverTourney(ctx, in, deliver, func(cur *tourney) (*tourney, error) {
		if cur.open() {
			return nil, ErrTournamentOpen
		}
		return d, nil
	})
	if err != nil {
		return Response{}, recorded, err
	}
	return public(newTournamentText(in.Public, d)), recorded, nil
}

// tournamentOptionError is the option a tournament.New error is about.
func tournamentOptionError(err error) error {
	switch {
	case errors.Is(err, tournament.ErrBadSize):
		return &OptionError{Option: optSize, Want: WantWholeNumber, Min: tournament.MinPlayers, Max: tournament.MaxPlayers}
	case errors.Is(err, tournament.ErrBadRounds):
		return &OptionError{Option: optRounds, Want: WantWholeNumber, Min: 1, Max: tournament.MaxPlayers}
	case errors.Is(err, tournament.ErrBadFormat):
		return &OptionError{Option: optFormat, Want: WantDeclared} // Discord offers only the choices
	}
	return err
}

// tournamentJoin enters the caller in the channel's tournament.
func (b *Bot) tournamentJoin(ctx context.Context, in *Interaction, deliver bool) (Response, bool, error) {
	if in.DM() {
		return Response{}, false, ErrTournamentDM
	}
	if in.IsBot {
		return Response{}, false, ErrTournamentBot
	}
	d, recorded, err := b.deliverTourney(ctx, in, deliver, func(cur *tourney) (*tourney, error) {
		if err := cur.checkOpen(); err != nil {
			return nil, err
		}
		if err := cur.T.Join(in.User); err != nil {
			return nil, err
		}
		if cur.Names == nil {
			cur.Names = map[string]string{}
		}
		cur.Names[in.User] = plainName(in.Name)
		cur.Since = b.tables.Now()
		return cur, nil
	})
	if err != nil {
		return Response{}, recorded, err
	}
	w := in.Public
	return public(w.Say("tournament.joined", locales.Data{"Player": mention(in.User), "N": len(d.T.Players), "Size": d.T.Size})), recorded, nil
}

// tournamentLeave takes the caller out: before the start simply, after it
// forfeiting their games still to play (their game in play is resigned in
// its thread, so its table shows it). The organiser leaving before the
// start calls the whole tournament off (it is theirs), which frees the
// channel; no one else, whatever they may manage, leaves for another.
func (b *Bot) tournamentLeave(ctx context.Context, in *Interaction, deliver bool) (Response, bool, error) {
	if in.DM() {
		return Response{}, false, ErrTournamentDM
	}
	var forfeited []tournament.Game
	d, recorded, err := b.deliverTourney(ctx, in, deliver, func(cur *tourney) (*tourney, error) {
		if cur == nil {
			return nil, ErrNoTournament
		}
		if in.User == cur.Organiser && !cur.T.Started && !cur.T.Finished {
			cur.Closed = closedCalledOff
			return cur, nil
		}
		var err error
		if forfeited, _, _, err = cur.T.Leave(in.User); err != nil {
			return nil, err
		}
		return cur, nil
	})
	if err != nil {
		return Response{}, recorded, err
	}
	if d.Closed == closedCalledOff {
		b.log.InfoContext(ctx, "tournament called off", "channel", in.Channel, "tournament", d.ID)
		return public(in.Public.Say("tournament.called_off", locales.Data{"Player": mention(in.User)})), recorded, nil
	}
	for _, g := range forfeited {
		if thread := d.Threads[g.Key()]; thread != "" {
			b.resignIn(ctx, thread, in.User)
		}
	}
	b.advanceLater(ctx, in.Channel) // a forfeit may have completed the round
	w := in.Public
	key := "tournament.left"
	if d.T.Started {
		key = "tournament.left_started"
	}
	return public(w.Say(key, locales.Data{"Player": mention(in.User)})), recorded, nil
}

// resignIn resigns user from the game in thread, whose result their
// leaving the tournament has decided already: the table shows it over.
func (b *Bot) resignIn(ctx context.Context, thread, user string) {
	err := b.tables.Do(ctx, thread, func(_ context.Context, cur *table.Table) (*table.Table, error) {
		t, err := table.Current(cur)
		if err != nil || t.SeatOf(user) < 0 {
			return nil, nil // over already, or not theirs
		}
		if _, err := t.Resign(user); err != nil {
			return nil, nil
		}
		t.FinishIfOver()
		return t, nil
	})
	if err != nil {
		b.log.WarnContext(ctx, "tournament: resigning a leaver's game failed; its clock will end it", "thread", thread, "err", err)
	}
}

// tournamentStart closes entries and pairs round 1; the games open in their
// threads right after (and are retried by the scheduler until they do).
func (b *Bot) tournamentStart(ctx context.Context, in *Interaction, deliver bool) (Response, bool, error) {
	cur, err := b.channelTourney(ctx, in)
	if err != nil {
		return Response{}, false, err
	}
	ratings, err := b.seedRatings(ctx, cur)
	if err != nil {
		return Response{}, false, err
	}
	d, recorded, err := b.deliverTourney(ctx, in, deliver, func(cur *tourney) (*tourney, error) {
		if err := cur.checkOpen(); err != nil {
			return nil, err
		}
		switch {
		case cur.T.Started:
			return nil, tournament.ErrStarted
		case in.User != cur.Organiser && !in.CanManageEvents && !in.CanManage:
			return nil, &NotOrganiserError{Organiser: cur.Organiser}
		case len(cur.T.Players) < tournament.MinPlayers:
			return nil, &TooFewError{Joined: len(cur.T.Players)}
		}
		if _, err := cur.T.Start(ratings); err != nil {
			return nil, err
		}
		cur.Announced = cur.T.Round // this reply announces the first round
		return cur, nil
	})
	if err != nil {
		return Response{}, recorded, err
	}
	b.advanceLater(ctx, in.Channel)
	return public(startedText(in.Public, d)), recorded, nil
}

// seedRatings are the players' ratings in the tournament's kind of game in
// this server, which seed the pairings (a player without one has the
// starting rating's figure).
func (b *Bot) seedRatings(ctx context.Context, d *tourney) (map[string]float64, error) {
	kind := table.KindOf(d.Rules)
	out := map[string]float64{}
	for _, p := range d.T.Players {
		out[p.ID] = float64(table.NewStanding(d.Guild, kind, p.ID).Display())
		rs, err := b.records.Ratings(ctx, d.Guild, p.ID)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			if r.Kind == kind {
				out[p.ID] = float64(r.Display())
			}
		}
	}
	return out, nil
}

// tournamentStandings shows the channel's tournament: the standings, the
// games in play and those waiting for their thread, and a picture.
func (b *Bot) tournamentStandings(ctx context.Context, in *Interaction) (Response, error) {
	d, err := b.channelTourney(ctx, in)
	if err != nil {
		return Response{}, err
	}
	return standingsReply(in.Public, d), nil
}
