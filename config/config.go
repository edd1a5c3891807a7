// Package config reads tttbot's settings: a .env file (godotenv) and the
// environment, which wins. Load validates everything once, and every error
// names the key and what is wrong with it. Secrets never leave this package
// in a log line: Config.LogValue redacts them.
package config

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/joho/godotenv"
)

// Defaults for unset keys.
const (
	DefaultAPIURL      = "https://discord.com/api/v9"
	DefaultDatabaseURL = "sqlite://./data/tttbot.db"
	DefaultIdleTimeout = 24 * time.Hour
)

// ErrNothingToRun means neither transport is configured.
var ErrNothingToRun = errors.New("nothing to run: set DISCORD_TOKEN for the gateway, or HTTP_ADDR and DISCORD_PUBLIC_KEY for the HTTP interactions endpoint (see .env.example)")

// Config is tttbot's validated configuration.
type Config struct {
	Token       string            // DISCORD_TOKEN: the bot token; enables the gateway
	AppID       string            // DISCORD_APP_ID: the application's ID (defaults to the bot user's ID)
	PublicKey   ed25519.PublicKey // DISCORD_PUBLIC_KEY: verifies HTTP interactions
	GuildID     string            // DISCORD_GUILD_ID: register commands in this guild only
	APIURL      *url.URL          // DISCORD_API_URL: REST base URL
	HTTPAddr    string            // HTTP_ADDR: where /interactions, /healthz and /metrics listen
	DatabaseURL string            // DATABASE_URL: sqlite://PATH or postgres://…
	IdleTimeout time.Duration     // GAME_IDLE_TIMEOUT: open games end after this long without an action
	LogLevel    slog.Level        // LOG_LEVEL: debug, info, warn or error
}

// Gateway reports whether the gateway transport is configured.
func (c Config) Gateway() bool { return c.Token != "" }

// Interactions reports whether the HTTP interactions endpoint is configured.
func (c Config) Interactions() bool { return c.HTTPAddr != "" && c.PublicKey != nil }

// Load reads envFile if it exists (a missing file is fine, a broken one is
// not), then the environment, and validates the result.
func Load(envFile string) (Config, error) {
	fileVals := map[string]string{}
	if envFile != "" {
		vals, err := godotenv.Read(envFile)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return Config{}, fmt.Errorf("reading %s: %w", envFile, err)
		default:
			fileVals = vals
		}
	}
	return parse(func(key string) string {
		if v, ok := os.LookupEnv(key); ok {
			return v
		}
		return fileVals[key]
	})
}

// parse builds a Config from a lookup function, so tests need no process
// environment.
func parse(get func(string) string) (Config, error) {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
	}
	val := func(key string) string { return strings.TrimSpace(get(key)) }
	c := Config{
		Token:       val("DISCORD_TOKEN"),
		AppID:       val("DISCORD_APP_ID"),
		GuildID:     val("DISCORD_GUILD_ID"),
		HTTPAddr:    val("HTTP_ADDR"),
		DatabaseURL: val("DATABASE_URL"),
		IdleTimeout: DefaultIdleTimeout,
	}
	c.Token = strings.TrimPrefix(c.Token, "Bot ")
	for key, id := range map[string]string{"DISCORD_APP_ID": c.AppID, "DISCORD_GUILD_ID": c.GuildID} {
		if id != "" && !isSnowflake(id) {
			bad(key, "%q is not a Discord ID (digits only; copy it with Developer Mode on)", id)
		}
	}
	if pk := val("DISCORD_PUBLIC_KEY"); pk != "" {
		key, err := hex.DecodeString(pk)
		if err != nil || len(key) != ed25519.PublicKeySize {
			bad("DISCORD_PUBLIC_KEY", "want the 64 hex characters from the Developer Portal's General Information page")
		} else {
			c.PublicKey = ed25519.PublicKey(key)
		}
	}
	raw := val("DISCORD_API_URL")
	if raw == "" {
		raw = DefaultAPIURL
	}
	if u, err := url.Parse(raw); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("DISCORD_API_URL", "%q is not an http(s) URL like %s", raw, DefaultAPIURL)
	} else {
		u.Path = strings.TrimSuffix(u.Path, "/")
		c.APIURL = u
	}
	if c.HTTPAddr != "" {
		if _, _, err := net.SplitHostPort(c.HTTPAddr); err != nil {
			bad("HTTP_ADDR", "%q is not host:port (e.g. :8080)", c.HTTPAddr)
		}
	}
	if c.DatabaseURL == "" {
		c.DatabaseURL = DefaultDatabaseURL
	}
	if !strings.HasPrefix(c.DatabaseURL, "sqlite://") && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") && c.DatabaseURL != "memory://" {
		bad("DATABASE_URL", "want sqlite://PATH or postgres://…")
	}
	if v := val("GAME_IDLE_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			bad("GAME_IDLE_TIMEOUT", "%q is not a positive duration like 24h or 90m", v)
		}
		c.IdleTimeout = d
	}
	if v := val("LOG_LEVEL"); v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			bad("LOG_LEVEL", "%q: want debug, info, warn or error", v)
		}
	}
	if len(errs) == 0 && !c.Gateway() && !c.Interactions() {
		if c.HTTPAddr != "" {
			errs = append(errs, fmt.Errorf("HTTP_ADDR is set but DISCORD_PUBLIC_KEY is not: %w", ErrNothingToRun))
		} else {
			errs = append(errs, ErrNothingToRun)
		}
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return c, nil
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

// LogValue lets the config be logged without its secrets.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.Bool("gateway", c.Gateway()),
		slog.Bool("interactions", c.Interactions()),
		slog.String("app_id", c.AppID),
		slog.String("guild_id", c.GuildID),
		slog.String("api_url", c.APIURL.String()),
		slog.String("http_addr", c.HTTPAddr),
		slog.String("database", redactURL(c.DatabaseURL)),
		slog.String("idle_timeout", c.IdleTimeout.String()),
		slog.String("log_level", c.LogLevel.String()),
	)
}

// redactURL hides a database password.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable)"
	}
	return u.Redacted()
}
