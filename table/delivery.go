package table

import (
	"context"
	"sync/atomic"
)

// A Delivery is the interaction a request is handling, as far as saving
// needs it: its ID, so that the save of the action it asks for records the
// ID as handled in the same transaction (Save.Delivery). The transport that
// dedupes (bot/httpapi) puts one in the request's context; a retried or
// replayed ID then cannot apply twice, and there is no moment at which the
// ID is recorded while the move is not (or the other way round), whatever
// crashes when.
//
// With a HandledLoader store, Tables also checks the ID when it loads the
// action's table, and an ID handled before fails the action with
// ErrDuplicate before it runs.
type Delivery struct {
	ID    string
	saved atomic.Bool
}

// Saved reports whether a save recorded the delivery: when it did not (the
// action was refused, or changed nothing), the transport records the ID by
// other means.
func (d *Delivery) Saved() bool { return d.saved.Load() }

type deliveryKey struct{}

// WithDelivery returns ctx carrying d: Tables.Do's save of the action's
// table records d.ID with it.
func WithDelivery(ctx context.Context, d *Delivery) context.Context {
	return context.WithValue(ctx, deliveryKey{}, d)
}

// deliveryOf is the Delivery ctx carries, nil when none.
func deliveryOf(ctx context.Context) *Delivery {
	d, _ := ctx.Value(deliveryKey{}).(*Delivery)
	return d
}
