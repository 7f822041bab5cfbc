// A Tyk gRPC plugin server for gw's tests: it compiles the coprocess .proto gw ships
// (src/gateway/plugins/grpc/coprocess.proto, given with -proto) at start and serves coprocess.Dispatcher
// over plain HTTP/2, as plugin servers written for Tyk Gateway do. Its hooks, by hook_name:
//
//	AddHeader          (pre)           sets the request header X-Grpc-Pre: added
//	TagSession         (post_key_auth) sets X-Grpc-Alias to the session's alias
//	AddParam           (post)          adds the query parameter grpc_post=added
//	CheckToken         (auth_check)    accepts Authorization: secret-token with a session of 2 requests per
//	                                   60 s on the calling API (alias grpc-user); anything else gets 403
//	                                   "Refused by the plugin"
//	CheckLogin         (auth_check)    for the ID extractor: accepts Authorization: let-me-in with a session of 3
//	                                   requests per 60 s on the calling API (alias cached-user) cached until
//	                                   id_extractor_deadline, 60 s ahead (1 s behind with X-Expire-Now: yes); sets
//	                                   X-Plugin-Calls to the number of CheckLogin calls so far; else 403
//	SetResponseHeader  (response)      adds the response header X-Grpc-Response: set
//
// It prints "listening <host:port>" on stdout once it accepts connections.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/bufbuild/protocompile"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

func main() {
	protoPath := flag.String("proto", "", "path of coprocess.proto")
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	flag.Parse()

	compiler := protocompile.Compiler{Resolver: &protocompile.SourceResolver{ImportPaths: []string{filepath.Dir(*protoPath)}}}
	files, err := compiler.Compile(context.Background(), filepath.Base(*protoPath))
	if err != nil {
		log.Fatalf("compiling %s: %v", *protoPath, err)
	}
	file := files[0]
	object := file.Messages().ByName("Object")
	eventReply := file.Messages().ByName("EventReply")
	event := file.Messages().ByName("Event")

	service := grpc.ServiceDesc{
		ServiceName: "coprocess.Dispatcher",
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{
			{
				MethodName: "Dispatch",
				Handler: func(_ any, _ context.Context, decode func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
					in := dynamicpb.NewMessage(object)
					if err := decode(in); err != nil {
						return nil, err
					}
					return dispatch(in, object)
				},
			},
			{
				MethodName: "DispatchEvent",
				Handler: func(_ any, _ context.Context, decode func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
					if err := decode(dynamicpb.NewMessage(event)); err != nil {
						return nil, err
					}
					return dynamicpb.NewMessage(eventReply), nil
				},
			},
		},
		Metadata: "coprocess.proto",
	}

	listener, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	server := grpc.NewServer()
	server.RegisterService(&service, struct{}{})
	fmt.Fprintf(os.Stdout, "listening %s\n", listener.Addr())
	if err := server.Serve(listener); err != nil {
		log.Fatal(err)
	}
}

var names = protojson.MarshalOptions{UseProtoNames: true}

// loginCalls counts the CheckLogin calls (the ID extractor's cache is seen in calls that did not happen).
var loginCalls atomic.Int64

// dispatch edits the Object as JSON (proto field names) and returns it.
func dispatch(in *dynamicpb.Message, desc protoreflect.MessageDescriptor) (any, error) {
	raw, err := names.Marshal(in)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	request := child(obj, "request")
	spec := child(obj, "spec")
	switch obj["hook_name"] {
	case "AddHeader":
		child(request, "set_headers")["X-Grpc-Pre"] = "added"
	case "TagSession":
		child(request, "set_headers")["X-Grpc-Alias"] = child(obj, "session")["alias"]
	case "AddParam":
		child(request, "add_params")["grpc_post"] = "added"
	case "CheckToken":
		if child(request, "headers")["Authorization"] == "secret-token" {
			apiID, _ := spec["APIID"].(string)
			obj["session"] = map[string]any{
				"rate":          2,
				"per":           60,
				"alias":         "grpc-user",
				"access_rights": map[string]any{apiID: map[string]any{"api_id": apiID, "versions": []string{"Default"}}},
				"metadata":      map[string]any{"token": "secret-token"},
			}
			child(obj, "metadata")["token"] = "secret-token"
		} else {
			child(request, "return_overrides")["response_code"] = 403
			child(request, "return_overrides")["response_error"] = "Refused by the plugin"
		}
	case "CheckLogin":
		headers := child(request, "headers")
		if headers["Authorization"] != "let-me-in" {
			child(request, "return_overrides")["response_code"] = 403
			child(request, "return_overrides")["response_error"] = "Refused by the plugin"
			break
		}
		calls := loginCalls.Add(1)
		deadline := time.Now().Add(60 * time.Second).Unix()
		if headers["X-Expire-Now"] == "yes" {
			deadline = time.Now().Add(-time.Second).Unix()
		}
		apiID, _ := spec["APIID"].(string)
		obj["session"] = map[string]any{
			"rate":                  3,
			"per":                   60,
			"alias":                 "cached-user",
			"id_extractor_deadline": strconv.FormatInt(deadline, 10),
			"access_rights":         map[string]any{apiID: map[string]any{"api_id": apiID, "versions": []string{"Default"}}},
		}
		child(obj, "metadata")["token"] = "let-me-in"
		child(request, "set_headers")["X-Plugin-Calls"] = strconv.FormatInt(calls, 10)
	case "SetResponseHeader":
		response := child(obj, "response")
		headers, _ := response["multivalue_headers"].([]any)
		response["multivalue_headers"] = append(headers, map[string]any{"key": "X-Grpc-Response", "values": []string{"set"}})
	}
	edited, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	out := dynamicpb.NewMessage(desc)
	if err := protojson.Unmarshal(edited, out); err != nil {
		return nil, err
	}
	return out, nil
}

// child is the object under key, created when absent.
func child(parent map[string]any, key string) map[string]any {
	if existing, ok := parent[key].(map[string]any); ok {
		return existing
	}
	created := map[string]any{}
	parent[key] = created
	return created
}
