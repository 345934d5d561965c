package exports

import "testing"

func TestPhoneCell(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"+91 98290 41752": `="+91 98290 41752"`, // read as the number it is
		"98290 41752":     "98290 41752",
		"+91 =cmd":        "'+91 =cmd", // not a phone: neutralised
		`+1"`:             `'+1"`,
		"":                "",
	} {
		if got := phoneCell(in); got != want {
			t.Errorf("phoneCell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNeutralise(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+91": "'+91", "-2": "'-2", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx", "\rx": "'\rx",
		"Asha": "Asha", "": "", "a=b": "a=b",
	} {
		if got := Neutralise(in); got != want {
			t.Errorf("Neutralise(%q) = %q, want %q", in, got, want)
		}
	}
}
