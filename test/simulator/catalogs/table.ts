/**
 * One catalog's records, in insertion order, cheap at the vendor's scale (500 000 records):
 * lookup, insert, replace and delete by id cost O(log n), a page at any offset O(page · log n),
 * never O(catalog). Rows sit in an array of slots; a deleted row leaves an empty slot (compacted
 * away once they outnumber the rows), and a Fenwick tree over the slots counts the live rows, so
 * the k-th record is found without walking the rows before it.
 */

export type RecordFields = Record<string, string[]>;

export interface StoredRecord {
	id: string;
	fields: RecordFields;
}

interface Row extends StoredRecord {
	slot: number;
}

/** Live-row counts over slots, 1-based internally: add and select (k-th live slot) in O(log n). */
class LiveCounts {
	private readonly tree: Int32Array;
	private readonly top: number;

	constructor(
		readonly capacity: number,
		live: (slot: number) => boolean = () => false,
	) {
		this.tree = new Int32Array(capacity + 1);
		// Linear-time build: each node passes its sum to its parent.
		for (let i = 1; i <= capacity; i++) {
			if (live(i - 1)) this.tree[i] += 1;
			const parent = i + (i & -i);
			if (parent <= capacity) this.tree[parent] += this.tree[i];
		}
		let top = 1;
		while (top * 2 <= capacity) top *= 2;
		this.top = top;
	}

	add(slot: number, delta: number): number {
		let steps = 0;
		for (let i = slot + 1; i <= this.capacity; i += i & -i, steps++) this.tree[i] += delta;
		return steps;
	}

	/** The slot of the k-th live row (k from 1); the caller makes sure it exists. */
	select(k: number): { slot: number; steps: number } {
		let pos = 0;
		let steps = 0;
		for (let step = this.top; step > 0; step >>= 1, steps++) {
			const next = pos + step;
			if (next <= this.capacity && this.tree[next] < k) {
				pos = next;
				k -= this.tree[next];
			}
		}
		return { slot: pos, steps };
	}
}

const MIN_CAPACITY = 1024;
/** Empty slots stepped over one by one before a page jumps through the tree instead. */
const PROBE = 16;

export class RecordTable {
	private slots: Array<Row | null> = [];
	private readonly byId = new Map<string, Row>();
	private live = new LiveCounts(MIN_CAPACITY);
	private holes = 0;
	/**
	 * Rows visited and tree steps taken so far by `page`, for tests that check a page costs
	 * O(page · log n), not O(catalog).
	 */
	work = 0;

	get size(): number {
		return this.byId.size;
	}

	has(id: string): boolean {
		return this.byId.has(id);
	}

	get(id: string): StoredRecord | undefined {
		const row = this.byId.get(id);
		return row && { id: row.id, fields: row.fields };
	}

	/** Append a new record, or replace an existing one in place (it keeps its position). */
	put(id: string, fields: RecordFields): 'inserted' | 'replaced' {
		const existing = this.byId.get(id);
		if (existing) {
			existing.fields = fields;
			return 'replaced';
		}
		if (this.slots.length === this.live.capacity) this.rebuild(this.live.capacity * 2);
		const row: Row = { id, fields, slot: this.slots.length };
		this.slots.push(row);
		this.byId.set(id, row);
		this.live.add(row.slot, 1);
		return 'inserted';
	}

	/** `put` for many records at once: the counts are rebuilt once, in O(n), at the end. */
	putMany(records: Iterable<StoredRecord>): void {
		for (const { id, fields } of records) {
			const existing = this.byId.get(id);
			if (existing) {
				existing.fields = fields;
			} else {
				const row: Row = { id, fields, slot: this.slots.length };
				this.slots.push(row);
				this.byId.set(id, row);
			}
		}
		let capacity = this.live.capacity;
		while (capacity < this.slots.length + 1) capacity *= 2;
		this.rebuild(capacity);
	}

	delete(id: string): boolean {
		const row = this.byId.get(id);
		if (!row) return false;
		this.byId.delete(id);
		this.slots[row.slot] = null;
		this.live.add(row.slot, -1);
		this.holes++;
		// Amortised O(1): compaction walks every slot, but only after as many deletions.
		if (this.holes > MIN_CAPACITY && this.holes > this.byId.size) this.compact();
		return true;
	}

	clear(): void {
		this.slots = [];
		this.byId.clear();
		this.live = new LiveCounts(MIN_CAPACITY);
		this.holes = 0;
	}

	/** Up to `limit` records from position `offset` (0-based), in insertion order. */
	page(offset: number, limit: number): StoredRecord[] {
		const out: StoredRecord[] = [];
		const end = Math.min(this.size, offset + limit);
		let slot = -1;
		for (let rank = offset; rank < end; rank++) {
			slot = rank === offset ? this.seek(rank) : this.next(slot + 1, rank);
			this.work++;
			const row = this.slots[slot]!;
			out.push({ id: row.id, fields: row.fields });
		}
		return out;
	}

	/** The slot of the row at position `rank` (0-based), through the tree. */
	private seek(rank: number): number {
		const found = this.live.select(rank + 1);
		this.work += found.steps;
		return found.slot;
	}

	/** The first live slot from `slot` on (the row at `rank`): a few steps forward, else the tree. */
	private next(slot: number, rank: number): number {
		for (let probe = 0; probe < PROBE; probe++, slot++, this.work++) {
			if (this.slots[slot]) return slot;
		}
		return this.seek(rank);
	}

	/** Every record id, in order. */
	ids(): string[] {
		const ids: string[] = [];
		for (const row of this.slots) if (row) ids.push(row.id);
		return ids;
	}

	/** Every record, in order. */
	*[Symbol.iterator](): IterableIterator<StoredRecord> {
		for (const row of this.slots) if (row) yield { id: row.id, fields: row.fields };
	}

	private compact(): void {
		const rows = this.slots.filter((row): row is Row => row !== null);
		rows.forEach((row, slot) => (row.slot = slot));
		this.slots = rows;
		this.holes = 0;
		this.rebuild(Math.max(MIN_CAPACITY, this.slots.length * 2));
	}

	private rebuild(capacity: number): void {
		this.live = new LiveCounts(capacity, (slot) => (this.slots[slot] ?? null) !== null);
	}
}
