package httpapi

import (
	"bytes"
	"errors"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/go-json-experiment/json/jsontext"
)

// read fills w from an interaction's JSON token by token, as json.Unmarshal
// (the v1 API: encoding/json's rules) fills it from its tags, and reads
// whether the channel it came from is a thread.
//
// Why by hand: every request is decoded, and Unmarshal's reflection over
// wireInteraction was most of that cost (BenchmarkDecode). The rules kept
// are the ones encoding/json applies to these fields: a name matches its
// field exactly or by strings.EqualFold; a later duplicate wins (an object
// field is filled again, a pointer to one reused); null leaves a string or
// number as it was and sets a pointer or map to nil; a wrong kind is an
// error; ",string" numbers are a string holding a number; invalid UTF-8
// becomes U+FFFD. TestReadAsUnmarshal and FuzzRead hold it to
// json.Unmarshal on wireInteraction.
func (w *wireInteraction) read(body []byte) (fromThread bool, err error) {
	r := borrowReader(body)
	defer r.release()
	fromThread, err = r.interaction(w)
	if err != nil {
		return false, err
	}
	if _, err := r.dec.ReadToken(); err != io.EOF { // one value, then nothing
		return false, errors.New("json: data after the interaction")
	}
	return fromThread, nil
}

// readOptions are v1's tolerances: duplicate names, invalid UTF-8.
var readOptions = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// A reader reads one interaction; they are pooled, a request borrowing one.
type reader struct {
	body  []byte       // the JSON, which raw values are cut from
	buf   bytes.Buffer // body, which the decoder reads in place
	dec   jsontext.Decoder
	text  []byte      // a string being unquoted, kept to be reused
	cache stringCache // the strings read, kept from request to request
}

var readers = sync.Pool{New: func() any { return new(reader) }}

// borrowReader takes a reader from the pool, set to read body.
func borrowReader(body []byte) *reader {
	r := readers.Get().(*reader)
	r.body, r.buf = body, *bytes.NewBuffer(body)
	r.dec.Reset(&r.buf, readOptions...)
	return r
}

// release puts r back in the pool, pinning no request's body (the strings
// it keeps are copies, and few: see stringCache).
func (r *reader) release() {
	r.buf, r.body = bytes.Buffer{}, nil
	r.dec.Reset(&r.buf)
	readers.Put(r)
}

// errKind is a value of the wrong kind for its field.
var errKind = errors.New("json: a value of the wrong kind")

// open reads the start of the object that comes next: ok is false for
// null, which is all there is to read; another kind of value is an error.
func (r *reader) open() (ok bool, err error) {
	tok, err := r.dec.ReadToken()
	switch {
	case err != nil:
		return false, err
	case tok.Kind() == 'n':
		return false, nil
	case tok.Kind() != '{':
		return false, r.wrongKind(tok.Kind())
	}
	return true, nil
}

// next reads the name of the object's next member, whose value the caller
// then reads or skips; more is false at the object's end, which it reads.
func (r *reader) next() (name jsontext.Token, more bool, err error) {
	if r.dec.PeekKind() == '}' {
		_, err := r.dec.ReadToken()
		return jsontext.Token{}, false, err
	}
	name, err = r.dec.ReadToken()
	return name, err == nil, err
}

// members reads the rest of an object whose '{' open read, member by
// member: read reads or skips the value of the member whose name is tok.
// (The name is handed over as its token: a string made from it here would
// be made on the heap, one made and only compared in read stays on the
// stack.)
func (r *reader) members(read func(tok jsontext.Token) error) error {
	for {
		tok, more, err := r.next()
		if !more {
			return err
		}
		if err := read(tok); err != nil {
			return err
		}
	}
}

// object opens an object read into *p: the T already there is filled
// again, else a new one; null sets *p to nil and gives nil, as does an
// error.
func object[T any](r *reader, p **T) (*T, error) {
	ok, err := r.open()
	if !ok {
		*p = nil
		return nil, err
	}
	if *p == nil {
		*p = new(T)
	}
	return *p, nil
}

// skipRest skips the rest of a value whose first token, of kind k, was read.
func (r *reader) skipRest(k jsontext.Kind) error {
	if k != '{' && k != '[' {
		return nil
	}
	for depth := 1; depth > 0; {
		tok, err := r.dec.ReadToken()
		if err != nil {
			return err
		}
		switch tok.Kind() {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
	return nil
}

// is reports whether an object's name names the field json (its tag), as
// encoding/json matches them.
func is(name, json string) bool { return name == json || strings.EqualFold(name, json) }

// str reads a string into *s; null leaves it.
func (r *reader) str(s *string) error {
	v, err := r.dec.ReadValue()
	switch {
	case err != nil:
		return err
	case v.Kind() == '"':
		*s = r.string(v)
	case v.Kind() != 'n':
		return errKind
	}
	return nil
}

// strPtr reads a string into a new *s (reused if there is one); null sets
// it to nil.
func (r *reader) strPtr(s **string) error {
	v, err := r.dec.ReadValue()
	switch {
	case err != nil:
		return err
	case v.Kind() == 'n':
		*s = nil
	case v.Kind() == '"':
		if *s == nil {
			*s = new(string)
		}
		**s = r.string(v)
	default:
		return errKind
	}
	return nil
}

// string is the JSON string v as Go holds it, as jsontext.Token.String
// gives it (escapes decoded, invalid UTF-8 replaced by U+FFFD), but from
// r's cache of strings where it can: a string the reader keeps is read as
// a value, not a token, for its bytes.
func (r *reader) string(v jsontext.Value) string {
	r.text, _ = jsontext.AppendUnquote(r.text[:0], v) // the error is only the replaced UTF-8
	return r.cache.make(r.text)
}

// locale reads a locale into a new *l (reused if there is one); null sets
// it to nil.
func (r *reader) locale(l **discordgo.Locale) error {
	s := (*string)(*l)
	err := r.strPtr(&s)
	*l = (*discordgo.Locale)(s)
	return err
}

// wrongKind skips the value of a token of the wrong kind, and says so.
func (r *reader) wrongKind(k jsontext.Kind) error {
	if err := r.skipRest(k); err != nil {
		return err
	}
	return errKind
}

// readUint reads a whole number into *p as json.Unmarshal fills a field of
// p's type (discordgo's types and kinds, uint8 or uint): one out of its
// range is an error, and null leaves *p.
func readUint[T ~uint8 | ~uint](r *reader, p *T) error {
	tok, err := r.dec.ReadToken()
	switch {
	case err != nil:
		return err
	case tok.Kind() == '0':
		v, err := strconv.ParseUint(tok.String(), 10, bits.Len64(uint64(^T(0))))
		if err != nil {
			return err
		}
		*p = T(v)
	case tok.Kind() != 'n':
		return r.wrongKind(tok.Kind())
	}
	return nil
}

// quotedInt reads a ",string" int64: a string holding a whole number,
// which json's v1 API parses as Go does (strconv.ParseInt), or null, or the
// string "null", both leaving *n.
func (r *reader) quotedInt(n *int64) error {
	tok, err := r.dec.ReadToken()
	switch {
	case err != nil:
		return err
	case tok.Kind() == 'n':
		return nil
	case tok.Kind() != '"':
		return r.wrongKind(tok.Kind())
	}
	s := tok.String()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if s == "null" {
			return nil
		}
		return err
	}
	*n = v
	return nil
}

// raw reads the next value as it is written, cut from the body.
func (r *reader) raw() ([]byte, error) {
	v, err := r.dec.ReadValue()
	if err != nil {
		return nil, err
	}
	end := int(r.dec.InputOffset())
	return r.body[end-len(v) : end : end], nil
}

// interaction reads the top level: the fields wireInteraction names, the
// rest skipped.
func (r *reader) interaction(w *wireInteraction) (fromThread bool, err error) {
	if ok, err := r.open(); !ok {
		return false, err
	}
	err = r.members(func(tok jsontext.Token) (err error) {
		switch name := tok.String(); {
		case is(name, "id"):
			return r.str(&w.ID)
		case is(name, "application_id"):
			return r.str(&w.AppID)
		case is(name, "type"):
			return readUint(r, &w.Type)
		case is(name, "token"):
			return r.str(&w.Token)
		case is(name, "guild_id"):
			return r.str(&w.GuildID)
		case is(name, "channel_id"):
			return r.str(&w.ChannelID)
		case is(name, "locale"):
			return r.str((*string)(&w.Locale))
		case is(name, "guild_locale"):
			return r.locale(&w.GuildLocale)
		case is(name, "member"):
			return r.member(&w.Member)
		case is(name, "user"):
			return r.user(&w.User)
		case is(name, "app_permissions"):
			return r.quotedInt(&w.AppPermissions)
		case is(name, "authorizing_integration_owners"):
			return r.owners(&w.AuthorizingIntegrationOwners)
		case is(name, "message"):
			return r.message(&w.Message)
		case is(name, "data"):
			w.Data, err = r.raw()
			return err
		case is(name, "channel"):
			fromThread, err = r.channel()
			return err
		}
		return r.dec.SkipValue()
	})
	if err != nil {
		return false, err
	}
	return fromThread, nil
}

// member reads the member who acted (in a server): a pointer to one
// already read is filled again, null sets it to nil.
func (r *reader) member(p **wireMember) error {
	m, err := object(r, p)
	if m == nil {
		return err
	}
	return r.members(func(tok jsontext.Token) error {
		switch name := tok.String(); {
		case is(name, "user"):
			return r.user(&m.User)
		case is(name, "nick"):
			return r.strPtr(&m.Nick)
		case is(name, "permissions"):
			return r.quotedInt(&m.Permissions)
		}
		return r.dec.SkipValue()
	})
}

// user reads a user, as member reads a member.
func (r *reader) user(p **wireUser) error {
	u, err := object(r, p)
	if u == nil {
		return err
	}
	return r.members(func(tok jsontext.Token) error {
		switch name := tok.String(); {
		case is(name, "id"):
			return r.str(&u.ID)
		case is(name, "username"):
			return r.str(&u.Username)
		case is(name, "global_name"):
			return r.str(&u.GlobalName)
		}
		return r.dec.SkipValue()
	})
}

// message reads the message a pressed button sits on, as member reads a
// member: only its ID.
func (r *reader) message(p **wireMessage) error {
	m, err := object(r, p)
	if m == nil {
		return err
	}
	return r.members(func(tok jsontext.Token) error {
		if is(tok.String(), "id") {
			return r.str(&m.ID)
		}
		return r.dec.SkipValue()
	})
}

// owners reads authorizing_integration_owners: an object whose names are
// whole numbers (an integration type) and whose values are strings, null
// being "" (a map's element starts at zero); a map already read is added
// to, null sets it to nil.
func (r *reader) owners(p *map[discordgo.ApplicationIntegrationType]string) error {
	ok, err := r.open()
	if !ok {
		*p = nil
		return err
	}
	if *p == nil {
		*p = map[discordgo.ApplicationIntegrationType]string{}
	}
	for {
		tok, more, err := r.next()
		if !more {
			return err
		}
		key, err := strconv.ParseUint(tok.String(), 10, strconv.IntSize)
		if err != nil {
			return err
		}
		var s string
		if err := r.str(&s); err != nil {
			return err
		}
		(*p)[discordgo.ApplicationIntegrationType(key)] = s
	}
}

// channel reads whether the channel the interaction came from is a
// thread, by its type. A channel that does not read as one (not an object,
// a type that is not a whole number) is no thread, and no error: the bot
// reads nothing else of it.
func (r *reader) channel() (bool, error) {
	tok, err := r.dec.ReadToken()
	if err != nil {
		return false, err
	}
	if tok.Kind() != '{' {
		return false, r.skipRest(tok.Kind())
	}
	var typ int64
	broken := false
	for {
		tok, more, err := r.next()
		if err != nil {
			return false, err
		}
		if !more {
			break
		}
		if !is(tok.String(), "type") {
			if err := r.dec.SkipValue(); err != nil {
				return false, err
			}
			continue
		}
		switch tok, err := r.dec.ReadToken(); {
		case err != nil:
			return false, err
		case tok.Kind() == '0':
			n, err := strconv.ParseInt(tok.String(), 10, strconv.IntSize)
			broken = broken || err != nil
			typ = n
		case tok.Kind() != 'n':
			broken = true
			if err := r.skipRest(tok.Kind()); err != nil {
				return false, err
			}
		}
	}
	return !broken && (&discordgo.Channel{Type: discordgo.ChannelType(typ)}).IsThread(), nil
}
