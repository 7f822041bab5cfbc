// Differential test of json_encode.go against json.Marshal: on the decoded documents of json_decode_test.go's corpus,
// every single-byte and several multi-byte strings, random float64 bit patterns and the format boundaries, nil maps
// and slices, and values of other types (which must fall back), marshalJSON's bytes and error equal json.Marshal's.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/clbanning/mxj"
)

func assertMarshalsAsEncodingJSON(t *testing.T, v interface{}) {
	t.Helper()
	want, wantErr := json.Marshal(v)
	got, gotErr := marshalJSON(v)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !bytes.Equal(got, want) {
		t.Errorf("%#v: marshalJSON %q (%v), json.Marshal %q (%v)", v, got, gotErr, want, wantErr)
	}
}

func TestFastEncoderMatchesEncodingJSON(t *testing.T) {
	fastPathUsed := 0
	for _, document := range trickyDocuments {
		var decoded interface{}
		if json.Unmarshal([]byte(document), &decoded) == nil {
			assertMarshalsAsEncodingJSON(t, decoded)
			assertMarshalsAsEncodingJSON(t, map[string]interface{}{document: decoded})
			if _, ok := appendJSONFast(nil, decoded, 0); ok {
				fastPathUsed++
			}
		}
	}
	if fastPathUsed < 30 {
		t.Errorf("the fast encoder took only %d decoded documents (it would only fall back)", fastPathUsed)
	}
	for b := 0; b < 256; b++ {
		assertMarshalsAsEncodingJSON(t, string([]byte{'a', byte(b), 'z'}))
	}
	for _, s := range []string{"\u2028\u2029", "\u2027\u202a", "<script>&amp;</script>", "\xed\xa0\x80", "\xf0\x9f\x98", "😀é中", "\x7f", ""} {
		assertMarshalsAsEncodingJSON(t, s)
		assertMarshalsAsEncodingJSON(t, map[string]interface{}{s: s})
	}
	random := rand.New(rand.NewSource(1))
	floats := []float64{0, math.Copysign(0, -1), 1e-6, math.Nextafter(1e-6, 0), 1e21, math.Nextafter(1e21, 0), 1e-7, 1e-10, 1e-100,
		5e-324, math.MaxFloat64, -1e21, 123456789, 0.1, 1.5, math.NaN(), math.Inf(1), math.Inf(-1)}
	for i := 0; i < 20000; i++ {
		floats = append(floats, math.Float64frombits(random.Uint64()))
	}
	for _, f := range floats {
		assertMarshalsAsEncodingJSON(t, f)
	}
	cycle := map[string]interface{}{}
	cycle["self"] = cycle
	for _, v := range []interface{}{
		map[string]interface{}(nil), []interface{}(nil), []interface{}{}, map[string]interface{}{},
		map[string]interface{}{"b": 1, "a": []interface{}{nil, true, false, "x"}}, // int: falls back
		[]interface{}{map[string]interface{}{"z": 1.0, "a": 2.0, "A": 3.0, "é": 4.0, "": 5.0}},
		mxj.Map{"a": "b"}, struct{ A string }{"x"}, []string{"a"}, 3, int64(-4), float32(0.1), cycle,
	} {
		assertMarshalsAsEncodingJSON(t, v)
	}
}

func BenchmarkMarshalFast(b *testing.B) {
	var body interface{}
	_ = json.Unmarshal(benchmarkBody, &body)
	for i := 0; i < b.N; i++ {
		if _, err := marshalJSON(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalEncodingJSON(b *testing.B) {
	var body interface{}
	_ = json.Unmarshal(benchmarkBody, &body)
	for i := 0; i < b.N; i++ {
		if _, err := json.Marshal(body); err != nil {
			b.Fatal(err)
		}
	}
}
