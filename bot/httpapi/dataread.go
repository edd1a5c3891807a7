package httpapi

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/bwmarrin/discordgo"
	json "github.com/go-json-experiment/json/v1"
)

// The readers in this file fill an interaction's data, as json.Unmarshal
// (the v1 API) fills discordgo's types from their tags, by the rules
// wireread.go keeps for the top level, and one more that only lists need:
// a list named twice is read the second time into what the first left
// (v1's legacy merging), element by element up to the capacity the first
// left, a pointer element's object merged into the one already there and
// a null string element leaving the string already there. Every decode
// starts from zero, so this only shows when a payload repeats a name,
// which Discord does not do; it is kept so that no input decodes otherwise
// than by reflection. TestDataAsUnmarshal and FuzzData hold these readers
// to decodeData.
//
// The resolved users, members, roles, channels, messages and attachments
// are still decoded by reflection (unmarshal): they are maps of large
// discordgo types (a message alone has dozens of fields, some with their
// own UnmarshalJSON) that the bot rarely gets (a user option, /ttt new's
// invite) and never on a move, so reading them by hand would be much code
// for no measured gain, and a second place to keep in step with discordgo.

// readCommandData reads a command's or an autocomplete's data as
// decodeData[discordgo.ApplicationCommandInteractionData] does.
func readCommandData(raw []byte) (d discordgo.ApplicationCommandInteractionData, err error) {
	if len(raw) == 0 {
		return d, errNoData
	}
	r := borrowReader(raw)
	defer r.release()
	err = r.commandData(&d)
	return d, err
}

// readComponentData reads a component's (a button's, a select menu's)
// data as decodeData[discordgo.MessageComponentInteractionData] does.
func readComponentData(raw []byte) (d discordgo.MessageComponentInteractionData, err error) {
	if len(raw) == 0 {
		return d, errNoData
	}
	r := borrowReader(raw)
	defer r.release()
	err = r.componentData(&d)
	return d, err
}

// commandData reads a command's data: its name and options, the rest
// skipped; null leaves d empty.
func (r *reader) commandData(d *discordgo.ApplicationCommandInteractionData) error {
	if ok, err := r.open(); !ok {
		return err
	}
	return r.members(func(tok jsontext.Token) error {
		switch name := tok.String(); {
		case is(name, "id"):
			return r.str(&d.ID)
		case is(name, "name"):
			return r.str(&d.Name)
		case is(name, "type"):
			return readUint(r, &d.CommandType)
		case is(name, "resolved"):
			// Through a copy, which alone goes to the heap (json.Unmarshal
			// keeps what it is given): d stays where its caller has it.
			res := d.Resolved
			err := r.unmarshal(&res)
			d.Resolved = res
			return err
		case is(name, "options"):
			return r.options(&d.Options)
		case is(name, "target_id"):
			return r.str(&d.TargetID)
		}
		return r.dec.SkipValue()
	})
}

// options reads a list of options, a subcommand's options nested in it,
// as list reads a list.
func (r *reader) options(p *[]*discordgo.ApplicationCommandInteractionDataOption) error {
	return list(r, p, r.option)
}

// option reads one option into *p, a new one unless one is there; null
// sets it to nil.
func (r *reader) option(p **discordgo.ApplicationCommandInteractionDataOption) error {
	o, err := object(r, p)
	if o == nil {
		return err
	}
	return r.members(func(tok jsontext.Token) error {
		switch name := tok.String(); {
		case is(name, "name"):
			return r.str(&o.Name)
		case is(name, "type"):
			return readUint(r, &o.Type)
		case is(name, "value"):
			return r.value(&o.Value)
		case is(name, "options"):
			return r.options(&o.Options)
		case is(name, "focused"):
			return r.boolean(&o.Focused)
		}
		return r.dec.SkipValue()
	})
}

// value reads an option's value as json.Unmarshal fills an interface{}:
// a string, a float64, a bool, or nil for null, replacing what was there.
// An object or a list, which no option's value is, is left to unmarshal,
// which makes it a map[string]any or an []any.
func (r *reader) value(v *any) error {
	if k := r.dec.PeekKind(); k == '{' || k == '[' {
		return r.unmarshal(v)
	}
	val, err := r.dec.ReadValue()
	if err != nil {
		return err
	}
	switch val.Kind() {
	case 'n':
		*v = nil
	case '"':
		*v = r.string(val)
	case 't', 'f':
		*v = val.Kind() == 't'
	case '0':
		// As v1 does: a number out of float64's range is an error.
		f, err := strconv.ParseFloat(string(val), 64)
		if err != nil {
			return err
		}
		*v = f
	}
	return nil
}

// boolean reads a bool into *b; null leaves it.
func (r *reader) boolean(b *bool) error {
	tok, err := r.dec.ReadToken()
	switch {
	case err != nil:
		return err
	case tok.Kind() == 't' || tok.Kind() == 'f':
		*b = tok.Bool()
	case tok.Kind() != 'n':
		return r.wrongKind(tok.Kind())
	}
	return nil
}

// componentData reads a component's data: its custom ID, type and the
// values chosen in a select menu; null leaves d empty.
func (r *reader) componentData(d *discordgo.MessageComponentInteractionData) error {
	if ok, err := r.open(); !ok {
		return err
	}
	return r.members(func(tok jsontext.Token) error {
		switch name := tok.String(); {
		case is(name, "custom_id"):
			return r.str(&d.CustomID)
		case is(name, "component_type"):
			return readUint(r, &d.ComponentType)
		case is(name, "resolved"):
			res := d.Resolved // as commandData does
			err := r.unmarshal(&res)
			d.Resolved = res
			return err
		case is(name, "values"):
			return list(r, &d.Values, r.str)
		}
		return r.dec.SkipValue()
	})
}

// list reads a list, each element by elem, into a list read before as the
// top of the file says: its elements up to its capacity are read into
// again (a null string element leaves the string there, an option's object
// is merged into the option there), and the list grows by append, which
// gives the capacities reflection's growing gives. [] is an empty list,
// null none.
func list[T any](r *reader, p *[]T, elem func(*T) error) error {
	tok, err := r.dec.ReadToken()
	switch {
	case err != nil:
		return err
	case tok.Kind() == 'n':
		*p = nil
		return nil
	case tok.Kind() != '[':
		return r.wrongKind(tok.Kind())
	}
	var zero T
	s, n := (*p)[:cap(*p)], 0
	for r.dec.PeekKind() != ']' {
		if n == len(s) {
			s = append(s, zero)
			s = s[:cap(s)]
		}
		if err := elem(&s[n]); err != nil {
			return err
		}
		n++
	}
	if _, err := r.dec.ReadToken(); err != nil {
		return err
	}
	if n == 0 {
		s = []T{}
	}
	*p = s[:n]
	return nil
}

// unmarshal decodes the next value into v by reflection, json.Unmarshal
// on the value as written: for the parts read too rarely to read by hand.
func (r *reader) unmarshal(v any) error {
	raw, err := r.raw()
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}
