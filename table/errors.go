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
	// ErrLobby is matched by *LobbyError; ErrNotAllowed by *NotAllowedError.
	ErrLobby      = errors.New("the game has not started")
	ErrNotAllowed = errors.New("not allowed to end this game")
)

// LobbyError: the game has not started; Open seats are still free.
type LobbyError struct{ Open int }

func (e *LobbyError) Error() string {
	return fmt.Sprintf("the game has not started: %d open seats", e.Open)
}
func (e *LobbyError) Is(target error) bool { return target == ErrLobby }

// NotAllowedError: only Creator (or someone who can manage messages) may end
// the game.
type NotAllowedError struct{ Creator string }

func (e *NotAllowedError) Error() string {
	return "not allowed to end this game: the creator is " + e.Creator
}
func (e *NotAllowedError) Is(target error) bool { return target == ErrNotAllowed }

// TurnError: it is Next's turn. It matches game.ErrNotYourTurn.
type TurnError struct{ Next Seat }

func (e *TurnError) Error() string        { return "not your turn: " + e.Next.Token + " moves" }
func (e *TurnError) Is(target error) bool { return target == game.ErrNotYourTurn }

// TokenTakenError: Token is held by another seat; Free is the next free one.
// It matches game.ErrTokenTaken.
type TokenTakenError struct {
	Token string
	Free  rune
}

func (e *TokenTakenError) Error() string        { return "token " + e.Token + " is taken" }
func (e *TokenTakenError) Is(target error) bool { return target == game.ErrTokenTaken }

// PositionError is a move the board refuses (game.ErrBadPosition,
// ErrOutOfBounds, ErrCellTaken, ErrColumnFull), with the Rules a sentence
// about it names.
type PositionError struct {
	Rules game.Rules
	Err   error
}

func (e *PositionError) Error() string { return e.Err.Error() }
func (e *PositionError) Unwrap() error { return e.Err }
