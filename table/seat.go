package table

import (
	"encoding/json"
	"fmt"
)

// SeatKind is who sits in a seat: a person, or the computer at a level.
type SeatKind uint8

// Seat kinds. A computer's kind is its level; the names are the stored ones
// and the values /ttt new ai: takes.
const (
	Human SeatKind = iota
	ComputerEasy
	ComputerMedium
	ComputerHard
)

var seatKindNames = [...]string{Human: "human", ComputerEasy: "easy", ComputerMedium: "medium", ComputerHard: "hard"}

// String returns "human", or the computer's level: "easy", "medium", "hard".
func (k SeatKind) String() string {
	if int(k) < len(seatKindNames) {
		return seatKindNames[k]
	}
	return fmt.Sprintf("SeatKind(%d)", uint8(k))
}

// Computer reports whether the seat is the computer's.
func (k SeatKind) Computer() bool { return k != Human }

// Computers returns the computer's seat kinds, one a level, in the order
// menus show them.
func Computers() []SeatKind { return []SeatKind{ComputerEasy, ComputerMedium, ComputerHard} }

// ParseComputer reads a computer level ("easy", "medium", "hard").
func ParseComputer(level string) (SeatKind, bool) {
	for _, k := range Computers() {
		if seatKindNames[k] == level {
			return k, true
		}
	}
	return Human, false
}

// Seat is a player at the table: a Discord user, or the computer at a level,
// and their token.
type Seat struct {
	Kind  SeatKind
	User  string // the user's ID; "" for the computer
	Token string
	// Agreed says the person chose to play this game: they created or
	// joined it, or accepted its challenge. Someone who did none of these
	// (a rematch's other players, until they move) is never rated for it.
	Agreed bool
}

// storedSeat is a seat as stored: {"user":…,"token":…} for a person,
// {"ai":"hard","token":…} for the computer.
type storedSeat struct {
	User   string `json:"user,omitempty"`
	AI     string `json:"ai,omitempty"`
	Token  string `json:"token"`
	Agreed bool   `json:"agreed,omitempty"`
}

// MarshalJSON implements json.Marshaler in the stored format.
func (s Seat) MarshalJSON() ([]byte, error) {
	st := storedSeat{User: s.User, Token: s.Token, Agreed: s.Agreed}
	if s.Kind.Computer() {
		st.AI = s.Kind.String()
	}
	return json.Marshal(st)
}

// UnmarshalJSON implements json.Unmarshaler.
func (s *Seat) UnmarshalJSON(data []byte) error {
	var st storedSeat
	if err := json.Unmarshal(data, &st); err != nil {
		return err
	}
	*s = Seat{User: st.User, Token: st.Token, Agreed: st.Agreed}
	if st.AI != "" {
		k, ok := ParseComputer(st.AI)
		if !ok {
			return fmt.Errorf("seat: unknown computer level %q", st.AI)
		}
		s.Kind = k
	}
	return nil
}

// Player is the seat's ID in results: the user, or ComputerPlayer's.
func (s Seat) Player() string {
	if s.Kind.Computer() {
		return ComputerPlayer(s.Kind.String())
	}
	return s.User
}
