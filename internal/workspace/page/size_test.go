package page

import "testing"

func TestSizeText(t *testing.T) {
	t.Parallel()
	for in, want := range map[int64]string{999: "999 bytes", 740_000: "740 kB", 12_345_678: "12.3 MB", 2_500_000_000: "2.50 GB"} {
		if got := SizeText(in); got != want {
			t.Errorf("SizeText(%d) = %q, want %q", in, got, want)
		}
	}
}
