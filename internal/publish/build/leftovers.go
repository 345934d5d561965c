package build

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// StopLeftoverBuilds kills what a build left running when its server was
// killed: its steps run in process groups of their own (so that a time-out
// stops their children), which a kill -9 of the server does not reach. A
// leftover is known by its working directory, inside scratch. It returns
// how many processes it stopped.
func StopLeftoverBuilds(scratch string) int {
	abs, err := filepath.Abs(scratch)
	if err != nil {
		return 0
	}
	entries, _ := os.ReadDir("/proc")
	stopped := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err != nil || !strings.HasPrefix(cwd, abs+string(filepath.Separator)) {
			continue
		}
		if pgid, err := syscall.Getpgid(pid); err == nil && pgid != syscall.Getpgrp() {
			syscall.Kill(-pgid, syscall.SIGKILL)
		} else {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		stopped++
	}
	return stopped
}
