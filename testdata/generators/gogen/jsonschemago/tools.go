// Package jsonschemago holds tool argument types whose input schemas are
// inferred by github.com/google/jsonschema-go, the way the official MCP Go
// SDK infers them: jsonschema.For[T](nil).
//
// With nil options For reads only the encoding/json field names and options
// (omitempty/omitzero make a field optional) and a `jsonschema` tag, which
// becomes the property's description. It writes no $defs and no $ref (a type
// used twice is written out twice), and returns an error for a recursive
// type, so no tool here has one. It has no tags for enums, formats, patterns,
// bounds or defaults; what it derives by itself is below: nullable pointers
// and slices, the range of sized integers, the length of arrays, maps.
package jsonschemago

import (
	"errors"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// Tool is one entry of a tools/list result.
type Tool struct {
	Name        string
	Description string
	Schema      *jsonschema.Schema
}

// Money is reused by orders.create (inside LineItem) and payments.charge.
type Money struct {
	Amount   float64 `json:"amount" jsonschema:"amount in major units, e.g. 12.50"`
	Currency string  `json:"currency" jsonschema:"ISO 4217 currency code"`
}

// Address is used twice in orders.create; jsonschema-go inlines it both times.
type Address struct {
	Line1      string `json:"line1"`
	Line2      string `json:"line2,omitempty"`
	City       string `json:"city"`
	PostalCode string `json:"postal_code"`
	Country    string `json:"country" jsonschema:"ISO 3166-1 alpha-2 country code"`
}

type LineItem struct {
	SKU       string `json:"sku" jsonschema:"stock keeping unit, e.g. ABC-12345"`
	Quantity  uint16 `json:"quantity"`
	UnitPrice Money  `json:"unit_price"`
	GiftWrap  bool   `json:"gift_wrap,omitzero"`
}

type OrdersCreate struct {
	CustomerID            string            `json:"customer_id" jsonschema:"customer UUID"`
	CustomerEmail         string            `json:"customer_email"`
	Items                 []LineItem        `json:"items"`
	ShippingAddress       Address           `json:"shipping_address"`
	BillingAddress        *Address          `json:"billing_address,omitempty" jsonschema:"defaults to the shipping address"`
	CouponCode            *string           `json:"coupon_code,omitempty"`
	Notes                 *string           `json:"notes"`
	Metadata              map[string]string `json:"metadata,omitempty"`
	RequestedDeliveryDate string            `json:"requested_delivery_date,omitempty" jsonschema:"YYYY-MM-DD"`
	internalTrace         string
}

type Comment struct {
	Author   string    `json:"author"`
	Body     string    `json:"body"`
	PostedAt time.Time `json:"posted_at"`
}

type TicketsUpdate struct {
	TicketID        string     `json:"ticket_id"`
	Status          *string    `json:"status,omitempty" jsonschema:"one of open, pending, resolved, closed"`
	Priority        string     `json:"priority,omitempty"`
	Assignee        *string    `json:"assignee,omitempty" jsonschema:"null unassigns the ticket"`
	Labels          []string   `json:"labels,omitempty"`
	Comment         *Comment   `json:"comment,omitempty"`
	DueAt           *time.Time `json:"due_at"`
	NotifyRequester *bool      `json:"notify_requester,omitempty"`
}

type Attendee struct {
	Email       string `json:"email"`
	DisplayName string `json:"display_name,omitempty"`
	Optional    bool   `json:"optional,omitzero"`
}

// Recurrence is one flat struct: jsonschema-go has no unions.
type Recurrence struct {
	Freq       string   `json:"freq" jsonschema:"daily, weekly or monthly"`
	Interval   int8     `json:"interval,omitempty"`
	ByDay      []string `json:"by_day,omitempty"`
	DayOfMonth uint8    `json:"day_of_month,omitempty"`
}

type CalendarEventsCreate struct {
	CalendarID      string      `json:"calendar_id"`
	Title           string      `json:"title"`
	Start           time.Time   `json:"start"`
	End             time.Time   `json:"end"`
	TimeZone        string      `json:"time_zone,omitempty" jsonschema:"IANA time zone, e.g. Europe/Berlin"`
	AllDay          bool        `json:"all_day,omitzero"`
	Attendees       []Attendee  `json:"attendees"`
	Recurrence      *Recurrence `json:"recurrence,omitempty"`
	ReminderMinutes []uint16    `json:"reminder_minutes,omitempty"`
	Visibility      string      `json:"visibility,omitempty"`
}

// FileEntry stands in for a recursive tree: For rejects a cycle in the types.
type FileEntry struct {
	Path       string     `json:"path" jsonschema:"path relative to the root, / separated"`
	Kind       string     `json:"kind"`
	SizeBytes  *int64     `json:"size_bytes,omitempty"`
	Mode       uint32     `json:"mode,omitempty"`
	ModifiedAt *time.Time `json:"modified_at,omitempty"`
}

type FilesTreeSync struct {
	Root       string      `json:"root" jsonschema:"absolute path the tree is synced to"`
	Entries    []FileEntry `json:"entries"`
	DryRun     *bool       `json:"dry_run,omitempty"`
	OnConflict string      `json:"on_conflict,omitempty"`
}

type PriceRange struct {
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
}

// Paging is embedded: its fields are promoted into the parent's properties.
type Paging struct {
	Page     int32 `json:"page,omitempty"`
	PageSize uint8 `json:"page_size,omitempty"`
}

type SearchQuery struct {
	Query        string         `json:"query"`
	Filters      map[string]any `json:"filters,omitempty" jsonschema:"field name to required value"`
	PriceRange   *PriceRange    `json:"price_range,omitempty"`
	Near         *[2]float64    `json:"near,omitempty" jsonschema:"[latitude, longitude]"`
	RadiusKm     float64        `json:"radius_km,omitempty"`
	Sort         string         `json:"sort,omitempty"`
	UpdatedSince *time.Time     `json:"updated_since,omitempty"`
	Paging
}

type Card struct {
	Token    string `json:"token"`
	ExpMonth uint8  `json:"exp_month"`
	ExpYear  uint16 `json:"exp_year"`
}

type SepaDebit struct {
	IBAN      string `json:"iban"`
	MandateID string `json:"mandate_id"`
}

type Wallet struct {
	Provider string `json:"provider"`
	Token    string `json:"token"`
}

// PaymentMethod is the usual Go shape of a tagged union: a type field and
// one optional pointer per variant.
type PaymentMethod struct {
	Type      string     `json:"type" jsonschema:"card, sepa_debit or wallet; names the field that is set"`
	Card      *Card      `json:"card,omitempty"`
	SepaDebit *SepaDebit `json:"sepa_debit,omitempty"`
	Wallet    *Wallet    `json:"wallet,omitempty"`
}

type PaymentsCharge struct {
	Amount              Money             `json:"amount"`
	Method              PaymentMethod     `json:"method"`
	IdempotencyKey      string            `json:"idempotency_key"`
	Capture             *bool             `json:"capture,omitempty"`
	StatementDescriptor string            `json:"statement_descriptor,omitempty"`
	CallbackURL         string            `json:"callback_url,omitempty"`
	Metadata            map[string]string `json:"metadata,omitempty"`
	Secret              string            `json:"-"`
}

type SettingsSet struct {
	Scope            string  `json:"scope"`
	Key              string  `json:"key"`
	Value            any     `json:"value" jsonschema:"any JSON value"`
	ExpectedPrevious any     `json:"expected_previous,omitempty" jsonschema:"compare-and-set: fail unless the current value equals this"`
	TTLSeconds       *uint32 `json:"ttl_seconds,omitempty"`
}

type Adjustment struct {
	SKU    string `json:"sku"`
	Delta  int32  `json:"delta"`
	Reason string `json:"reason"`
	Lot    string `json:"lot,omitempty"`
}

type InventoryAdjust struct {
	WarehouseID uint64              `json:"warehouse_id"`
	Adjustments []Adjustment        `json:"adjustments"`
	CountedAt   time.Time           `json:"counted_at"`
	PalletCount int16               `json:"pallet_count,omitzero"`
	WeightKg    float32             `json:"weight_kg,omitempty"`
	Operator    string              `json:"operator" jsonschema:"user name of the person counting"`
	Tags        map[string][]string `json:"tags,omitempty"`
}

// builder collects the tools and the errors of For.
type builder struct {
	tools []Tool
	err   error
}

func add[T any](b *builder, name, description string) {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		b.err = errors.Join(b.err, fmt.Errorf("%s: %w", name, err))
		return
	}
	b.tools = append(b.tools, Tool{Name: name, Description: description, Schema: s})
}

// Tools infers every tool's input schema with jsonschema.For[T](nil).
func Tools() ([]Tool, error) {
	var b builder
	add[OrdersCreate](&b, "orders.create", "Create an order for a customer.")
	add[TicketsUpdate](&b, "tickets.update", "Update a support ticket and optionally add a comment.")
	add[CalendarEventsCreate](&b, "calendar.events.create", "Create a calendar event, optionally recurring.")
	add[FilesTreeSync](&b, "files.tree.sync", "Sync a list of files and directories to a path.")
	add[SearchQuery](&b, "search.query", "Search the catalog with filters.")
	add[PaymentsCharge](&b, "payments.charge", "Charge a payment method.")
	add[SettingsSet](&b, "settings.set", "Set a configuration value.")
	add[InventoryAdjust](&b, "inventory.adjust", "Record stock adjustments for a warehouse.")
	return b.tools, b.err
}
