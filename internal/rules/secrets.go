package rules

import (
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// SecretFields hold credentials wherever they appear in a body: the
// secrets and integration keys of notifications under both of their names
// (redacted once stored, see RedactNotification), the URLs that carry a
// token, the keys of S3 stores, the KMIP certificate's password, an API
// key's private key and a user's API key. A client must never send one of
// them in the redacted form it was shown, and the server's request journal
// hides them. Routing keys, regions and channel names are not secrets: the
// API shows them as stored.
var SecretFields = func() map[string]bool {
	m := map[string]bool{"webhookSecret": true, "cloudSecretKey": true, "awsSecretKey": true,
		"kmipClientCertPassword": true, "privateKey": true, "apiKey": true, "password": true}
	for k := range PartlyRedacted {
		m[k] = true
	}
	for k := range redactedURLs {
		m[k] = true
	}
	return m
}()

// Mask shows a secret the way the server shows redacted ones: a URL keeps
// its scheme and host, anything else is stars; a value already redacted,
// or empty, is as it was.
func Mask(key, s string) string {
	if s == "" || LooksRedacted(s) {
		return s
	}
	if strings.HasSuffix(strings.ToLower(key), "url") {
		if u, err := url.Parse(s); err == nil && u.Host != "" {
			return u.Scheme + "://" + u.Host + "/****"
		}
	}
	return "********"
}

// JournalRedacted is how the request journal shows a secret (docs/server.md).
const JournalRedacted = "<redacted>"

// LooksRedacted says whether a secret's value is a redacted form rather
// than the secret: stars in place of it (the server's "******", a key's
// "****…abcd", a URL's "https://host/****", omctl's masks) or the
// journal's "<redacted>".
func LooksRedacted(s string) bool {
	return s == JournalRedacted || strings.Contains(s, "****") || (s != "" && strings.Trim(s, "*") == "")
}

// RedactedSecrets lists, by path (notifications[0].webhookSecret), the
// secret fields of a JSON value that hold a redacted form, sorted.
func RedactedSecrets(v any) []string { return SecretPaths(v, LooksRedacted) }

// SecretPaths lists, sorted, the paths of the secret fields of a JSON
// value whose string value keep accepts.
func SecretPaths(v any, keep func(string) bool) []string {
	var out []string
	walkSecrets(v, "", "", func(path, value string) {
		if keep(value) {
			out = append(out, path)
		}
	})
	sort.Strings(out)
	return out
}

// walkSecrets calls f with the path and value of every string held by a
// secret field of v, in lists too.
func walkSecrets(v any, key, path string, f func(path, value string)) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			walkSecrets(e, k, JoinPath(path, k), f)
		}
	case []any:
		for i, e := range t {
			walkSecrets(e, key, path+"["+strconv.Itoa(i)+"]", f)
		}
	case string:
		if SecretFields[key] {
			f(path, t)
		}
	}
}

// JoinPath names a field of the object at path, as error details do.
func JoinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}
