// The official TypeScript SDK client confirms a release of bankpayments
// through elicitation, on the revision it speaks (2025-11-25), against a
// bankpayments served over Streamable HTTP with -insecure-dev as a
// principal who may release payments.
//
//   node elicit.mjs <endpoint URL>
//
// A release cannot be undone, so the service asks the user to confirm it
// (elicitation/create, form mode) before it acts: a client that confirms
// releases, one that declines does not, and one that declares no
// elicitation capability is refused. It prints one line per check and
// exits 1 if any failed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { check, finish, text } from "./check.mjs";

const [url] = process.argv.slice(2);
if (!url) {
  console.error("usage: node elicit.mjs <endpoint URL>");
  process.exit(2);
}


// release calls payments.release as a client answering each elicitation
// with answer (none: no elicitation capability), and returns the result
// and the questions it was asked.
async function release(answer) {
  const asked = [];
  const client = new Client({ name: "interop-ts", version: "1.0.0" }, { capabilities: answer ? { elicitation: { form: {} } } : {} });
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push(req.params);
      return answer;
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(url));
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: "payments.release", arguments: { reference: "PMT-771", amount_minor: 250000, currency: "AED" } });
    return { result, asked, revision: transport.protocolVersion };
  } finally {
    await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
  }
}

try {
  const confirmed = await release({ action: "accept", content: { confirm: true } });
  const q = confirmed.asked[0] ?? {};
  check("the revision is 2025-11-25", confirmed.revision === "2025-11-25", confirmed.revision);
  check(
    "the user is asked, in form mode, about this payment",
    confirmed.asked.length === 1 && q.mode === "form" && q.message.startsWith("Release PMT-771: 250000 AED") && q.requestedSchema?.properties?.confirm?.type === "boolean",
    confirmed.asked,
  );
  check("a confirmed release happens", !confirmed.result.isError && text(confirmed.result.content) === "PMT-771 released", confirmed.result);

  const declined = await release({ action: "decline" });
  check(
    "a declined release does not",
    declined.result.isError === true && text(declined.result.content) === "PMT-771 was not released: the user did not confirm (decline)",
    declined.result,
  );

  const unasked = await release(undefined);
  check(
    "a client that cannot ask is refused",
    unasked.asked.length === 0 && unasked.result.isError === true && text(unasked.result.content).includes("this client cannot ask for it"),
    unasked.result,
  );
} catch (err) {
  check("session", false, String(err?.stack ?? err));
}

finish("ts-elicit");
