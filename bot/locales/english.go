// Package locales holds every sentence the bot says, looked up by key with
// named placeholders. Today it is English only; it is where the per-locale
// files (one a Discord locale, go-i18n) go next, behind the same Say.
package locales

import (
	"strings"
	"text/template"
)

// Every sentence a user reads is in english below, looked up by key with
// named placeholders; code never joins sentences. A key with plural forms has
// ".one" and ".other" variants, chosen by SayN. Text a user typed (a token, a
// board) reaches a sentence only as a placeholder that the sentence puts in a
// code span. (The next step moves these into one file per Discord locale.)
var english = map[string]string{
	// Names and small parts of sentences.
	"seat":            "**{{.Token}}** {{.Who}}",
	"computer":        "the computer ({{.Level}})",
	"rules.size":      "{{.Rows}}×{{.Cols}}",
	"rules.win":       "{{.Win}} in a row",
	"rules.players":   "{{.Players}} players",
	"rules.gravity":   "gravity",
	"rules.compact":   "compact engine",
	"coord.free":      "{{.Row}},{{.Col}}",
	"coord.gravity":   "column {{.Col}} (row {{.Row}})",
	"hint.gravity":    "`/ttt move position:` a column 0–{{.MaxCol}}",
	"hint.classic":    "`/ttt move position:` a cell 0–8, or row,col",
	"hint.free":       "`/ttt move position:` row,col (rows 0–{{.MaxRow}}, columns 0–{{.MaxCol}})",
	"button.join":     "Join",
	"button.rematch":  "Rematch",
	"board.versus":    " vs ",
	"rules.separator": " · ",

	// Lobby.
	"lobby.game":          "Game: {{.Rules}}",
	"lobby.seat":          "Seat {{.N}}: {{.Seat}}",
	"lobby.open_seat":     "Seat {{.N}}: open",
	"lobby.waiting.one":   "Waiting for {{.Count}} more player: `/ttt join` to take a seat.",
	"lobby.waiting.other": "Waiting for {{.Count}} more players: `/ttt join` to take a seat.",

	// Headlines of accepted actions.
	"headline.new":          "{{.Creator}} opened a game.",
	"headline.start":        "Game on: {{.Seats}}\n{{.Rules}}",
	"headline.join":         "{{.Seat}} joined.",
	"headline.move":         "{{.Seat}} played {{.Where}}.",
	"headline.resign":       "{{.Seat}} resigned.",
	"headline.leave":        "{{.Seat}} left the lobby.",
	"headline.leave_closed": "{{.Seat}} left the lobby. The lobby is closed; `/ttt new` to open another.",
	"headline.end":          "{{.User}} ended the game.",
	"headline.end_lobby":    "{{.User}} ended the game. The lobby is closed.",
	"headline.rematch":      "Rematch #{{.Number}}: {{.Seat}} starts this time.",
	"headline.board":        "Game: {{.Rules}} · move {{.Moves}}",
	"headline.no_humans":    "No people are left in this game, so it ends here.",
	"headline.time_up":      "{{.Seat}} ran out of time.",
	"headline.time_up_out":  "{{.Seat}} ran out of time and is out of the game.",

	// Status lines.
	"status.won":          "Player {{.Token}} ({{.Who}}) won!",
	"status.won_resigned": "Player {{.Token}} ({{.Who}}) won! Everyone else resigned.",
	"status.draw":         "It's a draw: the board is full and nobody got {{.Win}} in a row.",
	"status.expired":      "This game ended: nobody moved for too long.",
	"status.ended":        "This game was ended before it finished.",
	"status.turn":         "Turn: {{.Seat}} — {{.Hint}}",
	"status.window":       "Showing rows {{.RowLo}}–{{.RowHi}} and columns {{.ColLo}}–{{.ColHi}} of the {{.Rows}}×{{.Cols}} board, around the last move.",
	"status.clock":        "Clock: move {{.Deadline}}, or lose on time.",
	"status.won_on_time":  "Player {{.Token}} ({{.Who}}) won on time: {{.Lost}} ran out of time.",
	"status.no_picture":   "(Board pictures come with the gateway connection; this bot answers over HTTP.)",

	// Move list.
	"moves.all":      "Moves ({{.Count}}):",
	"moves.last":     "Moves (the last {{.Shown}} of {{.Count}}):",
	"moves.placed":   "{{.N}}. {{.Token}} {{.Where}}",
	"moves.resigned": "{{.N}}. {{.Token}} resigned",

	// Standings.
	"stats.none":         "{{.User}} has no finished games in this server yet.",
	"stats.record":       "{{.User}}: {{.Wins}} {{.WinsWord}}, {{.Losses}} {{.LossesWord}}, {{.Draws}} {{.DrawsWord}} ({{.Games}} {{.GamesWord}}).",
	"stats.games.one":    "game",
	"stats.games.other":  "games",
	"stats.wins.one":     "win",
	"stats.wins.other":   "wins",
	"stats.losses.one":   "loss",
	"stats.losses.other": "losses",
	"stats.draws.one":    "draw",
	"stats.draws.other":  "draws",
	"leaderboard.none":   "No finished games in this server yet. Start one with `/ttt new`.",
	"leaderboard.title":  "**Leaderboard**",
	"leaderboard.line":   "{{.N}}. {{.Player}} — {{.Wins}} W · {{.Losses}} L · {{.Draws}} D",

	// /ttt check: the verdict (seed 004's wording, from game) in a code span,
	// since its reason may quote what the user typed.
	"check.verdict": "**{{.Verdict}}**",

	"help": "**Tic-tac-toe, any size** — one game per channel.\n" +
		"• `/ttt new` opens a game: `rows`, `columns` (3–100), `win` (how many in a row, 3–25), `players` (2–10), " +
		"`gravity` (Connect Four style), `token` (your character), `opponent` (seat someone right away; pick me to play the computer), " +
		"`ai` (fill the empty seats with the computer: easy, medium or hard), " +
		"`clock` (seconds each player has for a move: 30, 60, 300, 3600 or 86400; whoever runs out loses on time).\n" +
		"• `/ttt join` takes a seat (`token` optional). The game starts when every seat is taken; seats play in join order.\n" +
		"• `/ttt move position:` places your token.\n" +
		"  Free boards: `row,col` with 0,0 the top-left cell — `1,2` is row 1, column 2. `1 2` and `(1, 2)` work too; on 3×3 also a cell number 0–8.\n" +
		"  Gravity boards: just the column, e.g. `3`; your token drops to the lowest free row (row 0 is the bottom).\n" +
		"• `/ttt board` shows the board again (after a game: the move list). `/ttt resign` gives up; `/ttt end` closes the game " +
		"(its creator or anyone who can manage messages); `/ttt rematch` replays with the next player starting.\n" +
		"• `/ttt check board:XO./.XO/..X` judges a written board. `/ttt stats` and `/ttt leaderboard` show records in this server.\n" +
		"The last move is shown as [X]; a winning line as *X*.",

	// Refusals: what was wrong and what to do.
	"refuse.internal":           "Something went wrong on my side and nothing was changed. Please try again in a moment.",
	"refuse.unknown":            "I don't know that command. Try `/ttt help`.",
	"refuse.old_button":         "This button is from an older board that this version of the bot no longer reads. Use `/ttt board` to get a fresh one.",
	"refuse.rules":              "Those rules don't work: {{.Field}} {{.Reason}}. Pick again with `/ttt new`.",
	"refuse.token":              "That token doesn't work: {{.Reason}}.",
	"refuse.token_taken":        "That token is taken. Pick another with `token:`, or leave it out to get {{.Free}}.",
	"refuse.expired":            "The last game here ended because nobody moved for too long. Start a new one with `/ttt new`.",
	"refuse.no_game":            "There's no game in this channel. Start one with `/ttt new`.",
	"refuse.game_open":          "A game is already open in this channel. Finish it, or `/ttt end` it (its creator or anyone who can manage messages).",
	"refuse.lobby.one":          "The game hasn't started: it's waiting for {{.Count}} more player to `/ttt join`.",
	"refuse.lobby.other":        "The game hasn't started: it's waiting for {{.Count}} more players to `/ttt join`.",
	"refuse.started":            "This game has already started and every seat is taken. Wait for the next one, or ask for a `/ttt rematch` later.",
	"refuse.seated":             "You already have a seat in this game.",
	"refuse.not_seated":         "You're not a player in this game. Wait for the next one, or `/ttt join` while a game has open seats.",
	"refuse.resigned":           "You resigned from this game, so you can't move in it. Wait for the next one.",
	"refuse.not_allowed":        "Only the game's creator ({{.Creator}}) or someone who can manage messages can end it. You can `/ttt resign`.",
	"refuse.no_rematch":         "There's no finished game here to rematch. Start one with `/ttt new`.",
	"refuse.not_in_last_game":   "Only the players of the last game can ask for a rematch. Start your own with `/ttt new`.",
	"refuse.self_opponent":      "You can't be your own opponent. Pick someone else, or leave `opponent` out and let people `/ttt join`.",
	"refuse.bot_opponent":       "That's another bot's account; it can't play here. Pick a person, invite me, or use `ai:` to play the computer.",
	"refuse.time_up":            "Too late: {{.Seat}} ran out of time {{.When}} and lost on time. `/ttt rematch` to play again, or `/ttt new` for a different game.",
	"refuse.time_up_out":        "Too late: {{.Seat}} ran out of time {{.When}} and is out of this game; the others play on.",
	"refuse.clock":              "That option doesn't work: clock must be 30, 60, 300, 3600 or 86400 seconds. See `/ttt help`.",
	"refuse.conflict":           "The board changed while your action was being applied, so nothing was done. Look at the board and try again.",
	"refuse.stale":              "That board is out of date: the game has moved on since. Use the newest board message, or `/ttt board` to see it again.",
	"refuse.option.engine":      "That option doesn't work: engine must be fast or compact. See `/ttt help`.",
	"refuse.option.ai":          "That option doesn't work: ai must be easy, medium or hard. See `/ttt help`.",
	"refuse.option.int":         "That option doesn't work: {{.Option}} must be a whole number. See `/ttt help`.",
	"refuse.game_over":          "This game is over. `/ttt rematch` to play again, or `/ttt new` for a different game.",
	"refuse.not_your_turn":      "It's not your turn: it's {{.Token}}'s turn ({{.Who}}).",
	"refuse.cell_taken":         "That cell is taken. Pick an empty one (shown as . on the board).",
	"refuse.column_full":        "That column is full. Pick another column.",
	"refuse.off_board.gravity":  "That column is off the board: columns are 0–{{.MaxCol}}.",
	"refuse.off_board.classic":  "That's off the board: use a cell 0–8, or row,col with rows and columns 0–2.",
	"refuse.off_board":          "That's off the board: rows are 0–{{.MaxRow}} and columns 0–{{.MaxCol}}, with 0,0 the top-left.",
	"refuse.unreadable.gravity": "I can't read that position. On this gravity board give just a column number, 0–{{.MaxCol}}, like `3`.",
	"refuse.unreadable":         "I can't read that position. Write row,col, like `1,2` (0,0 is the top-left).",
}

// Data fills a sentence's named placeholders.
type Data map[string]any

// words are the parsed sentences; a placeholder a sentence lacks data for is
// an error, caught by TestEveryKeyRenders.
var words = func() map[string]*template.Template {
	out := make(map[string]*template.Template, len(english))
	for key, text := range english {
		out[key] = template.Must(template.New(key).Option("missingkey=error").Parse(text))
	}
	return out
}()

// Say returns the sentence key with data filled in. An unknown key or a
// missing placeholder is a bug (TestEveryKeyRenders catches it); it shows the
// key rather than fail the reply.
func Say(key string, data Data) string {
	t, ok := words[key]
	if !ok {
		return key
	}
	var sb strings.Builder
	if err := t.Execute(&sb, data); err != nil {
		return key
	}
	return sb.String()
}

// SayN picks the plural form of key for count (English: one or other) and
// fills it with data and Count.
func SayN(key string, count int, data Data) string {
	form := "." + PluralForm(count)
	if data == nil {
		data = Data{}
	}
	data["Count"] = count
	return Say(key+form, data)
}

// Code puts text a user typed in a code span, so it can never become a link,
// a mention or markup: backticks inside become the closest lookalike.
func Code(text string) string {
	return "`" + strings.ReplaceAll(text, "`", "'") + "`"
}

// PluralForm is English's CLDR plural form for n: "one" or "other".
func PluralForm(n int) string {
	if n == 1 {
		return "one"
	}
	return "other"
}

// Keys lists every key, for tests that render them all.
func Keys() []string {
	keys := make([]string, 0, len(english))
	for k := range english {
		keys = append(keys, k)
	}
	return keys
}
