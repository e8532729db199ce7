// Package invopop holds tool argument types whose input schemas are
// reflected by github.com/invopop/jsonschema with a zero Reflector:
// (&jsonschema.Reflector{}).Reflect(v).
//
// With its defaults the reflector writes every named struct once under $defs
// and makes the root a $ref to it, gives the root an $id derived from the Go
// package path, and closes every struct with additionalProperties: false.
// Constraints come from `jsonschema:"key=value,..."` tags; a few types
// implement JSONSchemaExtend to set what no tag can (const).
package invopop

import (
	"encoding/json"
	"net"
	"time"

	"github.com/invopop/jsonschema"
)

// Tool is one entry of a tools/list result.
type Tool struct {
	Name        string
	Description string
	Schema      *jsonschema.Schema
}

type Money struct {
	Amount   float64 `json:"amount" jsonschema:"exclusiveMinimum=0,multipleOf=0.01" jsonschema_description:"Amount in major units, e.g. 12.50"`
	Currency string  `json:"currency" jsonschema:"enum=EUR,enum=USD,enum=GBP,enum=JPY,enum=CHF,description=ISO 4217 currency code"`
}

// Address is used twice in orders.create: one $defs entry, two $refs.
type Address struct {
	Line1      string `json:"line1" jsonschema:"minLength=1,maxLength=200"`
	Line2      string `json:"line2,omitempty" jsonschema:"maxLength=200"`
	City       string `json:"city" jsonschema:"minLength=1,maxLength=100"`
	PostalCode string `json:"postal_code" jsonschema:"pattern=^[A-Z0-9][A-Z0-9 -]{1\\,8}[A-Z0-9]$"`
	Country    string `json:"country" jsonschema:"minLength=2,maxLength=2,pattern=^[A-Z]{2}$,example=DE,example=US" jsonschema_description:"ISO 3166-1 alpha-2 country code"`
}

type LineItem struct {
	SKU       string `json:"sku" jsonschema:"pattern=^[A-Z]{3}-[0-9]{4\\,8}$,title=Stock keeping unit"`
	Quantity  uint16 `json:"quantity" jsonschema:"minimum=1,maximum=999"`
	UnitPrice Money  `json:"unit_price"`
	GiftWrap  bool   `json:"gift_wrap,omitempty" jsonschema:"default=false"`
}

type OrdersCreate struct {
	CustomerID            string            `json:"customer_id" jsonschema:"format=uuid"`
	CustomerEmail         string            `json:"customer_email" jsonschema:"format=email"`
	Items                 []LineItem        `json:"items" jsonschema:"minItems=1,maxItems=50"`
	ShippingAddress       Address           `json:"shipping_address"`
	BillingAddress        *Address          `json:"billing_address,omitempty" jsonschema:"description=Defaults to the shipping address"`
	CouponCode            string            `json:"coupon_code,omitempty" jsonschema:"pattern=^[A-Z0-9]{4\\,12}$"`
	Notes                 *string           `json:"notes" jsonschema:"nullable,maxLength=500"`
	Metadata              map[string]string `json:"metadata,omitempty"`
	RequestedDeliveryDate string            `json:"requested_delivery_date,omitempty" jsonschema:"format=date"`
}

// Comment is recursive: its replies refer back to its own $defs entry.
type Comment struct {
	Author   string    `json:"author" jsonschema:"format=email"`
	Body     string    `json:"body" jsonschema:"minLength=1,maxLength=10000"`
	PostedAt time.Time `json:"posted_at"`
	Replies  []Comment `json:"replies,omitempty" jsonschema:"maxItems=100"`
}

type TicketsUpdate struct {
	TicketID        string            `json:"ticket_id" jsonschema:"pattern=^TCK-[0-9]{1\\,10}$,example=TCK-1042"`
	Status          string            `json:"status,omitempty" jsonschema:"enum=open,enum=pending,enum=resolved,enum=closed"`
	Priority        string            `json:"priority,omitempty" jsonschema:"enum=low,enum=normal,enum=high,enum=urgent,default=normal"`
	Assignee        *string           `json:"assignee,omitempty" jsonschema:"nullable,format=email,description=null unassigns the ticket"`
	Labels          []string          `json:"labels,omitempty" jsonschema:"uniqueItems=true,maxItems=10,minLength=1,maxLength=32"`
	Comment         *Comment          `json:"comment,omitempty"`
	Attachments     map[string][]byte `json:"attachments,omitempty" jsonschema:"description=File name to file content"`
	DueAt           *time.Time        `json:"due_at" jsonschema:"nullable"`
	NotifyRequester bool              `json:"notify_requester,omitempty" jsonschema:"default=true"`
}

type Attendee struct {
	Email       string `json:"email" jsonschema:"format=email"`
	DisplayName string `json:"display_name,omitempty" jsonschema:"maxLength=100"`
	Optional    bool   `json:"optional,omitempty" jsonschema:"default=false"`
}

// Recurrence is one struct whose fields depend on freq: the reflector has no
// tagged unions of structs.
type Recurrence struct {
	Freq       string   `json:"freq" jsonschema:"enum=daily,enum=weekly,enum=monthly"`
	Interval   int      `json:"interval,omitempty" jsonschema:"minimum=1,maximum=365,default=1"`
	ByDay      []string `json:"by_day,omitempty" jsonschema:"minItems=1,maxItems=7,uniqueItems=true,enum=MO,enum=TU,enum=WE,enum=TH,enum=FR,enum=SA,enum=SU"`
	DayOfMonth int      `json:"day_of_month,omitempty" jsonschema:"minimum=1,maximum=31"`
}

type CalendarEventsCreate struct {
	CalendarID      string      `json:"calendar_id" jsonschema:"minLength=1"`
	Title           string      `json:"title" jsonschema:"minLength=1,maxLength=120,title=Event title"`
	Start           time.Time   `json:"start"`
	End             time.Time   `json:"end"`
	TimeZone        string      `json:"time_zone,omitempty" jsonschema:"pattern=^[A-Za-z_]+(/[A-Za-z_]+)*$,default=UTC,example=Europe/Berlin"`
	AllDay          bool        `json:"all_day,omitempty"`
	Attendees       []Attendee  `json:"attendees,omitempty" jsonschema:"maxItems=200"`
	Location        any         `json:"location,omitempty" jsonschema:"oneof_type=string;object,description=A place name or {url\\, label}"`
	Recurrence      *Recurrence `json:"recurrence,omitempty"`
	ReminderMinutes []int       `json:"reminder_minutes,omitempty" jsonschema:"maxItems=5,minimum=0,maximum=40320"`
	Visibility      string      `json:"visibility,omitempty" jsonschema:"enum=public,enum=private,enum=confidential,default=private"`
}

// FileNode is recursive: a directory lists its children.
type FileNode struct {
	Name       string     `json:"name" jsonschema:"minLength=1,maxLength=255,pattern=^[^/]+$"`
	Kind       string     `json:"kind" jsonschema:"enum=file,enum=directory"`
	SizeBytes  int64      `json:"size_bytes,omitempty" jsonschema:"minimum=0"`
	Mode       string     `json:"mode,omitempty" jsonschema:"pattern=^0[0-7]{3}$"`
	ModifiedAt *time.Time `json:"modified_at,omitempty"`
	Children   []FileNode `json:"children,omitempty"`
}

type FilesTreeSync struct {
	Root       string   `json:"root" jsonschema:"pattern=^/,description=Absolute path the tree is synced to"`
	Tree       FileNode `json:"tree"`
	DryRun     bool     `json:"dry_run,omitempty" jsonschema:"default=true"`
	OnConflict string   `json:"on_conflict,omitempty" jsonschema:"enum=skip,enum=overwrite,enum=rename,default=skip"`
}

type PriceRange struct {
	Min float64 `json:"min,omitempty" jsonschema:"minimum=0"`
	Max float64 `json:"max,omitempty" jsonschema:"exclusiveMinimum=0"`
}

type SearchQuery struct {
	Query         string             `json:"query" jsonschema:"minLength=1,maxLength=512"`
	Filters       map[string]any     `json:"filters,omitempty" jsonschema:"description=Field name to required value"`
	CategoryBoost map[int]float64    `json:"category_boost,omitempty" jsonschema:"description=Category id to ranking weight"`
	PriceRange    *PriceRange        `json:"price_range,omitempty"`
	Near          [2]float64         `json:"near,omitzero" jsonschema:"description=[latitude\\, longitude]"`
	RadiusKm      float64            `json:"radius_km,omitempty" jsonschema:"exclusiveMinimum=0,maximum=500,default=10"`
	Sort          string             `json:"sort,omitempty" jsonschema:"enum=relevance,enum=price_asc,enum=price_desc,enum=newest,default=relevance"`
	Page          int                `json:"page,omitempty" jsonschema:"minimum=1,default=1"`
	PageSize      int                `json:"page_size,omitempty" jsonschema:"minimum=1,maximum=100,default=20"`
	UpdatedSince  *time.Time         `json:"updated_since,omitempty"`
	SourceIP      net.IP             `json:"source_ip,omitempty" jsonschema:"description=Caller address for geo ranking"`
	Weights       map[string]float32 `json:"weights,omitempty"`
}

type Card struct {
	Token    string `json:"token" jsonschema:"pattern=^tok_[A-Za-z0-9]{16\\,}$"`
	ExpMonth int    `json:"exp_month" jsonschema:"minimum=1,maximum=12"`
	ExpYear  int    `json:"exp_year" jsonschema:"minimum=2024,maximum=2100"`
}

type SepaDebit struct {
	IBAN      string `json:"iban" jsonschema:"pattern=^[A-Z]{2}[0-9]{2}[A-Z0-9]{11\\,30}$"`
	MandateID string `json:"mandate_id" jsonschema:"format=uuid"`
}

type Wallet struct {
	Provider string `json:"provider" jsonschema:"enum=apple_pay,enum=google_pay"`
	Token    string `json:"token" jsonschema:"minLength=1"`
}

// PaymentMethod is the reflector's idiom for a union: one optional field per
// variant and oneof_required tags, giving oneOf [{required: [card]}, ...].
type PaymentMethod struct {
	Type      string     `json:"type" jsonschema:"enum=card,enum=sepa_debit,enum=wallet"`
	Card      *Card      `json:"card,omitempty" jsonschema:"oneof_required=card"`
	SepaDebit *SepaDebit `json:"sepa_debit,omitempty" jsonschema:"oneof_required=sepa_debit"`
	Wallet    *Wallet    `json:"wallet,omitempty" jsonschema:"oneof_required=wallet"`
}

type PaymentsCharge struct {
	Amount              Money             `json:"amount"`
	Method              PaymentMethod     `json:"method"`
	IdempotencyKey      string            `json:"idempotency_key" jsonschema:"format=uuid"`
	Capture             bool              `json:"capture,omitempty" jsonschema:"default=true"`
	StatementDescriptor string            `json:"statement_descriptor,omitempty" jsonschema:"maxLength=22,pattern=^[A-Za-z0-9 .-]*$"`
	CallbackURL         string            `json:"callback_url,omitempty" jsonschema:"format=uri"`
	ReceiptEmail        *string           `json:"receipt_email,omitempty" jsonschema:"nullable,format=email"`
	Metadata            map[string]string `json:"metadata,omitempty"`
}

type SettingsSet struct {
	Scope            string          `json:"scope" jsonschema:"enum=user,enum=workspace,enum=organization"`
	Key              string          `json:"key" jsonschema:"maxLength=128,pattern=^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*$"`
	Value            any             `json:"value" jsonschema:"description=Any JSON value"`
	ExpectedPrevious json.RawMessage `json:"expected_previous,omitempty"`
	TTLSeconds       *uint32         `json:"ttl_seconds,omitempty" jsonschema:"nullable,exclusiveMinimum=0,maximum=2592000"`
}

type Adjustment struct {
	SKU    string `json:"sku" jsonschema:"pattern=^[A-Z]{3}-[0-9]{4\\,8}$"`
	Delta  int32  `json:"delta" jsonschema:"minimum=-100000,maximum=100000"`
	Reason string `json:"reason" jsonschema:"enum=received,enum=damaged,enum=lost,enum=found,enum=returned,enum=recount"`
	Lot    string `json:"lot,omitempty" jsonschema:"maxLength=40"`
}

type InventoryAdjust struct {
	Warehouse   any          `json:"warehouse" jsonschema:"oneof_type=integer;string,description=Warehouse id or code such as WH-DE01"`
	Mode        string       `json:"mode,omitempty" jsonschema:"default=delta"`
	Adjustments []Adjustment `json:"adjustments" jsonschema:"minItems=1,maxItems=500"`
	CountedAt   time.Time    `json:"counted_at"`
	PalletCount uint16       `json:"pallet_count,omitempty"`
	WeightKg    float64      `json:"weight_kg,omitempty" jsonschema:"minimum=0,maximum=1000,multipleOf=0.001"`
	Operator    string       `json:"operator" jsonschema:"minLength=1,maxLength=64" jsonschema_description:"User name of the person counting"`
	LegacyBatch string       `json:"legacy_batch,omitempty" jsonschema_extras:"deprecated=true"`
}

// JSONSchemaExtend makes mode a const: no tag writes const.
func (InventoryAdjust) JSONSchemaExtend(s *jsonschema.Schema) {
	if p, ok := s.Properties.Get("mode"); ok {
		p.Const = "delta"
	}
}

// Tools reflects every tool's input schema with a zero Reflector.
func Tools() []Tool {
	reflect := func(v any) *jsonschema.Schema {
		r := &jsonschema.Reflector{}
		return r.Reflect(v)
	}
	return []Tool{
		{"orders.create", "Create an order for a customer.", reflect(&OrdersCreate{})},
		{"tickets.update", "Update a support ticket and optionally add a comment.", reflect(&TicketsUpdate{})},
		{"calendar.events.create", "Create a calendar event, optionally recurring.", reflect(&CalendarEventsCreate{})},
		{"files.tree.sync", "Sync a file tree to a path.", reflect(&FilesTreeSync{})},
		{"search.query", "Search the catalog with filters.", reflect(&SearchQuery{})},
		{"payments.charge", "Charge a payment method.", reflect(&PaymentsCharge{})},
		{"settings.set", "Set a configuration value.", reflect(&SettingsSet{})},
		{"inventory.adjust", "Record stock adjustments for a warehouse.", reflect(&InventoryAdjust{})},
	}
}
