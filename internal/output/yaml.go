package output

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/omctl/omctl/internal/rules"
)

// ToYAML writes JSON as YAML, keeping the order of its members: JSON is
// YAML, so the document is read as a YAML node tree and written back in
// block style.
func ToYAML(data []byte) ([]byte, error) { return toYAML(data, false) }

// toYAML is ToYAML, with the values of secret fields masked when mask is
// set, as a diff shows them.
func toYAML(data []byte, mask bool) ([]byte, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, fmt.Errorf("the server sent invalid JSON")
	}
	blockStyle(&n)
	if mask {
		maskSecrets(&n)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// yaml11Words are strings a YAML 1.1 reader (PyYAML, many CI tools) takes
// for booleans or null: they are quoted, so they stay strings.
var yaml11Words = map[string]bool{"y": true, "yes": true, "n": true, "no": true, "on": true, "off": true,
	"true": true, "false": true, "null": true, "~": true}

func blockStyle(n *yaml.Node) {
	n.Style = 0
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && yaml11Words[strings.ToLower(n.Value)] {
		n.Style = yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// maskSecrets masks, in place, every string a secret field holds
// (rules.SecretFields), at any depth.
func maskSecrets(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind == yaml.ScalarNode && v.Tag == "!!str" && rules.SecretFields[k.Value] {
				v.Value = rules.Mask(k.Value, v.Value)
			}
		}
	}
	for _, c := range n.Content {
		maskSecrets(c)
	}
}

// printYAML prints a body as YAML; with --jq, each result of the filter
// is one YAML document.
func (p *Printer) printYAML(body []byte) error { return p.writeYAML(body, false) }

// writeYAML is printYAML, secrets masked when mask is set.
func (p *Printer) writeYAML(body []byte, mask bool) error {
	docs := [][]byte{body}
	if p.jq != nil {
		var out bytes.Buffer
		if err := p.jq.run(&out, body, false); err != nil {
			return err
		}
		docs = nil
		sc := bufio.NewScanner(&out)
		sc.Buffer(make([]byte, 1<<20), 1<<30)
		for sc.Scan() {
			docs = append(docs, append([]byte(nil), sc.Bytes()...))
		}
	}
	for i, d := range docs {
		y, err := toYAML(d, mask)
		if err != nil {
			return err
		}
		if i > 0 {
			if _, err := p.io.Out.Write([]byte("---\n")); err != nil {
				return err
			}
		}
		if _, err := p.io.Out.Write(y); err != nil {
			return err
		}
	}
	return nil
}
