package mail

import (
	"io"
	"mime/quotedprintable"
	"strconv"
)

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

func qpReader(r io.Reader) io.Reader { return quotedprintable.NewReader(r) }
