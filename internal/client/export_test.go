package client

import (
	"os"
	"runtime"
)

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o600) }

func runtimeGosched() { runtime.Gosched() }
