package table

import (
	"errors"
	"fmt"

	"github.com/tttbot/tttbot/game"
)

// Errors a user can cause in a session's own rules (the engine's are in
// package game). They hold no words: the bot turns each into a sentence.
var (
	ErrNoGame        = errors.New("no game in this channel")
	ErrExpired       = fmt.Errorf("%w: the last one expired", ErrNoGame)
	ErrGameOpen      = errors.New("a game is already open in this channel")
	ErrStarted       = errors.New("the game has already started")
	ErrSeated        = errors.New("already seated")
	ErrNotSeated     = errors.New("not seated in this game")
	ErrResigned      = errors.New("resigned from this game")
	ErrNoRematch     = errors.New("no finished game to rematch")
	ErrNotInLastGame = errors.New("not a player of the last game")
	ErrConflict      = errors.New("the table changed while the action was applied")
	// ErrElsewhere: the action found that the interaction is to be carried
	// out in another channel (a new game's thread); the interaction is not
	// handled yet, and the action in that channel records it.
	ErrElsewhere = errors.New("the action belongs in another channel")
	// ErrDuplicate: the interaction was handled before (a retry, a replay,
	// another replica), so its save changed nothing.
	ErrDuplicate = errors.New("interaction already handled")
	// Finished games (history, replay).
	ErrUnknownGame    = errors.New("no finished game has that id")
	ErrNoFinishedGame = errors.New("no finished game in this channel")
	ErrPrivateGame    = errors.New("the game was played elsewhere by others")
	ErrPrivateHistory = errors.New("another player's history in a DM")
	// ErrLobby is matched by *LobbyError; ErrNotAllowed by *NotAllowedError.
	ErrLobby      = errors.New("the game has not started")
	ErrNotAllowed = errors.New("not allowed to end this game")
)

// LobbyError says the game has not started: Open seats are still free, or
// the Invitees have not accepted yet. It matches ErrLobby.
type LobbyError struct {
	Open     int
	Invitees []string
}

// Error implements error.
func (e *LobbyError) Error() string {
	return fmt.Sprintf("the game has not started: %d open seats", e.Open)
}

// Is makes errors.Is(err, ErrLobby) true.
func (e *LobbyError) Is(target error) bool { return target == ErrLobby }

// NotAllowedError says only Creator (or someone who can manage messages) may
// end the game. It matches ErrNotAllowed.
type NotAllowedError struct{ Creator string }

// Error implements error.
func (e *NotAllowedError) Error() string {
	return "not allowed to end this game: the creator is " + e.Creator
}

// Is makes errors.Is(err, ErrNotAllowed) true.
func (e *NotAllowedError) Is(target error) bool { return target == ErrNotAllowed }

// TurnError says it is Next's turn. It matches game.ErrNotYourTurn.
type TurnError struct{ Next Seat }

// Error implements error.
func (e *TurnError) Error() string { return "not your turn: " + e.Next.Token + " moves" }

// Is makes errors.Is(err, game.ErrNotYourTurn) true.
func (e *TurnError) Is(target error) bool { return target == game.ErrNotYourTurn }

// PositionError is a move the board refuses (game.ErrBadPosition,
// ErrOutOfBounds, ErrCellTaken, ErrColumnFull), with the Rules a sentence
// about it names.
type PositionError struct {
	Rules game.Rules
	Err   error
}

// Error implements error.
func (e *PositionError) Error() string { return e.Err.Error() }

// Unwrap returns the engine's error, so errors.Is sees it.
func (e *PositionError) Unwrap() error { return e.Err }
