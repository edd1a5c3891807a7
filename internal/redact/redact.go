// Package redact keeps secrets out of log lines. A Redactor replaces known
// secret values (a bot token, a database password) wherever they appear, and
// also scrubs the shapes secrets come in even when their values are unknown:
// the user info of a URL (scheme://user:pass@host) and password=… pairs, as
// in a PostgreSQL keyword/value DSN or a URL query. Handler applies a
// Redactor to every message, attribute key and value that passes through a
// slog.Handler, at every level, including errors wrapped deep inside others.
//
// The package is standard library only and knows nothing of tttbot's
// configuration, so any package (store, bot, tests) can use it without
// importing config.
package redact

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Mark replaces a secret.
const Mark = "REDACTED"

var (
	// userInfo is the user info of a URL: scheme://user[:password]@, up to
	// the last @ before the host, as an unescaped @ in a password is common.
	userInfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\s]*@`)
	// passwordPair is password=VALUE (also sslpassword, passwd, pwd), with
	// VALUE bare (up to a space, & or ;) or quoted as libpq quotes it.
	passwordPair = regexp.MustCompile(`(?i)(\b\w*password|\bpasswd|\bpwd)(\s*=\s*)('(?:[^'\\]|\\.)*'|"[^"]*"|[^\s&;'"]+)`)
)

// Redactor scrubs secrets from text. The zero value and nil scrub only the
// secret shapes (URL user info, password pairs); New adds known values.
type Redactor struct {
	known *strings.Replacer
}

// New returns a Redactor that also replaces each of secrets wherever it
// occurs. Empty secrets are ignored; longer secrets are matched first, so a
// secret containing another is replaced whole.
func New(secrets ...string) *Redactor {
	var s []string
	for _, v := range secrets {
		if v != "" && !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	if len(s) == 0 {
		return &Redactor{}
	}
	slices.SortFunc(s, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	pairs := make([]string, 0, 2*len(s))
	for _, v := range s {
		pairs = append(pairs, v, Mark)
	}
	return &Redactor{known: strings.NewReplacer(pairs...)}
}

// String returns s with every known secret and secret shape replaced by Mark.
func (r *Redactor) String(s string) string {
	if r != nil && r.known != nil {
		s = r.known.Replace(s)
	}
	s = userInfo.ReplaceAllString(s, "${1}"+Mark+"@")
	return passwordPair.ReplaceAllString(s, "${1}${2}"+Mark)
}

// Error returns err with its message scrubbed, or nil for nil. errors.Is and
// errors.As still see the original chain through Unwrap, so callers can
// still match sentinels; log the returned error, not what it unwraps to.
func (r *Redactor) Error(err error) error {
	if err == nil {
		return nil
	}
	return &redacted{msg: r.String(err.Error()), err: err}
}

type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }

// any scrubs an arbitrary value the way a slog handler would print it: an
// error by its message, anything else by both fmt's %+v and its JSON form
// (slog's text and JSON handlers). A value that prints no secret is kept
// as it is, so its structure survives in JSON logs.
func (r *Redactor) any(v any) (any, bool) {
	if err, ok := v.(error); ok {
		s := err.Error()
		return r.String(s), true
	}
	s := fmt.Sprintf("%+v", v)
	clean := r.String(s)
	if clean != s {
		return clean, true
	}
	if b, err := json.Marshal(v); err == nil {
		if j := string(b); r.String(j) != j {
			return r.String(j), true
		}
	}
	return v, false
}
