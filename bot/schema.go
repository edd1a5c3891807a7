package bot

import (
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
	"github.com/tttbot/tttbot/tournament"
)

// Longest option values Discord accepts from a user.
const (
	maxPositionLength   = 20   // "(99, 99)" with room for spacing
	maxCheckBoardLength = 6000 // Discord's limit on a string option
	maxTokenLength      = 8    // one grapheme cluster may take several code points
)

// CommandName is the one slash command the bot registers.
const CommandName = "ttt"

// Option names: part of the /ttt contract (docs/architecture.md); Discord
// sends them back, so never rename one.
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
	optKind     = "kind"   // leaderboard: a kind of game (table.Kind's keys)
	optScope    = "scope"  // leaderboard: this server or everywhere
	optGame     = "game"   // replay: a game id from history
	optThread   = "thread" // new: open the game in a new thread
	optFormat   = "format" // tournament new: round-robin, swiss or knockout
	optRounds   = "rounds" // tournament new: a swiss tournament's rounds
	optSize     = "size"   // tournament new: the most players
	// puzzle: how hard (puzzle.Difficulty); none asks for the daily puzzle.
	// (Its kind: is a puzzle.Kind.)
	optDifficulty = "difficulty"
)

// groupTournament is the subcommand group of the tournament routes.
const groupTournament = "tournament"

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
// hold (schema_locales.go).
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

// command is /ttt's shape: names, types, bounds, choices. Its words (every
// description and choice name, in every locale) come from bot/locales by
// keys derived from this shape (see localize); none are written here, so a
// description lives in one place. Choice names here are placeholders that
// localize always replaces.
func command() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:             CommandName,
		IntegrationTypes: &integrationTypes,
		Contexts:         &contexts,
		Options: []*discordgo.ApplicationCommandOption{
			sub(RouteNew,
				intOpt(optRows, game.MinSize, game.MaxSize),
				intOpt(optColumns, game.MinSize, game.MaxSize),
				intOpt(optWin, game.MinWin, game.MaxWin),
				intOpt(optPlayers, game.MinPlayers, game.MaxPlayers),
				boolOpt(optGravity),
				strOpt(optToken, 1, maxTokenLength),
				choiceOpt(optEngine, names(game.Engines())...),
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: optOpponent},
				choiceOpt(optAI, names(table.Computers())...),
				clockOpt(),
				boolOpt(optThread),
			),
			sub(RouteJoin,
				strOpt(optToken, 1, maxTokenLength)),
			sub(RouteMove,
				&discordgo.ApplicationCommandOption{
					Type: discordgo.ApplicationCommandOptionString, Name: optPosition, Required: true, Autocomplete: true,
					MinLength: ptr(1), MaxLength: maxPositionLength,
				}),
			sub(RouteBoard,
				boolOpt(optImage)),
			sub(RouteRematch),
			sub(RouteResign),
			sub(RouteEnd),
			sub(RouteCheck,
				&discordgo.ApplicationCommandOption{
					Type: discordgo.ApplicationCommandOptionString, Name: optBoard, Required: true,
					MinLength: ptr(1), MaxLength: maxCheckBoardLength,
				},
				intOpt(optWin, game.MinWin, game.MaxWin),
				boolOpt(optGravity)),
			sub(RouteStats,
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: optUser}),
			sub(RouteLeaderboard,
				choiceOpt(optKind, names(table.Kinds())...),
				choiceOpt(optScope, scopeServer, scopeEverywhere)),
			sub(RouteHistory,
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: optUser}),
			sub(RouteReplay,
				strOpt(optGame, 1, maxGameIDLength)),
			sub(RouteHelp),
			group(groupTournament,
				sub(RouteTournamentNew,
					required(choiceOpt(optFormat, names(tournamentFormats)...)),
					intOpt(optRows, game.MinSize, game.MaxSize),
					intOpt(optColumns, game.MinSize, game.MaxSize),
					intOpt(optWin, game.MinWin, game.MaxWin),
					boolOpt(optGravity),
					clockOpt(),
					intOpt(optRounds, 1, tournament.MaxPlayers),
					intOpt(optSize, tournament.MinPlayers, tournament.MaxPlayers)),
				sub(RouteTournamentJoin),
				sub(RouteTournamentLeave),
				sub(RouteTournamentStart),
				sub(RouteTournamentStandings)),
			sub(RoutePuzzle,
				choiceOpt(optKind, puzzleKindNames()...),
				choiceOpt(optDifficulty, puzzleDifficultyNames()...)),
		},
	}
}

// group is a subcommand group of subs, whose routes' names are "<name>
// <sub>" ("tournament new"): Discord shows /ttt tournament new.
func group(name string, subs ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	for _, s := range subs {
		s.Name = strings.TrimPrefix(s.Name, name+" ")
	}
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: name, Options: subs}
}

// subcommand is one subcommand of the schema with its route's name:
// "new", or "tournament new" inside a group.
type subcommand struct {
	name string
	opt  *discordgo.ApplicationCommandOption
}

// subcommands lists cmd's subcommands, those of its groups included, in
// the schema's order.
func subcommands(cmd *discordgo.ApplicationCommand) []subcommand {
	var out []subcommand
	for _, o := range cmd.Options {
		if o.Type != discordgo.ApplicationCommandOptionSubCommandGroup {
			out = append(out, subcommand{o.Name, o})
			continue
		}
		for _, s := range o.Options {
			out = append(out, subcommand{o.Name + " " + s.Name, s})
		}
	}
	return out
}

// sub is route r's subcommand, named by its routeTable entry: the one place
// a subcommand's name is written.
func sub(r Route, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: r.subcommand(), Options: opts}
}

func intOpt(name string, lo, hi int) *discordgo.ApplicationCommandOption {
	min := float64(lo)
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: name, MinValue: &min, MaxValue: float64(hi)}
}

func boolOpt(name string) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: name}
}

func strOpt(name string, lo, hi int) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name, MinLength: ptr(lo), MaxLength: hi}
}

func choiceOpt(name string, values ...string) *discordgo.ApplicationCommandOption {
	o := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name}
	for _, v := range values {
		o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: v, Value: v})
	}
	return o
}

// required marks o as one Discord asks for before sending the command.
func required(o *discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	o.Required = true
	return o
}

func ptr[T any](v T) *T { return &v }

// clockOpt is /ttt new clock: seconds each player has for a move, one of
// table.Clocks.
func clockOpt() *discordgo.ApplicationCommandOption {
	o := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: optClock}
	for _, d := range table.Clocks {
		seconds := int(d / time.Second)
		o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: strconv.Itoa(seconds), Value: seconds})
	}
	return o
}

// names are the values' String forms, in order: a choice list from the
// type it names (game.Engines, table.Computers, table.Kinds), never written
// again here.
func names[T fmt.Stringer](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = v.String()
	}
	return out
}
