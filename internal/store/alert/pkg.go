// Package alert is the alert as the store keeps it: its canonical JSON
// and the fields the server reasons about (Doc), read in one pass when it
// is canonical or else by the API's schema (Judge), parsed on every
// processor (Parser), what it is about (Target, Pair), and the index of a
// project's alerts by creation time and status (Set). It knows nothing of
// the other records, the engine or the Store, which use it.
package alert
