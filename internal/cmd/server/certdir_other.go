//go:build !unix

package server

// processAlive is true: without a way to tell, nothing is removed.
func processAlive(int) bool { return true }
