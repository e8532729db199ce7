// What the client scripts share: one line per check, and the exit code.
let passed = 0;
let failed = 0;

// check prints name as passed when ok, or as failed with detail.
export function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok    ${name}`);
  } else {
    failed++;
    console.log(`FAIL  ${name}: ${JSON.stringify(detail)}`);
  }
}

// text joins the text blocks of a result's content.
export const text = (content) => content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

// finish prints the tally under label and exits 1 if any check failed.
export function finish(label) {
  console.log(`${label}: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}
