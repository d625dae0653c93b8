package words

import "testing"

func TestCount(t *testing.T) {
	if got := Count("the quick brown fox"); got != 4 {
		t.Fatalf("Count = %d, want 4", got)
	}
}

func TestCountEmpty(t *testing.T) {
	if got := Count(""); got != 0 {
		t.Fatalf("Count(\"\") = %d, want 0", got)
	}
}
