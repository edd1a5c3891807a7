package bot

import "errors"

// Errors a user can cause in the bot's own rules (the engine's are in package
// game). messages.go turns each into the sentence the user reads.
var (
	ErrNoGame        = errors.New("no game in this channel")
	ErrGameOpen      = errors.New("a game is already open in this channel")
	ErrLobby         = errors.New("the game has not started")
	ErrStarted       = errors.New("the game has already started")
	ErrSeated        = errors.New("already seated")
	ErrNotSeated     = errors.New("not seated in this game")
	ErrResigned      = errors.New("resigned from this game")
	ErrNotAllowed    = errors.New("not allowed to end this game")
	ErrNoRematch     = errors.New("no finished game to rematch")
	ErrNotInLastGame = errors.New("not a player of the last game")
	ErrSelfOpponent  = errors.New("opponent is the creator")
	ErrBotOpponent   = errors.New("opponent is a bot")
	ErrConflict      = errors.New("the table changed while the action was applied")
	ErrStale         = errors.New("the button belongs to an outdated board")
	ErrUnknown       = errors.New("unknown command")
	ErrBadOption     = errors.New("bad option")
)
