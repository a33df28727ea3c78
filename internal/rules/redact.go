package rules

import (
	"net/url"
	"slices"
	"strings"
)

// RedactNotification shows a notification as the API does: only the
// fields of its kind, their secrets redacted, and fields the API does not
// name kept as a fixture gave them (docs/api.md, Notification).
func RedactNotification(n Doc) Doc {
	kind, _ := n["typeName"].(string)
	used := NotificationFields[kind]
	out := Doc{}
	for k, v := range n {
		switch {
		case k == "typeName" || k == "delayMin" || k == "intervalMin":
			out[k] = v
		case slices.Contains(used, k):
			out[k] = redactField(k, v)
		case !isNotificationField(k):
			out[k] = v // a field the API does not name, kept from a fixture
		}
	}
	return out
}

func isNotificationField(k string) bool {
	for _, fields := range NotificationFields {
		if slices.Contains(fields, k) {
			return true
		}
	}
	return false
}

// redactField is a notification field as shown once stored: a webhook
// secret hidden, a URL cut to its host, a key to its last characters.
func redactField(k string, v any) any {
	s, ok := v.(string)
	if !ok || s == "" {
		return v
	}
	switch {
	case k == "webhookSecret":
		return "******"
	case redactedURLs[k]:
		return redactURL(s)
	case PartlyRedacted[k]:
		return redactKey(s)
	}
	return v
}

// redactKey keeps the last four characters of an integration key.
func redactKey(s string) string {
	if len(s) <= 4 {
		return strings.Repeat("*", len(s))
	}
	return strings.Repeat("*", len(s)-4) + s[len(s)-4:]
}

// redactURL keeps the scheme and host of a webhook URL.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "****"
	}
	return u.Scheme + "://" + u.Host + "/****"
}

// SecretFields are the fields whose values are secrets wherever they
// appear in a body: API keys' private keys, stores' secret keys and
// passwords, webhook secrets, the URLs that carry a token, and the
// integration keys and tokens of notifications under both of their names.
// What records or shows a body (the server's request journal) hides them.
var SecretFields = func() map[string]bool {
	m := map[string]bool{"privateKey": true, "apiKey": true, "password": true, "webhookSecret": true,
		"cloudSecretKey": true, "awsSecretKey": true, "kmipClientCertPassword": true}
	for f := range PartlyRedacted {
		m[f] = true
	}
	for f := range redactedURLs {
		m[f] = true
	}
	for _, fields := range NotificationFields {
		for _, f := range fields {
			if strings.HasSuffix(f, "Key") || strings.HasSuffix(f, "Token") || strings.HasSuffix(f, "Secret") {
				m[f] = true
			}
		}
	}
	return m
}()
