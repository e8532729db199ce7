// gen.mjs prints an MCP tools/list result whose inputSchemas are produced by
// zod v4's z.toJSONSchema. Each tool's arguments are a zod object; the
// schema is converted with target "draft-2020-12" and io "input" (the shape a
// client must send: a field with a default is optional). The output is the
// converter's JSON as it is, wrapped into {"tools": [...]}.
//
// z.toJSONSchema throws for what JSON Schema cannot say (z.set, z.date,
// z.bigint, transforms), so none is used: zod writes no uniqueItems.
//
// Run by ../regen.sh from a temporary directory where zod is installed.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as z from "zod";

const require = createRequire(import.meta.url);
const zodVersion = JSON.parse(readFileSync(require.resolve("zod/package.json"), "utf8")).version;

// Shared named types. A schema with an `id` in its metadata is written once
// under $defs and referenced with $ref wherever it is used.

const Currency = z.enum(["EUR", "USD", "GBP", "JPY", "CHF"]).describe("ISO 4217 currency code");

const Money = z
  .object({
    amount: z.number().gt(0).multipleOf(0.01).describe("Amount in major units, e.g. 12.50"),
    currency: Currency,
  })
  .meta({ id: "Money", title: "Money" });

const Address = z
  .strictObject({
    line1: z.string().min(1).max(200),
    line2: z.string().max(200).optional(),
    city: z.string().min(1).max(100),
    postalCode: z.string().regex(/^[A-Z0-9][A-Z0-9 -]{1,8}[A-Z0-9]$/),
    country: z.string().length(2).regex(/^[A-Z]{2}$/).describe("ISO 3166-1 alpha-2 country code"),
  })
  .meta({ id: "Address", title: "Postal address" });

const Sku = z.string().regex(/^[A-Z]{3}-\d{4,8}$/).describe("Stock keeping unit");

// orders.create

const LineItem = z
  .object({
    sku: Sku,
    quantity: z.int().min(1).max(999),
    unitPrice: Money,
    giftWrap: z.boolean().default(false),
  })
  .meta({ id: "LineItem" });

const OrdersCreate = z.strictObject({
  customerId: z.uuid(),
  customerEmail: z.email(),
  items: z.array(LineItem).min(1).max(50),
  shippingAddress: Address,
  billingAddress: Address.optional().describe("Defaults to the shipping address"),
  couponCode: z.string().regex(/^[A-Z0-9]{4,12}$/).nullable().optional(),
  notes: z.string().max(500).nullable(),
  giftMessage: z.string().nullable().optional(),
  metadata: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), z.string().max(200)).optional(),
  requestedDeliveryDate: z.iso.date().optional(),
});

// tickets.update: a recursive comment thread.

const Comment = z
  .object({
    author: z.email(),
    body: z.string().min(1).max(10000),
    postedAt: z.iso.datetime({ offset: true }),
    get replies() {
      return z.array(Comment).max(100).optional();
    },
  })
  .meta({ id: "Comment", description: "A comment with its replies" });

const TicketsUpdate = z.object({
  ticketId: z.string().regex(/^TCK-\d{1,10}$/),
  status: z.enum(["open", "pending", "resolved", "closed"]).optional(),
  priority: z.enum(["low", "normal", "high", "urgent"]).default("normal"),
  assignee: z.email().nullable().optional().describe("null unassigns the ticket"),
  labels: z.array(z.string().min(1).max(32)).max(10).optional(),
  comment: Comment.optional(),
  dueAt: z.iso.datetime({ offset: true }).nullable(),
  notifyRequester: z.boolean().default(true),
});

// calendar.events.create: a discriminated union of recurrence rules.

const Weekday = z.enum(["MO", "TU", "WE", "TH", "FR", "SA", "SU"]);

const Recurrence = z
  .discriminatedUnion("freq", [
    z.object({ freq: z.literal("daily"), interval: z.int().min(1).max(365).default(1) }),
    z.object({
      freq: z.literal("weekly"),
      interval: z.int().min(1).max(52).default(1),
      byDay: z.array(Weekday).min(1).max(7),
    }),
    z.object({ freq: z.literal("monthly"), dayOfMonth: z.int().min(1).max(31) }),
  ])
  .meta({ id: "Recurrence" });

const Attendee = z.object({
  email: z.email(),
  displayName: z.string().max(100).optional(),
  optional: z.boolean().default(false),
});

const CalendarEventsCreate = z.object({
  calendarId: z.string().min(1),
  title: z.string().min(1).max(120),
  start: z.iso.datetime({ offset: true }),
  end: z.iso.datetime({ offset: true }),
  timeZone: z
    .string()
    .regex(/^[A-Za-z_]+(\/[A-Za-z_]+)*$/)
    .default("UTC")
    .meta({ examples: ["Europe/Berlin", "America/New_York"] }),
  allDay: z.boolean().default(false),
  attendees: z.array(Attendee).max(200).default([]),
  location: z
    .union([z.string().max(200), z.object({ url: z.url(), label: z.string().optional() })])
    .optional(),
  recurrence: Recurrence.nullable().optional(),
  reminderMinutes: z.array(z.int().min(0).max(40320)).max(5).optional(),
  visibility: z.literal(["public", "private", "confidential"]).default("private"),
});

// files.tree.sync: a recursive file tree.

const FileNode = z
  .object({
    name: z.string().min(1).max(255).regex(/^[^/]+$/),
    kind: z.enum(["file", "directory"]),
    sizeBytes: z.int().nonnegative().optional(),
    mode: z.string().regex(/^0[0-7]{3}$/).optional(),
    modifiedAt: z.iso.datetime().optional(),
    get children() {
      return z.array(FileNode).optional();
    },
  })
  .meta({ id: "FileNode", description: "A file, or a directory with its children" });

const FilesTreeSync = z.object({
  root: z.string().startsWith("/").describe("Absolute path the tree is synced to"),
  tree: FileNode,
  dryRun: z.boolean().default(true),
  onConflict: z.enum(["skip", "overwrite", "rename"]).default("skip"),
});

// search.query: filters as a map of plain unions, and a tuple.

const FilterValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()).min(1)]);

const SearchQuery = z.object({
  query: z.string().min(1).max(512),
  filters: z.record(z.string(), FilterValue).optional().describe("Field name to required value"),
  priceRange: z
    .object({
      min: z.number().nonnegative().optional(),
      max: z.number().positive().optional(),
    })
    .optional(),
  near: z
    .tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)])
    .optional()
    .describe("[latitude, longitude]"),
  radiusKm: z.number().gt(0).lte(500).default(10),
  sort: z.enum(["relevance", "price_asc", "price_desc", "newest"]).default("relevance"),
  page: z.int().min(1).default(1),
  pageSize: z.int().min(1).max(100).default(20),
  updatedSince: z.iso.datetime().optional(),
  cursor: z.union([z.string(), z.number()]).optional().describe("Opaque cursor from the previous page"),
});

// payments.charge: a discriminated union of payment methods.

const PaymentMethod = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("card"),
    token: z.string().regex(/^tok_[A-Za-z0-9]{16,}$/),
    expMonth: z.int().min(1).max(12),
    expYear: z.int().min(2024).max(2100),
  }),
  z.object({
    type: z.literal("sepa_debit"),
    iban: z.string().regex(/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/),
    mandateId: z.uuid(),
  }),
  z.object({
    type: z.literal("wallet"),
    provider: z.enum(["apple_pay", "google_pay"]),
    token: z.string().min(1),
  }),
]);

const PaymentsCharge = z.strictObject({
  amount: Money,
  method: PaymentMethod,
  idempotencyKey: z.uuid(),
  capture: z.boolean().default(true),
  statementDescriptor: z.string().max(22).regex(/^[A-Za-z0-9 .-]*$/).optional(),
  callbackUrl: z.url().optional(),
  receiptEmail: z.email().nullable().optional(),
  metadata: z.record(z.string(), z.union([z.string().max(500), z.number()])).optional(),
});

// settings.set: a recursive JSON value.

const JsonValue = z
  .union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(z.lazy(() => JsonValue)),
    z.record(z.string(), z.lazy(() => JsonValue)),
  ])
  .meta({ id: "JsonValue", description: "Any JSON value" });

const SettingsSet = z.object({
  scope: z.enum(["user", "workspace", "organization"]),
  key: z.string().regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/).max(128),
  value: JsonValue,
  expectedPrevious: JsonValue.optional().describe("Compare-and-set: fail unless the current value equals this"),
  ttlSeconds: z.int().positive().max(2592000).nullable().default(null),
});

// inventory.adjust: a union of an integer id and a string code, sized
// integers, a const.

const InventoryAdjust = z.object({
  warehouse: z.union([z.int().positive(), z.string().regex(/^WH-[A-Z]{2}\d{2}$/)]),
  mode: z.literal("delta").default("delta"),
  adjustments: z
    .array(
      z.object({
        sku: Sku,
        delta: z.int32().min(-100000).max(100000),
        reason: z.enum(["received", "damaged", "lost", "found", "returned", "recount"]),
        lot: z.string().max(40).optional(),
      }),
    )
    .min(1)
    .max(500),
  countedAt: z.iso.datetime(),
  palletCount: z.uint32().optional(),
  weightKg: z.number().min(0).max(1000).multipleOf(0.001).optional(),
  operator: z.string().min(1).max(64).describe("User name of the person counting"),
});

const tools = [
  ["orders.create", "Create an order for a customer.", OrdersCreate],
  ["tickets.update", "Update a support ticket and optionally add a comment.", TicketsUpdate],
  ["calendar.events.create", "Create a calendar event, optionally recurring.", CalendarEventsCreate],
  ["files.tree.sync", "Sync a file tree to a path.", FilesTreeSync],
  ["search.query", "Search the catalog with filters.", SearchQuery],
  ["payments.charge", "Charge a payment method.", PaymentsCharge],
  ["settings.set", "Set a configuration value.", SettingsSet],
  ["inventory.adjust", "Record stock adjustments for a warehouse.", InventoryAdjust],
];

const out = {
  _meta: { generator: "zod", version: zodVersion, call: 'z.toJSONSchema(schema, { target: "draft-2020-12", io: "input" })' },
  tools: tools.map(([name, description, schema]) => ({
    name,
    description,
    inputSchema: z.toJSONSchema(schema, { target: "draft-2020-12", io: "input" }),
  })),
};

process.stdout.write(JSON.stringify(out, null, 2) + "\n");
