package check

import (
	"fmt"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen/gen/manifest"
	"github.com/mcpgen/mcpgen/gen/record"
)

// RecordFindings compares the estate record the change leaves in the work
// tree (work, nil when there is none; file is its path) with the
// baseline's. Only generate writes a record, and a record only grows and
// moves lifecycles forward; so a record missing, or one that drops or
// rewrites a version the baseline recorded, is how a change would hide a
// breaking edit from a gate that read the work tree. Each is an error.
func RecordFindings(base *record.Baseline, work *record.Record, file string) []Finding {
	if base == nil || !base.Found || !base.InGit {
		return nil
	}
	at := base.Ref
	if work == nil {
		return []Finding{{Rule: RuleRecordMissing, Level: Error, Pos: manifest.Pos{File: file},
			Message: fmt.Sprintf("the estate record is missing, while %s had one with %s: regenerate the package from the manifests; never delete the record", at, Count(len(base.Record.Tools), "version"))}}
	}
	index := map[string]record.Entry{}
	for _, e := range work.Tools {
		index[e.Key()] = e
	}
	lines := entryLines(file)
	var out []Finding
	for _, old := range base.Record.Tools {
		cur, ok := index[old.Key()]
		if !ok {
			out = append(out, Finding{Rule: RuleRecordRewritten, Level: Error, Tool: old.Key(), Pos: manifest.Pos{File: file},
				Message: fmt.Sprintf("recorded at %s, dropped from the estate record: history is append-only", at)})
			continue
		}
		a, errA := old.Spec()
		b, errB := cur.Spec()
		var changed []string
		if errA != nil || errB != nil {
			changed = []string{"the entry"}
		} else {
			changed = record.ContractChanges(a, b)
		}
		if len(changed) > 0 {
			pos, ok := lines[old.Key()]
			if !ok {
				pos = manifest.Pos{File: file}
			}
			out = append(out, Finding{Rule: RuleRecordRewritten, Level: Error, Tool: old.Key(), Pos: pos,
				Message: fmt.Sprintf("%s rewritten in the estate record since %s: a published contract never changes", strings.Join(changed, ", "), at)})
		}
	}
	return out
}

// entryLines finds where each entry of a record file is (its "version"
// line), so a finding about it points there. Record.Marshal writes one key
// a line, an entry's name before its version; a file laid out otherwise
// gets findings at the file.
func entryLines(file string) map[string]manifest.Pos {
	out := map[string]manifest.Pos{}
	data, err := os.ReadFile(file)
	if err != nil {
		return out
	}
	name := ""
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(t, `"name": `); ok {
			name = strings.Trim(strings.TrimSuffix(v, ","), `"`)
		}
		if v, ok := strings.CutPrefix(t, `"version": `); ok && name != "" {
			key := name + "@" + strings.Trim(strings.TrimSuffix(v, ","), `"`)
			out[key] = manifest.Pos{File: file, Line: i + 1, Col: strings.Index(line, `"version"`) + 1}
		}
	}
	return out
}
