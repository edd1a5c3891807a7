package store_test

import (
	"testing"

	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/store/storetest"
)

// TestMemory: the reference store passes the suite the durable ones are
// held to.
func TestMemory(t *testing.T) {
	storetest.Run(t, func(testing.TB) storetest.Store { return store.NewMemory() })
}
