//go:build !unix

package state

import (
	"errors"
	"os"
)

// tryLock is not available without flock(2): apply and rollback refuse
// rather than run unlocked.
func tryLock(*os.File) (bool, error) {
	return false, errors.New("file locks need a Unix system (flock)")
}

func unlock(*os.File) error { return nil }

// openNoFollow is not available; Lock refuses without flock anyway.
const openNoFollow = 0
