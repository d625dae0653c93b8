package durations

import "testing"

func TestLoadUnits(t *testing.T) {
	units, err := LoadUnits()
	if err != nil || units["h"] != 3600 {
		t.Fatalf("LoadUnits() = %v, %v", units, err)
	}
}

func TestParseMinutes(t *testing.T) {
	if got, err := Parse("90m"); err != nil || got != 5400 {
		t.Fatalf("Parse(90m) = %d, %v", got, err)
	}
}
