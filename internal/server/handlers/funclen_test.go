package handlers

import (
	"testing"

	"github.com/omctl/omctl/internal/testutil/funclen"
)

// No function of the package is longer than a reader takes in at once.
func TestFunctionsAreShort(t *testing.T) { funclen.Check(t, ".", 80) }
