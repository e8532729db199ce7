package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// TypedTool binds a handler that takes its arguments as a T (a generated
// argument type) to validate, the generated decoder that produces a *T
// (decode.Validator's, decode.Adapt's) from a call's raw arguments, or a T
// (a validator written by hand): the handler is called with the value
// validate decoded, only when it found no violation. Generated
// registration code binds every tool version with it.
func TypedTool[T any](handle func(ctx context.Context, call *Call, args T) (*Result, error), validate Validator) Tool {
	return Tool{
		Handler: func(ctx context.Context, call *Call) (*Result, error) {
			if v, ok := call.Value.(*T); ok {
				return handle(ctx, call, *v)
			}
			return handle(ctx, call, call.Value.(T))
		},
		Validate: validate,
	}
}

// Version is one tool version of a generated package: how to build its
// spec, and how to bind it to the package's Handler (H).
type Version[H any] struct {
	Spec func() estate.ToolSpec
	Bind func(h H) Tool
}

// Specs returns the specs of versions, in their order, as the registry
// publishes them: a lifecycle left empty is active.
func Specs[H any](versions []Version[H]) []estate.ToolSpec {
	specs := make([]estate.ToolSpec, len(versions))
	for i, v := range versions {
		specs[i] = v.Spec()
		specs[i].Lifecycle = specs[i].Lifecycle.OrActive()
	}
	return specs
}

// RegisterAll publishes every version into s's registry (the publish guard
// applies) and binds it to h, stopping at the first error. Every successor
// a version names (supersededBy) is checked first, against the registry
// and the versions themselves (estate.Registry.CheckSuccessors): one that
// names no newer version of the same tool refuses the whole set, before
// anything is published, so a server never tells its clients to move to
// a version it does not serve.
func RegisterAll[H any](s *Server, h H, versions []Version[H]) error {
	if err := s.registry.CheckSuccessors(Specs(versions)); err != nil {
		return err
	}
	for _, v := range versions {
		if err := s.Bind(v.Spec(), v.Bind(h)); err != nil {
			return err
		}
	}
	return nil
}

// RepairArguments applies schema.RepairJSON to raw arguments of the tool
// version name@version of versions (in publish order: by name, then
// version): the host-side repair of model-produced arguments. It returns
// the repaired arguments and the errors that remain, sorted.
func RepairArguments[H any](versions []Version[H], name, version string, raw []byte, defaults map[string]any) (repaired []byte, remaining schema.Errors, err error) {
	want, err := estate.ParseVersion(version)
	if err != nil {
		return nil, nil, fmt.Errorf("no tool version %s@%s in this package", name, version)
	}
	i, found := slices.BinarySearchFunc(versions, want, func(v Version[H], want estate.Version) int {
		s := v.Spec()
		if c := strings.Compare(s.Name, name); c != 0 {
			return c
		}
		return s.Version.Compare(want)
	})
	if !found {
		return nil, nil, fmt.Errorf("no tool version %s@%s in this package", name, version)
	}
	return schema.RepairJSON(raw, versions[i].Spec().InputSchema, defaults)
}
