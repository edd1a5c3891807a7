package table

import (
	"context"
	"time"
)

// Store is the session store Tables keeps channels' tables in. Tables
// writes a channel's table back before the caller replies, so nothing a
// user saw accepted is lost, and several replicas can share one store:
// every write is a compare-and-swap on the version the table was read at,
// so a replica acting on a table another one has moved since changes
// nothing.
//
// Tables are opaque bytes to the store (this package owns their encoding);
// the version makes each write a compare-and-swap.
type Store interface {
	// LoadTable returns the channel's table and its version, or found=false
	// when the channel has never had one.
	LoadTable(ctx context.Context, channel string) (data []byte, version int64, found bool, err error)
	// LoadTableHandled is LoadTable, and whether interactionID was
	// recorded as handled (see Save.Delivery), in one read: an action that
	// answers an interaction finds a duplicate where its table is loaded,
	// with no read of its own (on PostgreSQL a round trip a request).
	LoadTableHandled(ctx context.Context, channel, interactionID string) (data []byte, version int64, found, handled bool, err error)
	// SaveTable writes s.Data if the stored version is still s.Version (0: no
	// table stored yet), stamped at s.Now, and records s.Result in the same
	// transaction when it is not nil: the finished game (with its moves, for
	// History and replays) and, when s.Result.Rated(), its players' new
	// ratings in each of s.Result.RatingScopes(), computed by
	// s.Result.Rate from the ratings read in that transaction. It returns the new version, or
	// saved=false, having changed nothing, when someone else wrote first.
	// When s.Delivery is set, the same transaction records that interaction
	// ID as handled; when it was recorded already, SaveTable fails with an
	// error matching ErrDuplicate, having changed nothing.
	// It returns only once the write is durable.
	SaveTable(ctx context.Context, s Save) (newVersion int64, saved bool, err error)
}

// Records is the read model of finished games that the bot queries:
// results, standings and ratings, as Store.SaveTable recorded them.
type Records interface {
	// Tally returns a player's wins, losses and draws within a scope (server).
	Tally(ctx context.Context, scope, player string) (Tally, error)

	// Ratings returns a player's ratings in scope, one a kind of game they
	// have rated games in, in the order of Kinds.
	Ratings(ctx context.Context, scope, player string) ([]Standing, error)
	// RatingBoard returns up to limit players of a scope and kind, highest
	// Display (Ordinal) first, ties by player ID.
	RatingBoard(ctx context.Context, scope string, kind Kind, limit int) ([]Standing, error)
	// History returns a page of a player's finished games, newest first.
	History(ctx context.Context, q HistoryQuery) ([]Finished, error)
	// FinishedGame returns the finished game with this ID.
	FinishedGame(ctx context.Context, id int64) (f Finished, found bool, err error)
	// LastFinished returns the channel's most recent finished game.
	LastFinished(ctx context.Context, channel string) (f Finished, found bool, err error)
}

// Save is one write of a channel's table: everything that must be durable
// together, in one transaction, before the action's reply.
type Save struct {
	Channel string
	Guild   string    // the server, "" in a DM
	Data    []byte    // the encoded table
	Version int64     // the version Data was read at: the compare-and-swap
	Now     time.Time // the application's clock at the action
	Result  *Result   // a game that finished in this action, or nil
	// Deadline is when the player to move runs out of time, kept in the
	// same transaction so the scheduler finds it; zero: no clock running.
	Deadline time.Time
	// Delivery is the ID of the interaction this save answers ("" when
	// none), recorded as handled in the same transaction (see
	// Tables.Deliver).
	Delivery string
	// Open is whether Data is an open game (a table in the lobby or being
	// played), so the store can count the games open without reading its
	// tables (GameCounter). A document (a key with a colon, see
	// UpdateDocument) is never one.
	Open bool
}

// GameCounter is a store that counts the open games it holds: the tables
// whose last save had Save.Open set. Counting must cost one indexed read,
// whatever the store holds, since the operator's dashboard asks at every
// scrape.
type GameCounter interface {
	GamesOpen(ctx context.Context) (int64, error)
}
