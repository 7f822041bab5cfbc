// Differential test of json_decode.go against encoding/json: on a corpus of tricky documents, and on deterministic
// byte-level mutations of it, the fast decoder must either refuse (and so hand over to encoding/json) or produce
// exactly json.Unmarshal's value (float bits included, so -0 stays -0); it must never accept what encoding/json
// refuses, and it must accept every valid document of the corpus that is within its limits (else the speed-up is a
// fallback in disguise). Run: cd src/gateway/template/engine && go test ./...
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
)

var trickyDocuments = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `-0.0`, `0e0`, `-0e-0`, `1`, `-1`, `1.5`, `1e3`, `1E+3`, `1e-3`,
	`123456789012345678901234567890`, `9007199254740993`, `1.7976931348623157e308`, `4.9e-324`, `2.4703282292062327e-324`,
	`1e400`, `-1e400`, `1e-400`, `0.1`, `0.30000000000000004`, `12345.6789e-2`,
	`"plain"`, `""`, `"\"\\\/\b\f\n\r\t"`, `"\u0041\u00e9\u4e2d"`, `"\u0000"`, `"\ud83d\ude00"`, `"\uD83D\uDE00"`,
	`"\ud83d"`, `"\ude00"`, `"\ud83dx"`, `"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`, `"\ude00\ud83d"`, `"\ud83d\"`,
	`"\ud83d\uZZZZ"`, "\"caf\xc3\xa9\"", "\"bad\xffbyte\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "\"\xf0\x9f\x98\x80\"",
	"\"\xf0\x9f\x98\"", "\"mixed\xff\\n\xc3\xa9\"", `"😀 emoji"`, "{\"k\xff\":1}", `{"a\u0000b":1}`,
	`{"a":1,"a":2}`, `{"a":{"x":1},"a":[1]}`, `{"a":1,"b":[1,2,{"c":null}],"d":{"e":"f"}}`,
	" \t\r\n{ \"a\" : [ 1 , 2 ] } \t\r\n", `[1,[2,[3,[4,[5]]]]]`, `[[[[[[[[[[]]]]]]]]]]`,
	`{"customer":{"id":42,"name":"Ada","tags":["a","b"]},"items":[{"id":1,"qty":2.5},{"id":2,"qty":-0}]}`,
	// invalid
	``, ` `, `{`, `}`, `[`, `]`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{"a" 1}`, `{a:1}`, `{'a':1}`,
	`01`, `-`, `-a`, `+1`, `.5`, `1.`, `1.e3`, `1e`, `1e+`, `0x10`, `Infinity`, `NaN`, `1_000`, `--1`, `1 2`,
	`nul`, `tru`, `falsey`, `nullx`, `"unterminated`, `"\x"`, `"\u12"`, `"\u12G4"`, "\"tab\there\"", "\"nl\nhere\"",
	`{"a":1}x`, `{"a":1}}`, `[1]]`, "\xef\xbb\xbf{}", `"\'"`, `{"a":1 "b":2}`, `[1 2]`, "\x00", `{"a":[}`,
}

func deepDocument(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

func TestFastDecoderMatchesEncodingJSONOnTheCorpus(t *testing.T) {
	documents := append([]string{}, trickyDocuments...)
	documents = append(documents, deepDocument(maxFastDepth), deepDocument(maxFastDepth+1), deepDocument(10001))
	for _, document := range documents {
		fast, accepted := compareWithEncodingJSON(t, []byte(document))
		var reference interface{}
		referenceErr := unmarshalReference([]byte(document), &reference)
		if referenceErr == nil && !accepted && !beyondFastLimits(document) {
			t.Errorf("%q: valid JSON the fast decoder refused (it would only fall back)", document)
		}
		_ = fast
	}
}

func TestFastDecoderMatchesEncodingJSONOnMutations(t *testing.T) {
	random := rand.New(rand.NewSource(1))
	alphabet := []byte("{}[]\",:\\/u0123456789abcdefABCDEF-+.eE tnrl \t\n\r\x00\x1f\x7f\xc3\xa9\xff\xed\xa0\x80\xf0\x9f")
	checked := 0
	for round := 0; round < 40000; round++ {
		document := []byte(trickyDocuments[random.Intn(len(trickyDocuments))])
		for edits := 1 + random.Intn(3); edits > 0; edits-- {
			position := 0
			if len(document) > 0 {
				position = random.Intn(len(document) + 1)
			}
			switch random.Intn(3) {
			case 0: // insert
				document = append(document[:position], append([]byte{alphabet[random.Intn(len(alphabet))]}, document[position:]...)...)
			case 1: // delete
				if position < len(document) {
					document = append(document[:position], document[position+1:]...)
				}
			case 2: // replace
				if position < len(document) {
					document[position] = alphabet[random.Intn(len(alphabet))]
				}
			}
		}
		compareWithEncodingJSON(t, append([]byte(nil), document...))
		checked++
	}
	t.Logf("%d mutated documents compared", checked)
}

// FuzzFastDecoder: `go test -fuzz FuzzFastDecoder` explores further; plain `go test` runs the corpus as seeds.
func FuzzFastDecoder(f *testing.F) {
	for _, document := range trickyDocuments {
		f.Add([]byte(document))
	}
	f.Fuzz(func(t *testing.T, document []byte) { compareWithEncodingJSON(t, document) })
}

// compareWithEncodingJSON fails the test unless the fast decoder refuses or agrees exactly with encoding/json, and
// checks that decodeJSON (fast path plus fallback) always equals encoding/json, error text included.
func compareWithEncodingJSON(t *testing.T, document []byte) (interface{}, bool) {
	t.Helper()
	var reference interface{}
	referenceErr := unmarshalReference(document, &reference)
	fast, accepted := decodeJSONFast(document)
	if accepted {
		if referenceErr != nil {
			t.Errorf("%q: fast decoder accepted what encoding/json refuses (%v)", document, referenceErr)
		} else if difference := describeDifference(reference, fast, "$"); difference != "" {
			t.Errorf("%q: values differ at %s", document, difference)
		}
	}
	combined, combinedErr := decodeJSON(document)
	if fmt.Sprint(combinedErr) != fmt.Sprint(referenceErr) {
		t.Errorf("%q: decodeJSON error %v, encoding/json %v", document, combinedErr, referenceErr)
	} else if referenceErr == nil {
		if difference := describeDifference(reference, combined, "$"); difference != "" {
			t.Errorf("%q: decodeJSON differs at %s", document, difference)
		}
	}
	return fast, accepted
}

func beyondFastLimits(document string) bool {
	return strings.HasPrefix(document, strings.Repeat("[", maxFastDepth+1))
}

// describeDifference compares two decoded values exactly (types, float bits, key sets); "" when identical.
func describeDifference(want, got interface{}, path string) string {
	switch w := want.(type) {
	case nil:
		if got != nil {
			return fmt.Sprintf("%s: want null, got %T", path, got)
		}
	case bool:
		if g, ok := got.(bool); !ok || g != w {
			return fmt.Sprintf("%s: want %v, got %#v", path, w, got)
		}
	case float64:
		if g, ok := got.(float64); !ok || math.Float64bits(g) != math.Float64bits(w) {
			return fmt.Sprintf("%s: want %v, got %#v", path, w, got)
		}
	case string:
		if g, ok := got.(string); !ok || !bytes.Equal([]byte(g), []byte(w)) {
			return fmt.Sprintf("%s: want %q, got %#v", path, w, got)
		}
	case []interface{}:
		g, ok := got.([]interface{})
		if !ok || len(g) != len(w) || (g == nil) != (w == nil) {
			return fmt.Sprintf("%s: want array of %d, got %#v", path, len(w), got)
		}
		for i := range w {
			if difference := describeDifference(w[i], g[i], fmt.Sprintf("%s[%d]", path, i)); difference != "" {
				return difference
			}
		}
	case map[string]interface{}:
		g, ok := got.(map[string]interface{})
		if !ok || len(g) != len(w) || (g == nil) != (w == nil) {
			return fmt.Sprintf("%s: want object of %d keys, got %#v", path, len(w), got)
		}
		for key, value := range w {
			other, present := g[key]
			if !present {
				return fmt.Sprintf("%s: key %q missing", path, key)
			}
			if difference := describeDifference(value, other, path+"."+key); difference != "" {
				return difference
			}
		}
	default:
		return fmt.Sprintf("%s: unexpected reference type %T", path, want)
	}
	return ""
}

func unmarshalReference(document []byte, into *interface{}) error {
	return json.Unmarshal(document, into)
}

func TestDecodeExtraMatchesEncodingJSON(t *testing.T) {
	for _, document := range []string{`{"_gw_meta":{"tier":"gold"},"_gw_context":{"path_parts":["","a"]}}`, `{}`, `null`, `[1]`, `"x"`, `{`, `1`} {
		var want map[string]interface{}
		wantErr := json.Unmarshal([]byte(document), &want)
		got, gotErr := decodeExtra([]byte(document))
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%q: error %v, encoding/json %v", document, gotErr, wantErr)
		} else if difference := describeDifference(interface{}(want), interface{}(got), "$"); wantErr == nil && want != nil && difference != "" {
			t.Errorf("%q: differs at %s", document, difference)
		} else if (want == nil) != (got == nil) {
			t.Errorf("%q: nil map %v, encoding/json %v", document, got == nil, want == nil)
		}
	}
}

// A 1 KiB body like bench/json-body.ts's: decode only, fast decoder against encoding/json (native, not WebAssembly).
var benchmarkBody = []byte(`{"customer":{"id":42,"name":"Ada Lovelace","email":"ada@example.com","tier":"gold","address":{"street":"12 St James's Square","city":"London","zip":"SW1Y 4JH","country":"GB"}},"items":[` +
	strings.TrimSuffix(strings.Repeat(`{"id":1001,"sku":"SKU-1001","title":"Widget \u00e9 deluxe","qty":2,"price":19.99,"tags":["a","b"]},`, 6), ",") +
	`],"note":"leave at the door","paid":true,"coupon":null}`)

func BenchmarkDecodeFast(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := decodeJSON(benchmarkBody); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeEncodingJSON(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var v interface{}
		if err := json.Unmarshal(benchmarkBody, &v); err != nil {
			b.Fatal(err)
		}
	}
}
