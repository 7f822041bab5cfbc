// A request body as Tyk hands it to a template (gateway/mw_transform.go): a JSON object as itself, a JSON
// array under "array", an empty body as {}; XML through mxj.NewMapXml (attributes "-name", text "#text", leaves
// strings, repeated siblings a list), an empty XML body read as <_/>.
package main

import (
	"errors"

	"github.com/clbanning/mxj"
)

const (
	formatJSON = 0
	formatXML  = 1
)

func decodeBody(body []byte, format uint32) (map[string]interface{}, error) {
	switch format {
	case formatXML:
		if len(body) == 0 {
			body = []byte("<_/>")
		}
		mxj.XMLEscapeChars(true)
		parsed, err := mxj.NewMapXml(body)
		if err != nil {
			return nil, errors.New("error unmarshalling XML: " + err.Error())
		}
		return parsed, nil
	case formatJSON:
		if len(body) == 0 {
			body = []byte("{}")
		}
		parsed, err := decodeJSON(body)
		if err != nil {
			return nil, err
		}
		data := map[string]interface{}{}
		switch value := parsed.(type) {
		case []interface{}:
			data["array"] = value
		case map[string]interface{}:
			data = value
		}
		return data, nil
	}
	return nil, errors.New("unsupported input format")
}
