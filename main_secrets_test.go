package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestStartLogsNoSecret starts the real binary with every secret set, at
// the most talkative level, in each LOG_FORMAT, in the two ways a start fails early (the
// database is unreachable; Discord's API is unreachable), and greps all it
// printed for each secret. Those failures are where a driver or an HTTP
// client quotes the DSN or the URL it was given.
func TestStartLogsNoSecret(t *testing.T) {
	const (
		token     = "MTIzNDU2Nzg5.secret-bot-token.abcdef"
		dbPass    = "pg-pass-in-userinfo"
		queryPass = "pg-pass-in-query"
		apiUser   = "api-user-name"
		apiPass   = "api-pass-word"
	)
	secrets := []string{token, dbPass, queryPass, apiUser, apiPass}
	// 127.0.0.1:1 refuses connections at once, so both starts fail fast.
	apiURL := "http://" + apiUser + ":" + apiPass + "@127.0.0.1:1/api/v9"
	cases := map[string][]string{
		"DatabaseUnreachable": {
			"DATABASE_URL=postgres://tttbot:" + dbPass + "@127.0.0.1:1/tttbot?sslmode=disable&password=" + queryPass,
		},
		"DiscordUnreachable": {
			"DATABASE_URL=sqlite://./tttbot.db",
		},
	}
	for name, env := range cases {
		for _, format := range []string{"text", "json"} {
			testStartLogsNoSecret(t, name+"/"+format, append(env, "LOG_FORMAT="+format), token, apiURL, secrets)
		}
	}
}

// testStartLogsNoSecret starts the binary with env added to the secrets
// and greps its output for each of secrets.
func testStartLogsNoSecret(t *testing.T, name string, env []string, token, apiURL string, secrets []string) {
	t.Run(name, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, buildBinary(t))
		cmd.Dir = t.TempDir()
		cmd.Env = append([]string{
			"DISCORD_TOKEN=" + token,
			"DISCORD_APP_ID=123456789012345678",
			"DISCORD_API_URL=" + apiURL,
			"LOG_LEVEL=debug",
		}, env...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("the bot did not stop on an unreachable dependency; output:\n%s", out.String())
		}
		if err == nil {
			t.Fatalf("the bot started although a dependency was unreachable; output:\n%s", out.String())
		}
		if out.Len() == 0 {
			t.Fatal("the bot printed nothing, so this test checks nothing")
		}
		for _, s := range secrets {
			if strings.Contains(out.String(), s) {
				t.Errorf("the output holds the secret %q:\n%s", s, out.String())
			}
		}
	})
}
