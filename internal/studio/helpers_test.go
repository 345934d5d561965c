package studio

import "strconv"

func strconvFormat(i int64) string { return strconv.FormatInt(i, 10) }
