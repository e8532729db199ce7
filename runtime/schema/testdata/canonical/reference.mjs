// Independent reference for the canonical JSON form and the schema hash.
//
// This script, not the Go code it checks, produces vectors.json: JavaScript's
// own JSON.parse reads each input, keys are ordered by JavaScript's default
// sort (UTF-16 code units, as RFC 8785 prescribes), numbers are printed by
// String(n) (ECMAScript Number::toString, the RFC 8785 number form), strings
// by JSON.stringify (the RFC 8785 string form), and the hash is FNV-1a 64
// computed with BigInt over the UTF-8 bytes of the canonical text.
//
//   node reference.mjs          rewrite vectors.json next to this script
//   node reference.mjs --check  exit 1 if vectors.json differs from what
//                               this script generates
//
// Every input is raw JSON text, so the vectors also exercise the decoder:
// escapes, whitespace and number spellings that must all disappear.

import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cases = [
  // Structure.
  ["empty object", "{}"],
  ["empty array", "[]"],
  ["empty containers nested, with whitespace", ' { "b" : { } , "a" : [ ] } '],
  ["literals", "[ true , false , null ]"],
  ["top-level string", '"text"'],
  ["top-level null", "null"],
  ["top-level integer", "42"],
  ["deep array nesting", "[[[[[]]]]]"],
  ["arrays keep their order", '[3, 1, 2, [{"b": 0, "a": 0}], "b", "a"]'],

  // Key order.
  ["keys sorted", '{"b": 1, "a": 2, "c": 3}'],
  ["keys sorted by code unit, not length or case", '{"aa": 1, "b": 2, "a": 3, "B": 4, "_": 5, "": 6, "A": 7}'],
  ["keys sorted at every depth", '{"z": {"y": {"b": 1, "a": 2}, "x": [{"d": 1, "c": 2}]}, "a": null}'],
  ["keys with escapes sort by their decoded text", '{"a\\\\b": 1, "a\\"b": 2, "a\\nb": 3, "a": 4}'],
  ["control-character keys", '{"\\u0001": 1, "\\u0000": 2, " ": 3}'],

  // Unicode keys: UTF-16 order differs from code point order between
  // characters above U+FFFF and those in U+E000..U+FFFF.
  ["astral key sorts before U+FB01 (literal text)", '{"\uFB01": 1, "\u{1F600}": 2, "z": 3, "\u00e9": 4}'],
  ["astral key sorts before U+FB01 (escaped text)", '{"\\uFB01": 1, "\\ud83d\\ude00": 2, "z": 3, "\\u00e9": 4}'],
  ["U+10000 sorts before U+E000", '{"\\ue000": 1, "\\ud800\\udc00": 2}'],
  ["U+FFFF versus an astral character after a common prefix", '{"a\\uffff": 1, "a\\ud83d\\ude00": 2, "a": 3}'],
  ["astral keys among themselves", '{"\\ud83d\\ude01": 1, "\\ud83d\\ude00": 2, "\\ud800\\udc00": 3}'],
  ["U+D7FF sorts before an astral character", '{"\\ud83d\\ude00": 1, "\\ud7ff": 2}'],

  // Strings.
  ["control characters", '"\\u0000\\u0001\\u001f\\u0008\\u000C\\u000a\\u000D\\u0009"'],
  ["short escapes stay short", '"\\b\\f\\n\\r\\t"'],
  ["quote and backslash", '"\\"\\\\ \\u0022\\u005C"'],
  ["solidus escape is dropped", '"\\/a\\/b/"'],
  ["DEL is not escaped", '"\\u007f"'],
  ["e-acute written as an escape", '"\\u00e9"'],
  ["e-acute written as an upper-case escape", '"\\u00E9"'],
  ["e-acute written literally", '"\u00e9"'],
  ["combining accent is not normalised", '"e\\u0301"'],
  ["surrogate pair written as escapes", '"\\ud83d\\ude00"'],
  ["surrogate pair written as upper-case escapes", '"\\uD83D\\uDE00"'],
  ["astral character written literally", '"\u{1F600}"'],
  ["line and paragraph separators are not escaped", '"\\u2028\\u2029"'],
  ["mixed scripts", '"Zürich \\u65e5\\u672c \u0627\u0644\u0639\u0631\u0628\u064a\u0629"'],

  // Numbers that are spelled differently but are the same number.
  ["one", "1"],
  ["one as 1.0", "1.0"],
  ["one as 1e0", "1e0"],
  ["one as 1E0", "1E0"],
  ["one as 10e-1", "10e-1"],
  ["one as 0.1e1", "0.1e1"],
  ["one as 1.000", "1.000"],
  ["ones in an array", "[1, 1.0, 1e0, 10e-1, 0.1e1, 100e-2]"],
  ["minus zero", "-0"],
  ["minus zero as -0.0", "-0.0"],
  ["zero with an exponent", "0e10"],
  ["1e21", "1e21"],
  ["1e+21", "1e+21"],
  ["1E21", "1E21"],
  ["1e20 prints in full", "1e20"],
  ["1e-7", "1e-7"],
  ["1e-6 prints as a decimal", "1e-6"],
  ["1.5e-7", "1.5e-7"],
  ["0.000001234", "0.000001234"],
  ["123456789012345680000", "123456789012345680000"],
  ["123456789012345678901 rounds to a double", "123456789012345678901"],
  ["999999999999999900000", "999999999999999900000"],
  ["large integer beyond 1e21", "123456789012345678901234567890"],
  ["2^53 + 1 rounds to 2^53", "9007199254740993"],
  ["0.1", "0.1"],
  ["0.30000000000000004", "0.30000000000000004"],
  ["a third", "0.333333333333333314829616256247390992939472198486328125"],
  ["smallest subnormal", "5e-324"],
  ["largest double", "1.7976931348623157e308"],
  ["1e100", "1e100"],
  ["negative fraction", "-1.5"],
  ["negative exponent form", "-1e-7"],
  ["exponent folds into digits", "12345.678e3"],
  ["100 as 1e2", "1e2"],
  ["4.35", "4.35"],
  ["1.0000000000000002", "1.0000000000000002"],

  // Whitespace.
  ["whitespace everywhere", '\t\n\r {\n\t"b" :\r\n [ 1 ,\t2 ] ,"a"\t: "x y\\t" , "c" : { "d" : null } } \n'],

  // The sample estate's payments schemas, written as Python's json.dumps would.
  ["PAYMENT_LOOKUP_SCHEMA", '{"type": "object", "properties": {"reference": {"type": "string", "pattern": "^PMT-\\\\d{3,}$"}, "include_legs": {"type": "boolean"}}, "required": ["reference"], "additionalProperties": false}'],
  ["PAYMENT_RELEASE_SCHEMA", '{"type": "object", "properties": {"reference": {"type": "string", "pattern": "^PMT-\\\\d{3,}$"}, "amount_minor": {"type": "integer", "minimum": 1}, "currency": {"type": "string", "enum": ["AED", "USD", "EUR"]}}, "required": ["reference", "amount_minor", "currency"], "additionalProperties": false}'],
];

function canonical(v) {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return String(v);
    case "number":
      if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
      return String(v);
    case "string":
      if (/\p{Surrogate}/u.test(v)) throw new Error("lone surrogate in a string");
      return JSON.stringify(v);
    case "object":
      if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
      return "{" + Object.keys(v).sort().map((k) => canonical(k) + ":" + canonical(v[k])).join(",") + "}";
  }
  throw new Error(`not a JSON value: ${typeof v}`);
}

function fnv1a64(text) {
  const prime = 0x100000001b3n;
  const mask = 0xffffffffffffffffn;
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= BigInt(byte);
    h = (h * prime) & mask;
  }
  return "fnv1a64:" + h.toString(16).padStart(16, "0");
}

const names = new Set();
const vectors = cases.map(([name, input]) => {
  if (names.has(name)) throw new Error(`duplicate vector name: ${name}`);
  names.add(name);
  const text = canonical(JSON.parse(input));
  return { name, input, canonical: text, hash: fnv1a64(text) };
});

const out = JSON.stringify(vectors, null, 2) + "\n";
const file = fileURLToPath(new URL("vectors.json", import.meta.url));
if (process.argv.includes("--check")) {
  if (readFileSync(file, "utf8") !== out) {
    console.error("vectors.json is not what reference.mjs generates; run: node reference.mjs");
    process.exit(1);
  }
} else {
  writeFileSync(file, out);
}
