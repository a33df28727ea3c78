package cmdutil

import (
	"strconv"

	"github.com/spf13/pflag"
)

// OptionalBoolVar defines a boolean flag that stays nil unless given, so a
// request carries only what the user said.
func OptionalBoolVar(fs *pflag.FlagSet, p **bool, name, usage string) {
	fs.VarPF(&optionalBool{p}, name, "", usage).NoOptDefVal = "true"
}

// OptionalInt64Var defines an integer flag that stays nil unless given.
func OptionalInt64Var(fs *pflag.FlagSet, p **int64, name, usage string) {
	fs.Var(&optionalInt64{p}, name, usage)
}

type optionalBool struct{ p **bool }

func (o *optionalBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*o.p = &v
	return nil
}

func (o *optionalBool) String() string {
	if *o.p == nil {
		return ""
	}
	return strconv.FormatBool(**o.p)
}

func (o *optionalBool) Type() string     { return "bool" }
func (o *optionalBool) IsBoolFlag() bool { return true }

type optionalInt64 struct{ p **int64 }

func (o *optionalInt64) Set(s string) error {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return err
	}
	*o.p = &v
	return nil
}

func (o *optionalInt64) String() string {
	if *o.p == nil {
		return ""
	}
	return strconv.FormatInt(**o.p, 10)
}

func (o *optionalInt64) Type() string { return "int" }
