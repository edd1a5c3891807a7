// Package testkit is what the tests and cmd/loadtest share to drive the bot
// as Discord and a deployment do: interaction payloads as Discord sends them
// (payloads/*.json, templates filled per request), Ed25519 request signing,
// and the harness that builds the tttbot binary the way the Dockerfile does,
// starts it on a free address, waits for it and reads its /metrics.
//
// It is an ordinary package, not a _test one, because cmd/loadtest, a
// command, needs it too; it does not import testing (see Failer).
package testkit
