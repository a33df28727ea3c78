package faults

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/httpx"
)

// DefaultMaxConnections is how many client connections the server keeps
// open at once unless told otherwise (docs/server.md, Rate limits).
const DefaultMaxConnections = 4096

// maxRefusing bounds the connections being refused at once: each is read
// for its request, briefly, so that the 503 reaches the client. Beyond
// it a new connection is closed at once.
const maxRefusing = 64

// refuseTimeout bounds how long a refused connection is kept to read its
// request and send the answer.
const refuseTimeout = time.Second

// LimitConnections caps the connections ln hands out at n: beyond it a new
// connection is answered 503 SERVICE_UNAVAILABLE with Retry-After: 1 and
// closed, and those already open go on being served. A connection counts
// until the HTTP server closes it. ln is the plain listener: with TLS, it
// goes beneath tls.NewListener, and tlsConf is what a refused connection
// is answered over.
func LimitConnections(ln net.Listener, n int, tlsConf *tls.Config) net.Listener {
	if n <= 0 {
		return ln
	}
	return &connLimit{Listener: ln, tlsConf: tlsConf, open: make(chan struct{}, n), refusing: make(chan struct{}, maxRefusing)}
}

type connLimit struct {
	net.Listener
	tlsConf  *tls.Config
	open     chan struct{} // a token for each connection open
	refusing chan struct{} // a token for each connection being refused
}

func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.open <- struct{}{}:
			return &countedConn{Conn: c, release: func() { <-l.open }}, nil
		default:
		}
		select {
		case l.refusing <- struct{}{}:
			go func() {
				defer func() { <-l.refusing }()
				if l.tlsConf != nil {
					c = tls.Server(c, l.tlsConf)
				}
				refuse(c, cap(l.open))
			}()
		default:
			c.Close()
		}
	}
}

// countedConn gives its token back when closed, once.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// refuse answers the first request of c with 503 and closes it. The
// request is read first, and the rest of what the client sends drained
// after the answer, so that closing does not reset the connection before
// the client has read the answer.
func refuse(c net.Conn, limit int) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(refuseTimeout))
	br := bufio.NewReaderSize(io.LimitReader(c, httpx.MaxHeaderBytes), 4<<10)
	if _, err := http.ReadRequest(br); err != nil {
		return
	}
	e := httpx.New(http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE",
		fmt.Sprintf("Service unavailable: the server has %d connections open, as many as it serves; retry after 1 s.", limit), limit)
	body := rules.EncodeJSON(e.Body())
	fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: %s\r\n\r\n%s",
		strconv.Itoa(len(body)), body)
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
		io.Copy(io.Discard, io.LimitReader(c, httpx.MaxDrain))
	}
}
