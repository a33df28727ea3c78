package cmdutil

import (
	"net/url"
	"strings"
)

// SecretFields hold credentials: the keys, tokens, secrets and secret URLs
// of notifications (docs/api.md, Notification), a store's secret key, a
// KMIP certificate's password and an API key's private key. omctl prints
// them masked, and never sends one back that it only saw redacted.
var SecretFields = map[string]bool{
	"webhookSecret": true, "webhookUrl": true, "chatBWebhookUrl": true, "microsoftTeamsWebhookUrl": true,
	"apiToken": true, "monitoringApiKey": true, "notificationToken": true, "alertingApiKey": true,
	"serviceKey": true, "incidentApiKey": true, "datadogApiKey": true, "opsGenieApiKey": true,
	"victorOpsApiKey": true, "cloudSecretKey": true, "awsSecretKey": true, "kmipClientCertPassword": true,
	"privateKey": true, "password": true,
}

// LooksRedacted says whether a value is the redacted form of a secret, as
// the server shows one: stars, possibly after a URL's scheme and host or
// before a key's last characters.
func LooksRedacted(s string) bool {
	return strings.Contains(s, "****") || (s != "" && strings.Trim(s, "*") == "")
}

// Mask shows a secret the way the server shows redacted ones: a URL keeps
// its scheme and host, anything else is stars.
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

// MaskPair masks the secrets of a value before and after a change (either
// may be nil). Two different secrets that mask alike are told apart by
// "(changed)", so a diff still shows that a secret changes.
func MaskPair(key string, before, after any) (any, any) {
	bm, bIsMap := before.(map[string]any)
	am, aIsMap := after.(map[string]any)
	if bIsMap || aIsMap {
		ob, oa := map[string]any{}, map[string]any{}
		for k, b := range bm {
			mb, _ := MaskPair(k, b, am[k])
			ob[k] = mb
		}
		for k, a := range am {
			_, ma := MaskPair(k, bm[k], a)
			oa[k] = ma
		}
		return pick(ob, bIsMap, before), pick(oa, aIsMap, after)
	}
	bl, bIsList := before.([]any)
	al, aIsList := after.([]any)
	if bIsList || aIsList {
		ob, oa := make([]any, len(bl)), make([]any, len(al))
		for i := range max(len(bl), len(al)) {
			var b, a any
			if i < len(bl) {
				b = bl[i]
			}
			if i < len(al) {
				a = al[i]
			}
			mb, ma := MaskPair(key, b, a)
			if i < len(bl) {
				ob[i] = mb
			}
			if i < len(al) {
				oa[i] = ma
			}
		}
		return pick(ob, bIsList, before), pick(oa, aIsList, after)
	}
	if !SecretFields[key] {
		return before, after
	}
	bs, bok := before.(string)
	as, aok := after.(string)
	mb, ma := before, after
	if bok {
		mb = Mask(key, bs)
	}
	if aok {
		ma = Mask(key, as)
	}
	if bok && aok && bs != as && mb == ma {
		ma = Mask(key, as) + " (changed)"
	}
	return mb, ma
}

// pick is the masked copy when the value was of its kind, else the value.
func pick[T any](masked T, ok bool, orig any) any {
	if ok {
		return masked
	}
	return orig
}

// redactedSecrets lists the paths of the secrets in v that hold only a
// redacted form: values omctl must not send.
func redactedSecrets(key, path string, v any) []string {
	var found []string
	switch t := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(t) {
			found = append(found, redactedSecrets(k, joinPath(path, k), t[k])...)
		}
	case []any:
		for i, e := range t {
			found = append(found, redactedSecrets(key, path+"["+itoa(i)+"]", e)...)
		}
	case string:
		if SecretFields[key] && LooksRedacted(t) {
			found = append(found, path)
		}
	}
	return found
}

func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}
