package workspace

import (
	"strconv"

	"studio/internal/workspace/accounts"
)

// The tests hash with argon2id's smallest cost: the production cost takes
// 64 MiB and a tenth of a second for each of many sign-ins.
func init() { accounts.CheapHashing() }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
