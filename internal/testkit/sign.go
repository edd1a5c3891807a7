package testkit

import (
	"crypto/ed25519"
	"encoding/hex"
	"net/http"
	"strconv"
	"time"
)

// Signer signs interactions as Discord does: Ed25519 over the timestamp
// followed by the body, in the X-Signature-Ed25519 and X-Signature-Timestamp
// headers.
type Signer struct {
	Public  ed25519.PublicKey
	private ed25519.PrivateKey
}

// NewSigner makes the key from seed (at most ed25519.SeedSize bytes, the rest
// zeros): tests and load runs need no randomness, and each names its own key.
func NewSigner(seed string) *Signer {
	s := make([]byte, ed25519.SeedSize)
	copy(s, seed)
	priv := ed25519.NewKeyFromSeed(s)
	return &Signer{Public: priv.Public().(ed25519.PublicKey), private: priv}
}

// PublicHex is the public key as the bot's DISCORD_PUBLIC_KEY takes it.
func (s *Signer) PublicHex() string { return hex.EncodeToString(s.Public) }

// Sign sets h's signature headers for body sent at at.
func (s *Signer) Sign(h http.Header, body []byte, at time.Time) {
	ts := strconv.FormatInt(at.Unix(), 10)
	h.Set("X-Signature-Timestamp", ts)
	h.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(s.private, append([]byte(ts), body...))))
}
