package mail

import (
	"bytes"
	"io"
	"mime/quotedprintable"
	"strconv"
	"time"

	"studio/internal/store"
)

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

func qpReader(r io.Reader) io.Reader { return quotedprintable.NewReader(r) }

// compose writes the mail m as the mail server would get it.
func compose(c Config, m store.PendingMail, now time.Time) ([]byte, error) {
	msg, err := c.message(m, now)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := msg.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
