package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// call is one entry of a calls.json: the arguments of one valid and one
// invalid tools/call of a tool.
type call struct {
	Valid   any
	Invalid any
}

// readCalls reads a calls.json: a JSON object from tool name to
// {"valid": {...}, "invalid": {...}}, its keys sorted (so also unique).
// Numbers are kept as json.Number, as the validator reads them.
func readCalls(path string) (map[string]call, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	names, err := topKeys(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !sort.StringsAreSorted(names) {
		return nil, fmt.Errorf("%s: tool names are not sorted", path)
	}
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			return nil, fmt.Errorf("%s: %q twice", path, names[i])
		}
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	calls := map[string]call{}
	for name, v := range doc.(map[string]any) {
		entry, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: %q is not an object", path, name)
		}
		valid, hasValid := entry["valid"]
		invalid, hasInvalid := entry["invalid"]
		if !hasValid || !hasInvalid || len(entry) != 2 {
			return nil, fmt.Errorf("%s: %q must have exactly the members valid and invalid", path, name)
		}
		calls[name] = call{valid, invalid}
	}
	return calls, nil
}

// topKeys returns the member names of the JSON object in b, in file order.
func topKeys(b []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil {
		return nil, err
	} else if tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var names []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		names = append(names, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// checkCall validates the two calls of one tool against its inputSchema,
// compiled with the ECMA-262 engine (sch) and, where the schema compiles
// with it, with Go's regexp (re2; nil otherwise): valid must validate and
// invalid must not, with either engine, so neither depends on where the
// two dialects differ. Both must be objects (tool arguments are an object).
// Every integer in valid must be written without a fraction or exponent and
// fit in int64. It returns the problems found, and what invalid breaks (with
// sch): one "/instance/location: keyword" per leaf error, sorted.
func checkCall(sch, re2 *jsonschema.Schema, c call) (problems, breaks []string) {
	if _, ok := c.Valid.(map[string]any); !ok {
		problems = append(problems, "valid is not an object")
	}
	if _, ok := c.Invalid.(map[string]any); !ok {
		problems = append(problems, "invalid is not an object")
	}
	problems = append(problems, integerProblems(c.Valid, "valid")...)
	engines := []struct {
		sch  *jsonschema.Schema
		name string
	}{{sch, ""}, {re2, " with Go's regexp"}}
	for _, e := range engines {
		if e.sch == nil {
			continue
		}
		if err := e.sch.Validate(c.Valid); err != nil {
			problems = append(problems, "valid does not validate"+e.name+": "+strings.Join(leafErrors(err), ", "))
		}
		if err := e.sch.Validate(c.Invalid); err == nil {
			problems = append(problems, "invalid validates"+e.name)
		} else if e.sch == sch {
			breaks = leafErrors(err)
		}
	}
	return problems, breaks
}

// leafErrors lists the innermost errors of a validation error, one
// "/instance/location: keyword/path" each, sorted, without repeats.
func leafErrors(err error) []string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{err.Error()}
	}
	var out []string
	seen := map[string]bool{}
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			kw := strings.Join(e.ErrorKind.KeywordPath(), "/")
			if kw == "" { // the schema false, say
				kw = strings.TrimPrefix(fmt.Sprintf("%T", e.ErrorKind), "*kind.")
			}
			s := "/" + strings.Join(e.InstanceLocation, "/") + ": " + kw
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Strings(out)
	return out
}

// integerProblems reports every number in v that is an integer written with
// a fraction or an exponent (5.0, 5e0), or an integer outside int64.
func integerProblems(v any, at string) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, integerProblems(v[k], at+"/"+k)...)
		}
	case []any:
		for i, x := range v {
			out = append(out, integerProblems(x, at+"/"+strconv.Itoa(i))...)
		}
	case json.Number:
		s := string(v)
		if strings.ContainsAny(s, ".eE") {
			if r, ok := new(big.Rat).SetString(s); ok && r.IsInt() {
				out = append(out, fmt.Sprintf("%s: integer %s written with a fraction or exponent", at, s))
			}
		} else if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			out = append(out, fmt.Sprintf("%s: integer %s outside int64", at, s))
		}
	}
	return out
}
