package releases

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A RollbackAnswer is what the running server did with `studio rollback`'s
// request.
type RollbackAnswer struct {
	Release string `json:"release"`
	Commit  string `json:"commit,omitempty"`  // main's new commit; "" when main had the release's files already
	Message string `json:"message,omitempty"` // its message
	Error   string `json:"error,omitempty"`   // why it was refused: then nothing changed
}

const (
	rollbackRequest = "rollback-requested"
	rollbackAnswer  = "rollback-answer"
)

// RequestRollback asks the running server to make release id live and its
// content main's (`studio rollback`); its publisher takes the request
// within a second and leaves its answer for TakeRollbackAnswer.
func (rs *Releases) RequestRollback(id string) error {
	os.Remove(filepath.Join(rs.dir, rollbackAnswer)) // an answer to an earlier request
	return writeAtomic(filepath.Join(rs.dir, rollbackRequest), []byte(id+"\n"))
}

// TakeRollbackAnswer reads and removes the server's answer to
// RequestRollback; ok false while there is none yet.
func (rs *Releases) TakeRollbackAnswer() (a RollbackAnswer, ok bool, err error) {
	name := filepath.Join(rs.dir, rollbackAnswer)
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return a, false, nil
	}
	if err != nil {
		return a, false, err
	}
	if err := json.Unmarshal(b, &a); err != nil {
		return a, false, fmt.Errorf("publish: %s: %w", name, err)
	}
	return a, true, os.Remove(name)
}

// TakeRollbackRequest reads and removes the id RequestRollback asked for;
// ok false when none was asked for.
func (rs *Releases) TakeRollbackRequest() (id string, ok bool) {
	b, err := os.ReadFile(filepath.Join(rs.dir, rollbackRequest))
	if err != nil {
		return "", false
	}
	os.Remove(filepath.Join(rs.dir, rollbackRequest))
	return strings.TrimSpace(string(b)), true
}

// AnswerRollback leaves the running server's answer for
// TakeRollbackAnswer.
func (rs *Releases) AnswerRollback(a RollbackAnswer) error {
	out, err := json.Marshal(a)
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(rs.dir, rollbackAnswer), out)
}
