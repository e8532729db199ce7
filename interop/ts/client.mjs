// The official TypeScript SDK client against a running bankpayments served
// over Streamable HTTP with -insecure-dev as the payments investigator.
//
//   node client.mjs <endpoint URL> <server pid> <lifecycle file>
//
// It holds the session every client must be able to hold: the handshake,
// authorization-filtered discovery, a good call, a bad call carrying every
// validation error, resources, prompts, a tools/list_changed notification
// after an estate change (the lifecycle file rewritten, then SIGHUP), and
// the session's end with DELETE. It prints one line per check and exits 1
// if any failed.
import { writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { check, finish, text } from "./check.mjs";

const [url, pid, lifecycle] = process.argv.slice(2);
if (!url || !pid || !lifecycle) {
  console.error("usage: node client.mjs <endpoint URL> <server pid> <lifecycle file>");
  process.exit(2);
}

const names = (tools) => tools.map((t) => t.name).join(",");

const client = new Client({ name: "interop-ts", version: "1.0.0" }, { capabilities: {} });
let changed;
const listChanged = new Promise((resolve) => (changed = resolve));
client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
const transport = new StreamableHTTPClientTransport(new URL(url));

try {
  await client.connect(transport);
  const server = client.getServerVersion();
  check("initialize", server?.name === "bank-payments-mcp" && transport.sessionId, { server, session: transport.sessionId });

  const { tools } = await client.listTools();
  check("tools/list is filtered by authorization", names(tools) === "crm.notes.append,payments.lookup", names(tools));
  const lookup = tools.find((t) => t.name === "payments.lookup");
  check("tools/list entry carries version and schema hash", lookup?._meta?.version === "3.0.0" && /^fnv1a64:[0-9a-f]{16}$/.test(lookup?._meta?.schemaHash ?? ""), lookup?._meta);

  const good = await client.callTool({ name: "payments.lookup", arguments: { reference: "PMT-771", as_of: "2026-03-31" } });
  check("good call", !good.isError && text(good.content) === "PMT-771: HELD, 250000 AED, beneficiary 'Acme Trading FZE'", good);

  const bad = await client.callTool({ name: "payments.lookup", arguments: { reference: "771", include_legs: "yes" } });
  const errors = bad._meta?.errors ?? [];
  check(
    "bad call carries every validation error",
    bad.isError === true && errors.length >= 3 && errors.every((e) => text(bad.content).includes(e)) && errors.some((e) => e.startsWith("$.as_of")),
    bad,
  );

  const { resources } = await client.listResources();
  check("resources/list", resources.length === 1 && resources[0].uri === "policy://sanctions/hold-release", resources);
  const read = await client.readResource({ uri: "policy://sanctions/hold-release" });
  check("resources/read", read.contents[0]?.text === "Releases above 100k need dual control.", read);

  const { prompts } = await client.listPrompts();
  check("prompts/list", prompts.length === 1 && prompts[0].name === "investigate", prompts);
  const prompt = await client.getPrompt({ name: "investigate", arguments: { reference: "PMT-771" } });
  check("prompts/get", prompt.messages[0]?.content?.text === "Investigate payment PMT-771. State the hold reason.", prompt);

  writeFileSync(lifecycle, JSON.stringify({ "crm.notes.append@1.0.0": "retired" }));
  process.kill(Number(pid), "SIGHUP");
  const timedOut = new Promise((resolve) => setTimeout(() => resolve("timeout"), 10000));
  const outcome = await Promise.race([listChanged.then(() => "changed"), timedOut]);
  check("tools/list_changed after an estate change", outcome === "changed", outcome);
  const after = await client.listTools();
  check("tools/list after the change", names(after.tools) === "payments.lookup", names(after.tools));

  await transport.terminateSession();
  check("DELETE ends the session", transport.sessionId === undefined, transport.sessionId);
} catch (err) {
  check("session", false, String(err?.stack ?? err));
} finally {
  await client.close().catch(() => {});
}

finish("ts-client");
