package durations

import (
	"fmt"
	"regexp"
	"strconv"
)

var pattern = regexp.MustCompile(`^(\d+)\s*([hms])$`)

// Parse returns the seconds in text.
func Parse(text string) (int, error) {
	m := pattern.FindStringSubmatch(text)
	if m == nil {
		return 0, fmt.Errorf("not a duration: %q", text)
	}
	units, err := LoadUnits()
	if err != nil {
		return 0, err
	}
	n, _ := strconv.Atoi(m[1])
	return n * units[m[2]], nil
}
