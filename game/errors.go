package game

import (
	"errors"
	"fmt"
)

// Errors a caller can cause. Functions wrap them with detail; match them with
// errors.Is.
var (
	ErrBadRules     = errors.New("rules out of bounds")
	ErrBadToken     = errors.New("unusable token")
	ErrTokenTaken   = errors.New("token already taken")
	ErrBadPosition  = errors.New("unreadable position")
	ErrOutOfBounds  = errors.New("position outside the board")
	ErrCellTaken    = errors.New("cell already taken")
	ErrColumnFull   = errors.New("column is full")
	ErrNotYourTurn  = errors.New("not your turn")
	ErrNotPlayer    = errors.New("not a player in this game")
	ErrGameOver     = errors.New("game is over")
	ErrBadMoveOrder = errors.New("move history does not replay")
)

// RulesError names the rule that is out of bounds. It matches ErrBadRules.
type RulesError struct {
	Field  string // "rows", "columns", "win" or "players"
	Value  int    // the value given
	Reason string // the bound, e.g. "must be 3–100"
}

func (e *RulesError) Error() string {
	return fmt.Sprintf("%s %d %s", e.Field, e.Value, e.Reason)
}

// Is makes errors.Is(err, ErrBadRules) true.
func (e *RulesError) Is(target error) bool { return target == ErrBadRules }

// TokenError says why a token cannot be used. It matches ErrBadToken.
type TokenError struct {
	Token  string // what was given
	Reason string // e.g. "must be one character"
}

func (e *TokenError) Error() string {
	return fmt.Sprintf("token %q %s", e.Token, e.Reason)
}

// Is makes errors.Is(err, ErrBadToken) true.
func (e *TokenError) Is(target error) bool { return target == ErrBadToken }
