package cmdutil

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteSecretFile writes a file that holds secrets: mode 0600 from its
// first byte, written whole under a temporary name and renamed, so a
// reader never sees half of it and an interrupted run leaves the old file.
// path "-" writes to out instead.
func WriteSecretFile(path string, out io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		return write(out)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %s", path, DescribeFileError(err))
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %s", path, DescribeFileError(err))
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %s", path, DescribeFileError(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %s", path, DescribeFileError(err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot write %s: %s", path, DescribeFileError(err))
	}
	return nil
}
