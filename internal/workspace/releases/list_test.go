package releases

import "testing"

func TestReleaseWords(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]string{0.2: "1 s", 34.4: "34 s", 59.6: "1 min 0 s", 125: "2 min 5 s"} {
		if got := seconds(in); got != want {
			t.Errorf("seconds(%v) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[int64]string{999: "999 bytes", 740_000: "740 kB", 12_345_678: "12.3 MB", 2_500_000_000: "2.50 GB"} {
		if got := bytesText(in); got != want {
			t.Errorf("bytesText(%d) = %q, want %q", in, got, want)
		}
	}
}
