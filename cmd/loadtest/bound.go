package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
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

// serveBoundArgs serves the bound as the arguments after boundArg say: the
// address, the public key in hex, and for the durable bound its journal.
func serveBoundArgs(args []string) error {
	if len(args) < 2 {
		return errors.New("want an address and a public key")
	}
	journal := ""
	if len(args) > 2 {
		journal = args[2]
	}
	return serveBound(args[0], args[1], journal)
}

// serveBound listens on addr and answers every POST /interactions whose
// signature verifies with boundReply: the least any endpoint must do. With
// a journal path it is the durable bound: each request's body is appended
// to that file and synced (group commit) before its reply, the least any
// endpoint that keeps what it answers must do on this disk.
func serveBound(addr, pubHex, journal string) error {
	key, err := hex.DecodeString(pubHex)
	if err != nil {
		return err
	}
	pub := ed25519.PublicKey(key)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	var j *groupJournal
	if journal != "" {
		if j, err = openJournal(journal); err != nil {
			return err
		}
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
		if j != nil {
			if err := j.append(body); err != nil {
				http.Error(w, "journal: "+err.Error(), http.StatusInternalServerError)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(boundReply)
	})
	return http.Serve(ln, mux)
}

// groupJournal appends records to a file, each durable when append returns:
// one goroutine writes whatever has queued since its last sync and syncs
// once for all of it, as a database's group commit does, with nothing else
// on the way (no pages, no index, no transaction).
type groupJournal struct {
	f     *os.File
	queue chan journalEntry
}

type journalEntry struct {
	rec  []byte
	done chan error
}

func openJournal(path string) (*groupJournal, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	j := &groupJournal{f: f, queue: make(chan journalEntry, 1024)}
	go j.write()
	return j, nil
}

// append queues rec and waits for the sync that covers it.
func (j *groupJournal) append(rec []byte) error {
	done := make(chan error, 1)
	j.queue <- journalEntry{rec: rec, done: done}
	return <-done
}

func (j *groupJournal) write() {
	var buf []byte
	var batch []journalEntry
	for first := range j.queue {
		batch = append(batch[:0], first)
	drain:
		for {
			select {
			case e := <-j.queue:
				batch = append(batch, e)
			default:
				break drain
			}
		}
		buf = buf[:0]
		for _, e := range batch {
			buf = append(append(buf, e.rec...), '\n')
		}
		_, err := j.f.Write(buf)
		if err == nil {
			err = j.f.Sync()
		}
		for _, e := range batch {
			e.done <- err
		}
	}
}
