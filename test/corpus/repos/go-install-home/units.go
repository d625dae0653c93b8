// Package durations reads durations with the unit table the install step cached.
package durations

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// LoadUnits reads ~/.cache/corpus/units.txt: one "<unit> <seconds>" per line.
func LoadUnits() (map[string]int, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(home, ".cache", "corpus", "units.txt"))
	if err != nil {
		return nil, err
	}
	units := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			units[f[0]], _ = strconv.Atoi(f[1])
		}
	}
	return units, nil
}
