package workspace

// The tests hash with argon2id's smallest cost: the production cost takes
// 64 MiB and a tenth of a second for each of many sign-ins.
func init() {
	argonTime, argonMemory, argonThreads = 1, 64, 1
}
