package table

import (
	"fmt"

	"github.com/tttbot/tttbot/game"
)

// Kind is a kind of game that ratings are kept apart for: skill at the
// classic 3×3 board says little about Connect Four, and nothing about a
// 15×15 five-in-a-row game. Every game has exactly one Kind (KindOf).
type Kind uint8

// Kinds. Their keys (String) are what the store keeps and what
// /ttt leaderboard kind: takes: never change one, only add.
const (
	// KindOther is every game that is neither of the named kinds.
	KindOther Kind = iota
	// KindClassic is 3×3, three in a row, free placement, two players.
	KindClassic
	// KindConnectFour is 6 rows × 7 columns, four in a row, gravity, two
	// players.
	KindConnectFour
)

// kindKeys are the kinds' stable keys.
var kindKeys = [...]string{KindClassic: "classic", KindConnectFour: "connect4", KindOther: "other"}

// Kinds returns every kind in the order menus show them.
func Kinds() []Kind { return []Kind{KindClassic, KindConnectFour, KindOther} }

// String returns the kind's stable key: "classic", "connect4" or "other".
func (k Kind) String() string {
	if int(k) < len(kindKeys) {
		return kindKeys[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ParseKind reads a kind's key.
func ParseKind(key string) (Kind, bool) {
	for _, k := range Kinds() {
		if kindKeys[k] == key {
			return k, true
		}
	}
	return KindOther, false
}

// KindOf returns the kind of a game played under r.
func KindOf(r game.Rules) Kind {
	switch {
	case r.Players != 2:
		return KindOther
	case r.Rows == 3 && r.Cols == 3 && r.Win == 3 && !r.Gravity:
		return KindClassic
	case r.Rows == 6 && r.Cols == 7 && r.Win == 4 && r.Gravity:
		return KindConnectFour
	}
	return KindOther
}
