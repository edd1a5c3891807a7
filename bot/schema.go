package bot

import (
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// Longest option values Discord accepts from a user.
const (
	maxPositionLength   = 20   // "(99, 99)" with room for spacing
	maxCheckBoardLength = 6000 // Discord's limit on a string option
	maxTokenLength      = 8    // one grapheme cluster may take several code points
)

// CommandName is the one slash command the bot registers.
const CommandName = "ttt"

// Option names: part of the contract in DESIGN.md.
const (
	optRows     = "rows"
	optColumns  = "columns"
	optWin      = "win"
	optPlayers  = "players"
	optGravity  = "gravity"
	optToken    = "token"
	optEngine   = "engine"
	optOpponent = "opponent"
	optAI       = "ai"
	optPosition = "position"
	optImage    = "image"
	optBoard    = "board"
	optUser     = "user"
	optClock    = "clock"
	optKind     = "kind"  // leaderboard: a kind of game (table.Kind's keys)
	optScope    = "scope" // leaderboard: this server or everywhere
	optGame     = "game"  // replay: a game id from history
)

// Values of the leaderboard's scope option.
const (
	scopeServer     = "server"
	scopeEverywhere = "everywhere"
)

// maxGameIDLength bounds /ttt replay game:, a number with room for a "#".
const maxGameIDLength = 20

// Commands returns the /ttt command with its subcommands, as registered with
// Discord by a bulk overwrite: everywhere (server and user install; servers,
// the bot's DM, DMs and group DMs), and in every language the locale files
// hold (schema_locales.go). The descriptions written here are placeholders
// for the en-US file's.
func Commands() []*discordgo.ApplicationCommand {
	cmd := command()
	localize(locales.New(nil), slog.New(slog.DiscardHandler), cmd)
	return []*discordgo.ApplicationCommand{cmd}
}

// Where /ttt can be installed and used (Discord's integration_types and
// contexts).
var (
	integrationTypes = []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	contexts         = []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
)

// command is /ttt's shape: names, types, bounds, choices.
func command() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:             CommandName,
		Description:      "Tic-tac-toe on any board: 3×3 to 100×100, k in a row, 2–10 players, gravity",
		IntegrationTypes: &integrationTypes,
		Contexts:         &contexts,
		Options: []*discordgo.ApplicationCommandOption{
			sub("new", "Open a game in this channel; others join with /ttt join",
				intOpt(optRows, "Rows on the board (default 3; 6 with gravity)", game.MinSize, game.MaxSize),
				intOpt(optColumns, "Columns on the board (default 3; 7 with gravity)", game.MinSize, game.MaxSize),
				intOpt(optWin, "How many in a row win (default 3, 4 or 5 by board size)", game.MinWin, game.MaxWin),
				intOpt(optPlayers, "Number of players (default 2)", game.MinPlayers, game.MaxPlayers),
				boolOpt(optGravity, "Tokens drop to the lowest free row, like Connect Four"),
				strOpt(optToken, "Your token: one character (default X)", 1, maxTokenLength),
				choiceOpt(optEngine, "Board engine: fast (default) or compact (less memory on huge boards)", "fast", "compact"),
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: optOpponent, Description: "Seat this person right away"},
				choiceOpt(optAI, "Fill the empty seats with the computer at this level", "easy", "medium", "hard"),
				clockOpt(),
			),
			sub("join", "Take a seat in the open game",
				strOpt(optToken, "Your token: one character (default: the next free one)", 1, maxTokenLength)),
			sub("move", "Place your token",
				&discordgo.ApplicationCommandOption{
					Type: discordgo.ApplicationCommandOptionString, Name: optPosition, Required: true, Autocomplete: true,
					Description: "row,col (0,0 is top-left), a cell 0–8 on 3×3, or a column number under gravity",
					MinLength:   ptr(1), MaxLength: maxPositionLength,
				}),
			sub("board", "Show the board again",
				boolOpt(optImage, "Attach a picture of the board")),
			sub("rematch", "Play the last game again with the same players; the next player starts"),
			sub("resign", "Give up the current game (or leave the lobby)"),
			sub("end", "Close the game in this channel (its creator, or anyone who can manage messages)"),
			sub("check", "Judge a written board, e.g. XO./.XO/..X",
				&discordgo.ApplicationCommandOption{
					Type: discordgo.ApplicationCommandOptionString, Name: optBoard, Required: true,
					Description: "Rows separated by /, top row first, . for empty: XO./.XO/..X",
					MinLength:   ptr(1), MaxLength: maxCheckBoardLength,
				},
				intOpt(optWin, "How many in a row win (default 3)", game.MinWin, game.MaxWin),
				boolOpt(optGravity, "Tokens must rest on the bottom or on another token")),
			sub("stats", "Wins, losses and draws in this server",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: optUser, Description: "Whose record (default: yours)"}),
			sub("leaderboard", "The top 10 players by rating",
				choiceOpt(optKind, "Kind of game (default: the first with rated games)", kindKeys()...),
				choiceOpt(optScope, "This server (default) or everywhere", scopeServer, scopeEverywhere)),
			sub("history", "Recent finished games, newest first, with ids for /ttt replay",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: optUser, Description: "Whose games (default: yours)"}),
			sub("replay", "An animated replay of a finished game, a frame a move",
				strOpt(optGame, "A game id from /ttt history (default: this channel's last game)", 1, maxGameIDLength)),
			sub("help", "How to play: commands, coordinates, examples"),
		},
	}
}

func sub(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
}

func intOpt(name, desc string, lo, hi int) *discordgo.ApplicationCommandOption {
	min := float64(lo)
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: name, Description: desc, MinValue: &min, MaxValue: float64(hi)}
}

func boolOpt(name, desc string) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: name, Description: desc}
}

func strOpt(name, desc string, lo, hi int) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name, Description: desc, MinLength: ptr(lo), MaxLength: hi}
}

func choiceOpt(name, desc string, values ...string) *discordgo.ApplicationCommandOption {
	o := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name, Description: desc}
	for _, v := range values {
		o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: v, Value: v})
	}
	return o
}

func ptr[T any](v T) *T { return &v }

// clockOpt is /ttt new clock: seconds each player has for a move, one of
// table.Clocks.
func clockOpt() *discordgo.ApplicationCommandOption {
	o := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: optClock,
		Description: "Seconds each player has for a move; out of time loses (default: no clock)"}
	names := []string{"30 seconds", "1 minute", "5 minutes", "1 hour", "1 day"}
	for i, d := range table.Clocks {
		o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: names[i], Value: int(d / time.Second)})
	}
	return o
}

// kindKeys are table.Kinds' keys, the leaderboard's kind choices.
func kindKeys() []string {
	var keys []string
	for _, k := range table.Kinds() {
		keys = append(keys, k.String())
	}
	return keys
}
