package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"net"
	"net/http"
)

// boundArg is the argument that makes this binary serve the bound.
const boundArg = "-serve-bound"

// boundReply is what the bound answers: a public message the size of a
// Connect Four board reply (a headline, the board in a code block, a status
// line, allowed_mentions), so encoding and writing cost what the bot's do.
var boundReply = []byte(`{"type":4,"data":{"tts":false,"content":"**O** <@800000000000000002> played column 3 (row 0).\n` +
	"```\\n  0 1 2 3 4 5 6\\n5 . . . . . . .\\n4 . . . . . . .\\n3 . . . . . . .\\n2 . . . . . . .\\n1 . . . X . . .\\n0 . . X[O]. . .\\n```\\n" +
	`Turn: **X** <@800000000000000001> — ` + "`/ttt move position:`" + ` a column 0–6","components":[],"embeds":null,` +
	`"allowed_mentions":{"parse":[],"users":["800000000000000001"]}}}`)

// serveBound listens on addr and answers every POST /interactions whose
// signature verifies with boundReply: the least any endpoint must do.
func serveBound(addr, pubHex string) error {
	key, err := hex.DecodeString(pubHex)
	if err != nil {
		return err
	}
	pub := ed25519.PublicKey(key)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok\n") })
	mux.HandleFunc("POST /interactions", func(w http.ResponseWriter, r *http.Request) {
		ts := r.Header.Get("X-Signature-Timestamp")
		sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		body, rerr := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil || rerr != nil || !ed25519.Verify(pub, append([]byte(ts), body...), sig) {
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(boundReply)
	})
	return http.Serve(ln, mux)
}
