// Package durations reads durations such as "1h", "90m" or "45 s".
package durations

import (
	"fmt"
	"regexp"
	"strconv"
)

var units = map[string]int{"h": 3600, "m": 60, "s": 1}

var pattern = regexp.MustCompile(`^(\d+)\s*([hms])$`)

// Parse returns the seconds in text.
func Parse(text string) (int, error) {
	m := pattern.FindStringSubmatch(text)
	if m == nil {
		return 0, fmt.Errorf("not a duration: %q", text)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return 0, err
	}
	return n * units[m[2]], nil
}
