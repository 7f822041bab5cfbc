// A fast json.Marshal for the values a decoded body is made of (map[string]interface{}, []interface{}, string,
// float64, bool, nil), byte for byte encoding/json's output: keys sorted, <, > and & escaped as \u003c..., U+2028 and
// U+2029 escaped, invalid UTF-8 as \ufffd, floats formatted as encoding/json's floatEncoder, a nil map or slice as
// null. It never decides an error or a format of its own: a value of any other type anywhere in the tree, a NaN or
// an infinity, or nesting deeper than maxFastDepth hands the whole value to encoding/json. json_encode_test.go
// compares the two.
package main

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// marshalJSON is json.Marshal(v).
func marshalJSON(v interface{}) ([]byte, error) {
	if out, ok := appendJSONFast(nil, v, 0); ok {
		return out, nil
	}
	return json.Marshal(v)
}

func appendJSONFast(out []byte, v interface{}, depth int) ([]byte, bool) {
	if depth > maxFastDepth {
		return nil, false
	}
	switch value := v.(type) {
	case nil:
		return append(out, "null"...), true
	case bool:
		return strconv.AppendBool(out, value), true
	case string:
		return appendJSONString(out, value), true
	case float64:
		return appendJSONFloat(out, value)
	case []interface{}:
		if value == nil {
			return append(out, "null"...), true
		}
		out = append(out, '[')
		for i, element := range value {
			if i > 0 {
				out = append(out, ',')
			}
			var ok bool
			if out, ok = appendJSONFast(out, element, depth+1); !ok {
				return nil, false
			}
		}
		return append(out, ']'), true
	case map[string]interface{}:
		if value == nil {
			return append(out, "null"...), true
		}
		keys := make([]string, 0, len(value))
		for key := range value {
			keys = append(keys, key)
		}
		slices.Sort(keys)
		out = append(out, '{')
		for i, key := range keys {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendJSONString(out, key)
			out = append(out, ':')
			var ok bool
			if out, ok = appendJSONFast(out, value[key], depth+1); !ok {
				return nil, false
			}
		}
		return append(out, '}'), true
	}
	return nil, false
}

// appendJSONFloat: encoding/json's floatEncoder for 64 bits ('e' below 1e-6 and from 1e21 on, e-09 cleaned to e-9).
func appendJSONFloat(out []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	out = strconv.AppendFloat(out, f, format, -1, 64)
	if format == 'e' {
		n := len(out)
		if n >= 4 && out[n-4] == 'e' && out[n-3] == '-' && out[n-2] == '0' {
			out[n-2] = out[n-1]
			out = out[:n-1]
		}
	}
	return out, true
}

const hexDigits = "0123456789abcdef"

// appendJSONString: encoding/json's appendString with HTML escaping on (json.Marshal's default).
func appendJSONString(out []byte, s string) []byte {
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			out = append(out, s[start:i]...)
			switch c {
			case '\\', '"':
				out = append(out, '\\', c)
			case '\b':
				out = append(out, '\\', 'b')
			case '\f':
				out = append(out, '\\', 'f')
			case '\n':
				out = append(out, '\\', 'n')
			case '\r':
				out = append(out, '\\', 'r')
			case '\t':
				out = append(out, '\\', 't')
			default:
				out = append(out, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, s[start:i]...)
			out = append(out, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			out = append(out, s[start:i]...)
			out = append(out, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}
