module example.com/omtest-consumer

go 1.26.8

require github.com/omctl/omctl v0.0.0-00010101000000-000000000000

require (
	github.com/icholy/digest v1.2.0 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
	github.com/tidwall/sjson v1.2.7 // indirect
	go.etcd.io/bbolt v1.4.3 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/time v0.16.0 // indirect
)

// The module of this repository, as a program's own module would require
// a released version of it.
replace github.com/omctl/omctl => ../../..
