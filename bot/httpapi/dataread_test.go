package httpapi

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// sameData reports how the hand reader of an interaction's data and
// decodeData (json.Unmarshal into discordgo's type) differ on raw, the data
// of an interaction of type typ ("" when they agree): both refuse it, or
// both give the same data.
func sameData(typ discordgo.InteractionType, raw []byte) string {
	var got, want discordgo.InteractionData
	var gotErr, wantErr error
	switch typ {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		got, gotErr = readCommandData(raw)
		want, wantErr = decodeData[discordgo.ApplicationCommandInteractionData](raw)
	case discordgo.InteractionMessageComponent:
		got, gotErr = readComponentData(raw)
		want, wantErr = decodeData[discordgo.MessageComponentInteractionData](raw)
	default:
		return ""
	}
	switch {
	case (gotErr != nil) != (wantErr != nil):
		return fmt.Sprintf("read: %v, json.Unmarshal: %v", gotErr, wantErr)
	case wantErr != nil:
		return ""
	case !reflect.DeepEqual(got, want):
		return fmt.Sprintf("read\n %s\njson.Unmarshal\n %s", dump(got), dump(want))
	}
	return ""
}

// dump shows data with its options' contents, which %+v shows as
// addresses.
func dump(d discordgo.InteractionData) string {
	c, ok := d.(discordgo.ApplicationCommandInteractionData)
	if !ok {
		return fmt.Sprintf("%#v", d)
	}
	s := fmt.Sprintf("%+v options:", c)
	var opts func([]*discordgo.ApplicationCommandInteractionDataOption) string
	opts = func(os []*discordgo.ApplicationCommandInteractionDataOption) string {
		if os == nil {
			return "nil"
		}
		s := "["
		for _, o := range os {
			if o == nil {
				s += "nil "
				continue
			}
			s += fmt.Sprintf("{%q %d %#v %v %s} ", o.Name, o.Type, o.Value, o.Focused, opts(o.Options))
		}
		return s + "]"
	}
	if c.Resolved != nil {
		s += fmt.Sprintf(" resolved %+v", *c.Resolved)
	}
	return s + opts(c.Options)
}

// commandDataCases are a command's data at the edges of json.Unmarshal's
// rules: options nested two levels with values of every kind, focused,
// nulls, wrong kinds, case-folded and escaped names, names given twice
// (lists read into again), resolved users, unknown members.
var commandDataCases = []string{
	``, `null`, `{}`, `[]`, `"x"`, `1`, `true`, `{"a":1}`,
	`{"id":"1","name":"ttt","type":1,"target_id":"5"}`, `{"ID":"1","NAME":"x","Type":2,"TARGET_ID":"6"}`, `{"n\u0061me":"x"}`, `{"name":"x","name":null}`,
	`{"name":"a\ud800b"}`, "{\"name\":\"a\xffb\"}", "{\"na\xffme\":\"x\"}", `{"ſ":1}`, `{"\u212aey":1}`, `{"nameſ":"x"}`,
	`{"type":255}`, `{"type":256}`, `{"type":-1}`, `{"type":-0}`, `{"type":1.0}`, `{"type":1e0}`, `{"type":"1"}`, `{"type":null}`, `{"type":2,"type":3}`, `{"id":5}`, `{"name":[]}`, `{"target_id":{}}`,
	`{"options":null}`, `{"options":[]}`, `{"options":{}}`, `{"options":"x"}`, `{"options":[null]}`, `{"options":[1]}`, `{"options":["x"]}`, `{"options":[[]]}`, `{"options":[{}]}`, `{"options":[{},null,{}]}`,
	`{"name":"ttt","type":1,"options":[{"type":2,"name":"tournament","options":[{"type":1,"name":"new","options":[` +
		`{"type":4,"name":"size","value":8},{"type":3,"name":"title","value":"cup"},{"type":5,"name":"open","value":true},{"type":5,"name":"closed","value":false},` +
		`{"type":10,"name":"ratio","value":0.5},{"type":6,"name":"who","value":"42"},{"type":4,"name":"neg","value":-3}]}]}]}`,
	`{"name":"ttt","type":1,"options":[{"type":1,"name":"move","options":[{"type":3,"name":"position","value":"b","focused":true}]}]}`,
	`{"options":[{"focused":false}]}`, `{"options":[{"focused":null}]}`, `{"options":[{"focused":true,"focused":null}]}`, `{"options":[{"focused":"true"}]}`, `{"options":[{"focused":1}]}`,
	`{"options":[{"value":null}]}`, `{"options":[{"value":"x","value":null}]}`, `{"options":[{"value":1e400}]}`, `{"options":[{"value":-1e400}]}`, `{"options":[{"value":1e-400}]}`,
	`{"options":[{"value":-0}]}`, `{"options":[{"value":0.1e1}]}`, `{"options":[{"value":12345678901234567890}]}`, `{"options":[{"value":1E+2}]}`,
	`{"options":[{"value":{"a":[1,"x",null,true]}}]}`, `{"options":[{"value":[1,2]}]}`, `{"options":[{"value":[]}]}`, `{"options":[{"value":{}}]}`,
	`{"options":[{"value":{"a":1},"value":{"b":2}}]}`, `{"options":[{"value":[1],"value":[2,3]}]}`, `{"options":[{"value":[1],"value":null}]}`, `{"options":[{"value":"a","value":2}]}`,
	`{"options":[{"value":{"a":1,"a":2}}]}`, `{"options":[{"value":{"a":1e400}}]}`, `{"options":[{"value":"a\u00e9\ud800\n"}]}`, "{\"options\":[{\"value\":\"\xff\"}]}",
	`{"options":[{"type":"3"}]}`, `{"options":[{"type":256}]}`, `{"options":[{"type":-1}]}`, `{"options":[{"name":5}]}`, `{"options":[{"options":5}]}`, `{"options":[{"options":[5]}]}`,
	`{"options":[{"options":[{"value":1e999}]}]}`, `{"options":[{"options":[{"options":[{"options":[{"name":"deep","value":1}]}]}]}]}`,
	`{"OPTIONS":[{"NAME":"a","VALUE":1,"FOCUSED":true,"TYPE":3,"OPTIONS":[]}]}`, `{"Options":[{"Name":"a"}],"options":[{"naME":"b"}]}`,
	`{"options":[{"name":"a","focused":true}],"options":[{"name":"b"}]}`,
	`{"options":[{"name":"a"},{"name":"b"},{"name":"c"}],"options":[{"name":"x"}],"options":[{"value":1},{},{}]}`,
	`{"options":[{"name":"a"},{"name":"b"},{"name":"c"}],"options":[{"name":"x"}],"options":[{"value":1},{},{},{},{}]}`,
	`{"options":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e"}],"options":[],"options":[{"type":1},{}]}`,
	`{"options":[{"name":"a"}],"options":[null],"options":[{}]}`, `{"options":[{"name":"a"}],"options":[]}`, `{"options":[{"name":"a"}],"options":null,"options":[{}]}`,
	`{"options":[{"name":"a","options":[{"name":"b","value":1}]}],"options":[{"options":[{"focused":true}]}]}`,
	`{"resolved":{"users":{"1":{"id":"1","username":"u","bot":true}},"members":{"1":{"nick":"n","roles":["2"]}}}}`, `{"resolved":null}`, `{"resolved":{}}`, `{"resolved":[]}`, `{"resolved":5}`,
	`{"resolved":{"users":{"1":{"id":1}}}}`, `{"resolved":{"users":{"1":{"id":"1"}}},"resolved":{"users":{"2":{"id":"2"}}}}`, `{"resolved":{"users":{"1":{"id":"1"}}},"resolved":null}`,
	`{"resolved":{"users":{"1":{"id":"1","username":"a"}}},"resolved":{"users":{"1":{"id":"1"}}}}`,
	`{"resolved":{"messages":{"5":{"id":"5","timestamp":"x"}}}}`, `{"resolved":{"channels":{"1":{"type":"x"}}}}`, `{"resolved":{"roles":{"1":{"id":"1","name":"r","color":5}}}}`,
	`{"guild_id":"1","x":{"y":[1,{"z":null}]},"name":"n","version":1,"options":[{"name":"o","extra":[{}],"value":2}]}`,
}

// componentDataCases are a component's data at the edges of the rules.
var componentDataCases = []string{
	``, `null`, `{}`, `[]`, `"x"`, `1`, `{"a":[1,{}]}`,
	`{"custom_id":"ttt:col:5:3","component_type":2}`, `{"CUSTOM_ID":"x","Component_Type":3}`, `{"custom_id":"x","custom_id":null}`, `{"custom_id":5}`, "{\"custom_id\":\"\xff\"}",
	`{"component_type":-1}`, `{"component_type":0}`, `{"component_type":18446744073709551615}`, `{"component_type":18446744073709551616}`, `{"component_type":"2"}`, `{"component_type":2.0}`, `{"component_type":null}`,
	`{"values":["a","b"]}`, `{"values":[]}`, `{"values":null}`, `{"values":[null]}`, `{"values":[1]}`, `{"values":"a"}`, `{"values":{}}`, `{"values":[["a"]]}`,
	`{"values":["a","b"],"values":["x"],"values":[null,null]}`, `{"values":["a"],"values":[null]}`, `{"values":["a","b","c"],"values":[],"values":[null,null]}`, `{"values":["a"],"values":null,"values":[null]}`,
	`{"resolved":{"users":{"1":{"id":"1"}}}}`, `{"resolved":null}`, `{"resolved":5}`, `{"resolved":[]}`, `{"resolved":{"roles":{"1":{"id":"1","name":"r"}}},"resolved":{"users":{}}}`,
	`{"resolved":{"users":{"1":{"id":"1"}}},"resolved":null}`, `{"resolved":{"channels":{"1":{"type":"x"}}}}`,
	`{"custom_id":"ttt:sel","component_type":3,"values":["1","2"],"resolved":{"members":{"1":{"nick":"n"}}},"extra":{"x":[]}}`,
}

// TestDataAsUnmarshal holds the data readers to json.Unmarshal on the
// payloads the bot serves and at the edges of the rules; FuzzData and
// FuzzRead look further.
func TestDataAsUnmarshal(t *testing.T) {
	for name, body := range payloads(t) {
		var w wireInteraction
		if _, err := w.read(body); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := sameData(w.Type, w.Data); diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
	}
	for _, c := range []struct {
		typ   discordgo.InteractionType
		cases []string
	}{
		{discordgo.InteractionApplicationCommand, commandDataCases},
		{discordgo.InteractionApplicationCommandAutocomplete, commandDataCases},
		{discordgo.InteractionMessageComponent, componentDataCases},
		// A component's data read as a command's and the other way round:
		// the other kind's members are unknown, skipped.
		{discordgo.InteractionApplicationCommand, componentDataCases},
		{discordgo.InteractionMessageComponent, commandDataCases},
	} {
		for _, raw := range c.cases {
			if diff := sameData(c.typ, []byte(raw)); diff != "" {
				t.Errorf("type %d, %s: %s", c.typ, raw, diff)
			}
		}
	}
}

// TestDecodeDataAsUnmarshal: whole interactions, their data read by hand,
// decode as with their data decoded by reflection, or are refused alike.
func TestDecodeDataAsUnmarshal(t *testing.T) {
	bodies := []string{
		`{"type":2}`, `{"type":2,"data":null}`, `{"type":3,"data":null}`, `{"type":4,"data":null}`, `{"type":5,"data":null}`, `{"type":1,"data":null}`,
		`{"type":2,"data":[]}`, `{"type":3,"data":5}`, `{"type":5,"data":{"custom_id":"m","components":[]}}`, `{"type":9,"data":{"name":1}}`,
		`{"data":{"name":"ttt","options":[{"name":"move","type":1}]},"type":2}`, `{"type":2,"data":{"name":"a"},"data":{"id":"1"}}`,
		`{"type":4,"data":{"options":[{"type":1,"name":"move","options":[{"type":3,"name":"position","value":"3","focused":true}]}]}}`,
		`{"type":3,"data":{"custom_id":"ttt:col:5:3","component_type":2},"message":{"id":"9"}}`, `{"type":3,"data":{"values":[1]}}`,
	}
	for _, body := range bodies {
		got, _, gotErr := decodeInteraction([]byte(body))
		var w wireInteraction
		if _, err := w.read([]byte(body)); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		want, wantErr := w.interaction()
		if wantErr == nil { // the data as decodeData decodes it
			switch w.Type {
			case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
				want.Data, wantErr = decodeData[discordgo.ApplicationCommandInteractionData](w.Data)
			case discordgo.InteractionMessageComponent:
				want.Data, wantErr = decodeData[discordgo.MessageComponentInteractionData](w.Data)
			}
		}
		switch {
		case (gotErr != nil) != (wantErr != nil):
			t.Errorf("%s: decoded with %v, by reflection with %v", body, gotErr, wantErr)
		case gotErr == nil && !reflect.DeepEqual(got, want):
			t.Errorf("%s:\n got %+v\nwant %+v", body, got, want)
		}
	}
}

// FuzzData looks for data that the data readers and json.Unmarshal decode
// differently; the first byte picks the interaction's type.
func FuzzData(f *testing.F) {
	for _, raw := range commandDataCases {
		f.Add(append([]byte{byte(discordgo.InteractionApplicationCommand)}, raw...))
	}
	for _, raw := range componentDataCases {
		f.Add(append([]byte{byte(discordgo.InteractionMessageComponent)}, raw...))
	}
	for _, body := range payloads(f) {
		var w wireInteraction
		if _, err := w.read(body); err == nil {
			f.Add(append([]byte{byte(w.Type)}, w.Data...))
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		typ := discordgo.InteractionApplicationCommand
		if in[0]%2 == 1 {
			typ = discordgo.InteractionMessageComponent
		}
		// The data as the endpoint gets it: one JSON value, cut from an
		// interaction by its reader.
		body := fmt.Appendf(nil, `{"type":%d,"data":%s}`, typ, in[1:])
		var w wireInteraction
		if _, err := w.read(body); err != nil {
			return
		}
		if diff := sameData(w.Type, w.Data); diff != "" {
			t.Fatalf("type %d, %q: %s", w.Type, w.Data, diff)
		}
	})
}
