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
	return cellGrid(t.Game(), t.Tokens(), disabled, ButtonCell, moveStamp(t))
}

// cellGrid lays out a button per cell of g: empty cells pressable unless
// disabled, taken ones showing their player's token (tokens, by seat; an
// emoji token as the button's emoji) in their player's colour, disabled.
// A cell's custom_id is route's, with values and then the cell's row and
// column.
func cellGrid(g *game.Game, tokens []string, disabled bool, route Route, values ...string) []discordgo.MessageComponent {
	r := g.Rules()
	var buf [boardIDBytes]byte
	var ends [maxButtons]int
	ids := boardIDs{buf: buf[:0], ends: ends[:0]}
	for row := range r.Rows {
		for col := range r.Cols {
			ids = ids.add(route, values, strconv.Itoa(row), strconv.Itoa(col))
		}
	}
	all := string(ids.buf)
	// Every row's buttons in one backing array, each row a full slice of
	// its own part of it.
	buttons := make([]discordgo.MessageComponent, r.Rows*r.Cols)
	rows := make([]discordgo.MessageComponent, r.Rows)
	for row := range r.Rows {
		for col := range r.Cols {
			c, i := game.Coord{Row: row, Col: col}, row*r.Cols+col
			btn := discordgo.Button{Label: emptyCellLabel, Style: discordgo.SecondaryButton, CustomID: ids.cut(all, i), Disabled: disabled}
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
			buttons[i] = btn
		}
		rows[row] = discordgo.ActionsRow{Components: buttons[row*r.Cols : (row+1)*r.Cols : (row+1)*r.Cols]}
	}
	return rows
}

// columnRows has a button per column that is not full, labelled with the
// number a player would type (and the mover's emoji token, if it is one:
// where their emoji will drop), five to a row.
func columnRows(t *table.Table) []discordgo.MessageComponent {
	g := t.Game()
	var mover *discordgo.ComponentEmoji
	if g.State() == game.Playing {
		mover = buttonEmoji(t.Seats[g.Turn()].Token)
	}
	return columnButtons(g, mover, ButtonColumn, moveStamp(t))
}

// columnButtons has a button per column of g that is not full, labelled
// with its number and emoji (nil: none), five to a row. A column's
// custom_id is route's, with values and then the column.
func columnButtons(g *game.Game, emoji *discordgo.ComponentEmoji, route Route, values ...string) []discordgo.MessageComponent {
	var buf [boardIDBytes]byte
	var ends [maxButtons]int
	ids := boardIDs{buf: buf[:0], ends: ends[:0]}
	var cols [maxColumns]int
	open := cols[:0] // the columns that are not full
	for c := range g.Rules().Cols {
		if !g.ColumnFull(c) {
			open = append(open, c)
			ids = ids.add(route, values, strconv.Itoa(c))
		}
	}
	if len(open) == 0 {
		return nil // every column full: no rows, as a message without buttons has
	}
	all := string(ids.buf)
	// Every row's buttons in one backing array, each row a full slice of
	// its own part of it, so that nothing appended to one runs into the next.
	buttons := make([]discordgo.MessageComponent, len(open))
	for i, c := range open {
		buttons[i] = discordgo.Button{Label: strconv.Itoa(c), Style: discordgo.SecondaryButton, CustomID: ids.cut(all, i), Emoji: emoji}
	}
	rows := make([]discordgo.MessageComponent, 0, (len(open)+buttonsPerRow-1)/buttonsPerRow)
	for len(buttons) > 0 {
		n := min(buttonsPerRow, len(buttons))
		rows = append(rows, discordgo.ActionsRow{Components: buttons[:n:n]})
		buttons = buttons[n:]
	}
	return rows
}

// boardIDs writes the custom_ids of a board's buttons one after another
// into one buffer, to be cut from one string when all are written: a board
// reply has a button a column or a cell, and one allocation then holds all
// their IDs, not one each. Its caller gives it buffers on the stack, of
// boardIDBytes and maxButtons, which a board of more grows on the heap.
type boardIDs struct {
	buf  []byte
	ends []int // where each ID ends in buf
}

// The room a board's IDs get on the stack: a button for each of up to
// maxButtons cells or columns, of some 20 bytes each ("ttt:cell:12.3:4:4").
const (
	maxButtons   = maxRows * buttonsPerRow
	boardIDBytes = 1024
)

// add writes the next ID: route's, with values and then coords. It returns
// the IDs, rather than changing them through a pointer, so that the
// buffers can stay on the stack.
func (ids boardIDs) add(route Route, values []string, coords ...string) boardIDs {
	var all [8]string
	ids.buf = appendButtonID(ids.buf, route, append(append(all[:0], values...), coords...)...)
	ids.ends = append(ids.ends, len(ids.buf))
	return ids
}

// cut is the i-th ID, cut from all, the string of buf.
func (ids boardIDs) cut(all string, i int) string {
	start := 0
	if i > 0 {
		start = ids.ends[i-1]
	}
	return all[start:ids.ends[i]]
}
