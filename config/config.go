// Package config reads tttbot's settings: a .env file (godotenv) and the
// environment, which wins. Load validates every key once and reports every
// problem at once, each naming its key and the fix. DATABASE_URL is parsed
// into a Database, so stores take a plain path or DSN and never import this
// package.
//
// Secrets never reach a log line: Config.LogValue, Config.String and
// Database.String redact them, and Config.Secrets feeds redact.NewHandler,
// which scrubs them from every record, errors included.
package config

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/joho/godotenv"

	"github.com/tttbot/tttbot/internal/redact"
)

// Defaults for unset keys.
const (
	DefaultAPIURL      = "https://discord.com/api/v9"
	DefaultCDNURL      = "https://cdn.discordapp.com"
	DefaultDatabaseURL = "sqlite://./data/tttbot.db"
)

// ErrNothingToRun means neither transport is configured.
var ErrNothingToRun = errors.New("nothing to run: set DISCORD_TOKEN for the gateway, or HTTP_ADDR and DISCORD_PUBLIC_KEY for the HTTP interactions endpoint (see .env.example)")

// Config is tttbot's validated configuration.
type Config struct {
	Token       string            // DISCORD_TOKEN: the bot token; enables the gateway. Secret.
	AppID       string            // DISCORD_APP_ID: the application's ID (defaults to the bot user's ID)
	PublicKey   ed25519.PublicKey // DISCORD_PUBLIC_KEY: verifies HTTP interactions
	GuildID     string            // DISCORD_GUILD_ID: register commands in this guild only
	APIURL      *url.URL          // DISCORD_API_URL: REST base URL; its user info is secret
	CDNURL      *url.URL          // DISCORD_CDN_URL: where custom emoji's pictures come from; its user info is secret
	HTTPAddr    string            // HTTP_ADDR: where /interactions, /healthz and /metrics listen
	Database    Database          // DATABASE_URL, parsed
	IdleTimeout time.Duration     // GAME_IDLE_TIMEOUT: open games end after this long without an action; 0 (unset) leaves table's default
	// CHALLENGE_TIMEOUT: a challenge (/ttt new opponent:) lapses unanswered
	// after this long; 0 (unset) leaves table's default, 10 minutes.
	ChallengeTimeout time.Duration
	LogLevel         slog.Level // LOG_LEVEL: debug, info, warn or error
	LogFormat        LogFormat  // LOG_FORMAT: text (the default) or json
	// PprofAddr (PPROF_ADDR) serves Go's profiler (/debug/pprof/) on its
	// own listener, for measuring under load; empty (the default): off. Bind
	// it to 127.0.0.1: profiles show the process's memory.
	PprofAddr string
}

// Gateway reports whether the gateway transport is configured.
func (c Config) Gateway() bool { return c.Token != "" }

// Interactions reports whether the HTTP interactions endpoint is configured.
func (c Config) Interactions() bool { return c.HTTPAddr != "" && c.PublicKey != nil }

// Load reads envFile if it exists (a missing file is fine, a broken one is
// not), then the environment, which wins, and validates the result. Every
// problem is reported at once, each naming its key and the fix.
func Load(envFile string) (Config, error) {
	get, err := lookup(envFile)
	if err != nil {
		return Config{}, err
	}
	return parse(get)
}

// lookup returns a function that reads a key from the environment, else
// from envFile.
func lookup(envFile string) (func(string) string, error) {
	fileVals := map[string]string{}
	if envFile != "" {
		vals, err := godotenv.Read(envFile)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			// godotenv's parse errors quote the rest of the offending line,
			// which can be a secret, so its text is not repeated.
			return nil, fmt.Errorf("%s is not a valid .env file: check it holds only KEY=value lines and # comments, and that quotes are closed", envFile)
		default:
			fileVals = vals
		}
	}
	return func(key string) string {
		if v, ok := os.LookupEnv(key); ok {
			return v
		}
		return fileVals[key]
	}, nil
}

// parse builds a Config from a lookup function, so tests need no process
// environment.
func parse(get func(string) string) (Config, error) {
	val := func(key string) string { return strings.TrimSpace(get(key)) }
	var p problems
	c := Config{
		Token:     strings.TrimSpace(strings.TrimPrefix(val("DISCORD_TOKEN"), "Bot ")),
		AppID:     val("DISCORD_APP_ID"),
		GuildID:   val("DISCORD_GUILD_ID"),
		HTTPAddr:  val("HTTP_ADDR"),
		PprofAddr: val("PPROF_ADDR"),
	}
	p.discord(&c, val)
	c.APIURL = p.baseURL("DISCORD_API_URL", val("DISCORD_API_URL"), DefaultAPIURL, "http://127.0.0.1:8081/api/v9")
	c.CDNURL = p.baseURL("DISCORD_CDN_URL", val("DISCORD_CDN_URL"), DefaultCDNURL, "http://127.0.0.1:8082")
	if c.HTTPAddr != "" {
		if err := checkAddr(c.HTTPAddr); err != nil {
			p.add("HTTP_ADDR", "%q %v; want host:port or :port, e.g. :8080", c.HTTPAddr, err)
		}
	}
	if c.PprofAddr != "" {
		if err := checkAddr(c.PprofAddr); err != nil {
			p.add("PPROF_ADDR", "%q %v; want host:port, e.g. 127.0.0.1:6060, or leave it empty", c.PprofAddr, err)
		}
	}
	db, err := databaseFrom(val)
	if err != nil {
		p = append(p, err)
	}
	c.Database = db
	p.running(&c, val)
	if len(p) == 0 && !c.Gateway() && !c.Interactions() {
		if c.HTTPAddr != "" {
			p = append(p, fmt.Errorf("HTTP_ADDR is set but DISCORD_PUBLIC_KEY is not: %w", ErrNothingToRun))
		} else {
			p = append(p, ErrNothingToRun)
		}
	}
	if len(p) > 0 {
		return Config{}, errors.Join(p...)
	}
	return c, nil
}

// problems collects every configuration problem, so that all are reported
// at once.
type problems []error

// add records a problem with key, saying what is wrong and how to fix it.
func (p *problems) add(key, format string, args ...any) {
	*p = append(*p, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
}

// discord checks the Discord application's settings c holds, and reads the
// public key into c.
func (p *problems) discord(c *Config, val func(string) string) {
	if strings.IndexFunc(c.Token, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		// Never quote the token, not even a broken one.
		p.add("DISCORD_TOKEN", "holds spaces or control characters; paste the token alone from the Developer Portal (Bot → Reset Token)")
	}
	for _, key := range []string{"DISCORD_APP_ID", "DISCORD_GUILD_ID"} {
		if id := val(key); id != "" && !isSnowflake(id) {
			p.add(key, "%q is not a Discord ID (digits only; copy it with Developer Mode on)", id)
		}
	}
	if pk := val("DISCORD_PUBLIC_KEY"); pk != "" {
		key, err := hex.DecodeString(pk)
		if err != nil || len(key) != ed25519.PublicKeySize {
			p.add("DISCORD_PUBLIC_KEY", "want the 64 hex characters from the Developer Portal's General Information page")
		} else {
			c.PublicKey = ed25519.PublicKey(key)
		}
	}
}

// baseURL reads a base URL setting key (raw), def when empty; nil when it
// is not an absolute http(s) URL. example is a proxy's URL the refusal shows.
func (p *problems) baseURL(key, raw, def, example string) *url.URL {
	if raw == "" {
		raw = def
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// The URL may carry user info: show it only when it parsed.
		shown := "it"
		if err == nil {
			shown = strconv.Quote(redactURL(u))
		}
		p.add(key, "%s is not an absolute http(s) URL; leave it empty for %s, or give a proxy's base URL like %s", shown, def, example)
		return nil
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	return u
}

// running reads how the bot runs: GAME_IDLE_TIMEOUT, CHALLENGE_TIMEOUT,
// LOG_LEVEL and LOG_FORMAT.
func (p *problems) running(c *Config, val func(string) string) {
	if v := val("GAME_IDLE_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			p.add("GAME_IDLE_TIMEOUT", "%q is not a positive duration; write e.g. 24h or 90m", v)
		}
		c.IdleTimeout = d
	}
	if v := val("CHALLENGE_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute || d > 24*time.Hour || c.IdleTimeout > 0 && d > c.IdleTimeout {
			p.add("CHALLENGE_TIMEOUT", "%q is not a duration from 1m to 24h (and at most GAME_IDLE_TIMEOUT); write e.g. 10m", v)
		}
		c.ChallengeTimeout = d
	}
	if v := val("LOG_LEVEL"); v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			p.add("LOG_LEVEL", "%q is not a level; want debug, info, warn or error", v)
		}
	}
	if v := val("LOG_FORMAT"); v != "" {
		if err := c.LogFormat.UnmarshalText([]byte(v)); err != nil {
			p.add("LOG_FORMAT", "%q is not a format; want text (key=value lines, the default) or json (one JSON object a line, for a log shipper)", v)
		}
	}
}

// checkAddr accepts what net.Listen("tcp", addr) does with a numeric port.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return errors.New("is not host:port")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return errors.New("has no port number 0–65535")
	}
	return nil
}

func isSnowflake(s string) bool {
	if len(s) < 5 || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Secrets returns every secret value the configuration holds, in each form
// a library might print it (as written, decoded, and escaped for a URL's
// query, path or user info): the token, DATABASE_URL's password and its
// password-like query values, and the user info of DISCORD_API_URL and DISCORD_CDN_URL. Give them to redact.NewHandler so no log
// line, whatever its level or the error it carries, repeats one.
func (c Config) Secrets() []string {
	s := forms(c.Token)
	s = append(s, c.Database.secrets()...)
	for _, u := range []*url.URL{c.APIURL, c.CDNURL} {
		if u != nil {
			s = append(s, urlSecrets(u, true)...)
		}
	}
	return s
}

// Logger returns the application's logger: lines in LogFormat on w at
// LogLevel, through redact.NewHandler with c's secrets, so no record
// carries one whatever the format.
func (c Config) Logger(w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.LogLevel}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if c.LogFormat == LogJSON {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(redact.NewHandler(h, c.Secrets()...))
}

// Redactor returns a redact.Redactor for c's secrets, for scrubbing an error
// or a string outside a log line (e.g. one printed to stderr).
func (c Config) Redactor() *redact.Redactor { return redact.New(c.Secrets()...) }

// LogValue lets the config be logged without its secrets.
func (c Config) LogValue() slog.Value {
	api, cdn := "", ""
	if c.APIURL != nil {
		api = redactURL(c.APIURL)
	}
	if c.CDNURL != nil {
		cdn = redactURL(c.CDNURL)
	}
	idle, challenge := "default", "default"
	if c.IdleTimeout > 0 {
		idle = c.IdleTimeout.String()
	}
	if c.ChallengeTimeout > 0 {
		challenge = c.ChallengeTimeout.String()
	}
	return slog.GroupValue(
		slog.Bool("gateway", c.Gateway()),
		slog.Bool("interactions", c.Interactions()),
		slog.String("app_id", c.AppID),
		slog.String("guild_id", c.GuildID),
		slog.String("api_url", api),
		slog.String("cdn_url", cdn),
		slog.String("http_addr", c.HTTPAddr),
		slog.Any("database", c.Database),
		slog.String("idle_timeout", idle),
		slog.String("challenge_timeout", challenge),
		slog.String("log_level", c.LogLevel.String()),
		slog.String("log_format", c.LogFormat.String()),
		slog.String("pprof_addr", c.PprofAddr),
	)
}

// String formats the config as LogValue does, so fmt's %v and %+v cannot
// print a secret either.
func (c Config) String() string { return c.LogValue().String() }

// GoString is String, for %#v.
func (c Config) GoString() string { return c.String() }

// HealthzURL returns the URL of the /healthz that a bot started with the
// same envFile and environment serves, for `tttbot healthcheck`. It reads
// envFile like Load but needs only HTTP_ADDR, so it works whichever
// transports are set. A wildcard or empty host (":8080", "0.0.0.0:8080",
// "[::]:8080") is asked on 127.0.0.1.
func HealthzURL(envFile string) (string, error) {
	get, err := lookup(envFile)
	if err != nil {
		return "", err
	}
	addr := strings.TrimSpace(get("HTTP_ADDR"))
	if addr == "" {
		return "", errors.New("HTTP_ADDR is not set, so there is no /healthz to ask; set it as for the bot, e.g. HTTP_ADDR=:8080")
	}
	if err := checkAddr(addr); err != nil {
		return "", fmt.Errorf("HTTP_ADDR: %q %v; want host:port or :port, e.g. :8080", addr, err)
	}
	host, port, _ := net.SplitHostPort(addr)
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}
