"""gen.py prints an MCP tools/list result whose inputSchemas are produced by
pydantic v2's Model.model_json_schema() (default mode "validation", the shape
a client must send). The output is pydantic's JSON as it is, wrapped into
{"tools": [...]}.

Run by ../regen.sh: python3 gen.py > tools.json
"""

from __future__ import annotations

import datetime
import enum
import json
import sys
import uuid
from decimal import Decimal
from typing import Annotated, Literal, Optional, Union

import pydantic
import pydantic_core
from pydantic import (
    AnyUrl,
    BaseModel,
    ConfigDict,
    Field,
    HttpUrl,
    IPvAnyAddress,
    JsonValue,
    SecretStr,
)

# Shared named types: pydantic writes every model and enum class once under
# $defs and refers to it with $ref.


class Currency(str, enum.Enum):
    """ISO 4217 currency code."""

    EUR = "EUR"
    USD = "USD"
    GBP = "GBP"
    JPY = "JPY"
    CHF = "CHF"


class Money(BaseModel):
    amount: Annotated[Decimal, Field(gt=0, decimal_places=2, description="Amount in major units")]
    currency: Currency


class Address(BaseModel):
    """A postal address."""

    model_config = ConfigDict(extra="forbid")

    line1: Annotated[str, Field(min_length=1, max_length=200)]
    line2: Optional[Annotated[str, Field(max_length=200)]] = None
    city: Annotated[str, Field(min_length=1, max_length=100)]
    postal_code: Annotated[str, Field(pattern=r"^[A-Z0-9][A-Z0-9 -]{1,8}[A-Z0-9]$")]
    country: Annotated[
        str,
        Field(min_length=2, max_length=2, pattern=r"^[A-Z]{2}$", description="ISO 3166-1 alpha-2 country code"),
    ]


Sku = Annotated[str, Field(pattern=r"^[A-Z]{3}-\d{4,8}$", description="Stock keeping unit")]

# orders.create


class LineItem(BaseModel):
    sku: Sku
    quantity: Annotated[int, Field(ge=1, le=999)]
    unit_price: Money
    gift_wrap: bool = False


class OrdersCreate(BaseModel):
    """Arguments of orders.create."""

    model_config = ConfigDict(extra="forbid")

    customer_id: uuid.UUID
    items: Annotated[list[LineItem], Field(min_length=1, max_length=50)]
    shipping_address: Address
    billing_address: Optional[Address] = Field(default=None, description="Defaults to the shipping address")
    coupon_code: Optional[Annotated[str, Field(pattern=r"^[A-Z0-9]{4,12}$")]] = None
    notes: Optional[Annotated[str, Field(max_length=500)]]
    metadata: dict[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")], Annotated[str, Field(max_length=200)]] = {}
    requested_delivery_date: Optional[datetime.date] = None


# tickets.update: a recursive comment thread.


class Status(str, enum.Enum):
    OPEN = "open"
    PENDING = "pending"
    RESOLVED = "resolved"
    CLOSED = "closed"


class Priority(str, enum.Enum):
    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"
    URGENT = "urgent"


class Comment(BaseModel):
    """A comment with its replies."""

    author: Annotated[str, Field(max_length=254, examples=["ada@example.com"])]
    body: Annotated[str, Field(min_length=1, max_length=10000)]
    posted_at: datetime.datetime
    replies: Annotated[list[Comment], Field(max_length=100)] = []


class TicketsUpdate(BaseModel):
    ticket_id: Annotated[str, Field(pattern=r"^TCK-\d{1,10}$", examples=["TCK-1042"])]
    status: Optional[Status] = None
    priority: Priority = Priority.NORMAL
    assignee: Optional[str] = Field(default=None, description="null unassigns the ticket")
    labels: Annotated[set[Annotated[str, Field(min_length=1, max_length=32)]], Field(max_length=10)] = set()
    comment: Optional[Comment] = None
    due_at: Optional[datetime.datetime]
    notify_requester: bool = True


# calendar.events.create: a discriminated union of recurrence rules.

Weekday = Literal["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


class Daily(BaseModel):
    freq: Literal["daily"]
    interval: Annotated[int, Field(ge=1, le=365)] = 1


class Weekly(BaseModel):
    freq: Literal["weekly"]
    interval: Annotated[int, Field(ge=1, le=52)] = 1
    by_day: Annotated[list[Weekday], Field(min_length=1, max_length=7)]


class Monthly(BaseModel):
    freq: Literal["monthly"]
    day_of_month: Annotated[int, Field(ge=1, le=31)]


class Attendee(BaseModel):
    email: str
    display_name: Optional[Annotated[str, Field(max_length=100)]] = None
    optional: bool = False


class LinkLocation(BaseModel):
    url: HttpUrl
    label: Optional[str] = None


class CalendarEventsCreate(BaseModel):
    calendar_id: Annotated[str, Field(min_length=1)]
    title: Annotated[str, Field(min_length=1, max_length=120, title="Event title")]
    start: datetime.datetime
    end: datetime.datetime
    time_zone: Annotated[str, Field(pattern=r"^[A-Za-z_]+(/[A-Za-z_]+)*$", examples=["Europe/Berlin"])] = "UTC"
    all_day: bool = False
    attendees: Annotated[list[Attendee], Field(max_length=200)] = []
    location: Union[Annotated[str, Field(max_length=200)], LinkLocation, None] = None
    recurrence: Optional[Annotated[Union[Daily, Weekly, Monthly], Field(discriminator="freq")]] = None
    reminder_minutes: Annotated[list[Annotated[int, Field(ge=0, le=40320)]], Field(max_length=5)] = []
    duration: Optional[datetime.timedelta] = Field(default=None, description="Alternative to end")
    visibility: Literal["public", "private", "confidential"] = "private"


# files.tree.sync: a recursive file tree.


class FileNode(BaseModel):
    """A file, or a directory with its children."""

    name: Annotated[str, Field(min_length=1, max_length=255, pattern=r"^[^/]+$")]
    kind: Literal["file", "directory"]
    size_bytes: Optional[Annotated[int, Field(ge=0)]] = None
    mode: Optional[Annotated[str, Field(pattern=r"^0[0-7]{3}$")]] = None
    modified_at: Optional[datetime.datetime] = None
    children: list[FileNode] = []


class FilesTreeSync(BaseModel):
    root: Annotated[str, Field(pattern=r"^/", description="Absolute path the tree is synced to")]
    tree: FileNode
    dry_run: bool = True
    on_conflict: Literal["skip", "overwrite", "rename"] = "skip"


# search.query: filters as a map of plain unions, and a tuple.


class PriceRange(BaseModel):
    min: Optional[Annotated[float, Field(ge=0)]] = None
    max: Optional[Annotated[float, Field(gt=0)]] = None


class SearchQuery(BaseModel):
    query: Annotated[str, Field(min_length=1, max_length=512)]
    filters: dict[str, Union[str, float, bool, list[str]]] = Field(
        default_factory=dict, description="Field name to required value"
    )
    price_range: Optional[PriceRange] = None
    near: Optional[
        tuple[Annotated[float, Field(ge=-90, le=90)], Annotated[float, Field(ge=-180, le=180)]]
    ] = Field(default=None, description="(latitude, longitude)")
    radius_km: Annotated[float, Field(gt=0, le=500)] = 10
    sort: Literal["relevance", "price_asc", "price_desc", "newest"] = "relevance"
    page: Annotated[int, Field(ge=1)] = 1
    page_size: Annotated[int, Field(ge=1, le=100)] = 20
    updated_since: Optional[datetime.datetime] = None
    source_ip: Optional[IPvAnyAddress] = Field(default=None, description="Caller address for geo ranking")


# payments.charge: a discriminated union of payment methods.


class Card(BaseModel):
    type: Literal["card"]
    token: Annotated[str, Field(pattern=r"^tok_[A-Za-z0-9]{16,}$")]
    exp_month: Annotated[int, Field(ge=1, le=12)]
    exp_year: Annotated[int, Field(ge=2024, le=2100)]
    cvc: Optional[SecretStr] = None


class SepaDebit(BaseModel):
    type: Literal["sepa_debit"]
    iban: Annotated[str, Field(pattern=r"^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$")]
    mandate_id: uuid.UUID


class Wallet(BaseModel):
    type: Literal["wallet"]
    provider: Literal["apple_pay", "google_pay"]
    token: Annotated[str, Field(min_length=1)]


class PaymentsCharge(BaseModel):
    model_config = ConfigDict(extra="forbid")

    amount: Money
    method: Annotated[Union[Card, SepaDebit, Wallet], Field(discriminator="type")]
    idempotency_key: uuid.UUID
    capture: bool = True
    statement_descriptor: Optional[Annotated[str, Field(max_length=22, pattern=r"^[A-Za-z0-9 .-]*$")]] = None
    callback_url: Optional[AnyUrl] = None
    metadata: dict[str, Union[Annotated[str, Field(max_length=500)], int, float]] = {}


# settings.set: a recursive JSON value.


class SettingsSet(BaseModel):
    scope: Literal["user", "workspace", "organization"]
    key: Annotated[str, Field(max_length=128, pattern=r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")]
    value: JsonValue
    expected_previous: Optional[JsonValue] = Field(
        default=None, description="Compare-and-set: fail unless the current value equals this"
    )
    ttl_seconds: Optional[Annotated[int, Field(gt=0, le=2592000)]] = None


# inventory.adjust: a union of an integer id and a string code, a const.


class Reason(str, enum.Enum):
    RECEIVED = "received"
    DAMAGED = "damaged"
    LOST = "lost"
    FOUND = "found"
    RETURNED = "returned"
    RECOUNT = "recount"


class Adjustment(BaseModel):
    sku: Sku
    delta: Annotated[int, Field(ge=-100000, le=100000)]
    reason: Reason
    lot: Optional[Annotated[str, Field(max_length=40)]] = None


class InventoryAdjust(BaseModel):
    warehouse: Union[Annotated[int, Field(gt=0)], Annotated[str, Field(pattern=r"^WH-[A-Z]{2}\d{2}$")]]
    mode: Literal["delta"] = "delta"
    adjustments: Annotated[list[Adjustment], Field(min_length=1, max_length=500)]
    counted_at: datetime.datetime
    weight_kg: Optional[Annotated[float, Field(ge=0, le=1000, multiple_of=0.001)]] = None
    operator: Annotated[str, Field(min_length=1, max_length=64, description="User name of the person counting")]
    legacy_batch: Optional[str] = Field(default=None, deprecated=True)


TOOLS = [
    ("orders.create", "Create an order for a customer.", OrdersCreate),
    ("tickets.update", "Update a support ticket and optionally add a comment.", TicketsUpdate),
    ("calendar.events.create", "Create a calendar event, optionally recurring.", CalendarEventsCreate),
    ("files.tree.sync", "Sync a file tree to a path.", FilesTreeSync),
    ("search.query", "Search the catalog with filters.", SearchQuery),
    ("payments.charge", "Charge a payment method.", PaymentsCharge),
    ("settings.set", "Set a configuration value.", SettingsSet),
    ("inventory.adjust", "Record stock adjustments for a warehouse.", InventoryAdjust),
]


def main() -> None:
    out = {
        "_meta": {
            "generator": "pydantic",
            "version": pydantic.VERSION,
            "pydanticCoreVersion": pydantic_core.__version__,
            "call": "Model.model_json_schema()",
        },
        "tools": [
            {"name": name, "description": description, "inputSchema": model.model_json_schema()}
            for name, description, model in TOOLS
        ],
    }
    json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
