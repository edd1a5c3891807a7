package config

import (
	"fmt"
	"log/slog"
	"net/url"
	"strings"

	"github.com/tttbot/tttbot/internal/redact"
)

// DatabaseKind names the store DATABASE_URL selects.
type DatabaseKind int

// The stores tttbot can keep games in.
const (
	SQLite   DatabaseKind = iota + 1 // sqlite://PATH: one file, the embedded default
	Postgres                         // postgres://… or postgresql://…: shared by replicas
	Memory                           // memory://: nothing kept across restarts (tests, demos)
)

// String returns the kind's URL scheme.
func (k DatabaseKind) String() string {
	switch k {
	case SQLite:
		return "sqlite"
	case Postgres:
		return "postgres"
	case Memory:
		return "memory"
	}
	return fmt.Sprintf("DatabaseKind(%d)", int(k))
}

// Database is DATABASE_URL, parsed once. Exactly one of Path and DSN is set
// for SQLite and Postgres; neither for Memory.
type Database struct {
	Kind DatabaseKind
	Path string // SQLite: the database file's path, as written after sqlite://
	DSN  string // Postgres: the connection URL, for the driver only; it may hold a password
}

// ParseDatabaseURL parses a DATABASE_URL value. Errors name the key and say
// what to write instead; they never repeat a password.
func ParseDatabaseURL(raw string) (Database, error) {
	const key = "DATABASE_URL"
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return Database{}, fmt.Errorf("%s: want sqlite://PATH (e.g. %s) or postgres://USER:PASSWORD@HOST:5432/DB", key, DefaultDatabaseURL)
	}
	switch strings.ToLower(scheme) {
	case "sqlite":
		switch {
		case strings.TrimSpace(rest) == "":
			return Database{}, fmt.Errorf("%s: sqlite:// has no path, so games would be kept nowhere; name the file, e.g. %s", key, DefaultDatabaseURL)
		case strings.HasSuffix(rest, "/"):
			return Database{}, fmt.Errorf("%s: %q names a directory; add a file name, e.g. %stttbot.db", key, raw, raw)
		}
		return Database{Kind: SQLite, Path: rest}, nil
	case "postgres", "postgresql":
		u, err := url.Parse(raw)
		if err != nil {
			// Neither the input nor url's error (which quotes it) is
			// repeated: the password could be anywhere in a broken URL.
			return Database{}, fmt.Errorf("%s: not a valid URL (percent-encode special characters in the user name and password, e.g. @ as %%40 and / as %%2F); want postgres://USER:PASSWORD@HOST:5432/DB", key)
		}
		if u.Host == "" && u.Query().Get("host") == "" {
			return Database{}, fmt.Errorf("%s: %s names no host; want postgres://USER:PASSWORD@HOST:5432/DB", key, redactURL(u))
		}
		return Database{Kind: Postgres, DSN: raw}, nil
	case "memory":
		if rest != "" {
			return Database{}, fmt.Errorf("%s: write memory:// alone", key)
		}
		return Database{Kind: Memory}, nil
	}
	return Database{}, fmt.Errorf("%s: unknown scheme %q; want sqlite://PATH (e.g. %s) or postgres://USER:PASSWORD@HOST:5432/DB", key, scheme, DefaultDatabaseURL)
}

// String returns the database as a URL without its secrets.
func (d Database) String() string {
	switch d.Kind {
	case SQLite:
		return "sqlite://" + d.Path
	case Postgres:
		u, err := url.Parse(d.DSN)
		if err != nil {
			return "postgres://" + redact.Mark
		}
		return redactURL(u)
	case Memory:
		return "memory://"
	}
	return ""
}

// GoString is String, so %#v cannot print the DSN either.
func (d Database) GoString() string { return d.String() }

// LogValue logs the database as String does.
func (d Database) LogValue() slog.Value { return slog.StringValue(d.String()) }

// secrets returns the values in the DSN that must never be logged: the
// password as written and decoded, and every password-like query value.
func (d Database) secrets() []string {
	if d.Kind != Postgres {
		return nil
	}
	u, err := url.Parse(d.DSN)
	if err != nil {
		return nil
	}
	s := urlSecrets(u, false)
	// The password exactly as written, whatever its escaping.
	if _, rest, ok := strings.Cut(d.DSN, "://"); ok {
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			rest = rest[:i]
		}
		if i := strings.LastIndex(rest, "@"); i >= 0 {
			if _, pass, ok := strings.Cut(rest[:i], ":"); ok {
				s = append(s, pass)
			}
		}
	}
	return s
}

// forms returns v as written and in each escaping a library may print it
// in: a URL query, a URL path, a URL's user info.
func forms(v string) []string {
	if v == "" {
		return nil
	}
	return []string{v, url.QueryEscape(v), url.PathEscape(v), strings.TrimPrefix(url.UserPassword("", v).String(), ":")}
}

// urlSecrets lists the secrets in u: its password (and its user name too
// when user is set) and the values of secret-looking query keys, each in
// every form that forms gives.
func urlSecrets(u *url.URL, user bool) []string {
	var s []string
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			s = append(s, forms(p)...)
		}
		if user {
			s = append(s, u.User.String())
			s = append(s, forms(u.User.Username())...)
		}
	}
	for k, vs := range u.Query() {
		if secretKey(k) {
			for _, v := range vs {
				s = append(s, forms(v)...)
			}
		}
	}
	return s
}

// secretKey reports whether a query key carries a secret.
func secretKey(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"pass", "pwd", "secret", "token", "auth"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// redactURL returns u without user info or secret query values.
func redactURL(u *url.URL) string {
	c := *u
	if c.User != nil {
		c.User = url.User(redact.Mark)
	}
	if c.RawQuery != "" {
		q := c.Query()
		for k := range q {
			if secretKey(k) {
				q[k] = []string{redact.Mark}
			}
		}
		c.RawQuery = q.Encode()
	}
	return c.String()
}

// LoadDatabase reads DATABASE_URL (default DefaultDatabaseURL) from envFile
// and the environment as Load does, and nothing else: `tttbot backup` and
// `tttbot restore` run beside a bot without its Discord settings.
func LoadDatabase(envFile string) (Database, error) {
	get, err := lookup(envFile)
	if err != nil {
		return Database{}, err
	}
	return databaseFrom(get)
}

// databaseFrom parses DATABASE_URL as get reads it, DefaultDatabaseURL when
// unset: Load and LoadDatabase read it alike.
func databaseFrom(get func(string) string) (Database, error) {
	raw := strings.TrimSpace(get("DATABASE_URL"))
	if raw == "" {
		raw = DefaultDatabaseURL
	}
	return ParseDatabaseURL(raw)
}
