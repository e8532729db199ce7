package gen

import (
	"fmt"
	"path/filepath"

	"github.com/mcpgen/mcpgen/gen/check"
	"github.com/mcpgen/mcpgen/gen/record"
)

// Changelog is mcpgen changelog: what changed in the estate of the
// generated package in out between the git revision from and the revision
// to, or the work tree's record when to is "". Both sides are estate
// records, read as the gate reads its baseline (record.ResolveBaseline: a
// missing revision, or one a shallow clone lacks, is an error), so the
// changelog describes what was published, not what manifests propose.
func Changelog(out, from, to string) (*check.Changelog, error) {
	if from == "" {
		return nil, fmt.Errorf("a revision to start from is required")
	}
	before, err := record.ResolveBaseline(out, from)
	if err != nil {
		return nil, err
	}
	fromSpecs, err := before.Record.Specs()
	if err != nil {
		return nil, err
	}
	var toRecord *record.Record
	var toText string
	if to == "" {
		file := filepath.Join(out, record.FileName)
		r, found, err := record.WorkTree(out)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("no estate record at %s: generate the package, or name a revision with -to", file)
		}
		toRecord, toText = r, file+" in the work tree"
	} else {
		after, err := record.ResolveBaseline(out, to)
		if err != nil {
			return nil, err
		}
		toRecord, toText = after.Record, after.String()
	}
	toSpecs, err := toRecord.Specs()
	if err != nil {
		return nil, err
	}
	cl := check.NewChangelog(fromSpecs, toSpecs)
	cl.From, cl.To = before.String(), toText
	return cl, nil
}
