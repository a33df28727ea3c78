package api

import "testing"

func TestIsObjectID(t *testing.T) {
	for s, want := range map[string]bool{
		"5f1a0c2e8f9d4b0012345678":  true,
		"5F1A0C2E8F9D4B0012345678":  true,
		"5f1a0c2e8f9d4b001234567":   false,
		"5f1a0c2e8f9d4b00123456789": false,
		"5f1a0c2e8f9d4b001234567g":  false,
		"5f1a0c2e8f9d4b00 2345678":  false,
		"":                          false,
		"5f1a0c2e8f9d4b00123456é":   false,
	} {
		if got := IsObjectID(s); got != want {
			t.Errorf("IsObjectID(%q) = %v", s, got)
		}
	}
}
