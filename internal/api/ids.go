package api

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"sync/atomic"
)

// idSeq varies the last three bytes of the identifiers of one process, so
// that two of its first 16 million cannot be the same whatever the random
// bytes; beyond, the 72 random bits make a repeat unlikely enough.
var idSeq atomic.Uint32

// NewObjectID makes a 24-hex-digit identifier, unique within the process.
// Identifiers are names, not secrets (keys' secrets come from crypto/rand,
// see NewUUID), and the journal makes one per request, so the random part
// comes from the runtime's generator, without a system call.
func NewObjectID() string {
	var b [12]byte
	binary.LittleEndian.PutUint64(b[:8], mrand.Uint64())
	b[8] = byte(mrand.Uint32())
	n := idSeq.Add(1)
	b[9], b[10], b[11] = byte(n>>16), byte(n>>8), byte(n)
	return hex.EncodeToString(b[:])
}

// NewPublicKey makes an API key's public key: eight lower-case letters.
func NewPublicKey() string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	var b [8]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)]
	}
	return string(b[:])
}

// NewUUID makes a random (version 4) UUID from crypto/rand: an API
// key's private key.
func NewUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
