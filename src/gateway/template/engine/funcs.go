// The template function map, exactly Tyk's (apidef.Template): sprig v3's GenericFuncMap without env and
// expandenv, plus jsonMarshal (encoding/json's output, so <, > and & are escaped as \u003c...; json_encode.go) and
// xmlMarshal (a map through mxj with escaping on, anything else through encoding/xml indented).
package main

import (
	"encoding/xml"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	"github.com/clbanning/mxj"
)

func funcMap() template.FuncMap {
	funcs := template.FuncMap{}
	for name, fn := range sprig.GenericFuncMap() {
		funcs[name] = fn
	}
	delete(funcs, "env")
	delete(funcs, "expandenv")
	funcs["jsonMarshal"] = jsonMarshal
	funcs["xmlMarshal"] = xmlMarshal
	return funcs
}

func jsonMarshal(v interface{}) (string, error) {
	out, err := marshalJSON(v) // json.Marshal, byte for byte (json_encode.go)
	return string(out), err
}

func xmlMarshal(v interface{}) (string, error) {
	var out []byte
	var err error
	switch value := v.(type) {
	case mxj.Map:
		mxj.XMLEscapeChars(true)
		out, err = value.Xml()
	case map[string]interface{}:
		mxj.XMLEscapeChars(true)
		out, err = mxj.Map(value).Xml()
	default:
		out, err = xml.MarshalIndent(v, "", "  ")
	}
	return string(out), err
}

var sharedFuncs = funcMap()

func parseTemplate(name, source string) (*template.Template, error) {
	return template.New(name).Funcs(sharedFuncs).Parse(source)
}
