// Package filestamp tells whether a file is unchanged since it was last
// read whole, without reading it: by its stamp, its device, inode, size
// and time of last write. Any write into a file, through any of its hard
// links, moves that time; a new link changes only the inode's change
// time, which is why that is not in it. The export's blob checks
// (publish/repo) and the release manifests (publish/releases) read a file
// found intact before again only when its stamp moved.
package filestamp

import (
	"io/fs"
	"syscall"
	"time"
)

// A Stamp is a file's identity and its last write.
type Stamp struct {
	dev, ino uint64
	size     int64
	written  int64 // nanoseconds
}

// Of is info's stamp; false where the system says no inode.
func Of(info fs.FileInfo) (Stamp, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || st.Ino == 0 {
		return Stamp{}, false
	}
	return Stamp{dev: uint64(st.Dev), ino: st.Ino, size: info.Size(), written: info.ModTime().UnixNano()}, true
}

// SettledBy says whether a file of this stamp, read whole at read, may be
// remembered as it was: last written more than a second before (a write
// in the same tick of the clock as the read would leave its time as it
// was).
func (s Stamp) SettledBy(read time.Time) bool {
	return s.written < read.Add(-time.Second).UnixNano()
}
