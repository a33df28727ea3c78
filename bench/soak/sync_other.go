//go:build !linux

package main

import "os"

func syncData(f *os.File) error { return f.Sync() }

func fileSystem(string) string { return "file system unknown" }
