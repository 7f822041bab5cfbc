// A fast JSON decoder into exactly the values encoding/json.Unmarshal produces for an interface{}:
// map[string]interface{} (duplicate keys: the last wins), []interface{}, float64 (strconv.ParseFloat of the number's
// text, as encoding/json does), string (the same escapes; a lone or broken surrogate and every invalid UTF-8 byte
// become U+FFFD), bool and nil. It is a single pass without encoding/json's separate validation scan and
// reflection, which is where a body's decode time went.
//
// It never decides an error on its own: whenever it meets anything it does not accept (invalid JSON, a number out of
// float64's range, nesting deeper than maxFastDepth) it hands the whole document to encoding/json, so refusals and
// their messages stay encoding/json's, byte for byte. json_decode_test.go compares the two on a corpus.
package main

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxFastDepth: deeper documents go to encoding/json (which enforces its own limit of 10000).
const maxFastDepth = 1000

var errNotFast = errors.New("not decodable by the fast path")

// decodeJSON is json.Unmarshal(body, &v) for v interface{}.
func decodeJSON(body []byte) (interface{}, error) {
	if value, ok := decodeJSONFast(body); ok {
		return value, nil
	}
	var parsed interface{}
	err := json.Unmarshal(body, &parsed)
	return parsed, err
}

func decodeJSONFast(body []byte) (interface{}, bool) {
	d := jsonDecoder{data: body, text: string(body)}
	d.skipSpace()
	value, err := d.value(0)
	if err != nil {
		return nil, false
	}
	d.skipSpace()
	if d.pos != len(d.data) {
		return nil, false
	}
	return value, true
}

// text is data as one string, copied once: a string without escapes is a substring of it (no copy per string).
type jsonDecoder struct {
	data []byte
	text string
	pos  int
	// pending holds the elements of the arrays being read (nested ones stacked), so each array is allocated once at
	// its final length instead of growing by appends.
	pending []interface{}
}

func (d *jsonDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *jsonDecoder) value(depth int) (interface{}, error) {
	if d.pos >= len(d.data) {
		return nil, errNotFast
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth + 1)
	case c == '[':
		return d.array(depth + 1)
	case c == '"':
		return d.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	}
	return nil, errNotFast
}

func (d *jsonDecoder) literal(word string) error {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return errNotFast
	}
	d.pos += len(word)
	return nil
}

func (d *jsonDecoder) object(depth int) (interface{}, error) {
	if depth > maxFastDepth {
		return nil, errNotFast
	}
	d.pos++ // '{'
	object := map[string]interface{}{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return object, nil
	}
	for {
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, errNotFast
		}
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, errNotFast
		}
		d.pos++
		d.skipSpace()
		value, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		object[key] = value
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, errNotFast
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
		case '}':
			d.pos++
			return object, nil
		default:
			return nil, errNotFast
		}
	}
}

func (d *jsonDecoder) array(depth int) (interface{}, error) {
	if depth > maxFastDepth {
		return nil, errNotFast
	}
	d.pos++ // '['
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return []interface{}{}, nil
	}
	first := len(d.pending)
	for {
		value, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		d.pending = append(d.pending, value)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, errNotFast
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
		case ']':
			d.pos++
			array := make([]interface{}, len(d.pending)-first)
			copy(array, d.pending[first:])
			clear(d.pending[first:])
			d.pending = d.pending[:first]
			return array, nil
		default:
			return nil, errNotFast
		}
	}
}

// number: the JSON grammar -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? checked here (strconv.ParseFloat accepts
// more), the value strconv.ParseFloat's, as encoding/json's convertNumber.
func (d *jsonDecoder) number() (interface{}, error) {
	start := d.pos
	if d.data[d.pos] == '-' {
		d.pos++
	}
	if d.pos >= len(d.data) {
		return nil, errNotFast
	}
	switch c := d.data[d.pos]; {
	case c == '0':
		d.pos++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return nil, errNotFast
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if d.digits() == 0 {
			return nil, errNotFast
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if d.digits() == 0 {
			return nil, errNotFast
		}
	}
	value, err := strconv.ParseFloat(d.text[start:d.pos], 64)
	if err != nil {
		return nil, errNotFast
	}
	return value, nil
}

func (d *jsonDecoder) digits() int {
	start := d.pos
	for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
		d.pos++
	}
	return d.pos - start
}

// str reads a string at d.pos (the opening quote): plain ASCII without escapes is a substring of text; anything else goes
// through unquoteSlow, encoding/json's unquote rules.
func (d *jsonDecoder) str() (string, error) {
	d.pos++ // '"'
	start := d.pos
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return d.text[start : d.pos-1], nil
		case c == '\\' || c >= utf8.RuneSelf:
			return d.unquoteSlow(start)
		case c < ' ':
			return "", errNotFast
		}
		d.pos++
	}
	return "", errNotFast
}

func (d *jsonDecoder) unquoteSlow(start int) (string, error) {
	out := make([]byte, d.pos-start, d.pos-start+64)
	copy(out, d.data[start:d.pos])
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return string(out), nil
		case c < ' ':
			return "", errNotFast
		case c == '\\':
			d.pos++
			if d.pos >= len(d.data) {
				return "", errNotFast
			}
			switch e := d.data[d.pos]; {
			case simpleEscapes[e] != 0:
				out = append(out, simpleEscapes[e])
				d.pos++
			case e == 'u':
				d.pos++
				r, ok := d.hex4()
				if !ok {
					return "", errNotFast
				}
				if utf16.IsSurrogate(r) {
					// A following \uXXXX that completes the pair is consumed; otherwise U+FFFD (encoding/json).
					if len(d.data)-d.pos >= 6 && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
						save := d.pos
						d.pos += 2
						if r2, ok := d.hex4(); ok {
							if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
								out = utf8.AppendRune(out, dec)
								continue
							}
						}
						d.pos = save
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
			default:
				return "", errNotFast
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			d.pos++
		default:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			d.pos += size
			out = utf8.AppendRune(out, r) // an invalid byte decodes as (RuneError, 1): U+FFFD
		}
	}
	return "", errNotFast
}

// hex4 reads four hex digits at d.pos. A malformed \u escape is invalid JSON (encoding/json refuses it).
func (d *jsonDecoder) hex4() (rune, bool) {
	if len(d.data)-d.pos < 4 {
		return 0, false
	}
	var r rune
	for _, c := range d.data[d.pos : d.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	d.pos += 4
	return r, true
}

// simpleEscapes maps the letter after a backslash to the byte it stands for (0: not a one-letter escape).
var simpleEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}
