package bot

import (
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/bot/locales"
	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// Discord's limits on buttons, and what fits in them.
const (
	buttonsPerRow = 5  // Discord: at most 5 buttons in an action row
	maxRows       = 5  // Discord: at most 5 action rows in a message
	maxGridSide   = 5  // free boards up to 5×5 get a button per cell
	maxColumns    = 25 // gravity boards up to 25 columns get a button per column (5 rows of 5)
)

// emptyCellLabel is a zero-width space: Discord refuses an empty label.
const emptyCellLabel = "\u200b"

// gameStamp is the table's game number, which join and rematch buttons carry.
func gameStamp(t *table.Table) string { return strconv.Itoa(t.Number) }

// moveStamp is the state a move button belongs to: "<game>.<moves made>".
func moveStamp(t *table.Table) string {
	return gameStamp(t) + "." + strconv.Itoa(t.Game().MoveCount())
}

// playerStyles colour taken cells by player; Discord has four styles.
var playerStyles = []discordgo.ButtonStyle{discordgo.PrimaryButton, discordgo.DangerButton, discordgo.SuccessButton, discordgo.SecondaryButton}

// components returns the buttons for a table's public message.
func components(w *locales.Speaker, t *table.Table) []discordgo.MessageComponent {
	r := t.Rules
	switch {
	case t.Challenging():
		return challengeButtons(w, t)
	case t.Phase == table.Lobby:
		return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: w.Say("button.join", nil), Style: discordgo.SuccessButton, CustomID: buttonID(ButtonJoin, gameStamp(t))},
		}}}
	case t.Game() == nil || t.Phase == table.Ended:
		return nil
	case t.Phase == table.Over:
		rows := []discordgo.MessageComponent{}
		// The final board as disabled buttons, if a row is left for Rematch.
		if !r.Gravity && r.Rows < maxRows && r.Cols <= maxGridSide {
			rows = cellRows(t, true)
		}
		return append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: w.Say("button.rematch", nil), Style: discordgo.PrimaryButton, CustomID: buttonID(ButtonRematch, gameStamp(t))},
		}})
	case r.Gravity && r.Cols <= maxColumns:
		return columnRows(t)
	case !r.Gravity && r.Rows <= maxGridSide && r.Cols <= maxGridSide:
		return cellRows(t, false)
	}
	return nil
}

// cellRows lays out a button per cell as the board: row r of buttons is row
// r of the board.
func cellRows(t *table.Table, disabled bool) []discordgo.MessageComponent {
	stamp := moveStamp(t)
	return cellGrid(t.Game(), t.Tokens(), func(c game.Coord) string {
		return buttonID(ButtonCell, stamp, strconv.Itoa(c.Row), strconv.Itoa(c.Col))
	}, disabled)
}

// cellGrid lays out a button per cell of g, each with the custom_id id
// gives it: empty cells pressable unless disabled, taken ones showing their
// player's token (tokens, by seat; an emoji token as the button's emoji) in
// their player's colour, disabled.
func cellGrid(g *game.Game, tokens []string, id func(game.Coord) string, disabled bool) []discordgo.MessageComponent {
	r := g.Rules()
	var rows []discordgo.MessageComponent
	for row := 0; row < r.Rows; row++ {
		var buttons []discordgo.MessageComponent
		for col := 0; col < r.Cols; col++ {
			c := game.Coord{Row: row, Col: col}
			btn := discordgo.Button{Label: emptyCellLabel, Style: discordgo.SecondaryButton, CustomID: id(c), Disabled: disabled}
			if p := g.At(c); p != game.NoPlayer {
				btn.Label = tokens[p]
				if e := buttonEmoji(tokens[p]); e != nil {
					// An emoji token shows as the emoji; discordgo always
					// sends the label, which must not be empty.
					btn.Label, btn.Emoji = emptyCellLabel, e
				}
				btn.Style = playerStyles[p%len(playerStyles)]
				btn.Disabled = true
			}
			buttons = append(buttons, btn)
		}
		rows = append(rows, discordgo.ActionsRow{Components: buttons})
	}
	return rows
}

// columnRows has a button per column that is not full, labelled with the
// number a player would type (and the mover's emoji token, if it is one:
// where their emoji will drop), five to a row.
func columnRows(t *table.Table) []discordgo.MessageComponent {
	stamp := moveStamp(t)
	g := t.Game()
	var mover *discordgo.ComponentEmoji
	if g.State() == game.Playing {
		mover = buttonEmoji(t.Seats[g.Turn()].Token)
	}
	return columnButtons(g, mover, func(col int) string { return buttonID(ButtonColumn, stamp, strconv.Itoa(col)) })
}

// columnButtons has a button per column of g that is not full, labelled
// with its number and emoji (nil: none), with the custom_id id gives it,
// five to a row.
func columnButtons(g *game.Game, emoji *discordgo.ComponentEmoji, id func(col int) string) []discordgo.MessageComponent {
	cols := g.Rules().Cols
	rows := make([]discordgo.MessageComponent, 0, (cols+buttonsPerRow-1)/buttonsPerRow)
	var row []discordgo.MessageComponent
	for c := 0; c < cols; c++ {
		if g.ColumnFull(c) {
			continue
		}
		if row == nil {
			row = make([]discordgo.MessageComponent, 0, buttonsPerRow)
		}
		row = append(row, discordgo.Button{Label: strconv.Itoa(c), Style: discordgo.SecondaryButton, CustomID: id(c), Emoji: emoji})
		if len(row) == buttonsPerRow {
			rows = append(rows, discordgo.ActionsRow{Components: row})
			row = nil
		}
	}
	if len(row) > 0 {
		rows = append(rows, discordgo.ActionsRow{Components: row})
	}
	if len(rows) == 0 {
		return nil // every column full: no rows, as a message without buttons has
	}
	return rows
}
