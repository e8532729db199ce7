package schema

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Validate checks v (a JSON value, see value.go) against s and returns every
// error, sorted by (path, message); nil when v is valid. It never stops at the
// first error: a repair turn should fix everything at once. After a type error
// nothing further is checked for that value, since every further message would
// be noise.
//
// This is the reference validator. Generated validators implement the same
// semantics in straight-line code and are tested against it.
func (s *Schema) Validate(v any) Errors {
	var errs Errors
	s.validate(v, "$", &errs)
	SortErrors(errs)
	return errs
}

// ValidateJSON decodes data and validates it. A decoding failure is returned
// as the error, separately from validation errors.
func (s *Schema) ValidateJSON(data []byte) (Errors, error) {
	v, err := DecodeJSON(data)
	if err != nil {
		return nil, err
	}
	return s.Validate(v), nil
}

// ValidateAt appends the errors of v, found at path, to errs, unsorted.
// Generated validators call it for the parts of a schema they do not
// decode into a Go type of their own (type unions, untyped values); the
// caller sorts once at the end.
func (s *Schema) ValidateAt(v any, path string, errs *Errors) { s.validate(v, path, errs) }

func (s *Schema) validate(v any, path string, errs *Errors) {
	k := KindOf(v)
	if !s.Allows(k) {
		*errs = append(*errs, ValidationError{path, MsgType(s.Types, k)})
		return
	}
	if msg := s.rangeError(v, k); msg != "" {
		*errs = append(*errs, ValidationError{path, msg})
		return
	}
	if s.HasConst && !Equal(v, s.Const) {
		*errs = append(*errs, ValidationError{path, MsgConst(s.Const)})
	}
	if s.HasEnum && !inEnum(v, s.Enum) {
		*errs = append(*errs, ValidationError{path, MsgEnum(s.Enum)})
	}
	switch k {
	case KindString:
		s.validateString(v.(string), path, errs)
	case KindInteger, KindNumber:
		f, _ := NumberValue(v)
		s.validateNumber(f, path, errs)
	case KindObject:
		s.validateObject(v.(map[string]any), path, errs)
	case KindArray:
		s.validateArray(v.([]any), path, errs)
	}
}

// rangeError is the check that follows the type check for numbers: a typed
// schema promises its Go type, int64 for an integer-only schema and float64
// for a number, and a literal that type cannot hold is refused (and, like a
// type error, ends the checks of that value). Untyped schemas hold the
// literal as written and have no range.
func (s *Schema) rangeError(v any, k Kind) string {
	n, ok := v.(json.Number)
	if !ok || len(s.Types) == 0 || (k != KindInteger && k != KindNumber) {
		return ""
	}
	number := slices.Contains(s.Types, KindNumber)
	if k == KindInteger && !number {
		if _, err := strconv.ParseInt(string(n), 10, 64); err != nil {
			return MsgIntegerRange
		}
		return ""
	}
	if _, err := strconv.ParseFloat(string(n), 64); err != nil {
		return MsgNumberRange
	}
	return ""
}

func inEnum(v any, values []any) bool {
	for _, e := range values {
		if Equal(v, e) {
			return true
		}
	}
	return false
}

func (s *Schema) validateString(v, path string, errs *Errors) {
	if s.MinLength != nil || s.MaxLength != nil {
		n := utf8.RuneCountInString(v)
		if s.MinLength != nil && n < *s.MinLength {
			*errs = append(*errs, ValidationError{path, MsgMinLength(*s.MinLength)})
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			*errs = append(*errs, ValidationError{path, MsgMaxLength(*s.MaxLength)})
		}
	}
	if s.Regexp != nil && !s.Regexp.MatchString(v) {
		*errs = append(*errs, ValidationError{path, MsgPattern(s.Pattern)})
	}
}

func (s *Schema) validateNumber(f float64, path string, errs *Errors) {
	if s.Minimum != nil && f < s.Minimum.Value {
		*errs = append(*errs, ValidationError{path, MsgMinimum(s.Minimum)})
	}
	if s.Maximum != nil && f > s.Maximum.Value {
		*errs = append(*errs, ValidationError{path, MsgMaximum(s.Maximum)})
	}
	if s.ExclusiveMinimum != nil && f <= s.ExclusiveMinimum.Value {
		*errs = append(*errs, ValidationError{path, MsgExclusiveMinimum(s.ExclusiveMinimum)})
	}
	if s.ExclusiveMaximum != nil && f >= s.ExclusiveMaximum.Value {
		*errs = append(*errs, ValidationError{path, MsgExclusiveMaximum(s.ExclusiveMaximum)})
	}
}

func (s *Schema) validateObject(v map[string]any, path string, errs *Errors) {
	for _, name := range s.Required {
		if _, ok := v[name]; !ok {
			*errs = append(*errs, ValidationError{PropertyPath(path, name), MsgRequired})
		}
	}
	for _, name := range s.PropertyNames {
		if pv, ok := v[name]; ok {
			s.Properties[name].validate(pv, PropertyPath(path, name), errs)
		}
	}
	if !s.Closed && s.AdditionalProperties == nil {
		return
	}
	for name, pv := range v {
		if _, declared := s.Properties[name]; declared {
			continue
		}
		if s.Closed {
			*errs = append(*errs, ValidationError{PropertyPath(path, name), MsgAdditional})
		} else {
			s.AdditionalProperties.validate(pv, PropertyPath(path, name), errs)
		}
	}
}

func (s *Schema) validateArray(v []any, path string, errs *Errors) {
	if s.MinItems != nil && len(v) < *s.MinItems {
		*errs = append(*errs, ValidationError{path, MsgMinItems(*s.MinItems)})
	}
	if s.MaxItems != nil && len(v) > *s.MaxItems {
		*errs = append(*errs, ValidationError{path, MsgMaxItems(*s.MaxItems)})
	}
	if s.UniqueItems && !Unique(v) {
		*errs = append(*errs, ValidationError{path, MsgUnique})
	}
	if s.Items != nil {
		for i, e := range v {
			s.Items.validate(e, IndexPath(path, i), errs)
		}
	}
}

// Unique reports whether no two elements of v are equal JSON values, by
// Equal (1 and 1.0 are equal; objects compare without regard to key order).
// The canonical form buckets the elements; Equal decides within a bucket, so
// two integers beyond 2^53 that share a canonical form stay distinct.
func Unique(v []any) bool {
	if len(v) < 2 {
		return true
	}
	buckets := make(map[string][]any, len(v))
	for _, e := range v {
		key, err := CanonicalJSON(e)
		if err != nil {
			key = nil // not JSON: everything such shares one bucket
		}
		for _, other := range buckets[string(key)] {
			if Equal(e, other) {
				return false
			}
		}
		buckets[string(key)] = append(buckets[string(key)], e)
	}
	return true
}
